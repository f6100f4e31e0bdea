"""Position strings (R22) and move texts (R21): canonical output, forgiving input, clear errors."""

from __future__ import annotations

import pytest

from emergo import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)

CAPTURE_2 = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"  # seeds/004 after fe4
CAPTURE_3 = "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b"  # seeds/004 after hd4x


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("w 12/12", "w 12/12"),
        ("9x9 w 12/12", "w 12/12"),
        ("7x7 w 8/8", "7x7 w 8/8"),
        ("b 11/12 d4:w", "b 11/12 d4:w"),
        ("w 0/0 e4:w3 d4:b2w2 c5:b", "w 0/0 c5:b d4:b2w2 e4:w3"),
        ("w  0/0   d4:w1b1w1", None),
        ("w 0/0 d4:bbwww", "w 0/0 d4:b2w3"),
        ("w 0/0 d4:b1w1", "w 0/0 d4:bw"),
    ],
)
def test_r22_parse_and_canonical_output(text: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(InvalidPositionError):
            Board(text)
    else:
        assert Board(text).position() == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("x 12/12", "side to move"),
        ("w 12-12", "hands"),
        ("w 12/12 z9:w", "'z9' is not a square"),
        ("w 12/12 a1:w", "'a1' is not a square"),
        ("w 11/12 d4:w d4:b", "listed twice"),
        ("w 0/0 d4", "square:stack"),
        ("w 0/0 d4:q", "bad stack"),
        ("w 0/0 d4:wbw", "R6"),
        ("w 12/12 d4:w", "White has 13 men"),
        ("w 0/0 d4:w0", "at least 1"),
        ("hex w 12/12 a5:w", "'a5' is not a square of the hex board"),
        ("hex w 12/12 d4:w", "hex has 12 each"),
        ("8x8 w 12/12", "side to move"),
        ("w", "needs a side to move and hands"),
    ],
)
def test_r22_errors_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError, match=fragment):
        Board(text)


def test_r22_variant_prefix_conflict() -> None:
    with pytest.raises(InvalidPositionError, match="7x7"):
        Board("7x7 w 8/8", variant="9x9")
    assert Board("w 8/8", variant="7x7").position() == "7x7 w 8/8"


def test_failed_set_position_leaves_board_unchanged() -> None:
    board = Board("b 11/12 d4:w")
    with pytest.raises(InvalidPositionError):
        board.set_position("w 0/0 d4:wbw")
    assert board.position() == "b 11/12 d4:w"


@pytest.mark.parametrize(
    ("position", "text", "canonical"),
    [
        ("w 12/12", "d4", "d4"),
        ("w 12/12", " D4 ", "d4"),
        ("w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2", "fe4", "f4-e4"),  # seeds/000
        ("w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2", "F4 - E4", "f4-e4"),
        ("w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2", "f4e4", "f4-e4"),
        ("w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2", "g45", "g4-g5"),
        (CAPTURE_2, "hd4x", "h4xf4xd4"),
        (CAPTURE_2, "h4xd4", "h4xf4xd4"),
        (CAPTURE_2, "h4-f4-d4", "h4xf4xd4"),
        (CAPTURE_2, "H4 x F4 x D4", "h4xf4xd4"),
        (CAPTURE_2, "h4:f4:d4", "h4xf4xd4"),
        (CAPTURE_3, "e4xc4xc6xe6xe4xc4", "e4xc4xc6xe6xe4xc4"),
        (CAPTURE_3, "e4-c4-c6-e6-e4-c4", "e4xc4xc6xe6xe4xc4"),
        (CAPTURE_3, "ec4x", "e4xc4xc6xe6xe4xc4"),
        (CAPTURE_3, "e4x", "e4xc4xc6xe6xe4xc4"),
        ("w 12/12", "d4!", "d4"),
    ],
)
def test_r21_parser_accepts_what_players_write(position: str, text: str, canonical: str) -> None:
    board = Board(position)
    assert board.move_text(board.parse_move(text)) == canonical


def test_r21_ambiguous_lists_candidates() -> None:
    board = Board("w 0/0 d5:b e5:w f5:b")
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("e5x")
    assert info.value.candidates == ("e5xc5", "e5xg5")
    assert "e5xc5" in str(info.value) and "e5xg5" in str(info.value)


