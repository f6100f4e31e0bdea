"""Hypothesis properties over random games: conservation, R6 shape, round-trips, majority."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emergo import BLACK, WHITE, Board, Move, MoveKind, NamingError, Stack
from tests.plugins.common import examples

VARIANTS = st.sampled_from(["9x9", "7x7", "hex"])


def random_prefix(variant: str, seed: int, plies: int) -> Board:
    """A board after up to ``plies`` random moves (stops when the game ends)."""
    rng = random.Random(seed)
    board = Board(variant=variant)
    for _ in range(plies):
        if board.outcome() is not None:
            break
        board.push(rng.choice(board.moves()))
    return board


def naive_routes(board: Board) -> list[tuple[int, ...]]:
    """Every complete capture route (R9, R10), by brute force over a dict of stacks."""
    geo = board.geometry
    me = board.turn
    start_stacks = board.stacks()
    routes: list[tuple[int, ...]] = []

    def walk(stacks: dict[int, Stack], path: list[int], back: int | None) -> None:
        here = path[-1]
        extended = False
        for d, o in enumerate(geo.directions):
            if back is not None and o == -back:
                continue
            over, land = here + o, here + 2 * o
            if over not in geo or land not in geo or land in stacks:
                continue
            victim = stacks.get(over)
            if victim is None or victim.owner == me:
                continue
            after = dict(stacks)
            if victim.caps > 1:
                after[over] = Stack(victim.owner, victim.caps - 1, victim.prisoners)
            elif victim.prisoners:
                after[over] = Stack(me, victim.prisoners, 0)
            else:
                del after[over]
            extended = True
            walk(after, [*path, land], o)
            del d
        if not extended and len(path) > 1:
            routes.append(tuple(path))

    for sq, st_ in start_stacks.items():
        if st_.owner == me:
            rest = dict(start_stacks)
            del rest[sq]
            walk(rest, [sq], None)
    return routes


@settings(max_examples=examples(60), deadline=None)
@given(VARIANTS, st.integers(0, 2**32), st.integers(0, 160))
def test_men_conserved_and_r6_shape(variant: str, seed: int, plies: int) -> None:
    board = random_prefix(variant, seed, plies)
    men = board.geometry.men
    assert board.men(WHITE) == men and board.men(BLACK) == men
    for stack in board.stacks().values():
        assert stack.caps >= 1 and stack.prisoners >= 0  # R6: k >= 1 over p >= 0
        colors = stack.colors()
        assert colors[-1] == stack.owner
        assert list(colors) == sorted(colors, key=lambda c: c == stack.owner)


@settings(max_examples=examples(60), deadline=None)
@given(VARIANTS, st.integers(0, 2**32), st.integers(0, 160))
def test_position_string_round_trips(variant: str, seed: int, plies: int) -> None:
    board = random_prefix(variant, seed, plies)
    text = board.position()
    again = Board(text)
    assert again.position() == text
    assert sorted(map(str, again.legal_moves)) == sorted(map(str, board.legal_moves))


@settings(max_examples=examples(60), deadline=None)
@given(VARIANTS, st.integers(0, 2**32), st.integers(0, 160))
def test_push_pop_restores_position(variant: str, seed: int, plies: int) -> None:
    board = random_prefix(variant, seed, plies)
    before = board.position()
    reps = board.repetitions()
    for move in board.moves():
        board.push(move)
        board.pop()
        assert board.position() == before
    assert board.repetitions() == reps
    # Unwinding the whole game reaches the start.
    while board.move_stack:
        board.pop()
    assert board.position() == Board(variant=variant).position()


@settings(max_examples=examples(60), deadline=None)
@given(
    VARIANTS, st.integers(0, 2**32), st.integers(0, 160), st.sampled_from(["oblique", "checker"])
)
def test_move_texts_round_trip(variant: str, seed: int, plies: int, names: str) -> None:
    board = random_prefix(variant, seed, plies)
    if variant == "hex" and names == "checker":  # R4: no checkerboard names on the hexagon
        with pytest.raises(NamingError):
            board.parse_move("d5", names)  # type: ignore[arg-type]
        for move in board.moves():
            with pytest.raises(NamingError):
                board.move_text(move, names)  # type: ignore[arg-type]
        return
    for move in board.moves():
        text = board.move_text(move, names)  # type: ignore[arg-type]
        assert board.parse_move(text, names) == move  # type: ignore[arg-type]
        assert board.parse_move(text.upper().replace("X", "-"), names) == move  # type: ignore[arg-type]


@settings(max_examples=examples(80), deadline=None)
@given(VARIANTS, st.integers(0, 2**32), st.integers(0, 200))
def test_r11_captures_are_exactly_the_longest_routes(variant: str, seed: int, plies: int) -> None:
    board = random_prefix(variant, seed, plies)
    routes = naive_routes(board)
    legal = board.moves()
    if not routes:
        assert all(m.kind is not MoveKind.CAPTURE for m in legal)
        return
    longest = max(len(r) for r in routes)
    assert sorted(m.path for m in legal) == sorted(r for r in routes if len(r) == longest)
    assert all(m.captured == longest - 1 for m in legal)


@settings(max_examples=examples(40), deadline=None)
@given(VARIANTS, st.integers(0, 2**32))
def test_whole_games_end_and_every_move_is_legal(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(variant=variant)
    while board.outcome() is None:
        moves = board.moves()
        assert len(moves) == len(board.legal_moves) == len(set(moves))
        move = rng.choice(moves)
        assert move in board.legal_moves
        assert board.move_at(moves.index(move)) == move
        board.push(move)
    assert board.result() in ("1-0", "0-1", "1/2-1/2")
    assert not isinstance(board.peek(), int) and isinstance(board.peek(), Move)
