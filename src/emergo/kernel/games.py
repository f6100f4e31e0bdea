"""Games in the kernel: random playouts, whole games ply by ply, replays, the self-check."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from emergo import _kernel
from emergo.board import WHITE, Board, Color, Termination
from emergo.errors import IllegalMoveError, InvalidMoveError
from emergo.geometry import Names
from emergo.kernel.positions import Position, as_board, checked_count, checked_seed, pack

__all__ = [
    "KernelGame",
    "PlayoutStats",
    "playouts",
    "playouts_batch",
    "random_game",
    "replay",
    "self_check",
]


class PlayoutStats(NamedTuple):
    """What random playouts from a position came to.

    ``wins``, ``draws`` and ``losses`` are from the view of the player to move
    in the position played out; ``white_wins``/``black_wins`` by colour.
    """

    games: int
    wins: int
    draws: int
    losses: int
    white_wins: int
    black_wins: int
    mean_length: float
    """Mean number of plies (moves) per game."""
    terminations: dict[str, int]
    """Games by how they ended: ``no-pieces`` (R18), ``blocked`` (R19a), ``repetition`` (R19b)."""


@dataclass(frozen=True)
class KernelGame:
    """A whole game played (or replayed) by the kernel, ply by ply."""

    start: str
    """The canonical R22 start position."""
    legal: list[list[str]]
    """Per ply: the legal moves (R21 texts, sorted) of the position before the move."""
    moves: list[str]
    """Per ply: the move played."""
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` when a replay stops before the end (R20)."""
    termination: Termination | None
    """How the game ended (R18, R19a, R19b), or ``None`` while it goes on."""
    final: str
    """The canonical R22 position after the last move."""


def _stats(raw: tuple[int, ...], mover: Color) -> PlayoutStats:
    games, white, black, draws, plies, no_pieces, blocked, repetition = raw
    wins, losses = (white, black) if mover == WHITE else (black, white)
    return PlayoutStats(
        games=games,
        wins=wins,
        draws=draws,
        losses=losses,
        white_wins=white,
        black_wins=black,
        mean_length=plies / games if games else 0.0,
        terminations={
            Termination.NO_PIECES.value: no_pieces,
            Termination.BLOCKED.value: blocked,
            Termination.REPETITION.value: repetition,
        },
    )


def playouts(
    position: Position, n: int, seed: int = 0, *, variant: str | None = None
) -> PlayoutStats:
    """Play ``n`` uniformly random games to the end (R18, R19a, R19b); the GIL is released.

    Game ``i`` is :func:`random_game` with seed ``seed + i``.
    """
    board = as_board(position, variant)
    raw = _kernel.playouts(pack(board), checked_count(n, "n"), checked_seed(seed))
    return _stats(raw, board.turn)


def playouts_batch(
    positions: Iterable[Position], n: int, seed: int = 0, *, variant: str | None = None
) -> list[PlayoutStats]:
    """:func:`playouts` of many positions in one call, each with the same ``n`` and ``seed``."""
    if isinstance(positions, (str, Board)):
        raise TypeError("positions must be an iterable of positions, not a single position")
    boards = [as_board(p, variant) for p in positions]
    raws = _kernel.playouts_batch(
        [pack(b) for b in boards], checked_count(n, "n"), checked_seed(seed)
    )
    return [_stats(raw, b.turn) for raw, b in zip(raws, boards, strict=True)]


def _game(board: Board, raw: tuple[list[list[str]], list[str], str, str | None, str]) -> KernelGame:
    legal, moves, result, termination, final = raw
    return KernelGame(
        start=board.position(),
        legal=legal,
        moves=moves,
        result=result,
        termination=Termination(termination) if termination else None,
        final=final,
    )


def random_game(
    position: Position | None = None, seed: int = 0, *, variant: str | None = None
) -> KernelGame:
    """A uniformly random game to its end, with every ply's legal moves (for differential tests)."""
    board = Board(variant=variant) if position is None else as_board(position, variant)
    return _game(board, _kernel.game(pack(board), checked_seed(seed), None))


def replay(
    position: Position | None,
    moves: Iterable[str],
    *,
    variant: str | None = None,
    names: Names = "oblique",
) -> KernelGame:
    """Play the given R21 texts (full squares) in the kernel, with every ply's legal moves.

    Raises :class:`InvalidMoveError` for a text that names no squares of the
    board and :class:`IllegalMoveError` (saying which move) for an illegal move
    or a move after the end of the game.
    """
    board = Board(variant=variant) if position is None else as_board(position, variant)
    geo = board.geometry
    paths: list[tuple[int, ...]] = []
    for text in moves:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        parts = text.strip().lower().replace("x", "-").split("-")
        try:
            paths.append(tuple(geo.parse_square(part, names) for part in parts))
        except KeyError:
            raise InvalidMoveError(
                f"{text!r} is not a move of full square names on the {geo.name} board"
            ) from None
    try:
        raw = _kernel.game(pack(board), 0, paths)
    except ValueError as e:
        raise IllegalMoveError(str(e)) from None
    return _game(board, raw)


def self_check(
    position: Position | None = None, n: int = 100, seed: int = 0, *, variant: str | None = None
) -> tuple[PlayoutStats, list[str]]:
    """Random games with the kernel checking itself at every ply; returns stats and failures.

    Checked per position: bitboards and stacks agree (R6), men are conserved,
    the incremental Zobrist key equals the recomputed one, counting and listing
    generation agree, capture priority (R8) and route lengths (R11) hold, no
    move is listed twice, and make/unmake of every legal move restores the
    position exactly.  The games are those of :func:`playouts` with the same seed.
    """
    board = Board(variant=variant) if position is None else as_board(position, variant)
    raw, errors = _kernel.selfcheck(pack(board), checked_count(n, "n"), checked_seed(seed))
    return _stats(raw, board.turn), list(errors)
