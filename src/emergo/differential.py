"""Kernel against reference: the one comparison of :mod:`emergo.kernel` with :class:`emergo.Board`.

The rules live twice (readable in :mod:`emergo.board`, fast in C); the tests
and ``tools/soak.py`` prove them equal with these functions.  Each returns
``None`` when the two agree and otherwise a one-line description of the first
difference, naming the position (and the seed that reproduces a game).

>>> from emergo import differential
>>> differential.compare_position("b 11/12 d4:w", perft_depth=2) is None
True
>>> differential.compare_game(seed=7, variant="7x7") is None
True
"""

from __future__ import annotations

import random

from emergo import kernel
from emergo.board import Board
from emergo.perft import perft

__all__ = ["compare_game", "compare_position", "reference_moves"]


def reference_moves(board: Board) -> list[str]:
    """The reference's legal moves as sorted canonical R21 texts (the kernel's form)."""
    return sorted(str(m) for m in board.moves())


def compare_position(position: str | Board, *, perft_depth: int = 0) -> str | None:
    """Legal moves (R8-R18) and, given ``perft_depth``, perft to that depth: kernel vs reference."""
    board = Board(position) if isinstance(position, str) else position
    if kernel.legal_moves(board) != reference_moves(board):
        return f"legal moves differ at {board.position()}"
    if perft_depth > 0 and kernel.perft(board, perft_depth) != perft(board, perft_depth):
        return f"perft {perft_depth} differs at {board.position()}"
    return None


def compare_game(
    position: str | Board | None = None,
    seed: int = 0,
    *,
    variant: str | None = None,
    perft_depth: int = 0,
) -> str | None:
    """Replay the kernel's random game ``seed`` from ``position`` in the reference, ply by ply.

    Compared: at every ply the game is not over for the reference and the
    legal-move sets agree; at the end the result, the termination (R18,
    R19a, R19b) and the final position.  With ``perft_depth`` > 0, perft to
    that depth is also compared at one ply chosen by the seed.
    """
    game = kernel.random_game(position, seed=seed, variant=variant)
    board = Board(game.start)
    where = f"seed {seed}"
    probe = random.Random(seed).randrange(len(game.moves) + 1) if perft_depth > 0 else -1
    for ply, (legal, played) in enumerate(zip(game.legal, game.moves, strict=True)):
        if ply == probe and (problem := compare_position(board, perft_depth=perft_depth)):
            return f"{where} ply {ply}: {problem}"
        if board.outcome() is not None:
            return f"{where} ply {ply}: the reference says the game is over at {board.position()}"
        moves = board.moves()
        texts = [str(m) for m in moves]
        if sorted(texts) != legal:
            return f"{where} ply {ply}: legal moves differ at {board.position()}"
        board.push(moves[texts.index(played)])
    if probe == len(game.moves) and (problem := compare_position(board, perft_depth=perft_depth)):
        return f"{where} ply {probe}: {problem}"
    outcome = board.outcome()
    if outcome is None:
        return f"{where}: the kernel ended the game at {board.position()}, the reference goes on"
    if (outcome.result(), outcome.termination, board.position()) != (
        game.result,
        game.termination,
        game.final,
    ):
        return (
            f"{where}: ends differ: reference {outcome.result()} {outcome.termination.value} "
            f"{board.position()}, kernel {game.result} {game.termination} {game.final}"
        )
    return None
