"""The boards' symmetries (emergo.symmetry): D4 of the square boards, D6 of the hexagon, from the
geometry's data; legal moves go to legal moves (R8-R17, the centre ban R16 included), a
position's key is the same for all its images, and mapping there and back is the identity."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emergo import Board, Move
from emergo.board import MoveKind
from emergo.geometry import geometry
from emergo.symmetry import canonical, position_key, symmetries

VARIANTS = st.sampled_from(["9x9", "7x7", "hex"])


def random_board(variant: str, seed: int, plies: int) -> Board:
    """A board after up to ``plies`` random moves (stops when the game ends)."""
    rng = random.Random(seed)
    board = Board(variant=variant)
    for _ in range(plies):
        if board.outcome() is not None:
            break
        board.push(rng.choice(board.moves()))
    return board


def line_automorphisms(variant: str) -> int:
    """How many permutations of the squares keep adjacency (R2) and every jump (R9), counted by
    a search that knows nothing of the module: squares are mapped one by one, in the order of
    their distance from the centre, each to a square that keeps every pair and jump so far."""
    geo = geometry(variant)
    adjacent = {(a, b) for a in geo.squares for b in geo.neighbours[a]}
    jumps = {(a, over, land) for a in geo.squares for _, over, land in geo.jumps[a]}
    order = [geo.centre]
    for sq in order:
        order.extend(n for n in geo.neighbours[sq] if n not in order)

    def fits(image: dict[int, int], sq: int, to: int) -> bool:
        for other, there in image.items():
            if ((sq, other) in adjacent) != ((to, there) in adjacent):
                return False
        for a, over, land in jumps:
            if sq in (a, over, land) and all(x in image or x == sq for x in (a, over, land)):
                mapped = tuple(to if x == sq else image[x] for x in (a, over, land))
                if mapped not in jumps:
                    return False
        return True

    def count(image: dict[int, int]) -> int:
        if len(image) == len(order):
            return 1
        sq = order[len(image)]
        used = set(image.values())
        total = 0
        for to in geo.squares:
            if to not in used and fits(image, sq, to):
                image[sq] = to
                total += count(image)
                del image[sq]
        return total

    return count({})


@pytest.mark.parametrize(("variant", "order"), [("9x9", 8), ("7x7", 8), ("hex", 12)])
def test_the_groups_are_d4_and_d6_and_every_map_of_the_lines(variant, order):
    group = symmetries(variant)
    assert len(group) == order
    assert group[0].name == "identity"
    geo = geometry(variant)
    for g in group:
        assert sorted(g.image.values()) == sorted(geo.squares)
        assert g.square(geo.centre) == geo.centre  # R16 keeps its meaning on every image
        assert g.then(g.inverse()) is group[0]
        for h in group:
            assert g.then(h) in group
    rotations = [g for g in group if g.matrix[0] * g.matrix[3] - g.matrix[1] * g.matrix[2] == 1]
    assert len(rotations) == order // 2
    # nothing was left out: every permutation keeping the jumps is one of them
    assert line_automorphisms(variant) == order


@settings(max_examples=60, deadline=None)
@given(VARIANTS, st.integers(0, 10_000), st.integers(0, 60))
def test_a_symmetry_maps_legal_moves_to_legal_moves(variant, seed, plies):
    board = random_board(variant, seed, plies)
    moves = board.moves()
    for g in symmetries(variant):
        image = g.board(board)
        assert sorted(str(g.move(m)) for m in moves) == sorted(str(m) for m in image.moves())
        assert image.outcome() == Board(board.position(), variant=variant).outcome()
        for move in moves[:3]:
            after = board.copy(stack=False)
            after.push(move)
            there = image.copy(stack=False)
            there.push(g.move(move))
            assert there.position() == g.position(after)
            assert g.move_text(str(move)) == str(g.move(move))


def test_the_centre_ban_is_the_same_on_every_image():
    for variant in ("9x9", "7x7", "hex"):
        start = Board(variant=variant)
        centre = start.geometry.centre
        legal = {m.path[0] for m in start.moves()}
        assert centre not in legal  # R16
        for g in symmetries(variant):
            assert {g.square(sq) for sq in legal} == legal


@settings(max_examples=60, deadline=None)
@given(VARIANTS, st.integers(0, 10_000), st.integers(0, 50))
def test_the_key_is_the_same_for_every_image_and_the_least(variant, seed, plies):
    board = random_board(variant, seed, plies)
    c = canonical(board)
    images = {g.position(board) for g in symmetries(variant)}
    assert c.key == min(images) == position_key(board)
    assert c.symmetry.position(board) == c.key
    for g in symmetries(variant):
        assert canonical(g.board(board)).key == c.key
    # the key's stabiliser maps it to itself
    key_board = Board(c.key, variant=variant)
    for s in c.stabiliser:
        assert s.position(key_board) == c.key


@settings(max_examples=60, deadline=None)
@given(VARIANTS, st.integers(0, 10_000), st.integers(0, 50))
def test_moves_round_trip_through_the_key(variant, seed, plies):
    board = random_board(variant, seed, plies)
    c = canonical(board)
    key_board = Board(c.key, variant=variant)
    for move in board.moves():
        text = str(move)
        for g in symmetries(variant):
            assert g.inverse().move_text(g.move_text(text)) == text
            assert g.inverse().move(g.move(move)) == move
        stored = c.move(move)
        men = key_board.entry_size() if move.kind is MoveKind.ENTER else 1  # a shadowpiece (R14)
        assert key_board.is_legal(Move.from_text(stored, variant, men=men))
        shown = c.shown(stored)
        # what comes back is the move, or one a symmetry of the position makes the same
        same = {
            g.move_text(text) for g in symmetries(variant) if g.position(board) == board.position()
        }
        assert shown in same
        assert c.move_text(text) == stored
        # and the same move asked from any image is stored the same
        for g in symmetries(variant):
            image = g.board(board)
            assert canonical(image).move(g.move(move)) == stored


def test_two_move_orders_and_mirror_images_meet():
    a, b, c = Board(), Board(), Board()
    for text in ("e4", "e6", "d5"):
        a.push_move(text)
    for text in ("d5", "e6", "e4"):
        b.push_move(text)
    for text in ("e6", "e4", "d5"):  # the mirror image of a in the line a5-i5
        c.push_move(text)
    assert canonical(a).key == canonical(b).key == canonical(c).key
    assert canonical(a).key != canonical(Board()).key
    start = canonical(Board())
    assert len(start.stabiliser) == 8  # the empty board: every symmetry
    # the four entries a step from the centre are one move of the start
    assert {start.move_text(t) for t in ("e4", "e6", "d5", "f5")} == {start.move_text("e4")}
