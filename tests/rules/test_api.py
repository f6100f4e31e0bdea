"""The Python API as python-chess users expect it (issue 10): squares by name, Move texts."""

from __future__ import annotations

import pytest

import emergo
from emergo import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
    Move,
    MoveKind,
)

CAPTURE_2 = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"  # seeds/004 after fe4


def test_r1_square_names_in_and_out() -> None:
    assert emergo.square("e5") == emergo.square("E5") == 60
    assert emergo.square_name(60) == "e5"
    assert emergo.square("a1", names="checker") == emergo.square("e1")  # R3
    assert emergo.square_name(emergo.square("e1"), names="checker") == "a1"
    assert emergo.square_name(emergo.square("a4", "7x7"), "7x7") == "a4"


@pytest.mark.parametrize("name", ["z9", " e5 ", "", "e", "e55", "a1", "e٥", "ｅ5", "e5\n"])
def test_r1_bad_square_names_raise_with_a_message(name: str) -> None:
    with pytest.raises(InvalidSquareError, match="is not a square of the 9x9 board"):
        emergo.square(name)


@pytest.mark.parametrize("sq", [-1, 0, 121, 1000, 12])
def test_r1_off_board_ints_raise(sq: int) -> None:
    with pytest.raises(InvalidSquareError, match="not a square"):
        emergo.square_name(sq)
    with pytest.raises(InvalidSquareError, match="not a square"):
        Board().stack(sq)


def test_board_takes_square_names_wherever_it_takes_squares() -> None:
    board = Board(CAPTURE_2)
    assert board.stack("e4") == board.stack(emergo.square("e4")) == emergo.Stack(True, 4, 0)
    assert board.stack("E4") == board.stack("e4")
    assert board.stack("e6") is None  # vacant on the board: None, as before
    with pytest.raises(InvalidSquareError, match="'z9' is not a square"):
        board.stack("z9")
    with pytest.raises(TypeError, match="int or a name"):
        board.stack(4.0)  # type: ignore[arg-type]


def test_peek_on_an_empty_stack_says_so() -> None:
    board = Board()
    with pytest.raises(IndexError, match="empty move stack"):
        board.peek()
    with pytest.raises(IndexError, match="empty move stack"):
        board.pop()
    board.push_move("d4")
    assert str(board.peek()) == "d4"


def test_a_move_text_where_a_move_is_expected_names_the_method() -> None:
    board = Board()
    with pytest.raises(TypeError, match=r"push_move\('d5'\)"):
        board.push("d5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"parse_move\('d5'\)"):
        board.is_legal("d5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_move"):
        board.explain("d5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_move"):
        board.move_text("d5")  # type: ignore[arg-type]
    assert board.position() == "w 12/12"


def test_a_move_text_in_legal_moves_is_a_type_error() -> None:
    """Decision: ``"d4" in board.legal_moves`` never answers a silent False."""
    board = Board()
    with pytest.raises(TypeError, match="parse_move"):
        assert "d4" in board.legal_moves
    assert board.parse_move("d4") in board.legal_moves
    assert Move.from_text("e5") not in board.legal_moves  # R16
    assert None not in board.legal_moves


@pytest.mark.parametrize(
    ("text", "kind", "path", "entered", "captured"),
    [
        ("d4", MoveKind.ENTER, ("d4",), 1, 0),
        (" E4-E5 ", MoveKind.STEP, ("e4", "e5"), 0, 0),
        ("h4xf4xd4", MoveKind.CAPTURE, ("h4", "f4", "d4"), 0, 2),
        ("e4xc4xc6xe6xe4xc4", MoveKind.CAPTURE, ("e4", "c4", "c6", "e6", "e4", "c4"), 0, 5),
    ],
)
def test_r21_move_from_canonical_text(
    text: str, kind: MoveKind, path: tuple[str, ...], entered: int, captured: int
) -> None:
    move = Move.from_text(text)
    assert move == Move(kind, tuple(emergo.square(n) for n in path), entered, captured)
    assert str(move) == text.strip().lower()


def test_r21_move_from_text_is_syntax_only() -> None:
    board = Board(CAPTURE_2)
    move = Move.from_text("h4xf4xd4")
    assert board.is_legal(move) and board.parse_move("hd4x") == move
    assert not board.is_legal(Move.from_text("e5-f5"))  # well formed, illegal (R8)
    with pytest.raises(IllegalMoveError, match="must capture"):
        board.push(Move.from_text("e5-f5"))
    assert Move.from_text("d4", men=5) == Move.enter(emergo.square("d4"), 5)  # R14
    assert Move.from_text("a1", names="checker") == Move.from_text("e1")  # R3
    assert Move.from_text("a4", "7x7").path == (emergo.square("a4", "7x7"),)


@pytest.mark.parametrize(
    "text", ["", "hd4x", "h4-f4-d4", "e4-e5xe6", "e4x", "z9", "a1", "e4 e5", "d4!", "x" * 10000]
)
def test_r21_move_from_text_takes_only_canonical_text(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_text(text)


def test_move_from_text_men_is_for_entries() -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_text("e4-e5", men=2)
    with pytest.raises(InvalidMoveError):
        Move.from_text("d4", men=0)


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move.from_text("d4"), "Move.from_text('d4')"),
        (Move.from_text("d4", men=5), "Move.from_text('d4', men=5)"),
        (Move.from_text("h4xf4xd4"), "Move.from_text('h4xf4xd4')"),
        (Move.from_text("e4-e5"), "Move.from_text('e4-e5')"),
        (Move.from_text("a4-b4", "7x7"), "Move.from_text('a4-b4', variant='7x7')"),
    ],
)
def test_move_repr_is_readable_and_evaluates_back(move: Move, text: str) -> None:
    assert repr(move) == text
    assert eval(text, {"Move": Move}) == move


