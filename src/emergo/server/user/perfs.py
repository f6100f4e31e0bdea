"""A player's ratings: one per variant and speed (lichess's ``perfs``), rated game by game.

Six ratings a player: each variant (``9x9``, ``7x7``, ``hex``) at each speed (``live``;
``correspondence``, which holds unlimited games too: :func:`emergo.clock.speed_of`).  A rating's
key is ``VARIANT-SPEED`` (``9x9-live``).  A :class:`Perf` is the Glicko-2 rating as of its last
game, the games counted and when the last one ended; what it is *now* grows its deviation with
the time since (:meth:`Perf.at`), as lichess's ``Perf`` read with ``Glicko.liveDeviation``.

The JSON of :meth:`Perfs.to_json` is lichess's ``perfs`` shape: ``rating`` and ``rd`` rounded
down to whole points, ``prov`` (provisional: the deviation is 110 or more), ``games``.

>>> from emergo.clock import TimeControl
>>> key = perf_key("9x9", TimeControl.fischer(300, 2)); key
'9x9-live'
>>> white, black = rate(Perf(), Perf(), 1.0, now=1_000_000.0)
>>> white.to_json(now=1_000_000.0)
{'rating': 1741, 'rd': 396, 'prov': True, 'games': 1}
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from emergo.clock import DAY, TimeControl, speed_of
from emergo.geometry import VARIANTS
from emergo.server.user.glicko2 import Rating, rate_game, rd_after

__all__ = [
    "PERF_KEYS",
    "SPEEDS",
    "Perf",
    "Perfs",
    "parse_perf_key",
    "perf_key",
    "rate",
]

SPEEDS: tuple[str, ...] = ("live", "correspondence")
"""The speeds rated apart (:func:`emergo.clock.speed_of`)."""
PERF_KEYS: tuple[str, ...] = tuple(f"{v}-{s}" for v in VARIANTS for s in SPEEDS)
"""Every rating a player has, in the order a profile shows them."""


def perf_key(variant: str, control: TimeControl | None) -> str:
    """The rating a game of ``variant`` under ``control`` counts for (``None``: unlimited).

    >>> perf_key("hex", None), perf_key("7x7", TimeControl.correspondence(3))
    ('hex-correspondence', '7x7-correspondence')
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return f"{variant}-{speed_of(control)}"


def parse_perf_key(key: str) -> tuple[str, str]:
    """``(variant, speed)`` of a key; a clear error for anything else.

    >>> parse_perf_key("9x9-correspondence")
    ('9x9', 'correspondence')
    """
    if key not in PERF_KEYS:
        raise ValueError(f"unknown rating {key!r} (known: {', '.join(PERF_KEYS)})")
    variant, _, speed = key.partition("-")
    return variant, speed


def _time(value: object, what: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise ValueError(f"{what} must be a finite wall time in seconds, not {value!r}")


@dataclass(frozen=True)
class Perf:
    """One rating: Glicko-2 as of its last game, ``games`` rated, ``latest`` (when the last
    ended, wall seconds; ``None`` before the first)."""

    glicko: Rating = field(default_factory=Rating)
    games: int = 0
    latest: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 0:
            raise ValueError(f"a rating's games are a count, not {self.games!r}")
        if self.latest is not None:
            object.__setattr__(self, "latest", _time(self.latest, "a rating's latest game"))

    def at(self, now: float) -> Rating:
        """The rating at ``now``: its deviation grown with the days since the latest game."""
        if self.latest is None:
            return self.glicko
        days = (_time(now, "now") - self.latest) / DAY
        return Rating(self.glicko.rating, rd_after(self.glicko, days), self.glicko.volatility)

    def provisional(self, now: float) -> bool:
        """Whether the rating is a guess at ``now`` (deviation 110 or more)."""
        return self.at(now).provisional

    def to_json(self, now: float) -> dict[str, Any]:
        """lichess's shape: ``rating``, ``rd`` (whole points, rounded down), ``prov``, ``games``."""
        rating = self.at(now)
        return {
            "rating": math.floor(rating.rating),
            "rd": math.floor(rating.rd),
            "prov": rating.provisional,
            "games": self.games,
        }

    def to_store(self) -> dict[str, Any]:
        """Exact values for the database (:meth:`from_store` reads them back)."""
        g = self.glicko
        return {
            "rating": g.rating,
            "rd": g.rd,
            "volatility": g.volatility,
            "games": self.games,
            "latest": self.latest,
        }

    @classmethod
    def from_store(cls, data: Any) -> Perf:
        if not isinstance(data, Mapping):
            raise ValueError(f"a stored rating is an object, not {type(data).__name__}")
        try:
            glicko = Rating(data["rating"], data["rd"], data["volatility"])
            return cls(glicko, data["games"], data.get("latest"))
        except KeyError as e:
            raise ValueError(f"a stored rating needs {e.args[0]!r}") from None


def rate(white: Perf, black: Perf, score: float, now: float) -> tuple[Perf, Perf]:
    """Both ratings after a rated game that ended at ``now``; ``score`` is White's (1, 0.5, 0).

    Each player's deviation first grows with his time away, then the game is a rating period
    (:func:`emergo.server.user.glicko2.rate_game`).
    """
    now = _time(now, "now")
    new_white, new_black = rate_game(white.at(now), black.at(now), score)
    return Perf(new_white, white.games + 1, now), Perf(new_black, black.games + 1, now)


@dataclass(frozen=True)
class Perfs:
    """All of a player's ratings; a rating never played is a new player's (:class:`Perf`)."""

    by_key: Mapping[str, Perf] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key in self.by_key:
            parse_perf_key(key)
        object.__setattr__(self, "by_key", dict(self.by_key))

    def __getitem__(self, key: str) -> Perf:
        parse_perf_key(key)
        return self.by_key.get(key) or Perf()

    def __iter__(self) -> Iterator[tuple[str, Perf]]:
        """Every rating, played or not, in :data:`PERF_KEYS` order."""
        return ((key, self[key]) for key in PERF_KEYS)

    def with_perf(self, key: str, perf: Perf) -> Perfs:
        parse_perf_key(key)
        return Perfs({**self.by_key, key: perf})

    def to_json(self, now: float) -> dict[str, dict[str, Any]]:
        """lichess's ``perfs``: every rating by key, as :meth:`Perf.to_json`.

        >>> Perfs().to_json(now=0.0)["hex-live"]
        {'rating': 1500, 'rd': 500, 'prov': True, 'games': 0}
        """
        return {key: perf.to_json(now) for key, perf in self}