@pytest.mark.parametrize("text", ["", "   ", "zz", "d0", "d4?x!z", "j", "-", "j5"])
def test_r21_invalid_texts(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Board().parse_move(text)


def test_r21_square_not_on_board_is_invalid() -> None:
    with pytest.raises(InvalidMoveError, match="a1 is not a square"):
        Board().parse_move("a1")


@pytest.mark.parametrize(
    ("position", "text", "message"),
    [
        (CAPTURE_2, "e5-f5", "you must capture: h4xf4xd4 takes 2 men (R8, R11)"),
        ("b 11/12 d4:w", "d5", "d5 would let White capture and you are not under attack (R15)"),
        ("w 12/12", "e5", "White may not enter on e5 on the first move (R16)"),
        (CAPTURE_3, "e4xc4", "e4xc4 takes 1 man but e4xc4xc6xe6xe4xc4 takes 5 men (R11)"),
        (CAPTURE_3, "e4xe6xc6xc4xe4", "takes 4 men but e4xc4xc6xe6xe4xc4 takes 5 men (R11)"),
        (CAPTURE_2, "e5xe3", "e5xe3 takes 1 man but h4xf4xd4 takes 2 men (R11)"),
        ("b 11/12 d4:w", "d4", "d4 is occupied (R13)"),
        ("b 11/12 d4:w", "d4-d5", "must enter"),
        ("w 0/0 a5:w i5:b", "d4", "must step"),
        ("w 0/0 a5:w i5:b", "i5-h5", "i5 holds no White piece"),
        ("w 0/0 a5:w i5:b", "a5xc5", "does not jump a Black piece on b5 (R9)"),
        ("w 0/0 a5:w b5:b i5:b", "a5-b5", "you must capture"),
        ("w 0/0 a5:w c5:b i5:b", "a5-b5xc5", "not a jump"),
        ("w 1/0 a5:b10 e1:w e2:b2 e9:w10", "e1xe3xe1", "turns straight back"),
        ("w 0/0 b4:w b5:b b6:b i5:b", "b4-b5", "b5 is occupied (R17)"),
        ("w 0/0 b4:w i5:b", "b4-c5", "not a step to an adjacent square (R17)"),
        ("w 0/0 b4:w i5:b", "b4xc5", "not a jump along a line over one square (R9)"),
        ("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b", "e4xc6xc4", "not a jump along a line"),
    ],
)
def test_illegal_moves_explained(position: str, text: str, message: str) -> None:
    board = Board(position)
    with pytest.raises(IllegalMoveError) as info:
        board.parse_move(text)
    assert message in str(info.value)
    assert board.position() == position


def test_game_over_explained() -> None:
    with pytest.raises(IllegalMoveError, match=r"game is over.*R18"):
        Board("w 0/4 d4:w5b3 f6:w7b5").parse_move("d5")


def test_r3_checker_names_in_and_out() -> None:
    board = Board(CAPTURE_2)
    move = board.parse_move("h4xf4xd4")
    checker = board.move_text(move, "checker")
    assert checker == "g1xe3xc5"
    assert board.parse_move(checker, "checker") == move
    assert board.move_text(Board().parse_move("a1", "checker")) == "e1"


def test_str_of_move_is_canonical() -> None:
    board = Board(CAPTURE_3)
    assert [str(m) for m in board.legal_moves] == ["e4xc4xc6xe6xe4xc4"]


# --- issue 10: every parser refuses absurd input early, clearly and in linear time ------------


def test_r21_long_move_text_is_refused_early() -> None:
    from emergo.notation import MAX_MOVE_TEXT

    board = Board()
    for text in ("!" * 40000 + "a", "a" * 40000, "x" * 40000, "h4x" * 20000):
        with pytest.raises(InvalidMoveError, match="too long") as info:
            board.parse_move(text)
        assert len(str(info.value)) < 300  # the message shows an excerpt, not the text
    # The bound is above any real capture route, however spelled out (R11: 12 jumps at most).
    assert len(" x ".join(["e4"] * 13) + " !?") <= MAX_MOVE_TEXT


def test_r21_annotations_are_stripped_in_linear_time() -> None:
    board = Board()
    assert str(board.parse_move("d4!?")) == "d4"
    with pytest.raises(InvalidMoveError):
        board.parse_move("!" * 90 + "a")  # within the bound: read, and refused as no move


@pytest.mark.parametrize("text", ["d٤", "٤", "ｄ4", "d4\u0301", "e4-e５"])
def test_r21_only_ascii_names_squares(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Board().parse_move(text)


@pytest.mark.parametrize(
    "text",
    ["w ١٢/١٢", "w 12/1٢", "w 0/0 d4:w٢", "w 0/0 d٤:w", "w ０/0"],
)
def test_r22_only_ascii_digits_are_counts(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Board(text)


@pytest.mark.parametrize(
    "text",
    [
        "w " + "1" * 5000 + "/12",
        "w 12/" + "9" * 4400,
        "w 12/12 d4:w" + "1" * 4400,
        "w 0/0 d4:b" + "7" * 900 + "w",
    ],
)
def test_r22_huge_counts_are_position_errors(text: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Board(text)
    assert len(str(info.value)) < 300


def test_r22_long_position_is_refused_early() -> None:
    from emergo.notation import MAX_POSITION_TEXT

    with pytest.raises(InvalidPositionError, match="too long"):
        Board("w 12/12 " + "d4:w " * 5000)
    # Leading zeros and spelled-out stacks still read, within the bound.
    assert Board("w 0012/12").position() == "w 12/12"
    longest = "b 0/0 " + " ".join(f"{sq}:bbbw" for sq in ("a5", "b4", "b5", "b6"))
    assert len(longest) < MAX_POSITION_TEXT
    assert Board(longest).position().startswith("b 0/0 a5:b3w")
