"""Emergo (Christian Freeling & Ed van Zon, 1986): exact rules, notation and records.

The flat names here are the rules library (RULES.md R1-R22); optional parts live in
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
    InvalidPositionError,
    NamingError,
)
from emergo.geometry import NAMINGS, VARIANTS, Geometry, Names, Square, geometry

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
    "InvalidPositionError",
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


def square(name: str, variant: str = "9x9") -> Square:
    """The square int of an oblique-line name such as ``e5`` (R1)."""
    return geometry(variant).parse_square(name)


def square_name(sq: Square, variant: str = "9x9") -> str:
    """The oblique-line name of a square int (R1)."""
    return geometry(variant).square_name(sq)
