"""Simple built-in opponents: a random player and a one-ply greedy player.

Both are pure functions of ``(board, rng)``: the same position and the same
random state give the same move, and the board is left exactly as it was
(the greedy player tries each move with make/unmake).  They are weak on
purpose: opponents for ``emergo play`` and yardsticks for engine matches.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from emergo.board import Board, Color, Move

Player = Callable[[Board, random.Random], Move]
"""A player chooses a legal move of the position; ``rng`` is its only source of chance."""

WIN_SCORE = 1000
"""Score of a move after which the opponent has lost (R18): above any material balance."""


def _legal(board: Board) -> list[Move]:
    moves = board.moves()
    if not moves:
        raise ValueError(f"no legal move in {board.position()!r}: the game is over (R18, R19a)")
    return moves


def random_player(board: Board, rng: random.Random) -> Move:
    """A legal move chosen uniformly at random."""
    return rng.choice(_legal(board))


def material(board: Board, color: Color) -> int:
    """Men ``color`` controls: in hand, plus every man of the stacks he owns (caps and prisoners).

    Men never leave the board (R5), so the two players' material always adds up to
    all the men of the variant; a capture moves a man from one side to the other (R9).
    """
    total = board.hand(color)
    for sq in board.pieces(color):
        stack = board.stack(sq)
        if stack is not None:
            total += stack.size
    return total


def evaluate_after(board: Board, mover: Color) -> int:
    """Score, for ``mover``, of the position after his move (the opponent is to move).

    Material balance, minus twice the men the opponent's best capture would take
    (each man taken costs a man and gives the opponent a prisoner, R9, R11);
    a lost opponent scores :data:`WIN_SCORE` (R18); a draw (R19a, R19b) scores 0.
    """
    opponent = not mover
    if not board.hand(opponent) and not board.occupied(opponent):
        return WIN_SCORE  # R18
    replies = board.generate()
    if replies.count() == 0 or board.repetitions() >= 3:
        return 0  # R19a, R19b: a draw
    balance = material(board, mover) - material(board, opponent)
    if board.is_capturing():  # R8: the opponent must capture, and takes the most men (R11)
        balance -= 2 * replies.size
    return balance


def greedy_player(board: Board, rng: random.Random) -> Move:
    """The move with the best score after it (one ply, :func:`evaluate_after`); ties at random."""
    mover = board.turn
    best_score: int | None = None
    best: list[Move] = []
    for move in _legal(board):
        board._make(move)  # moves() gave legal moves: skip push's legality check
        try:
            score = evaluate_after(board, mover)
        finally:
            board.pop()
        if best_score is None or score > best_score:
            best_score, best = score, [move]
        elif score == best_score:
            best.append(move)
    return rng.choice(best)


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}
"""The built-in players by the name the command line uses."""
