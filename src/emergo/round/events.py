"""The round's events: what a change did, each with the version of its change.

Every event has a ``to_json()`` with a ``"t"`` key (the socket's message) and the ``version``
of the change that made it: all events of one change share it.  They are the one vocabulary
of a game: the server sends them, and :class:`emergo.game.Game` (the local adapter) passes
them on to its subscribers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from emergo.board import Color, Outcome
from emergo.clock import color_key

__all__ = [
    "ClockStarted",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "GameOver",
    "MovePlayed",
    "TakebackDeclined",
    "TakebackProposed",
    "TakenBack",
]


def _clocks_json(clocks: tuple[float, float] | None) -> list[float] | None:
    return None if clocks is None else [clocks[0], clocks[1]]


@dataclass(frozen=True)
class MovePlayed:
    """A move: canonical ``text`` (R21), ``ply`` from the root (from 1), the mover ``color``.

    ``clocks``: seconds left (white, black) just after it, or ``None`` without a clock.
    """

    version: int
    ply: int
    text: str
    color: Color
    clocks: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "move",
            "version": self.version,
            "ply": self.ply,
            "text": self.text,
            "color": color_key(self.color),
            "clocks": _clocks_json(self.clocks),
        }


@dataclass(frozen=True)
class DrawOffered:
    """``color`` offers a draw."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "drawOffered", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class DrawDeclined:
    """``color`` declined the draw offered to it (an answer, or a move)."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "drawDeclined", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakebackProposed:
    """``color`` proposes a takeback."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "takebackProposed", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakebackDeclined:
    """The takeback proposal ended: ``color`` declined it (an answer, or any move)."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "takebackDeclined", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakenBack:
    """``moves`` (canonical texts, in the order played) were taken back; ``clocks`` after it."""

    version: int
    moves: tuple[str, ...]
    clocks: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "takenBack",
            "version": self.version,
            "moves": list(self.moves),
            "clocks": _clocks_json(self.clocks),
        }


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``outcome.reason()`` says why."""

    version: int
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "gameOver",
            "version": self.version,
            "result": self.outcome.result(),
            "termination": self.outcome.termination.value,
            "winner": color_key(self.outcome.winner),
            "reason": self.outcome.reason(),
        }


@dataclass(frozen=True)
class ClockStarted:
    """A local game's clock started for ``color`` (:class:`StartClock`)."""

    version: int
    color: Color
    clocks: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "clockStarted",
            "version": self.version,
            "color": color_key(self.color),
            "clocks": _clocks_json(self.clocks),
        }


Event: TypeAlias = (
    MovePlayed
    | DrawOffered
    | DrawDeclined
    | TakebackProposed
    | TakebackDeclined
    | TakenBack
    | GameOver
    | ClockStarted
)
