"""The built-in players: legal, reproducible, side-effect free, and greedy plays greedily."""

from __future__ import annotations

import random

import pytest

from emergo import WHITE, Board
from emergo.players import (
    PLAYERS,
    WIN_SCORE,
    Player,
    evaluate_after,
    greedy_player,
    material,
    random_player,
    searcher,
)
from emergo.search import Limit
from tests.plugins.common import oracle_positions

CHOOSERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}

LIVE = [v["position"] for v in oracle_positions() if v["result"] == "*"]
OVER = [v["position"] for v in oracle_positions() if v["result"] != "*"]


@pytest.mark.parametrize("name", sorted(CHOOSERS))
@pytest.mark.parametrize("position", LIVE)
def test_player_returns_a_legal_move_and_leaves_the_board_alone(name: str, position: str) -> None:
    board = Board(position)
    board.push(board.moves()[0])  # some history, which must survive too
    if board.outcome() is not None:
        board = Board(position)
    before_position, before_stack = board.position(), list(board.move_stack)
    move = CHOOSERS[name](board, random.Random(1))
    assert move in board.legal_moves
    assert board.position() == before_position
    assert board.move_stack == before_stack


@pytest.mark.parametrize("name", sorted(CHOOSERS))
def test_player_is_a_pure_function_of_board_and_rng(name: str) -> None:
    def game(seed: int) -> list[str]:
        board, rng = Board(variant="7x7"), random.Random(seed)
        while board.outcome() is None and len(board.move_stack) < 60:
            board.push(CHOOSERS[name](board, rng))
        return [str(m) for m in board.move_stack]

    assert game(5) == game(5)


@pytest.mark.parametrize("name", sorted(CHOOSERS))
@pytest.mark.parametrize("position", OVER)
def test_player_without_legal_move_raises_R18_R19a(name: str, position: str) -> None:
    with pytest.raises(ValueError, match="no legal move"):
        CHOOSERS[name](Board(position), random.Random(0))


def test_random_player_uses_every_move() -> None:
    board = Board()
    seen = {str(random_player(board, random.Random(seed))) for seed in range(400)}
    assert len(seen) == len(board.moves()) == 40  # R16: every square but the centre


def test_material_counts_hand_and_whole_stacks_R5_R6() -> None:
    # d5:w3b is three White prisoners under one Black cap: all four are Black's (R6).
    board = Board("w 1/0 c5:w d5:w3b f7:bw f6:b")
    assert material(board, WHITE) == 1 + 1 + 2  # hand, c5, f7 (cap and its prisoner)
    assert material(board, not WHITE) == 4 + 1  # d5 (cap and 3 prisoners), f6


def test_greedy_prefers_the_capture_that_liberates_prisoners_R9() -> None:
    # Both captures take one man (R11); c5xe5 liberates three White men on d5, and
    # leaves Black only f6xf8 in reply; f7xf5 liberates nobody.
    board = Board("w 0/0 c5:w d5:w3b f6:b f7:w")
    assert sorted(str(m) for m in board.moves()) == ["c5xe5", "f7xf5"]
    for seed in range(20):
        assert str(greedy_player(board, random.Random(seed))) == "c5xe5"


def test_greedy_does_not_step_into_a_capture_R9_R17() -> None:
    # e5-f5 would let g5 jump f5 to e5; the other steps are safe.
    board = Board("w 0/0 e5:w g5:b")
    assert "e5-f5" in {str(m) for m in board.moves()}
    chosen = {str(greedy_player(board, random.Random(seed))) for seed in range(40)}
    assert "e5-f5" not in chosen
    assert chosen == {"e5-d5", "e5-e4", "e5-e6"}  # ties are broken at random


def test_evaluate_after_a_win_and_a_draw_R18_R19a() -> None:
    board = Board("w 0/0 d5:w e5:b")
    board.push_move("d5xf5")  # Black has nothing left (R18)
    assert evaluate_after(board, WHITE) == WIN_SCORE
    blocked = Board("w 0/0 a5:w b5:b c5:b e5:w11b10")  # White to move has no move (R19a)
    assert evaluate_after(blocked, not WHITE) == 0


def test_greedy_beats_random() -> None:
    score = 0
    for game in range(10):
        rng = random.Random(game)
        board = Board(variant="7x7")
        greedy_color = game % 2 == 0
        while board.outcome() is None:
            player = greedy_player if board.turn == greedy_color else random_player
            board.push(player(board, rng))
        winner = board.outcome().winner  # type: ignore[union-attr]
        score += 1 if winner == greedy_color else 0
    assert score >= 8


def test_the_registry_names_every_computer_with_a_description() -> None:
    assert list(PLAYERS) == ["random", "greedy", "mcts", "engine", "python"]
    for name, entry in PLAYERS.items():
        assert entry.name == name and entry.description


@pytest.mark.parametrize("name", ["random", "greedy", "python"])
def test_every_registry_entry_makes_a_searcher_that_plays_a_legal_move(name: str) -> None:
    board = Board(variant="7x7")
    result = searcher(name, seed=3, level=1).search(board, Limit(depth=2))
    assert result.move in board.legal_moves


def test_an_unknown_player_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        searcher("nobody")
