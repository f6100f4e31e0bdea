"""Tests of emergo.diagram: the terminal picture of a position in both views (R1, R3, R6)."""

from __future__ import annotations

import re

import pytest

from emergo import Board, Move, Stack, square
from emergo.diagram import VIEWS, View, diagram, stack_text
from emergo.geometry import LETTERS, Names

P1 = "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b"
P2 = "b 0/5 c3:wb2 e5:w f5:w7 g4:b2w h6:w2b3"
P7 = "7x7 b 4/4 c3:w d4:b2w e5:w2b"
CROSSINGS = set("┼┬┴├┤┐┌┘└╶╴╵╷")


def coordinate_grid(text: str, n: int) -> tuple[dict[str, int], dict[int, str]]:
    """The column of each letter (from the header) and the text line of each row label."""
    lines = text.splitlines()
    header = next(line for line in lines if sorted(line.split()) == list(LETTERS[:n]))
    columns = {letter: header.index(letter) for letter in LETTERS[:n]}
    rows = {}
    for line in lines:
        words = line.split()
        if len(words) >= 2 and words[0].isdigit() and words[-1] == words[0]:
            rows[int(words[0])] = line
    return columns, rows


def covers(line: str, token: str, column: int) -> bool:
    """Whether ``token`` is written across ``column`` of ``line``."""
    start = line.find(token)
    while start >= 0:
        if start <= column < start + len(token):
            return True
        start = line.find(token, start + 1)
    return False


def test_r6_stack_text() -> None:
    assert stack_text(Stack(True, 1, 0)) == "W"
    assert stack_text(Stack(True, 3, 0)) == "W3"
    assert stack_text(Stack(True, 3, 2)) == "W3/2"
    assert stack_text(Stack(False, 1, 1)) == "B1/1"
    assert stack_text(Stack(False, 12, 11)) == "B12/11"


@pytest.mark.parametrize("position", [P1, P2, P7, "w 0/0 d4:w2b4 d5:b3w3 e4:b2w3 e5:w3b2 f5:b"])
def test_r1_diamond_every_piece_at_its_crossing(position: str) -> None:
    board = Board(position)
    n = board.geometry.size
    columns, rows = coordinate_grid(diagram(board), n)
    assert sorted(rows) == list(range(1, n + 1))
    for sq, st in board.stacks().items():
        u, v = board.geometry.uv(sq)
        assert covers(rows[v], stack_text(st), columns[LETTERS[u - 1]]), sq


@pytest.mark.parametrize("position", [P1, P2, P7])
def test_r3_checker_every_piece_on_its_dark_square(position: str) -> None:
    board = Board(position)
    n = board.geometry.size
    columns, rows = coordinate_grid(diagram(board, view="checker"), n)
    for sq, st in board.stacks().items():
        f, r = board.geometry.checker_coordinates(sq)
        assert covers(rows[r], stack_text(st), columns[LETTERS[f - 1]]), sq


def test_r1_diamond_orientation() -> None:
    # e1 is the bottom crossing, e9 the top, a5 the left end of the 5-line, i5 the right.
    text = diagram(Board("w 8/8 a5:w e1:w e9:b i5:b"))
    columns, rows = coordinate_grid(text, 9)
    assert covers(rows[1], "W", columns["e"]) and covers(rows[9], "B", columns["e"])
    assert covers(rows[5], "W", columns["a"]) and covers(rows[5], "B", columns["i"])
    lines = text.splitlines()
    assert lines.index(rows[9]) < lines.index(rows[1])


def test_r1_empty_squares_are_line_crossings() -> None:
    for variant, count in (("9x9", 41), ("7x7", 25)):
        text = diagram(Board(variant=variant))
        assert sum(ch in CROSSINGS for ch in text) == count
    assert diagram(Board(), unicode=False).count("+") == 41
    assert diagram(Board(), view="checker").count("·") == 41


@pytest.mark.parametrize("view", VIEWS)
def test_r5_r7_hands_and_side_to_move(view: View) -> None:
    text = diagram(Board(P2), view=view)
    assert "Black (B): 5 in hand" in text
    assert "White (W): 0 in hand" in text
    assert "Black to move" in text and "White to move" not in text
    lines = text.splitlines()
    assert lines[0].startswith("Black") and lines.index(next(x for x in lines if "White" in x)) > 5


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("variant", ["9x9", "7x7"])
def test_coordinates_on_both_axes(view: View, variant: str) -> None:
    board = Board(variant=variant)
    n = board.geometry.size
    lines = diagram(board, view=view).splitlines()
    letters = [line for line in lines if line.split() == list(LETTERS[:n])]
    assert len(letters) == 2  # above and below
    rows = coordinate_grid("\n".join(lines), n)[1]
    assert sorted(rows) == list(range(1, n + 1))  # left and right of every row


