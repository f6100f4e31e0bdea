"""Legal moves (R8-R17), perft and Zobrist keys, computed by the kernel."""

from __future__ import annotations

from collections.abc import Iterable

from emergo import _kernel
from emergo.kernel.positions import (
    Position,
    as_board,
    checked_count,
    pack,
    pack_many,
    path_text,
)

__all__ = ["legal_moves", "legal_moves_batch", "perft", "perft_divide", "zobrist"]


def legal_moves(position: Position, *, variant: str | None = None) -> list[str]:
    """The legal moves (R8-R17) as canonical R21 texts, sorted (code-point order).

    Empty when the player to move is blocked (R19a) or either player has lost
    (R18).  Repetition (R19b) depends on the history and is not looked at.
    """
    board = as_board(position, variant)
    kind, _size, paths = _kernel.legal(pack(board))
    return sorted(path_text(board.geometry, kind, path) for path in paths)


def legal_moves_batch(
    positions: Iterable[Position], *, variant: str | None = None
) -> list[list[str]]:
    """:func:`legal_moves` of many positions in one call (texts formatted in C)."""
    result: list[list[str]] = _kernel.legal_batch(pack_many(positions, variant))
    return result


def perft(position: Position, depth: int, *, variant: str | None = None) -> int:
    """Move sequences of length ``depth`` (a capture route is one move; repetition ignored)."""
    depth = checked_count(depth, "depth", 0, _kernel.MAX_PERFT_DEPTH)
    return int(_kernel.perft(pack(position, variant=variant), depth))


def perft_divide(position: Position, depth: int, *, variant: str | None = None) -> dict[str, int]:
    """Perft split by first move: ``{move text: perft(depth - 1) after it}``, sorted by text."""
    board = as_board(position, variant)
    checked_count(depth, "depth", 1, _kernel.MAX_PERFT_DEPTH)
    kind, rows = _kernel.perft_divide(pack(board), depth)
    geo = board.geometry
    return dict(sorted((path_text(geo, kind, path), n) for path, n in rows))


def zobrist(position: Position, *, variant: str | None = None) -> int:
    """The kernel's 64-bit Zobrist key of stacks, hands and side to move (R19b)."""
    return int(_kernel.key(pack(position, variant=variant)))
