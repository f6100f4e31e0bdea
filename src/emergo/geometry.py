"""Board geometry as data: squares, directions, lines and square names (R1-R4).

The rules code only ever asks a :class:`Geometry` for squares, neighbours and
jump targets, so a new board shape (the hexagonal variant) is a new table here,
not a change to the rules.

Squares are small ints.  For the square-grid variants a square ``(u, v)``
(u = letter index, v = digit, both from 1) is the int ``u * STRIDE + v`` on an
11 x 11 grid whose outer ring is padding.  The padding is what makes bitboard
shifts safe: a piece on the board stepping twice along a line lands either on
the board or on a padding bit, never on the far edge of another line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from emergo.errors import InvalidOptionError

Square = int
Names = Literal["oblique", "checker"]
NAMINGS: tuple[Names, ...] = ("oblique", "checker")

STRIDE = 11
"""Bits per grid row; also the square int of ``(u, v)`` is ``u * STRIDE + v``."""

LETTERS = "abcdefghi"


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board: its squares, the four line directions and both namings (R1-R4)."""

    name: str
    """The variant name used in position strings (R22): ``9x9`` or ``7x7``."""
    size: int
    """Lines per family: 9 for ``9x9`` (lines a-i and 1-9), 7 for ``7x7``."""
    men: int
    """Men per player (R4)."""
    squares: tuple[Square, ...]
    """All squares, sorted by letter then digit (the canonical order of R22)."""
    centre: Square
    """The centre square, banned for White's very first entry (R16)."""
    directions: tuple[int, ...]
    """Square-int offsets of the line directions; ``directions[d ^ 1]`` is the opposite of d."""
    half_directions: tuple[int, ...]
    """One offset of each opposite pair (the others are their negatives), for bitboard shifts."""
    direction_order: tuple[int, ...]
    """Direction indices sorted by offset, so that ``sq + offset`` ascends."""
    mask: int = field(repr=False)
    """Bitboard of all squares."""
    neighbours: tuple[tuple[Square, ...], ...] = field(repr=False)
    """``neighbours[sq]``: the adjacent squares (R2), by direction."""
    jumps: tuple[tuple[tuple[int, Square, Square], ...], ...] = field(repr=False)
    """``jumps[sq]``: ``(direction, over, land)`` for every jump that stays on the board (R9)."""
    lines: tuple[tuple[Square, ...], ...] = field(repr=False)
    """Every line of the board (letter lines, then digit lines), squares in order."""
    _oblique: dict[Square, str] = field(repr=False)
    _checker: dict[Square, str] = field(repr=False)
    _parse: dict[tuple[Names, str], Square] = field(repr=False)

    def __repr__(self) -> str:
        return f"Geometry({self.name!r})"

    def __contains__(self, square: object) -> bool:
        return isinstance(square, int) and square in self._oblique

    def uv(self, square: Square) -> tuple[int, int]:
        """The oblique-line coordinates ``(u, v)`` of a square, both from 1."""
        return divmod(square, STRIDE)

    def checker_coordinates(self, square: Square) -> tuple[int, int]:
        """The checkerboard ``(file, rank)`` of a square, both from 1 (R3)."""
        u, v = divmod(square, STRIDE)
        c = (self.size + 1) // 2
        return u + v - c, v - u + c

    def square_name(self, square: Square, names: Names = "oblique") -> str:
        """``e5`` style name of a square in the oblique (canonical) or checker naming."""
        return (self._checker if names == "checker" else self._oblique)[square]

    def parse_square(self, text: str, names: Names = "oblique") -> Square:
        """The square named ``text``; raises ``KeyError`` when no square has that name."""
        return self._parse[(names, text.lower())]

    def between(self, a: Square, b: Square) -> Square:
        """The square jumped when a piece jumps from ``a`` to ``b`` (R9)."""
        return (a + b) // 2


def _build(name: str, size: int, men: int) -> Geometry:
    c = (size + 1) // 2
    radius = c - 1
    squares = tuple(
        u * STRIDE + v
        for u in range(1, size + 1)
        for v in range(1, size + 1)
        if abs(u - c) + abs(v - c) <= radius
    )
    on = set(squares)
    directions = (1, -1, STRIDE, -STRIDE)
    table = STRIDE * STRIDE
    neighbours: list[tuple[Square, ...]] = [() for _ in range(table)]
    jumps: list[tuple[tuple[int, Square, Square], ...]] = [() for _ in range(table)]
    for sq in squares:
        neighbours[sq] = tuple(sq + o for o in directions if sq + o in on)
        jumps[sq] = tuple(
            (d, sq + o, sq + 2 * o)
            for d, o in enumerate(directions)
            if sq + o in on and sq + 2 * o in on
        )
    letter_lines = [tuple(s for s in squares if s // STRIDE == u) for u in range(1, size + 1)]
    digit_lines = [tuple(s for s in squares if s % STRIDE == v) for v in range(1, size + 1)]
    oblique = {sq: f"{LETTERS[sq // STRIDE - 1]}{sq % STRIDE}" for sq in squares}
    checker = {}
    for sq in squares:
        u, v = divmod(sq, STRIDE)
        checker[sq] = f"{LETTERS[u + v - c - 1]}{v - u + c}"
    parse: dict[tuple[Names, str], Square] = {}
    for sq in squares:
        parse[("oblique", oblique[sq])] = sq
        parse[("checker", checker[sq])] = sq
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return Geometry(
        name=name,
        size=size,
        men=men,
        squares=squares,
        centre=c * STRIDE + c,
        directions=directions,
        half_directions=directions[0::2],
        direction_order=tuple(sorted(range(len(directions)), key=lambda d: directions[d])),
        mask=mask,
        neighbours=tuple(neighbours),
        jumps=tuple(jumps),
        lines=tuple(letter_lines + digit_lines),
        _oblique=oblique,
        _checker=checker,
        _parse=parse,
    )


GEOMETRIES: dict[str, Geometry] = {
    "9x9": _build("9x9", 9, 12),  # R1, R4
    "7x7": _build("7x7", 7, 8),  # R4 (decision)
}
VARIANTS: tuple[str, ...] = tuple(GEOMETRIES)
DEFAULT_VARIANT = "9x9"


def geometry(variant: str = DEFAULT_VARIANT) -> Geometry:
    """The geometry of a variant; raises :class:`InvalidOptionError` naming the known variants."""
    try:
        return GEOMETRIES[variant]
    except (KeyError, TypeError):  # TypeError: an unhashable value is no variant either
        known = ", ".join(VARIANTS)
        raise InvalidOptionError(f"unknown variant {variant!r} (known: {known})") from None
