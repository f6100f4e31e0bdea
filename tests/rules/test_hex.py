"""HexEmergo (docs/rules.md R4 ``hex``): the board as data; R5-R22 unchanged on six directions."""

from __future__ import annotations

import io
import itertools
import random

import pytest

from emergo import Board, MoveKind, NamingError, Termination, square
from emergo.diagram import diagram
from emergo.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)
from emergo.geometry import STRIDE, VARIANTS, geometry
from emergo.record import Game, read_game, write_game
from emergo.search import Limit
from emergo.svg import board_svg

HEX = geometry("hex")


def names(squares: object) -> list[str]:
    return sorted(HEX.square_name(sq) for sq in squares)  # type: ignore[attr-defined]


def legal(board: Board) -> list[str]:
    return sorted(board.move_text(m) for m in board.legal_moves)


# --- R4: the board ------------------------------------------------------------------------------


def test_r4_hex_is_a_variant() -> None:
    assert "hex" in VARIANTS
    assert HEX.men == 12 and HEX.size == 7 and HEX.shape == "hexagon"


def test_r4_hex_cells_rows_and_centre() -> None:
    assert len(HEX.squares) == 37
    rows = [[HEX.square_name(sq) for sq in HEX.squares if HEX.uv(sq)[0] == u] for u in range(1, 8)]
    assert [len(row) for row in rows] == [4, 5, 6, 7, 6, 5, 4]
    assert rows[0] == ["a1", "a2", "a3", "a4"]
    assert rows[3] == ["d1", "d2", "d3", "d4", "d5", "d6", "d7"]
    assert rows[6] == ["g4", "g5", "g6", "g7"]
    for u in range(1, 8):
        for v in range(1, 8):
            assert ((u * STRIDE + v) in HEX) == (abs(u - v) <= 3)
    assert HEX.square_name(HEX.centre) == "d4"
    assert square("d4", "hex") == 4 * STRIDE + 4  # the square-grid int encoding is kept


def test_r4_hex_six_directions_in_opposite_pairs() -> None:
    assert sorted(HEX.directions) == sorted([1, -1, STRIDE, -STRIDE, STRIDE + 1, -STRIDE - 1])
    for d, o in enumerate(HEX.directions):
        assert HEX.directions[d ^ 1] == -o
    assert names(HEX.neighbours[square("d4", "hex")]) == ["c3", "c4", "d3", "d5", "e4", "e5"]
    # Corners have three neighbours, the other edge cells four.
    counts = sorted(len(HEX.neighbours[sq]) for sq in HEX.squares)
    assert counts.count(3) == 6 and counts.count(4) == 12 and counts.count(6) == 19
    assert names(HEX.neighbours[square("a1", "hex")]) == ["a2", "b1", "b2"]
    # (1, -1) is not a direction: c4 and d3 are not adjacent.
    assert square("d3", "hex") not in HEX.neighbours[square("c4", "hex")]


def test_r4_hex_lines_and_jumps_stay_on_their_line() -> None:
    assert len(HEX.lines) == 21  # seven rows, seven digit lines, seven (+1, +1) lines
    for line in HEX.lines:
        steps = {b - a for a, b in itertools.pairwise(line)}
        assert len(steps) <= 1 and steps <= set(HEX.directions)
    for sq in HEX.squares:
        for d, over, land in HEX.jumps[sq]:
            o = HEX.directions[d]
            assert (over, land) == (sq + o, sq + 2 * o)
            assert over in HEX and land in HEX
            assert HEX.between(sq, land) == over


def test_r4_hex_start_position_string() -> None:
    board = Board(variant="hex")
    assert board.position() == "hex w 12/12"
    assert Board("hex w 12/12").variant == "hex"
    assert Board("w 12/12", variant="hex").position() == "hex w 12/12"
    with pytest.raises(InvalidPositionError, match="position is for hex"):
        Board("hex w 12/12", variant="9x9")


# --- R8-R17 on six directions -------------------------------------------------------------------


def test_r16_hex_centre_ban_on_d4() -> None:
    board = Board(variant="hex")
    moves = legal(board)
    assert len(moves) == 36 and "d4" not in moves
    with pytest.raises(IllegalMoveError, match="White may not enter on d4 on the first move"):
        board.push_move("d4")
    board.push_move("a1")
    assert "d4" in legal(board)  # only White's very first move


