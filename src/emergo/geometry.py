"""Board geometry as data: squares, directions, lines and square names (R1-R4).

The rules code only ever asks a :class:`Geometry` for squares, neighbours and
jump targets, so a board shape is a table here, not a change to the rules: the
hexagon of HexEmergo (R4 ``hex``) is the same code with other data.

Squares are small ints.  A square ``(u, v)`` (u = letter index, v = digit, both
from 1) is the int ``u * STRIDE + v`` on an 11 x 11 grid whose outer ring is
padding; the hexagon's cells use the same encoding on its 7 x 7 part.  The
padding is what makes bitboard shifts safe: a piece on the board stepping twice
along a line lands either on the board or on a padding bit, never on the far
edge of another line.  A direction is an int offset too: ``(du, dv)`` is
``du * STRIDE + dv``; the square boards have four (R2), the hexagon six.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from emergo.errors import InvalidOptionError, NamingError

Square = int
Names = Literal["oblique", "checker"]
NAMINGS: tuple[Names, ...] = ("oblique", "checker")
Shape = Literal["diamond", "hexagon"]

STRIDE = 11
"""Bits per grid row; also the square int of ``(u, v)`` is ``u * STRIDE + v``."""

LETTERS = "abcdefghi"


@dataclass(frozen=True, eq=False)
class Geometry:
    """One board: its squares, its line directions and its square namings (R1-R4)."""

    name: str
    """The variant name used in position strings (R22): ``9x9``, ``7x7`` or ``hex``."""
    size: int
    """Letter (and digit) lines: 9 for ``9x9`` (lines a-i and 1-9), 7 for ``7x7`` and ``hex``."""
    men: int
    """Men per player (R4)."""
    shape: Shape
    """``diamond`` (the dark squares of a checkerboard, R1) or ``hexagon`` (R4 ``hex``)."""
    namings: tuple[Names, ...]
    """The square namings the board has: both on the square boards, only ``oblique`` on hex."""
    squares: tuple[Square, ...]
    """All squares, sorted by letter then digit (the canonical order of R22)."""
    centre: Square
    """The centre square, banned for White's very first entry (R16)."""
    directions: tuple[int, ...]
    """Square-int offsets of the line directions (4, or 6 on the hexagon); ``directions[d ^ 1]``
    is the opposite of d."""
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
    """Every line of the board, squares in order: letter lines, digit lines, then on the hexagon
    the lines along ``(+1, +1)``."""
    _oblique: dict[Square, str] = field(repr=False)
    _checker: dict[Square, str] = field(repr=False)
    _parse: dict[tuple[Names, str], Square] = field(repr=False)

    def __repr__(self) -> str:
        return f"Geometry({self.name!r})"

    def __contains__(self, square: object) -> bool:
        return isinstance(square, int) and square in self._oblique

    def uv(self, square: Square) -> tuple[int, int]:
        """The coordinates ``(u, v)`` of a square: letter index and digit, both from 1."""
        return divmod(square, STRIDE)

    def check_naming(self, names: str) -> None:
        """Raise :class:`NamingError` unless the board has square names of that kind."""
        if names not in self.namings:
            if names == "checker":
                raise NamingError(
                    f"the {self.name} board has no checkerboard square names (R3 names the squares "
                    "of the square boards only): use the oblique names"
                )
            raise NamingError(f"unknown naming {names!r} (known: {', '.join(NAMINGS)})")

    def checker_coordinates(self, square: Square) -> tuple[int, int]:
        """The checkerboard ``(file, rank)`` of a square, both from 1 (R3); square boards only."""
        self.check_naming("checker")
        u, v = divmod(square, STRIDE)
        c = (self.size + 1) // 2
        return u + v - c, v - u + c

    def square_name(self, square: Square, names: Names = "oblique") -> str:
        """``e5`` style name of a square in the oblique (canonical) or checker naming.

        Raises :class:`NamingError` for a naming the board does not have (checker on hex).
        """
        if names == "checker":
            if not self._checker:
                self.check_naming(names)
            return self._checker[square]
        return self._oblique[square]

    def parse_square(self, text: str, names: Names = "oblique") -> Square:
        """The square named ``text``; raises ``KeyError`` when no square has that name.

        Raises :class:`NamingError` for a naming the board does not have (checker on hex).
        """
        if names == "checker" and not self._checker:
            self.check_naming(names)
        return self._parse[(names, text.lower())]

    def between(self, a: Square, b: Square) -> Square:
        """The square jumped when a piece jumps from ``a`` to ``b`` (R9)."""
        return (a + b) // 2


