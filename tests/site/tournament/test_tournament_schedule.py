"""The config's scheduled events (emergo.server.tournament.schedule): the tables checked as the
API checks an event, the next slot of each (hourly, daily, weekly), and the director's sweep
making each slot once, also from two sites on one database (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime

import pytest
from sqlalchemy import select

from emergo.server.core import models as m
from emergo.server.core.config import Config, ConfigError, from_mapping
from emergo.server.site import Site
from emergo.server.tournament.schedule import (
    ScheduleError,
    entries_of,
    entry_of,
    next_slot,
)
from tests.plugins.events import fake_clock
from tests.plugins.site import FAST

UTC = datetime.UTC


def _t(*parts: int) -> float:
    return datetime.datetime(*parts, tzinfo=UTC).timestamp()


def _iso(t: float) -> str:
    return datetime.datetime.fromtimestamp(t, UTC).strftime("%a %Y-%m-%d %H:%M")


def test_the_next_slot_of_each_period() -> None:
    t = _t(2026, 12, 2, 19, 40)  # a Wednesday
    hourly = entry_of({"every": "hourly", "at": "30", "name": "H"})
    assert _iso(next_slot(hourly, t)) == "Wed 2026-12-02 20:30"
    assert _iso(next_slot(hourly, _t(2026, 12, 2, 19, 10))) == "Wed 2026-12-02 19:30"
    daily = entry_of({"every": "daily", "at": "19:40", "name": "D"})
    assert _iso(next_slot(daily, t)) == "Thu 2026-12-03 19:40"  # the slot now is not after t
    weekly = entry_of({"every": "weekly", "day": "sat", "at": "20:00", "name": "W"})
    assert _iso(next_slot(weekly, t)) == "Sat 2026-12-05 20:00"
    monday = entry_of({"every": "weekly", "day": "wed", "at": "08:00", "name": "W2"})
    assert _iso(next_slot(monday, t)) == "Wed 2026-12-09 08:00"


def test_bad_tables_are_named() -> None:
    for table, words in (
        ({"every": "monthly", "name": "X"}, "every must be"),
        ({"every": "daily", "at": "25:00", "name": "X"}, "HH:MM"),
        ({"every": "weekly", "name": "X"}, "day is one of"),
        ({"every": "daily", "day": "mon", "name": "X"}, "day is for a weekly"),
        ({"every": "daily"}, "needs a name"),
        ({"every": "daily", "name": "X", "variant": "8x8"}, "variant"),
        ({"every": "daily", "name": "X", "system": "robin"}, "arena or swiss"),
    ):
        with pytest.raises(ScheduleError, match=words):
            entry_of(table)
    with pytest.raises(ScheduleError, match="two events of one name"):
        entries_of([{"every": "daily", "name": "X"}, {"every": "daily", "name": "X"}])
    # the config file's shape: a list of tables under [tournaments]
    config = from_mapping({"tournaments": {"schedule": [{"every": "hourly", "name": "H"}]}})
    assert config.tournament_schedule == ({"every": "hourly", "name": "H"},)
    with pytest.raises(ConfigError, match="must be tables"):
        from_mapping({"tournaments": {"schedule": ["hourly"]}})


def test_the_sweep_makes_each_slot_once(db_url) -> None:
    tables = (
        {"every": "hourly", "at": "00", "name": "Hourly", "clockTime": 1, "minutes": 20},
        {
            "every": "weekly",
            "day": "sat",
            "at": "18:00",
            "name": "Club",
            "system": "swiss",
            "nbRounds": 5,
            "start": "recommended",
            "variant": "7x7",
        },
    )
    config = Config(db=db_url, tournament_schedule=tables, **FAST)
    one, two = Site.open(config, migrate=True), Site.open(config)
    try:
        clocks = [fake_clock(s, _t(2026, 12, 2, 19, 40)) for s in (one, two)]
        one.director.sweep()
        two.director.sweep()  # the other process: nothing twice
        rows = _scheduled(one)
        assert [(r.kind, r.name, _iso(r.starts_at)) for r in rows] == [
            ("arena", "Hourly", "Wed 2026-12-02 20:00"),
            ("swiss", "Club", "Sat 2026-12-05 18:00"),
        ]
        arena = one.tournaments.get(rows[0].id)
        assert arena.created_by is None and arena.ends_at - arena.starts_at == 20 * 60
        swiss = one.tournaments.get(rows[1].id)
        assert swiss.rounds == 5 and swiss.variant == "7x7"
        assert swiss.settings.start == "recommended"
        # an hour on: the next hourly slot, once; the weekly one is made already
        for s, clock in zip((one, two), clocks, strict=True):
            clock.advance(3600)
            s.director.sweep()
        assert [_iso(r.starts_at) for r in _scheduled(one)] == [
            "Wed 2026-12-02 20:00",
            "Wed 2026-12-02 21:00",
            "Sat 2026-12-05 18:00",
        ]
        # a minute later the schedule is looked at again; within it, not
        clocks[0].advance(30)
        assert not one.director.schedule.due(clocks[0]())
        clocks[0].advance(3600)
        assert one.director.schedule.due(clocks[0]())
    finally:
        one.close()
        two.close()


def test_a_bad_schedule_stops_the_site_opening(db_url) -> None:
    bad = ({"every": "daily", "name": "X", "clockTime": 0.01},)
    with pytest.raises(ConfigError, match="clock"):
        Site.open(Config(db=db_url, tournament_schedule=bad, **FAST), migrate=True)


def _scheduled(site):
    with site.db.read() as c:
        return c.execute(
            select(m.tournaments)
            .where(m.tournaments.c.schedule_key.is_not(None))
            .order_by(m.tournaments.c.starts_at)
        ).all()
