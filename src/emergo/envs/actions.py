"""The fixed action space shared by every environment: entries, steps and capture hops.

One action is one decision of the player to move.  An entry (R13; a shadowpiece entry
is the same action, R14) and a step (R17) are one action each.  A capture (R9-R12) is
ONE ACTION PER HOP: the first hop picks the piece and its first direction, and the
same player then chooses hop after hop until the route is complete.  Only hops that
lie on a route of the majority (R11) are legal, so every complete sequence of hops is
exactly one legal capture move, and two tied routes that share a prefix are told apart
by the first hop where they differ.

Squares are numbered by their place in ``Geometry.squares`` (the canonical R22
order), ``i`` from 0 to ``n - 1``; directions ``d`` by their place in
``Geometry.directions`` (4, or 6 on hex).  With ``n`` squares and ``D`` directions:

========================  ===================================  ==========================
action                    index                                meaning
========================  ===================================  ==========================
enter on square i         ``i``                                R13, R14
step from i along d       ``n + i * D + d``                    R17
jump from i along d       ``n + n * D + i * D + d``            one hop of a capture, R9
========================  ===================================  ==========================

Size ``n + 2 * n * D``: 369 on ``9x9`` (41 squares, 4 directions), 225 on ``7x7``
(25, 4) and 481 on ``hex`` (37, 6).  The table is rectangular so that a C batch
environment computes an index with one multiply-add; the (square, direction) pairs
that leave the board are simply never legal.

A capture in progress is its *route so far*: the start square and every landing
square chosen, a tuple of squares (empty when no capture is in progress).  The board
itself does not change until the route is complete (:func:`apply` then plays the
whole move), so the library's rules stay the one judge.

>>> from emergo import Board
>>> board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
>>> [describe(board, a) for a in legal_actions(board)]
['e4xc4']
>>> route = apply(board, (), legal_actions(board)[0])
>>> [board.geometry.square_name(sq) for sq in route]
['e4', 'c4']
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from emergo.board import CAPTURE, ENTER, STEP, Board, Move, MoveKind
from emergo.errors import IllegalMoveError
from emergo.geometry import DEFAULT_VARIANT, STRIDE, Geometry, Square, geometry

Route = tuple[Square, ...]
"""A capture in progress: its start square and the landing squares chosen so far."""


@dataclass(frozen=True, eq=False)
class ActionSpace:
    """The action table of one board (see the module docstring for the layout)."""

    geometry: Geometry
    n_squares: int
    n_dirs: int
    index: tuple[int, ...]
    """``index[sq]``: the number of square int ``sq`` (-1 off the board), for every int < 121."""

    @property
    def size(self) -> int:
        """The number of actions: ``n + 2 * n * D``."""
        return self.n_squares + 2 * self.n_squares * self.n_dirs

    @property
    def step_base(self) -> int:
        return self.n_squares

    @property
    def jump_base(self) -> int:
        return self.n_squares + self.n_squares * self.n_dirs

    def enter(self, sq: Square) -> int:
        return self.index[sq]

    def step(self, sq: Square, d: int) -> int:
        return self.step_base + self.index[sq] * self.n_dirs + d

    def jump(self, sq: Square, d: int) -> int:
        return self.jump_base + self.index[sq] * self.n_dirs + d

    def unpack(self, action: int) -> tuple[MoveKind, Square, int]:
        """``(kind, square, direction)`` of an action (direction -1 for an entry).

        Raises ``ValueError`` for an int outside ``range(size)``.
        """
        if isinstance(action, bool) or not 0 <= action < self.size:
            raise ValueError(f"action {action!r} is outside 0..{self.size - 1}")
        action = int(action)
        squares, n, dirs = self.geometry.squares, self.n_squares, self.n_dirs
        if action < n:
            return MoveKind.ENTER, squares[action], -1
        kind = MoveKind.STEP if action < self.jump_base else MoveKind.CAPTURE
        i, d = divmod(action - (self.step_base if kind is MoveKind.STEP else self.jump_base), dirs)
        return kind, squares[i], d

    def encode(self, move: Move) -> tuple[int, ...]:
        """The actions of a move: one for an entry or a step, one per hop for a capture."""
        dirs = self.geometry.directions
        path = move.path
        if any(sq not in self.geometry for sq in path):
            raise ValueError(f"{move} names a square that is not on the {self.geometry.name} board")
        if move.kind is MoveKind.ENTER:
            return (self.enter(path[0]),)
        if move.kind is MoveKind.STEP:
            return (self.step(path[0], dirs.index(path[1] - path[0])),)
        hops = []
        for x, y in itertools.pairwise(path):
            delta = y - x
            if delta % 2 or delta // 2 not in dirs:
                raise ValueError(f"{move}: {x}->{y} is not a jump along a line (R9)")
            hops.append(self.jump(x, dirs.index(delta // 2)))
        return tuple(hops)

    def decode(self, actions: Sequence[int], *, men: int = 1) -> Move:
        """The move a complete action sequence spells; an entry puts ``men`` men (R14).

        Syntax only: whether the move is legal is the board's question.  Raises
        ``ValueError`` when the actions do not spell one move (a hop that does not start
        where the previous one landed, a step or entry followed by more actions).
        """
        if not actions:
            raise ValueError("no actions: a move is at least one action")
        kind, sq, d = self.unpack(actions[0])
        if kind is not MoveKind.CAPTURE:
            if len(actions) != 1:
                raise ValueError(f"an {kind.value} is one action, not {len(actions)}")
            if kind is MoveKind.ENTER:
                return Move.enter(sq, men)
            return Move.step(sq, sq + self.geometry.directions[d])
        path = [sq]
        for action in actions:
            kind, sq, d = self.unpack(action)
            if kind is not MoveKind.CAPTURE or sq != path[-1]:
                raise ValueError(f"action {action} is not a hop from the route's last square")
            path.append(sq + 2 * self.geometry.directions[d])
        return Move.capture(path)


@functools.cache
def action_space(variant: str = DEFAULT_VARIANT) -> ActionSpace:
    """The action table of a variant (``9x9``, ``7x7`` or ``hex``)."""
    geo = geometry(variant)
    index = [-1] * (STRIDE * STRIDE)
    for i, sq in enumerate(geo.squares):
        index[sq] = i
    return ActionSpace(geo, len(geo.squares), len(geo.directions), tuple(index))


def legal_actions(board: Board, route: Route = ()) -> list[int]:
    """The legal actions, ascending: entries, steps, or the next hops of a capture (R8).

    ``route`` is the capture in progress (empty at the start of a move).  The hops
    offered continue at least one route of the majority (R11) that begins with
    ``route``.  None is offered when the game is over (R18, R19a, and R19b, which the
    legal moves alone do not show).
    """
    space = action_space(board.variant)
    ms = board.generate()
    if route:
        return sorted(_next_hops(space, ms.routes if ms.kind == CAPTURE else (), route))
    if board.outcome() is not None:
        return []
    if ms.kind == ENTER:
        index = space.index
        return sorted(index[sq] for sq in _bits(ms.mask))
    if ms.kind == STEP:
        return sorted(space.step(sq, d) for d, mask in enumerate(ms.masks) for sq in _bits(mask))
    if ms.kind == CAPTURE:
        return sorted({space.jump(r[0], _direction(space, r[0], r[1])) for r in ms.routes})
    return []


def _next_hops(space: ActionSpace, routes: Sequence[Route], route: Route) -> set[int]:
    k = len(route)
    return {
        space.jump(r[k - 1], _direction(space, r[k - 1], r[k]))
        for r in routes
        if len(r) > k and r[:k] == route
    }


def _direction(space: ActionSpace, x: Square, y: Square) -> int:
    return space.geometry.directions.index((y - x) // 2)


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def apply(board: Board, route: Route, action: int) -> Route:
    """Take one action: play the move it completes, or extend the capture in progress.

    Returns the new route: empty when the action completed a move (which is then on
    ``board``'s move stack), else the route so far (``board`` unchanged).  Raises
    :class:`~emergo.errors.IllegalMoveError` for an action that is not legal now.
    """
    space = action_space(board.variant)
    if action not in legal_actions(board, route):
        raise IllegalMoveError(
            f"action {action} ({describe(board, action, route)}) is not legal here; "
            f"legal: {legal_actions(board, route)}"
        )
    kind, sq, d = space.unpack(action)
    if kind is MoveKind.ENTER:
        board.push_unchecked(Move.enter(sq, board.entry_size()))
        return ()
    if kind is MoveKind.STEP:
        board.push_unchecked(Move.step(sq, sq + space.geometry.directions[d]))
        return ()
    new = (route or (sq,)) + (sq + 2 * space.geometry.directions[d],)
    ms = board.generate()
    if len(new) - 1 == ms.size:  # R11: every legal route takes the same number of men
        board.push_unchecked(Move(MoveKind.CAPTURE, new, 0, ms.size))
        return ()
    return new


def encode_move(move: Move, variant: str = DEFAULT_VARIANT) -> tuple[int, ...]:
    """The actions of a move on a variant's board (see :meth:`ActionSpace.encode`)."""
    return action_space(variant).encode(move)


def decode(actions: Sequence[int], variant: str = DEFAULT_VARIANT, *, men: int = 1) -> Move:
    """The move an action sequence spells (see :meth:`ActionSpace.decode`)."""
    return action_space(variant).decode(actions, men=men)


def describe(board: Board, action: int, route: Route = ()) -> str:
    """A short text of an action: ``d4``, ``e4-e5``, or a hop ``e4xc4``."""
    space = action_space(board.variant)
    kind, sq, d = space.unpack(action)
    geo = space.geometry
    if kind is MoveKind.ENTER:
        return geo.square_name(sq)
    o = geo.directions[d]
    if kind is MoveKind.STEP:
        to = sq + o
        return f"{geo.square_name(sq)}-{geo.square_name(to) if to in geo else '(off)'}"
    to = sq + 2 * o
    return f"{geo.square_name(sq)}x{geo.square_name(to) if to in geo else '(off)'}"