_SQUARE_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
"""R2: along a letter line (digit +-1) and along a digit line (letter +-1)."""
_HEX_STEPS = (*_SQUARE_STEPS, (1, 1), (-1, -1))
"""R4 hex: the two square-grid line families plus the third family of the hexagon."""


def _build(
    name: str,
    size: int,
    men: int,
    *,
    shape: Shape,
    steps: tuple[tuple[int, int], ...],
    on_board: Callable[[int, int], bool],
) -> Geometry:
    """One board from its data: which ``(u, v)`` exist and the steps ``(du, dv)`` of its lines.

    ``steps`` come in opposite pairs (``steps[d ^ 1]`` is the opposite of ``steps[d]``), the
    positive one first.
    """
    c = (size + 1) // 2
    squares = tuple(
        u * STRIDE + v for u in range(1, size + 1) for v in range(1, size + 1) if on_board(u, v)
    )
    on = set(squares)
    directions = tuple(du * STRIDE + dv for du, dv in steps)
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
    lines: list[tuple[Square, ...]] = []
    for du, dv in steps[0::2]:  # one family of lines per opposite pair of directions
        o = du * STRIDE + dv
        family = []
        for sq in squares:
            if sq - o not in on:  # the first square of a line
                line = [sq]
                while line[-1] + o in on:
                    line.append(line[-1] + o)
                family.append(tuple(line))

        def across(line: tuple[Square, ...], du: int = du, dv: int = dv) -> int:
            u, v = divmod(line[0], STRIDE)  # what stays constant along the line
            return u if du == 0 else v if dv == 0 else u - v

        lines.extend(sorted(family, key=across))
    oblique = {sq: f"{LETTERS[sq // STRIDE - 1]}{sq % STRIDE}" for sq in squares}
    checker = {}
    if shape == "diamond":
        for sq in squares:
            u, v = divmod(sq, STRIDE)
            checker[sq] = f"{LETTERS[u + v - c - 1]}{v - u + c}"
    parse: dict[tuple[Names, str], Square] = {}
    for sq in squares:
        parse[("oblique", oblique[sq])] = sq
        if checker:
            parse[("checker", checker[sq])] = sq
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return Geometry(
        name=name,
        size=size,
        men=men,
        shape=shape,
        namings=NAMINGS if checker else ("oblique",),
        squares=squares,
        centre=c * STRIDE + c,
        directions=directions,
        half_directions=directions[0::2],
        direction_order=tuple(sorted(range(len(directions)), key=lambda d: directions[d])),
        mask=mask,
        neighbours=tuple(neighbours),
        jumps=tuple(jumps),
        lines=tuple(lines),
        _oblique=oblique,
        _checker=checker,
        _parse=parse,
    )


def _diamond(n: int) -> Callable[[int, int], bool]:
    """R1, R4: the squares within ``n`` line steps of the centre."""
    c = n + 1
    return lambda u, v: abs(u - c) + abs(v - c) <= n


def _hexagon(u: int, v: int) -> bool:
    """R4 hex: rows a-g of 4, 5, 6, 7, 6, 5, 4 cells (``|u-v| <= 3`` on the 7 x 7 grid)."""
    return abs(u - v) <= 3


GEOMETRIES: dict[str, Geometry] = {
    "9x9": _build("9x9", 9, 12, shape="diamond", steps=_SQUARE_STEPS, on_board=_diamond(4)),  # R1
    "7x7": _build("7x7", 7, 8, shape="diamond", steps=_SQUARE_STEPS, on_board=_diamond(3)),  # R4
    "hex": _build("hex", 7, 12, shape="hexagon", steps=_HEX_STEPS, on_board=_hexagon),  # R4
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
