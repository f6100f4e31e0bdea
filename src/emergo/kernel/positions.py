"""Positions in the kernel's form (:func:`pack`), the variants registered, checked numbers.

Importing this module gives the kernel every board of :data:`emergo.geometry.GEOMETRIES` as
data (R4): the C side then plays each variant without code of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from emergo import _kernel
from emergo.board import BLACK, WHITE, Board
from emergo.geometry import GEOMETRIES, Geometry

__all__ = [
    "CAPTURE",
    "MAX_COUNT",
    "MAX_SEED",
    "Packed",
    "Position",
    "as_board",
    "checked_count",
    "checked_seed",
    "pack",
    "pack_many",
    "path_text",
    "supports",
]

Position = str | Board
Packed = tuple[str, bytes]

MAX_SEED = 2**64
MAX_COUNT = 2**64 - 1
"""Largest number of games or nodes the kernel takes (an unsigned 64-bit int)."""

CAPTURE = 3
"""The kernel's kind code of a capture (R9-R12)."""


def _register(geo: Geometry) -> None:
    """Give the kernel a board as data (squares, directions, jump table, names).

    A variant is registered once; importing this module again registers the
    same tables, which the kernel accepts as a no-op.
    """
    jumps = [(sq, d, over, land) for sq in geo.squares for d, over, land in geo.jumps[sq]]
    names = [geo.square_name(sq) for sq in geo.squares]
    _kernel.register_geometry(
        geo.name, geo.men, geo.centre, geo.directions, geo.squares, names, jumps
    )


for _geo in GEOMETRIES.values():
    _register(_geo)


def supports(variant: str) -> bool:
    """Whether the kernel plays ``variant`` (R4): every variant of the library is registered."""
    return variant in GEOMETRIES


def as_board(position: Position, variant: str | None) -> Board:
    """``position`` as a board (an R22 text parsed, a board checked to be of ``variant``)."""
    if isinstance(position, Board):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the board is {position.variant} but variant {variant} was asked")
        return position
    if isinstance(position, str):
        return Board(position, variant=variant)
    raise TypeError(f"a position is an R22 string or a Board, not {type(position).__name__}")


def pack(position: Position, *, variant: str | None = None) -> Packed:
    """The kernel's form of a position: ``(variant, bytes)`` built from the Board's public API.

    Bytes: side to move, White's hand, Black's hand, then square, owner,
    caps, prisoners per stack (R5, R6).
    """
    board = as_board(position, variant)
    data = bytearray((int(board.turn), board.hand(WHITE), board.hand(BLACK)))
    for sq, st in board.stacks().items():
        data += bytes((sq, int(st.owner), st.caps, st.prisoners))
    return board.variant, bytes(data)


def pack_many(positions: Iterable[Position], variant: str | None) -> list[Packed]:
    """:func:`pack` of each position (a single position is refused: a text is iterable)."""
    if isinstance(positions, (str, Board)):
        raise TypeError("positions must be an iterable of positions, not a single position")
    return [pack(p, variant=variant) for p in positions]


def checked_count(value: int, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``value`` checked to be an int in ``low..high`` (the C side never wraps a number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {value}")
    return value


def checked_seed(seed: int) -> int:
    """A seed as the kernel takes it: any 64-bit int, signed or not, taken modulo 2**64."""
    return checked_count(seed, "seed", -(2**63), MAX_SEED - 1) % MAX_SEED


def path_text(geo: Geometry, kind: int, path: Sequence[int]) -> str:
    """The canonical R21 text of a path (the one formatter: the geometry's names)."""
    return ("x" if kind == CAPTURE else "-").join(geo.square_name(sq) for sq in path)
