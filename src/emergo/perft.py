"""Perft for the pure-Python reference: how many move sequences of a given length there are.

A capture route is one move (R12); repetition (R19b) is ignored; a position where the game is
over by R18 or R19a has no moves.  The C kernel has the fast version (``emergo.kernel.perft``);
this one is the yardstick it is tested against.
"""

from __future__ import annotations

from emergo.board import Board, Move


def perft(board: Board, depth: int) -> int:
    """Leaf count of whole-move sequences of length ``depth``; the board is left as it was."""
    if depth == 0:
        return 1
    if depth == 1:
        return board.generate().count()
    total = 0
    for move in board.moves():
        board.push_unchecked(move)  # a move from moves()
        try:
            total += perft(board, depth - 1)
        finally:
            board.pop()
    return total


def perft_divide(board: Board, depth: int) -> list[tuple[Move, int]]:
    """:func:`perft` split by first move: ``(move, leaves below it)`` for every legal move."""
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    out = []
    for move in board.moves():
        board.push_unchecked(move)
        try:
            out.append((move, perft(board, depth - 1)))
        finally:
            board.pop()
    return out
