"""The symmetries of the boards: D4 of the square boards (9x9, 7x7), D6 of the hexagon (R1-R4).

A symmetry is a permutation of the squares that keeps every line a line (so adjacency, R2,
and every jump, R9, with its forbidden turn back, R10): it maps a position to a position and
a legal move to a legal move of the image.  They are computed from :mod:`emergo.geometry`'s
data, not written down: every linear map of the ``(u, v)`` grid about the centre with
entries in -1..1 that maps the board's line steps onto its line steps and its squares onto
its squares.  That gives 8 on the diamonds (4 rotations, 4 mirrors) and 12 on the hexagon (6
rotations, 6 mirrors); the identity is first.

Every symmetry fixes the centre (the one square every line family has a line through the
middle of), so the centre ban (R16: White's very first entry may not be the centre) means
the same on every image: a first entry is on the centre exactly when its image is.  The
other rules look only at lines, adjacency and counts (R8-R19), so a position and its images
have the same legal moves, mapped, and the same outcome.

A position's key (:func:`canonical`) is the least, as text, of the canonical R22 strings of
its images: two positions reached by other move orders or that are mirror images share it.
Moves are written in that orientation; :class:`Canonical` maps them back.

>>> from emergo.board import Board
>>> a, b = Board(), Board()
>>> _ = a.push_move("e4"), b.push_move("d5")  # two entries a rotation apart
>>> canonical(a).key == canonical(b).key
True
>>> len(symmetries("9x9")), len(symmetries("hex"))
(8, 12)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cache

from emergo.board import Board, Move
from emergo.errors import InvalidMoveError
from emergo.geometry import STRIDE, Geometry, Square, geometry
from emergo.notation import excerpt, format_stack

__all__ = ["Canonical", "Symmetry", "canonical", "position_key", "symmetries"]


@dataclass(frozen=True, eq=False)
class Symmetry:
    """One symmetry of a board: ``image[sq]`` is the square ``sq`` goes to."""

    variant: str
    index: int
    """Its place in :func:`symmetries` (0: the identity)."""
    name: str
    """``identity``, ``rotation 90°`` ..., ``mirror a5-i5`` (the squares it keeps in place) or
    ``mirror`` (a hexagon's mirror between the lines, which keeps only the centre)."""
    matrix: tuple[int, int, int, int]
    """``(a, b, c, d)``: ``(u, v) - centre`` goes to ``(a*u + b*v, c*u + d*v) + centre``."""
    image: dict[Square, Square] = field(repr=False)
    _names: dict[Square, str] = field(repr=False)
    _by_name: dict[str, str] = field(repr=False)

    def __repr__(self) -> str:
        return f"Symmetry({self.variant!r}, {self.name!r})"

    def square(self, square: Square) -> Square:
        """The image of a square."""
        return self.image[square]

    def move(self, move: Move) -> Move:
        """The image of a move: every square of its path mapped (the kind and counts kept)."""
        return Move(
            move.kind, tuple(self.image[sq] for sq in move.path), move.entered, move.captured
        )

    def move_text(self, text: str) -> str:
        """The image of a canonical R21 move text (``d4``, ``e4-e5``, ``h4xf4xd4``), canonical.

        Raises :class:`InvalidMoveError` for a text that is not of this board's squares.
        """
        sep = "x" if "x" in text else "-" if "-" in text else ""
        parts = text.split(sep) if sep else [text]
        try:
            return sep.join(self._by_name[part] for part in parts)
        except KeyError:
            raise InvalidMoveError(
                f"{excerpt(text)} is not a canonical move text of the {self.variant} board"
            ) from None

    def board(self, board: Board) -> Board:
        """The image of a board's position (a new board, without the move stack)."""
        return Board(self.position(board), variant=board.variant)

    def position(self, board: Board) -> str:
        """The canonical R22 string of the image of a board's position."""
        return _prefix(board) + _squares(_stacks(board), self._names)

    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
        inverses, _ = _tables(self.variant)
        return inverses[self.index]

    def then(self, other: Symmetry) -> Symmetry:
        """This symmetry, then ``other``."""
        _, products = _tables(self.variant)
        return products[self.index][other.index]


def _prefix(board: Board) -> str:
    geo = board.geometry
    parts = [] if geo.name == "9x9" else [geo.name]
    parts.append("w" if board.turn else "b")
    parts.append(f"{board.hand(True)}/{board.hand(False)}")
    return " ".join(parts)


def _stacks(board: Board) -> list[tuple[Square, str]]:
    """The board's pieces as ``(square, ":" + stack text)``."""
    return [
        (sq, ":" + format_stack(st.owner, st.caps, st.prisoners))
        for sq, st in board.stacks().items()
    ]


def _squares(stacks: list[tuple[Square, str]], names: dict[Square, str]) -> str:
    # every square name is two characters (a letter, a digit): sorting the items sorts them by
    # letter then digit, R22's canonical order
    return "".join(sorted([" " + names[sq] + text for sq, text in stacks]))


def _steps(geo: Geometry) -> list[tuple[int, int]]:
    """The board's line steps ``(du, dv)``, read off the centre's neighbours."""
    cu, cv = geo.uv(geo.centre)
    return [(u - cu, v - cv) for u, v in map(geo.uv, geo.neighbours[geo.centre])]


def _embed(geo: Geometry, du: float, dv: float) -> tuple[float, float]:
    """A grid step in the plane as the board is drawn: the diamonds' lines at right angles,
    the hexagon's three families 60 degrees apart (for naming the rotations only)."""
    if geo.shape == "hexagon":
        return dv - du / 2, -du * math.sqrt(3) / 2
    return du, dv


def _name(geo: Geometry, matrix: tuple[int, int, int, int], image: dict[Square, Square]) -> str:
    a, b, c, d = matrix
    if a * d - b * c == 1:
        if matrix == (1, 0, 0, 1):
            return "identity"
        x0, y0 = _embed(geo, 1, 0)
        x1, y1 = _embed(geo, a, c)
        angle = round(math.degrees(math.atan2(x0 * y1 - y0 * x1, x0 * x1 + y0 * y1))) % 360
        return f"rotation {angle}°"
    kept = [sq for sq in geo.squares if image[sq] == sq]
    if len(kept) == 1:
        return "mirror"
    return f"mirror {geo.square_name(kept[0])}-{geo.square_name(kept[-1])}"


@cache
def symmetries(variant: str = "9x9") -> tuple[Symmetry, ...]:
    """The symmetries of a board (module docstring), the identity first, then the rotations,
    then the mirrors."""
    geo = geometry(variant)
    cu, cv = geo.uv(geo.centre)
    steps = set(_steps(geo))
    squares = set(geo.squares)
    found: list[Symmetry] = []
    entries = (-1, 0, 1)
    for a in entries:
        for b in entries:
            for c in entries:
                for d in entries:
                    if a * d - b * c not in (1, -1):
                        continue
                    if {(a * du + b * dv, c * du + d * dv) for du, dv in steps} != steps:
                        continue
                    image: dict[Square, Square] = {}
                    for sq in geo.squares:
                        u, v = geo.uv(sq)
                        u, v = u - cu, v - cv
                        to = (a * u + b * v + cu) * STRIDE + (c * u + d * v + cv)
                        if to not in squares:
                            break
                        image[sq] = to
                    else:
                        matrix = (a, b, c, d)
                        names = {sq: geo.square_name(to) for sq, to in image.items()}
                        by_name = {geo.square_name(sq): names[sq] for sq in geo.squares}
                        name = _name(geo, matrix, image)
                        found.append(Symmetry(variant, 0, name, matrix, image, names, by_name))

    def order(g: Symmetry) -> tuple[int, int, str]:
        rotation = g.name.startswith(("identity", "rotation"))
        angle = int(g.name.split()[1].rstrip("°")) if g.name.startswith("rotation") else 0
        return (0 if rotation else 1, angle, g.name)

    return tuple(replace(g, index=i) for i, g in enumerate(sorted(found, key=order)))


@cache
def _tables(variant: str) -> tuple[tuple[Symmetry, ...], tuple[tuple[Symmetry, ...], ...]]:
    """Each symmetry's inverse, and each product (``products[i][j]``: ``i`` then ``j``)."""
    group = symmetries(variant)
    squares = geometry(variant).squares
    by_image = {tuple(g.image[sq] for sq in squares): g for g in group}
    inverses = tuple(by_image[_undo(g, squares)] for g in group)
    products = tuple(
        tuple(by_image[tuple(h.image[g.image[sq]] for sq in squares)] for h in group) for g in group
    )
    return inverses, products


def _undo(g: Symmetry, squares: tuple[Square, ...]) -> tuple[Square, ...]:
    back = {to: sq for sq, to in g.image.items()}
    return tuple(back[sq] for sq in squares)


@dataclass(frozen=True)
class Canonical:
    """A position in its canonical orientation.

    ``key``: the least canonical R22 string of the position's images; ``symmetry``: the first
    symmetry (in :func:`symmetries`' order) that maps the position to it; ``stabiliser``: the
    symmetries that map ``key`` to itself (the identity alone, unless the position is
    symmetric: the empty board has them all)."""

    key: str
    symmetry: Symmetry
    stabiliser: tuple[Symmetry, ...]

    def move(self, move: Move) -> str:
        """The canonical text of a move of the position: the least text of its images in the
        key's orientation (moves that are images of each other in a symmetric position are one
        move of the key)."""
        images = (self.symmetry.then(s).move(move) for s in self.stabiliser)
        return min(str(m) for m in images)

    def move_text(self, text: str) -> str:
        """:meth:`move` of a move's canonical text."""
        images = (s.move_text(self.symmetry.move_text(text)) for s in self.stabiliser)
        return min(images)

    def shown(self, text: str) -> str:
        """A move of the key (its canonical text) in the orientation of the position asked."""
        return self.symmetry.inverse().move_text(text)


def canonical(board: Board) -> Canonical:
    """The position's key, the symmetry to it and the key's stabiliser (module docstring)."""
    prefix = _prefix(board)
    stacks = _stacks(board)
    best: str | None = None
    chosen: Symmetry | None = None
    images: list[tuple[str, Symmetry]] = []
    for g in symmetries(board.variant):
        text = _squares(stacks, g._names)
        images.append((text, g))
        if best is None or text < best:
            best, chosen = text, g
    assert best is not None and chosen is not None
    # the symmetries s with s(key) = key are chosen^-1 then each g that maps the position to key
    back = chosen.inverse()
    stabiliser = tuple(back.then(g) for text, g in images if text == best)
    return Canonical(prefix + best, chosen, stabiliser)


def position_key(board: Board) -> str:
    """The key of a board's position: :attr:`Canonical.key`."""
    stacks = _stacks(board)
    return _prefix(board) + min(_squares(stacks, g._names) for g in symmetries(board.variant))
