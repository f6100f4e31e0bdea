"""The exceptions of the library; all are ``ValueError`` so callers may catch broadly."""

from __future__ import annotations

from collections.abc import Sequence


class InvalidMoveError(ValueError):
    """The text is not a move in any notation the parser knows (R21)."""


class IllegalMoveError(ValueError):
    """The move is well formed but not legal in the position; the message says why."""


class AmbiguousMoveError(ValueError):
    """The text matches several legal moves; ``candidates`` holds their canonical texts."""

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[str, ...] = tuple(candidates)


class InvalidPositionError(ValueError):
    """The text is not a valid position string (R22) or describes an impossible position."""


class InvalidSquareError(ValueError):
    """The text is not the name of a square, or the int is not a square of the board (R1, R3)."""


class InvalidOptionError(ValueError):
    """An option such as ``variant=`` or ``names=`` has a value the library does not know.

    The message lists the values it knows.
    """


class NamingError(InvalidOptionError):
    """The board has no square names of the kind asked for: the hexagon has no checkerboard
    naming (R3 names the squares of the square boards only; R4)."""
