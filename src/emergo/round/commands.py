"""The round's commands: what a player (or the timer) does to a game (:func:`emergo.round.apply`).

Each command with ``by`` names the side doing it; :class:`Timeout` and :class:`StartClock` have
none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from emergo.board import Color

__all__ = [
    "Abort",
    "AnswerDraw",
    "AnswerTakeback",
    "ClaimDraw",
    "ClaimVictory",
    "Command",
    "Move",
    "OfferDraw",
    "ProposeTakeback",
    "Resign",
    "StartClock",
    "Timeout",
]


@dataclass(frozen=True)
class Move:
    """``by`` plays ``text`` (any R21 text the parser takes).

    ``lag``: seconds the move spent on the network, as the server measured or was told; up to
    the mover's quota is not charged.  ``offering_draw``: the mover offers a draw with it (or
    accepts the other side's pending offer).
    """

    by: Color
    text: str
    lag: float = 0.0
    offering_draw: bool = False


@dataclass(frozen=True)
class Resign:
    """``by`` resigns (R20)."""

    by: Color


@dataclass(frozen=True)
class Abort:
    """``by`` calls the game off: only before both sides have moved; no result."""

    by: Color


@dataclass(frozen=True)
class OfferDraw:
    """``by`` offers a draw (R19c), or accepts the other side's offer."""

    by: Color


@dataclass(frozen=True)
class AnswerDraw:
    """``by`` answers the draw the other side offered."""

    by: Color
    accept: bool


@dataclass(frozen=True)
class ProposeTakeback:
    """``by`` proposes to take back its last move (and the reply), or accepts a proposal."""

    by: Color


@dataclass(frozen=True)
class AnswerTakeback:
    """``by`` answers the takeback the other side proposed."""

    by: Color
    accept: bool


@dataclass(frozen=True)
class ClaimVictory:
    """``by`` claims the win: the opponent has been gone since ``opponent_gone_since``."""

    by: Color
    opponent_gone_since: float


@dataclass(frozen=True)
class ClaimDraw:
    """``by`` claims a draw: the opponent has been gone since ``opponent_gone_since``."""

    by: Color
    opponent_gone_since: float


@dataclass(frozen=True)
class Timeout:
    """The timer: flags a side out of time, aborts a game whose first moves did not come."""


@dataclass(frozen=True)
class StartClock:
    """A local game starts its clock now for the side to move (``RoundState.local`` only)."""


Command: TypeAlias = (
    Move
    | Resign
    | Abort
    | OfferDraw
    | AnswerDraw
    | ProposeTakeback
    | AnswerTakeback
    | ClaimVictory
    | ClaimDraw
    | Timeout
    | StartClock
)