@pytest.mark.parametrize("view", VIEWS)
def test_other_namings_label_every_line(view: View) -> None:
    other: Names = "checker" if view == "diamond" else "oblique"
    text = diagram(Board(P1), view=view, names=other)
    words = set(text.split())
    assert set(LETTERS) <= words
    assert {str(i) for i in range(1, 10)} <= words


def test_last_move_path_is_marked() -> None:
    board = Board(P1)
    assert "[" not in diagram(board) and "Last move" not in diagram(board)
    board.push_move("e4xc4xc6xe6xe4xc4")
    for view in VIEWS:
        text = diagram(board, view=view)
        assert text.count("[") == 4  # e4, c4, c6 and e6, each marked once (R10, R12)
        assert "[W3/5]" in text
    assert "Last move: e4xc4xc6xe6xe4xc4 (White)" in diagram(board)
    assert "Last move: d4xb6xd8xf6xd4xb6 (White)" in diagram(board, names="checker")
    assert "[" not in diagram(board, lastmove=False)


def test_last_move_entry_and_explicit_move() -> None:
    board = Board()
    board.push_move("d4")
    assert "[W]" in diagram(board)
    assert "Last move: d4 (White)" in diagram(board)
    explicit = diagram(Board("b 11/12 d4:w"), lastmove=Move.enter(square("d4")))
    assert "[W]" in explicit and "Last move: d4" in explicit


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("names", ["oblique", "checker"])
def test_ascii_fallback(view: View, names: Names) -> None:
    board = Board(P1)
    board.push_move("e4xc4xc6xe6xe4xc4")
    text = diagram(board, view=view, names=names, unicode=False)
    assert text.isascii()
    assert "W3/5" in text and "W2" in text
    assert "<- Black to move" in text


def test_legend_reads_out_an_example() -> None:
    assert "Key: B2/2 = 2 Black men on top of 2 White prisoners" in diagram(Board(P1))
    assert "Key: W3 = 3 White men" in diagram(Board("w 0/0 e4:w3 e6:b"))
    assert "Key" not in diagram(Board())


def test_flipped_puts_black_at_the_bottom() -> None:
    text = diagram(Board(P2), flipped=True)
    lines = text.splitlines()
    assert lines[0].startswith("White")
    columns, rows = coordinate_grid(text, 9)
    assert lines.index(rows[1]) < lines.index(rows[9])
    assert columns["i"] < columns["a"]
    board = Board(P2)
    for sq, st in board.stacks().items():
        u, v = board.geometry.uv(sq)
        assert covers(rows[v], stack_text(st), columns[LETTERS[u - 1]])


def test_str_board_is_the_diagram() -> None:
    board = Board(P2)
    assert str(board) == diagram(board)


def test_deterministic_and_no_trailing_spaces() -> None:
    board = Board(P2)
    text = diagram(board, view="checker")
    assert text == diagram(board.copy(), view="checker")
    assert all(line == line.rstrip() for line in text.splitlines())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"view": "hex"}, "unknown view"),
        ({"names": "algebraic"}, "unknown naming"),
        ({"lastmove": "d4"}, "lastmove must be"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        diagram(Board(), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("view", VIEWS)
def test_colour_paints_pieces_and_lines_and_changes_nothing_else(view: View) -> None:
    board = Board(P2)
    plain = diagram(board, view=view)
    painted = diagram(board, view=view, colour=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain
    assert "\x1b[1;7mW7\x1b[0m" in painted and "\x1b[1;31mB2/1\x1b[0m" in painted
    assert "\x1b[" not in painted.splitlines()[0]  # the players' lines stay plain
    assert "\x1b[" not in diagram(board, view=view)


def test_cell_is_the_least_width_of_a_square() -> None:
    board = Board(P1)
    narrow, wide = diagram(board), diagram(board, cell=7)
    width = max(len(line) for line in narrow.splitlines())
    assert max(len(line) for line in wide.splitlines()) > width
    assert diagram(board, cell=3) == narrow  # never narrower than the pieces need


@pytest.mark.parametrize("flipped", [False, True])
def test_r3_checker_names_on_the_diamond_say_where_they_are(flipped: bool) -> None:
    text = diagram(Board(P1), names="checker", flipped=flipped)
    lines = text.splitlines()
    edge = "upper left" if flipped else "lower right"
    assert f"Checker names (R3): files a-i along the {edge} edge" in text
    board_rows = lines[2 : lines.index(next(x for x in lines if x.startswith("Checker"))) - 1]
    assert all(row.strip() for row in board_rows)  # no blank rows where no labels are