def test_r15_hex_entering_restriction_on_all_six_lines() -> None:
    # After White's c3, every neighbour of c3 has a vacant cell beyond it: all six are fed.
    board = Board("hex b 11/12 c3:w")
    moves = legal(board)
    assert len(moves) == 37 - 1 - 6
    for fed in ("c2", "c4", "b3", "d3", "b2", "d4"):
        assert fed not in moves
    # At the edge an entry beyond which the board ends is allowed.
    board = Board("hex b 11/12 b2:w")
    moves = legal(board)
    assert len(moves) == 36 - 3
    assert {"a1", "a2", "b1"} <= set(moves)
    assert not {"b3", "c2", "c3"} & set(moves)
    with pytest.raises(IllegalMoveError, match="R15"):
        board.push_move("c3")


def test_r9_hex_jump_along_the_third_line() -> None:
    assert legal(Board("hex w 0/0 c3:w d4:b")) == ["c3xe5"]
    # c4 and d3 are not on one line: no capture, c4 steps in six directions (R17).
    board = Board("hex w 0/0 c4:w d3:b")
    assert legal(board) == ["c4-b3", "c4-b4", "c4-c3", "c4-c5", "c4-d4", "c4-d5"]
    assert all(m.kind is MoveKind.STEP for m in board.legal_moves)


def test_r10_hex_turns_of_60_and_120_degrees_but_not_back() -> None:
    assert legal(Board("hex w 0/0 a1:w b2:b2")) == ["a1xc3"]  # c3xa1 would go straight back
    assert legal(Board("hex w 0/0 a1:w b2:b d3:b")) == ["a1xc3xe3"]  # 60 degrees
    assert legal(Board("hex w 0/0 a1:w b2:b c2:b")) == ["a1xc3xc1"]  # 120 degrees
    board = Board("hex w 0/0 a1:w b2:b2")
    with pytest.raises(IllegalMoveError, match="R10"):
        board.push_move("a1xc3xa1")


def test_r11_hex_majority_over_all_routes() -> None:
    board = Board("hex w 0/0 a1:w b2:b d3:b g7:w f6:b")
    assert legal(board) == ["a1xc3xe3"]  # two men, not g7xe5's one
    with pytest.raises(IllegalMoveError, match="R11"):
        board.push_move("g7xe5")


def test_r14_hex_shadowpiece() -> None:
    board = Board("hex b 0/4 d4:w12 g7:b8")
    assert board.entry_size() == 4
    move = board.push_move("a1")
    assert move.entered == 4
    stack = board.stack(square("a1", "hex"))
    assert stack is not None and stack.caps == 4 and board.hand(False) == 0


def test_r18_r19_hex_outcomes() -> None:
    board = Board("hex w 0/0 a1:w b2:b")
    board.push_move("a1xc3")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.NO_PIECES
    assert outcome.winner is True and board.result() == "1-0"
    # R19a: a1's three neighbours are Black, each with a Black piece beyond: blocked, a draw.
    board = Board("hex w 0/6 a1:w a2:b a3:b b1:b b2:b c1:b c3:b")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.BLOCKED
    assert board.result() == "1/2-1/2"
    # R19b: the third occurrence.
    board = Board("hex w 0/0 a1:w g7:b")
    for _ in range(2):
        for text in ("a1-a2", "g7-g6", "a2-a1", "g6-g7"):
            assert board.outcome() is None
            board.push_move(text)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


# --- R21, R22: notation -------------------------------------------------------------------------


def test_r21_hex_move_texts_and_abbreviations() -> None:
    board = Board("hex w 0/0 a1:w b2:b d3:b g7:w")
    assert board.parse_move("a1xe3") == board.parse_move("a1xc3xe3")  # start and end only
    assert board.parse_move("A1-C3-E3") == board.parse_move("a1xc3xe3")
    assert board.parse_move("a1x") == board.parse_move("a1xc3xe3")
    board = Board("hex w 0/0 c4:w g7:b")
    assert board.move_text(board.parse_move("cd4")) == "c4-d4"  # old style: from the c line
    # Digit line 5 meets c4's neighbours twice on the hexagon: c5 and, along (+1, +1), d5.
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("c45")
    assert info.value.candidates == ("c4-c5", "c4-d5")
    with pytest.raises(InvalidMoveError, match="a5 is not a square of the hex board"):
        board.parse_move("c4-a5")


