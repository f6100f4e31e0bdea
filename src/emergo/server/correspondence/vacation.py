"""Vacation: a player stops his correspondence clocks for a while, within a yearly allowance.

The rules (docs/ratings.md, "Vacation"), pure functions over wall times in seconds:

* A player earns :data:`DAYS_A_YEAR` (30) days of vacation a year, a little every day, and holds
  at most :data:`MAX_DAYS` (30) days; a new account starts with the full 30 (OGS's scheme).
* He starts a vacation when he likes and ends it when he likes; it ends by itself when what he
  held runs out.  He earns nothing while on vacation.  A vacation of 0 days left cannot start.
* While he is on vacation, the clocks of his correspondence games do not run while he is to
  move: the server gives him back the time (:func:`credit`, through
  :meth:`emergo.clock.Clock.give_time`) before anything is decided on the game: his move, the
  timer sweep; and the sweep does not look at his game before the vacation could end
  (:func:`timer_due`).  His opponents' clocks run as usual; live games are not concerned.  A
  game whose first moves are not made yet keeps its deadline (it is aborted, not lost).

The history of a player's vacations is a tuple of :class:`Period` (the server's rows), from
which everything else follows: :meth:`Vacations.left`, :meth:`Vacations.on_vacation`,
:meth:`Vacations.spans` (when he really was away).

>>> from emergo.clock import DAY
>>> v = Vacations(joined=0.0)
>>> v.left(now=DAY) / DAY
30.0
>>> v = v.start(now=10 * DAY)
>>> v.on_vacation(now=11 * DAY), v.ends_at() / DAY
(True, 40.0)
>>> v = v.stop(now=14 * DAY)
>>> round(v.left(now=14 * DAY) / DAY, 2), v.paused(0.0, 20 * DAY) / DAY
(26.0, 4.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from emergo.board import Color
from emergo.clock import DAY, Clock
from emergo.server.core.errors import SiteError

__all__ = [
    "DAYS_A_YEAR",
    "MAX_DAYS",
    "YEAR",
    "Period",
    "VacationError",
    "Vacations",
    "credit",
    "timer_due",
]

DAYS_A_YEAR = 30.0
"""Days of vacation a player earns a year."""
MAX_DAYS = 30.0
"""The most days of vacation a player may hold (and what a new account starts with)."""
YEAR = 365.0 * DAY
"""A year, in seconds, for the earning rate."""
EARNED_PER_SECOND = DAYS_A_YEAR * DAY / YEAR
"""Seconds of vacation earned a second while not on vacation (30 days a year)."""


class VacationError(SiteError):
    """A vacation that cannot start or stop now; the message says why."""


def _time(value: object, what: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise VacationError(f"{what} must be a finite wall time in seconds, not {value!r}")


@dataclass(frozen=True)
class Period:
    """A vacation as the player asked for it: from ``start`` to ``end`` (``None``: not ended
    by him; it ends when what he held runs out)."""

    start: float
    end: float | None = None

    def __post_init__(self) -> None:
        _time(self.start, "a vacation's start")
        if self.end is not None and _time(self.end, "a vacation's end") < self.start:
            raise VacationError(f"a vacation ends after it starts: {self.start} > {self.end}")


@dataclass(frozen=True)
class Vacations:
    """A player's vacations: when he joined and his periods, in time order."""

    joined: float
    periods: tuple[Period, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        _time(self.joined, "the time the player joined")
        object.__setattr__(self, "periods", tuple(self.periods))
        last = self.joined
        for i, period in enumerate(self.periods):
            if not isinstance(period, Period):
                raise VacationError(f"a vacation is a Period, not {period!r}")
            if period.start < last:
                raise VacationError("vacations are in time order, after the player joined")
            if period.end is None and i != len(self.periods) - 1:
                raise VacationError("only the last vacation may be going on")
            last = period.end if period.end is not None else period.start

    def _walk(self) -> tuple[float, float, list[tuple[float, float | None]]]:
        """The bank at the last change, when that was, and the real spans (the last open)."""
        bank, at = MAX_DAYS * DAY, self.joined
        spans: list[tuple[float, float | None]] = []
        cap = MAX_DAYS * DAY
        for period in self.periods:
            bank = min(cap, bank + (period.start - at) * EARNED_PER_SECOND)
            runs_out = period.start + bank
            if period.end is None:
                spans.append((period.start, None))
                return bank, period.start, spans
            end = min(period.end, runs_out)
            spans.append((period.start, end))
            bank, at = bank - (end - period.start), end
        return bank, at, spans

    def ends_at(self) -> float | None:
        """When the vacation going on ends by itself (what he held runs out); else ``None``."""
        bank, at, spans = self._walk()
        if spans and spans[-1][1] is None:
            return at + bank
        return None

    def on_vacation(self, now: float) -> bool:
        """Whether the player is on vacation at ``now``."""
        end = self.ends_at()
        return end is not None and self.periods[-1].start <= now < end

    def left(self, now: float) -> float:
        """Seconds of vacation the player holds at ``now`` (on vacation: what remains of it)."""
        now = _time(now, "now")
        bank, at, spans = self._walk()
        if spans and spans[-1][1] is None:
            end = at + bank
            if now < end:
                return max(bank - max(now - at, 0.0), 0.0)
            bank, at = 0.0, end
        return min(MAX_DAYS * DAY, bank + max(now - at, 0.0) * EARNED_PER_SECOND)

    def start(self, now: float) -> Vacations:
        """A vacation starting ``now``; refused while on one or with nothing left."""
        now = _time(now, "now")
        if self.on_vacation(now):
            raise VacationError("you are on vacation already")
        if self.left(now) <= 0:
            raise VacationError("you have no vacation left: you earn 30 days a year")
        periods = list(self.periods)
        if periods and periods[-1].end is None:  # it ran out by itself: close it there
            ended = self.ends_at()
            assert ended is not None
            periods[-1] = Period(periods[-1].start, ended)
        if periods and periods[-1].end is not None and now < periods[-1].end:
            raise VacationError("a vacation starts after the last one ended")
        return Vacations(self.joined, (*periods, Period(now)))

    def stop(self, now: float) -> Vacations:
        """The vacation going on ends ``now``; refused when there is none."""
        now = _time(now, "now")
        if not self.on_vacation(now):
            raise VacationError("you are not on vacation")
        periods = list(self.periods)
        periods[-1] = Period(periods[-1].start, now)
        return Vacations(self.joined, tuple(periods))

    def spans(self) -> list[tuple[float, float]]:
        """When the player was really away: each vacation up to its end or to when what he held
        ran out (one going on: up to when it will run out)."""
        bank, at, spans = self._walk()
        return [(s, e if e is not None else at + bank) for s, e in spans]

    def paused(self, start: float, end: float) -> float:
        """Seconds of ``start`` to ``end`` the player was away."""
        return _overlap(self.spans(), start, end)


def _overlap(spans: Iterable[tuple[float, float]], start: float, end: float) -> float:
    return sum(max(0.0, min(e, end) - max(s, start)) for s, e in spans)


def credit(
    clock: Clock, color: Color, vacations: Vacations, credited_until: float | None, now: float
) -> Clock:
    """``clock`` with ``color`` given back the time he was on vacation while it ran for him.

    Only a running correspondence clock of ``color`` is concerned.  The time counted is from
    when his turn began (``clock.since``) or ``credited_until`` (what an earlier credit covered),
    whichever is later, to ``now``.  The server calls it before it applies anything to the game
    and then stores ``now`` as the game's ``credited_until``.
    """
    if clock.running != color or clock.since is None or clock.control.kind != "correspondence":
        return clock
    start = clock.since if credited_until is None else max(clock.since, credited_until)
    seconds = vacations.paused(start, _time(now, "now"))
    return clock.give_time(color, seconds) if seconds > 0 else clock


def timer_due(
    due: float | None, clock: Clock | None, color: Color, vacations: Vacations
) -> float | None:
    """When the timer sweep should look at a game: the round's ``due``, or, while ``color``
    (whose correspondence clock runs) is on vacation, not before it can end.

    At that moment the sweep credits the time away (:func:`credit`) and the round's due moves on.
    """
    if due is None or clock is None or clock.running != color:
        return due
    if clock.control.kind != "correspondence":
        return due
    ends = vacations.ends_at()
    if ends is None or ends <= due:
        return due
    return ends