def test_move_repr_of_odd_fields_shows_the_fields() -> None:
    odd = Move(MoveKind.CAPTURE, (48, 50), 0, 7)  # a captured count no text gives
    assert repr(odd).startswith("Move(kind=<MoveKind.CAPTURE: 'capture'>, path=(48, 50)")
    assert repr(Move(MoveKind.STEP, (-5, 500))).startswith("Move(kind=")


def test_legal_moves_have_readable_reprs() -> None:
    board = Board(CAPTURE_2)
    assert repr(board.moves()) == "[Move.from_text('h4xf4xd4')]"


def test_unknown_names_and_variants_are_option_errors() -> None:
    from emergo import InvalidOptionError

    board = Board(CAPTURE_2)
    move = board.parse_move("hd4x")
    for call in (
        lambda: board.parse_move("e4-e5", names="foo"),  # type: ignore[arg-type]
        lambda: board.push_move("d4", names="Checker"),  # type: ignore[arg-type]
        lambda: board.move_text(move, names="foo"),  # type: ignore[arg-type]
        lambda: board.explain(move, names="foo"),  # type: ignore[arg-type]
        lambda: emergo.square("e5", names="foo"),  # type: ignore[arg-type]
        lambda: emergo.square_name(60, names="foo"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidOptionError, match="oblique, checker"):
            call()
    for call in (
        lambda: Board(variant="8x8"),
        lambda: emergo.square("e5", "8x8"),
        lambda: emergo.square_name(60, "8x8"),
        lambda: emergo.geometry("8x8"),
        lambda: emergo.Move.from_text("d4", "8x8"),
    ):
        with pytest.raises(InvalidOptionError, match="9x9, 7x7"):
            call()
    assert issubclass(InvalidOptionError, ValueError)


def test_pictures_check_their_options_like_the_rest() -> None:
    from emergo import InvalidOptionError
    from emergo.diagram import diagram
    from emergo.svg import board_svg

    board = Board()
    with pytest.raises(InvalidOptionError, match="oblique, checker"):
        board_svg(board, names="upright")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="oblique, checker"):
        diagram(board, names="upright")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="unknown view"):
        board_svg(board, view="hex")  # type: ignore[arg-type]
    with pytest.raises(InvalidSquareError, match="not a square"):
        board_svg(board, squares=["z9"])
