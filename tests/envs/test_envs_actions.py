"""The fixed action space (emergo.envs.actions): a bijection with the legal moves.

For every oracle position and every ply of every oracle game (9x9, 7x7, hex), every
complete action sequence is enumerated from the position (entries and steps are one
action, captures one action per hop) and decoded; the decoded moves must be exactly
``board.moves()``, each once.  This test needs no third-party package.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from emergo import Board, Move
from emergo.envs.actions import (
    action_space,
    apply,
    decode,
    describe,
    encode_move,
    legal_actions,
)
from emergo.errors import IllegalMoveError
from tests.plugins.common import oracle_games, oracle_hex_games, oracle_positions


def action_sequences(board: Board) -> list[tuple[int, ...]]:
    """Every complete action sequence from the position (the board is left unchanged)."""
    out: list[tuple[int, ...]] = []

    def walk(route: tuple[int, ...], prefix: tuple[int, ...]) -> None:
        for action in legal_actions(board, route):
            new = apply(board, route, action)
            if new:
                walk(new, (*prefix, action))
            else:
                out.append((*prefix, action))
                board.pop()

    walk((), ())
    return out


def check_bijection(board: Board) -> int:
    """Assert the action sequences and the legal moves correspond one to one."""
    sequences = action_sequences(board)
    moves = board.moves() if not board.is_game_over() else []
    men = board.entry_size()
    decoded = [decode(seq, board.variant, men=men) for seq in sequences]
    assert len(set(sequences)) == len(sequences)
    assert len(set(decoded)) == len(decoded), board.position()
    assert set(decoded) == set(moves), board.position()
    assert len(decoded) == len(moves)
    for move in moves:
        assert encode_move(move, board.variant) in set(sequences)
        assert decode(encode_move(move, board.variant), board.variant, men=men) == move
    return len(moves)


def test_action_space_sizes() -> None:
    assert action_space("9x9").size == 41 + 2 * 41 * 4 == 369
    assert action_space("7x7").size == 25 + 2 * 25 * 4 == 225
    assert action_space("hex").size == 37 + 2 * 37 * 6 == 481


def test_bijection_on_oracle_positions_R8_R11_R14() -> None:
    checked = 0
    for item in oracle_positions():
        board = Board(item["position"])
        n = check_bijection(board)
        assert n == len(item["legal"])
        checked += 1
    assert checked == 32


def _plies(games: list[dict[str, Any]]) -> int:
    plies = 0
    for game in games:
        board = Board(game["plies"][0]["position"])
        for ply in game["plies"]:
            assert board.position() == ply["position"]
            assert check_bijection(board) == len(ply["legal"])
            board.push_move(ply["played"])
            plies += 1
        assert board.is_game_over()
        assert legal_actions(board) == []  # R18, R19a, R19b: no action
    return plies


def test_bijection_on_every_ply_of_the_abstractplay_games_R8_R11() -> None:
    assert _plies(oracle_games()) == 5464  # 50 games


def test_bijection_on_every_ply_of_the_hex_games_R4_R11() -> None:
    assert _plies(oracle_hex_games()) == 2302  # 20 games


@pytest.mark.parametrize("variant", ["7x7", "9x9", "hex"])
def test_bijection_on_random_games(variant: str) -> None:
    """7x7 has only four oracle positions: seeded random games add every phase of play."""
    rng = random.Random(13)
    plies = 0
    for _ in range(10 if variant == "7x7" else 3):
        board = Board(variant=variant)
        while not board.is_game_over() and len(board.move_stack) < 300:
            check_bijection(board)
            board.push_unchecked(rng.choice(board.moves()))
            plies += 1
    assert plies > 100


def test_worked_example_capture_as_hops_R10_R12() -> None:
    move = Move.from_text("e4xc4xc6xe6xe4xc4")
    actions = encode_move(move)
    space = action_space()
    assert len(actions) == 5
    assert all(a >= space.jump_base for a in actions)
    assert decode(actions) == move
    geo = space.geometry
    d = {o: i for i, o in enumerate(geo.directions)}
    e4, c4 = geo.parse_square("e4"), geo.parse_square("c4")
    # e4 -> c4 goes two letters down: direction (-1, 0).
    assert actions[0] == space.jump_base + geo.squares.index(e4) * 4 + d[-11]
    assert decode(actions[:1]).path == (e4, c4)


def test_tied_routes_share_a_prefix_and_split_on_a_hop_R11() -> None:
    # Find a position among the oracle games where two majority routes share a first hop.
    for game in oracle_games()[:20]:
        board = Board(game["plies"][0]["position"])
        for ply in game["plies"]:
            ms = board.generate()
            firsts = [r[:2] for r in ms.routes]
            if ms.routes and len(set(firsts)) < len(firsts):
                first = legal_actions(board)[0]
                route = apply(board, (), first)
                assert route, "a shared first hop leaves the route open"
                assert len(legal_actions(board, route)) >= 1
                return
            board.push_move(ply["played"])
    pytest.skip("no tied routes with a shared prefix in the first 20 games")


def test_illegal_action_raises_and_changes_nothing() -> None:
    board = Board()
    centre = action_space().enter(board.geometry.centre)
    with pytest.raises(IllegalMoveError, match="not legal"):
        apply(board, (), centre)  # R16
    assert board.position() == "w 12/12"
    with pytest.raises(ValueError, match="outside"):
        apply(board, (), 369)
    assert describe(board, 0) == "a5"


def test_decode_refuses_broken_sequences() -> None:
    space = action_space()
    with pytest.raises(ValueError, match="no actions"):
        decode(())
    with pytest.raises(ValueError, match="one action"):
        decode((0, 1))
    hop = space.jump(space.geometry.parse_square("e4"), 0)
    with pytest.raises(ValueError, match="route's last square"):
        decode((hop, hop))
