"""Rule-by-rule checks of the pure-Python reference (docs/rules.md R1-R19)."""

from __future__ import annotations

import pytest

from emergo import (
    BLACK,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    MoveKind,
    Stack,
    Termination,
    geometry,
    square,
)


def texts(board: Board) -> list[str]:
    return sorted(board.move_text(m) for m in board.legal_moves)


def test_r1_board_has_41_squares_and_corner_names() -> None:
    geo = geometry("9x9")
    assert len(geo.squares) == 41
    names = {geo.square_name(sq) for sq in geo.squares}
    assert {"a5", "i5", "e1", "e9", "e5"} <= names
    assert "a1" not in names and "a4" not in names


def test_r2_adjacency_four_directions() -> None:
    geo = geometry("9x9")
    e5 = geo.parse_square("e5")
    assert sorted(geo.square_name(n) for n in geo.neighbours[e5]) == ["d5", "e4", "e6", "f5"]
    assert [geo.square_name(n) for n in geo.neighbours[geo.parse_square("a5")]] == ["b5"]


def test_r3_checker_names_map_as_specified() -> None:
    geo = geometry("9x9")
    for oblique, checker in [("e1", "a1"), ("a5", "a9"), ("i5", "i1"), ("e9", "i9"), ("e5", "e5")]:
        assert geo.square_name(geo.parse_square(oblique), "checker") == checker
        assert geo.parse_square(checker, "checker") == geo.parse_square(oblique)


def test_r4_7x7_has_25_squares_and_8_men() -> None:
    board = Board(variant="7x7")
    assert len(board.geometry.squares) == 25
    assert board.position() == "7x7 w 8/8"
    assert board.hand(WHITE) == board.hand(BLACK) == 8


def test_r6_stack_shape_rejected_when_not_k_over_p() -> None:
    with pytest.raises(ValueError, match="R6"):
        Board("w 0/0 d4:wbw")


def test_r8_capture_precedes_entering() -> None:
    board = Board("w 11/11 e3:w e4:b")
    assert texts(board) == ["e3xe5"]
    assert board.is_capturing() and not board.is_entering()


def test_r9_liberation_top_man_taken_prisoners_freed() -> None:
    # Black d5 is one black man over two white: jumping it frees the two white men.
    board = Board("w 0/0 c5:w d5:w2b e9:b")
    board.push_move("c5xe5")
    assert board.stack(square("d5")) == Stack(WHITE, 2, 0)
    assert board.stack(square("e5")) == Stack(WHITE, 1, 1)
    assert board.stack(square("c5")) is None


def test_r9_jumped_single_man_leaves_at_once() -> None:
    # A route never lands on a square it jumped (landings keep the start's parity on both
    # lines), so what the decision governs is that a jumped single man cannot be jumped
    # again: the loop round g4 stops back on e3 with 4 men; with two men on e4 it goes on.
    single = Board("w 0/0 a5:b e3:w e4:b f3:b f5:b g4:b")
    assert texts(single) == ["e3xe5xg5xg3xe3", "e3xg3xg5xe5xe3"]
    double = Board("w 0/0 a5:b e3:w e4:b2 f3:b f5:b g4:b")
    assert texts(double) == ["e3xe5xg5xg3xe3xe5"]


def test_r10_no_180_degree_turn() -> None:
    assert texts(Board("w 1/0 a5:b10 e1:w e2:b2 e9:w10")) == ["e1xe3"]


def test_r10_revisits_and_double_jumps() -> None:
    board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
    assert texts(board) == ["e4xc4xc6xe6xe4xc4"]
    board.push_move("e4xc4xc6xe6xe4xc4")
    assert board.stack(square("c4")) == Stack(WHITE, 3, 5)
    assert board.stack(square("d4")) == Stack(WHITE, 2, 0)  # liberated
    assert board.outcome() is not None and board.outcome().winner is WHITE  # type: ignore[union-attr]


def test_r11_majority_over_all_pieces() -> None:
    assert texts(Board("w 0/0 a5:b9 e1:w e2:b e5:b e9:w10 g5:b h5:w")) == ["h5xf5xd5"]


def test_r11_ties_are_separate_moves() -> None:
    # White e5 may jump d5 or f5 (one man each): two one-man routes.
    board = Board("w 0/0 d5:b e5:w f5:b")
    assert texts(board) == ["e5xc5", "e5xg5"]
    for move in board.legal_moves:
        assert move.captured == 1


