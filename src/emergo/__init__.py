"""Emergo (Christian Freeling & Ed van Zon, 1986): exact rules, notation and records.

The flat names here are the rules library (docs/rules.md R1-R22); optional parts live in
submodules imported on purpose: :mod:`emergo.record` (game records),
:mod:`emergo.svg` (pictures), :mod:`emergo.kernel` (the fast C kernel).
"""

from emergo.board import (
    BLACK,
    COLOR_NAMES,
    COLORS,
    WHITE,
    Board,
    Color,
    LegalMoves,
    Move,
    MoveKind,
    MoveSet,
    Outcome,
    Stack,
    Termination,
)
from emergo.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSquareError,
    NamingError,
)
from emergo.geometry import NAMINGS, VARIANTS, Geometry, Names, Square, geometry
from emergo.notation import check_names, parse_square, to_square

__version__ = "0.1.0"

__all__ = [
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "NAMINGS",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidSquareError",
    "LegalMoves",
    "Move",
    "MoveKind",
    "MoveSet",
    "Names",
    "NamingError",
    "Outcome",
    "Square",
    "Stack",
    "Termination",
    "geometry",
    "square",
    "square_name",
]


def square(name: str, variant: str = "9x9", *, names: Names = "oblique") -> Square:
    """The square int of a name such as ``e5`` (R1; R3 with ``names="checker"``), any case.

    Raises :class:`InvalidSquareError` when no square of the board has that name.
    """
    return parse_square(geometry(variant), name, names)


def square_name(sq: Square, variant: str = "9x9", *, names: Names = "oblique") -> str:
    """The name of a square int (R1; R3 with ``names="checker"``).

    Raises :class:`InvalidSquareError` when the int is not a square of the board.
    """
    geo = geometry(variant)
    return geo.square_name(to_square(geo, sq), check_names(names))
