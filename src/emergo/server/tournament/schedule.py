"""The site's scheduled events (docs/tournaments.md, "Who makes them"): the config's
``[[tournaments.schedule]]`` tables, each an event made again every hour, day or week.

A table names when (``every``: ``hourly``, ``daily`` or ``weekly``; ``at``: ``"MM"`` minutes past
the hour for an hourly one, ``"HH:MM"`` UTC for the others; ``day``: ``mon`` .. ``sun`` for a
weekly one) and the event as the API's fields (``system`` ``arena`` or ``swiss``, ``name``,
``clockTime``, ``clockIncrement`` or ``clock.limit``, ``minutes``, ``nbRounds``, ``variant``,
``rated``, ``start``, ``conditions.*`` ...), checked as the API checks them when the site opens.

The director's sweep (:meth:`Schedule.sweep`, at most once a :data:`EVERY` seconds) keeps each
table's next event made: its slot's key (``schedule_key``, unique in the database) means that
two processes never make one slot twice, and a site that was down makes the next slot when it
comes back (slots missed meanwhile are not made late).

>>> entry = entry_of({"every": "daily", "at": "18:30", "name": "Evening", "minutes": 60})
>>> import datetime
>>> t = datetime.datetime(2026, 12, 2, 19, 0, tzinfo=datetime.UTC).timestamp()
>>> datetime.datetime.fromtimestamp(next_slot(entry, t), datetime.UTC).isoformat()
'2026-12-03T18:30:00+00:00'
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from emergo.server.core import models as m
from emergo.server.core.config import ConfigError
from emergo.server.tournament.event import Event
from emergo.server.tournament.service import TournamentError, Tournaments
from emergo.server.tournament.spec import Spec, SpecError, arena_spec, swiss_spec

log = logging.getLogger(__name__)

EVERY = 60.0
"""Seconds between two looks at the schedule."""
KINDS = ("hourly", "daily", "weekly")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class ScheduleError(ConfigError):
    """A schedule's table that cannot be: the message names the table and what is wrong."""


@dataclass(frozen=True)
class Entry:
    """One table of the schedule: when, and the event's fields."""

    every: str
    hour: int
    minute: int
    weekday: int
    fields: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.fields.get("name") or "")

    def spec(self, starts_at: float) -> Spec:
        data = {**self.fields, "startDate": starts_at * 1000}
        if data.pop("system", "arena") == "swiss":
            return swiss_spec(data)
        return arena_spec(data)

    def key(self, slot: float) -> str:
        when = datetime.datetime.fromtimestamp(slot, datetime.UTC).strftime("%Y-%m-%dT%H:%M")
        return f"{self.every}:{self.name[:30]}@{when}"


def entry_of(table: Mapping[str, Any], where: str = "[[tournaments.schedule]]") -> Entry:
    """One config table checked (:class:`ScheduleError` names what is wrong)."""
    if not isinstance(table, Mapping):
        raise ScheduleError(f"{where} must be a table")
    fields = dict(table)
    every = fields.pop("every", None)
    if every not in KINDS:
        raise ScheduleError(f"{where}: every must be hourly, daily or weekly, not {every!r}")
    at = str(fields.pop("at", "00" if every == "hourly" else "00:00"))
    day = fields.pop("day", None)
    try:
        if every == "hourly":
            hour, minute = 0, int(at.lstrip(":"))
        else:
            hours, _, minutes = at.partition(":")
            hour, minute = int(hours), int(minutes)
        if not (0 <= hour <= 23 and 0 <= minute <= 59):
            raise ValueError
    except ValueError:
        shape = '"MM"' if every == "hourly" else '"HH:MM" (UTC)'
        raise ScheduleError(f"{where}: at must be {shape}, not {at!r}") from None
    weekday = 0
    if every == "weekly":
        if day not in DAYS:
            raise ScheduleError(f"{where}: a weekly event's day is one of {', '.join(DAYS)}")
        weekday = DAYS.index(day)
    elif day is not None:
        raise ScheduleError(f"{where}: day is for a weekly event")
    if not fields.get("name"):
        raise ScheduleError(f"{where}: the event needs a name (it keys its slots)")
    if fields.get("system", "arena") not in ("arena", "swiss"):
        raise ScheduleError(f"{where}: system must be arena or swiss")
    entry = Entry(every, hour, minute, weekday, fields)
    try:
        entry.spec(datetime.datetime.now(datetime.UTC).timestamp() + 3600)
    except SpecError as e:
        raise ScheduleError(f"{where} {entry.name!r}: {e}") from None
    return entry


def entries_of(tables: Iterable[Mapping[str, Any]]) -> list[Entry]:
    """The config's schedule checked; two tables of one name are refused."""
    entries = [entry_of(t, f"[[tournaments.schedule]] {n + 1}") for n, t in enumerate(tables)]
    names = [(e.every, e.name) for e in entries]
    if len(set(names)) != len(names):
        raise ScheduleError("[[tournaments.schedule]]: two events of one name and period")
    return entries


def next_slot(entry: Entry, t: float) -> float:
    """The first start of ``entry`` after ``t``."""
    now = datetime.datetime.fromtimestamp(t, datetime.UTC)
    if entry.every == "hourly":
        slot = now.replace(minute=entry.minute, second=0, microsecond=0)
        step = datetime.timedelta(hours=1)
    else:
        slot = now.replace(hour=entry.hour, minute=entry.minute, second=0, microsecond=0)
        step = datetime.timedelta(days=1)
        if entry.every == "weekly":
            slot += datetime.timedelta(days=(entry.weekday - slot.weekday()) % 7)
            step = datetime.timedelta(days=7)
    while slot.timestamp() <= t:
        slot += step
    return slot.timestamp()


class Schedule:
    """Keeps the schedule's next events made (module docstring)."""

    def __init__(self, tournaments: Tournaments, entries: Iterable[Entry] = ()) -> None:
        self.tournaments = tournaments
        self.entries = list(entries)
        self.next_look = 0.0

    def sweep(self, t: float) -> list[Event]:
        """Make each table's next slot when it is not made yet; the events made."""
        made = []
        for entry in self.entries:
            slot = next_slot(entry, t)
            key = entry.key(slot)
            if self._made(key):
                continue
            try:
                made.append(self.tournaments.create(entry.spec(slot), None, t=t, schedule_key=key))
            except TournamentError as e:  # another process made it first (409)
                if e.status != 409:
                    raise
            except SpecError as e:  # checked when the site opened: log, try the others
                log.warning("the scheduled event %s: %s", entry.name, e)
        return made

    def _made(self, key: str) -> bool:
        with self.tournaments.db.read() as c:
            found = c.execute(
                select(m.tournaments.c.id).where(m.tournaments.c.schedule_key == key)
            ).first()
        return found is not None

    def due(self, t: float) -> bool:
        """Whether :meth:`sweep` is due (at most once a :data:`EVERY` seconds)."""
        if not self.entries or t < self.next_look:
            return False
        self.next_look = t + EVERY
        return True
