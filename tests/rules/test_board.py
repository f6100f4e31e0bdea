"""Board API details: equality is exact, and the unchecked push for trusted callers."""

from __future__ import annotations

from emergo import Board


def test_equal_positions_compare_equal_and_hash_alike_whatever_their_history() -> None:
    played = Board()
    for text in ("d4", "e6", "f4"):
        played.push_move(text)
    setup = Board(played.position())
    assert played == setup and hash(played) == hash(setup)


def test_positions_with_colliding_keys_are_still_different() -> None:
    a, b = Board("w 12/12"), Board("b 11/12 d4:w")
    b._zobrist = a._zobrist  # simulate a Zobrist collision
    assert a != b


def test_push_unchecked_plays_a_move_from_moves_and_pops_back() -> None:
    board = Board(variant="7x7")
    before = board.position()
    move = board.moves()[0]
    board.push_unchecked(move)
    assert board.peek() == move and board.position() != before
    assert board.pop() == move and board.position() == before
