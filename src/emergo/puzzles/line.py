"""What a line of moves does: material, the positions moves lead to, the hops of a capture.

**Material** (docs/puzzles.md): a player's *free men* are his men in hand and the caps of the
pieces he owns (R5, R6): the men he can still play with.  His men held as prisoners under the
opponent's caps are not his (he gets them back only by liberating them, R9), nor are the
opponent's men under his own caps (the opponent's, if he liberates them).  A capture of ``k``
men takes ``k`` from the opponent's free men (R9, R11); a liberation gives the freed prisoners
back to their colour; an entry moves a man from hand to the board and changes nothing.  The
*balance* is the player's free men less the opponent's; a player whose free men are 0 has lost
(R18).

>>> from emergo.board import BLACK, WHITE, Board
>>> board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
>>> free_men(board, WHITE), free_men(board, BLACK), balance(board, WHITE)
(3, 5, -2)
>>> move = board.moves()[0]; str(move)
'e4xc4xc6xe6xe4xc4'
>>> board.push(move); balance(board, WHITE)   # five men taken, two white men freed
5
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from emergo.board import CAPTURE, Board, Color, Move, MoveKind
from emergo.geometry import GEOMETRIES, Square

__all__ = [
    "SETTLE_MAX",
    "Hop",
    "balance",
    "free_men",
    "groups",
    "hops",
    "result",
    "revisits",
    "settle",
    "threat",
    "wins_now",
]


def free_men(board: Board, color: Color) -> int:
    """Men in hand and caps of ``color``'s pieces: his material (see the module)."""
    stacks = board.stacks()
    return board.hand(color) + sum(stacks[sq].caps for sq in board.pieces(color))


def balance(board: Board, color: Color) -> int:
    """``color``'s free men less the opponent's."""
    return free_men(board, color) - free_men(board, not color)


def result(board: Board, move: Move) -> str:
    """The position (R22) a legal move leads to; ``board`` is left as it was."""
    board.push_unchecked(move)
    try:
        return board.position()
    finally:
        board.pop()


def threat(board: Board, color: Color) -> int:
    """The men ``color``'s capture would take (R11) if it were his turn now; 0 for none."""
    if board.turn != color:
        fields = board.position().split()
        side = 1 if fields[0] in GEOMETRIES else 0
        fields[side] = "w" if color else "b"
        board = Board(" ".join(fields))
    moves = board.generate()
    return moves.size if moves.kind == CAPTURE else 0


def wins_now(board: Board, move: Move) -> bool:
    """The legal ``move`` wins the game at once: the opponent has no men left to play (R18)."""
    board.push_unchecked(move)
    try:
        outcome = board.outcome()
        return outcome is not None and outcome.winner == (not board.turn)
    finally:
        board.pop()


def groups(board: Board) -> dict[str, list[Move]]:
    """The legal moves by the position each leads to (two tied capture routes that end in the
    same position are one choice, R11), in the order of :meth:`Board.moves`."""
    out: dict[str, list[Move]] = {}
    for move in board.moves():
        out.setdefault(result(board, move), []).append(move)
    return out


@dataclass(frozen=True)
class Hop:
    """One jump of a capture route (R9): over ``square``, where the jumped piece had ``caps``
    men of its owner over ``prisoners`` of the capturer's colour just before the jump."""

    start: Square
    square: Square
    land: Square
    caps: int
    prisoners: int

    @property
    def decapitates(self) -> bool:
        """A guard is taken off a piece that holds the capturer's men."""
        return self.prisoners > 0

    @property
    def liberates(self) -> bool:
        """The last guard is taken: the prisoners are the capturer's again (R9)."""
        return self.caps == 1 and self.prisoners > 0


def hops(board: Board, move: Move) -> Iterator[Hop]:
    """The jumps of a capture in order, each with the jumped piece as it was just before (a
    piece jumped twice shows one cap fewer the second time, R10); nothing for other moves."""
    if move.kind is not MoveKind.CAPTURE:
        return
    state: dict[Square, tuple[int, int]] = {}
    for start, land in itertools.pairwise(move.path):
        over = (start + land) // 2
        if over not in state:
            stack = board.stack(over)
            assert stack is not None, "a capture jumps a piece"
            state[over] = (stack.caps, stack.prisoners)
        caps, prisoners = state[over]
        yield Hop(start, over, land, caps, prisoners)
        # R9: the top man goes; after the last one the square is no enemy piece to jump
        state[over] = (caps - 1, prisoners) if caps > 1 else (0, 0)


def revisits(move: Move) -> bool:
    """A capture that lands on a square twice (its start counts: it is vacant once left) or
    jumps the same piece twice (R10)."""
    if move.kind is not MoveKind.CAPTURE:
        return False
    path = move.path
    jumped = [(a + b) // 2 for a, b in itertools.pairwise(path)]
    return len(set(path)) < len(path) or len(set(jumped)) < len(jumped)


SETTLE_MAX = 12
"""Captures :func:`settle` looks ahead at most."""


def settle(board: Board, color: Color) -> tuple[int, Board]:
    """``color``'s balance once the captures that follow by force are made (R8), and the
    position where they end (a new board, no history).

    While the player to move must capture, each side picks, among the majority routes (R11),
    the one best for his own balance at the end (a minimax over the captures only, at most
    :data:`SETTLE_MAX` of them in a row; at that depth the balance is taken as it stands).
    A line is judged by its material there, so that it never ends on a gain the next capture
    takes back, nor loses a feed's pay-off because the captures come after it.
    """
    memo: dict[tuple[str, int], tuple[int, str]] = {}

    def value(b: Board, depth: int) -> tuple[int, str]:
        position = b.position()
        if depth == 0 or b.outcome() is not None or not b.is_capturing():
            return balance(b, color), position
        found = memo.get((position, depth))
        if found is not None:
            return found
        options = []
        for move, *_ in groups(b).values():
            b.push_unchecked(move)
            options.append(value(b, depth - 1))
            b.pop()
        best = max(options) if b.turn == color else min(options)
        memo[(position, depth)] = best
        return best

    scratch = Board(board.position())
    total, where = value(scratch, SETTLE_MAX)
    return total, Board(where)