def test_r13_enter_one_man() -> None:
    board = Board()
    board.push_move("d4")
    assert board.hand(WHITE) == 11 and board.stack(square("d4")) == Stack(WHITE, 1, 0)


def test_r14_shadowpiece_enters_whole_hand() -> None:
    board = Board("w 4/0 e1:b12 e9:w8")
    assert board.entry_size() == 4
    move = board.parse_move("d2")
    assert move.entered == 4
    board.push(move)
    assert board.stack(square("d2")) == Stack(WHITE, 4, 0) and board.hand(WHITE) == 0


def test_r14_single_entry_move_rejected_in_shadow_phase() -> None:
    board = Board("w 4/0 e1:b12 e9:w8")
    with pytest.raises(IllegalMoveError, match="R14"):
        board.push(Move.enter(square("d2"), 1))


def test_r15_feeding_forbidden_when_not_attacked() -> None:
    board = Board("b 11/12 d4:w")
    assert not {"c4", "e4", "d3", "d5"} & set(texts(board))
    with pytest.raises(IllegalMoveError, match=r"d5 would let White capture.*\(R15\)"):
        board.parse_move("d5")


def test_r15_any_entry_when_attacked() -> None:
    board = Board("b 10/11 c4:b d4:w e4:w")
    assert board.is_attacked()
    assert len(board.legal_moves) == 38


def test_r16_centre_ban_on_first_move_only() -> None:
    board = Board()
    assert "e5" not in texts(board)
    with pytest.raises(IllegalMoveError, match=r"White may not enter on e5 on the first move"):
        board.parse_move("e5")
    board.push_move("a5")
    assert "e5" in texts(board)
    assert "d4" not in texts(Board(variant="7x7"))


def test_r17_step_whole_stack() -> None:
    board = Board("w 0/0 d4:b2w3 i5:b")
    board.push_move("d4-d5")
    assert board.stack(square("d5")) == Stack(WHITE, 3, 2)


def test_r18_loss_without_pieces_and_hand() -> None:
    outcome = Board("w 0/4 d4:w5b3 f6:w7b5").outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_PIECES and outcome.winner is BLACK
    assert outcome.result() == "0-1"


def test_r18_no_moves_once_the_opponent_has_lost() -> None:
    # A constructed position where the player who just moved has nothing left: it is over.
    board = Board("w 0/0 a5:w")
    assert not board.legal_moves and board.result() == "1-0"


def test_r19a_blocked_is_a_draw_even_with_men_in_hand() -> None:
    board = Board(
        "b 0/2 a5:w b4:b b6:b c3:w c7:w d2:b d3:w d4:w d5:w d8:b e1:b e2:b e6:w e9:w f2:b "
        "f5:w f8:b g3:w g7:w h4:b h6:b i5:w"
    )
    assert not board.legal_moves
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.BLOCKED
    assert board.result() == "1/2-1/2"


def test_r19b_third_occurrence_is_a_draw() -> None:
    board = Board("w 0/0 a5:w i5:b")
    for lap in range(2):
        for text in ("a5-b5", "i5-h5", "b5-a5", "h5-i5"):
            assert board.outcome() is None, (lap, text)
            board.push_move(text)
    assert board.repetitions() == 3
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    board.pop()
    assert board.outcome() is None and board.repetitions() == 2


def test_push_pop_restores_everything() -> None:
    board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
    before = board.position()
    board.push_move("e4xc4xc6xe6xe4xc4")
    assert board.pop().kind is MoveKind.CAPTURE
    assert board.position() == before and board.repetitions() == 1


def test_rejected_move_changes_nothing() -> None:
    board = Board("b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2")
    before = board.position()
    for text in ("e5xe3", "e5-f5", "d4", "zz", "h4xf4"):
        with pytest.raises(ValueError):
            board.push_move(text)
        assert board.position() == before and not board.move_stack


def test_copy_keeps_history_for_repetition() -> None:
    board = Board("w 0/0 a5:w i5:b")
    for text in ("a5-b5", "i5-h5", "b5-a5", "h5-i5") * 2:
        board.push_move(text)
    clone = board.copy()
    assert clone.outcome() == board.outcome()
    assert board.copy(stack=False).outcome() is None


def test_men_in_hand_and_on_board() -> None:
    board = Board("b 0/5 c3:wb2 e5:w f5:w7 g4:b2w h6:w2b3")
    assert board.men(WHITE) == 12 and board.men(BLACK) == 12