def test_r3_hex_has_no_checkerboard_names() -> None:
    board = Board(variant="hex")
    move = board.moves()[0]
    for call in (
        lambda: board.move_text(move, "checker"),
        lambda: board.parse_move("a1", "checker"),
        lambda: HEX.square_name(HEX.centre, "checker"),
        lambda: HEX.parse_square("a1", "checker"),
        lambda: HEX.checker_coordinates(HEX.centre),
        lambda: diagram(board, view="checker"),
        lambda: diagram(board, names="checker"),
        lambda: board_svg(board, view="checker"),
        lambda: board_svg(board, names="checker"),
        lambda: write_game(Game.from_board(board), names="checker"),
    ):
        with pytest.raises(NamingError, match="hex board has no checkerboard square names"):
            call()
    assert issubclass(NamingError, ValueError)
    assert HEX.namings == ("oblique",) and "checker" in geometry("9x9").namings


def test_r22_hex_positions_round_trip() -> None:
    text = "hex b 6/7 a4:b b2:b d4:b e2:w4 e7:b f3:bw g6:w"
    assert Board(text).position() == text
    assert Board("hex b 7/6 g6:w f3:wwb e7:b").position() == "hex b 7/6 e7:b f3:w2b g6:w"


# --- records ------------------------------------------------------------------------------------


def test_record_round_trip_with_variant_hex() -> None:
    rng = random.Random(4)
    board = Board(variant="hex")
    while board.outcome() is None:
        board.push(rng.choice(board.moves()))
    text = write_game(Game.from_board(board, White="A", Black="B"))
    assert '[Variant "hex"]' in text and "[Position" not in text
    game = read_game(io.StringIO(text))
    assert game is not None and game.mainline_moves() == board.move_stack
    assert game.end().board().position() == board.position()
    assert game.headers["Result"] == board.result()
    assert write_game(game) == text


def test_record_of_a_hex_game_from_a_set_up_position() -> None:
    start = "hex b 6/7 a4:b b2:b d4:b e2:w4 e7:b f3:bw g6:w"
    text = f'[Position "{start}"]\n\n1... e7-f7 *\n'
    with pytest.raises(ValueError, match="must enter"):  # Black has men in hand (R8)
        read_game(io.StringIO(text))
    game = read_game(io.StringIO(f'[Position "{start}"]\n\n1... f7 *\n'))
    assert game is not None and game.headers["Variant"] == "hex"
    assert game.board().position() == start
    assert f'[Position "{start}"]' in write_game(game)


# --- pictures -----------------------------------------------------------------------------------


def test_diagram_hexagon() -> None:
    board = Board("hex b 7/8 a4:b b2:b d2:w d3:w e3:w e7:b f3:w g4:b g6:w")
    board.push_move("g4xe2xe4xc2xe2")
    text = diagram(board)
    rows = text.splitlines()
    row_a = next(r for r in rows if r.strip().startswith("a "))
    row_d = next(r for r in rows if r.strip().startswith("d "))
    assert row_a.count("·") + row_a.count("B") == 4  # a1-a4, a4 Black
    assert row_d.count("·") + row_d.count("[") == 7
    assert "[B1/4]" in text and "Last move: g4xe2xe4xc2xe2 (Black)" in text
    assert "/" in text and "\\" in text and "─" in text  # the six directions
    assert "Key: B1/4 = 1 Black man on top of 4 White prisoners" in text
    ascii_text = diagram(board, unicode=False, flipped=True)
    assert ascii_text.isascii()


def test_svg_hexagon() -> None:
    board = Board("hex w 0/0 a1:w b2:b3w2 d4:w5 g7:bw")
    picture = board_svg(board, squares=["d4"], arrows=[("a1", "c3")])
    assert picture.startswith("<svg") and picture.count("<polygon") >= 37
    assert 'data-square="b2" data-stack="2/3"' in picture
    assert picture == board_svg(board, squares=["d4"], arrows=[("a1", "c3")])  # deterministic
    assert "Emergo hex: hex w 0/0" in picture


# --- the C kernel -------------------------------------------------------------------------------


@pytest.mark.requires_kernel
def test_the_c_kernel_plays_hex() -> None:
    """R4 hex on the C side (tests/test_kernel.py compares it with this library in depth)."""
    from emergo import kernel

    assert kernel.supports("hex") and kernel.supports("9x9") and kernel.supports("7x7")
    board = Board(variant="hex")
    assert kernel.legal_moves(board) == legal(board)
    assert "d4" not in kernel.legal_moves(board)  # R16
    assert kernel.perft("hex w 12/12", 2) == 1_164
    assert kernel.random_game(variant="hex", seed=3).result in ("1-0", "0-1", "1/2-1/2")
    assert kernel.evaluate(board) != 0
    move = kernel.Searcher().search(board, Limit(depth=2)).move
    assert move is not None and move in board.legal_moves
