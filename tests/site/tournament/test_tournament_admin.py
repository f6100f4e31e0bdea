"""``emergo admin tournament list|create|cancel`` (emergo.cli.admin_tournament), the command
(in this process: tests/plugins/commands.py) on the site's database (SQLite and PostgreSQL): an
event of the site's made, listed, joined, started and cancelled; a created one deleted; bad
options named."""

from __future__ import annotations

import subprocess

from emergo.server.core.db import Database
from tests.plugins.commands import admin


def _admin(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return admin(url, "tournament", *args)


def test_create_list_and_cancel(site, db_url) -> None:
    made = _admin(
        db_url, "create", "--name", "Friday", "--clock", "5+3", "--minutes", "60",
        "--variant", "7x7", "--start", "recommended", "--wait", "30",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    event_id, path, *_ = made.stdout.split()
    assert path == f"/tournament/{event_id}" and "Friday Arena" in made.stdout
    event = site.tournaments.get(event_id)
    assert event.created_by is None and event.kind == "arena" and event.variant == "7x7"
    assert (event.clock_limit, event.clock_increment) == (300, 3) and event.rated
    assert event.settings.start == "recommended"
    assert event.ends_at - event.starts_at == 3600
    swiss = _admin(db_url, "create", "--name", "Club", "--system", "swiss", "--rounds", "5")
    assert swiss.returncode == 0, swiss.stderr
    swiss_id = swiss.stdout.split()[0]
    assert site.tournaments.get(swiss_id).rounds == 5
    listed = _admin(db_url, "list")
    assert listed.returncode == 0, listed.stderr
    assert event_id in listed.stdout and swiss_id in listed.stdout
    assert "7x7  5+3" in listed.stdout
    # a created event is deleted
    gone = _admin(db_url, "cancel", swiss_id)
    assert gone.returncode == 0 and gone.stdout.strip() == f"{swiss_id}: deleted", gone.stderr
    assert site.tournaments.get(swiss_id) is None
    # one going on ends now
    for name in ("ann", "bob"):
        site.tournaments.join(event_id, site.users.create(name, "a good password"))
    _start_now(site, event_id)
    assert site.tournaments.get(event_id).status == "started"
    ended = _admin(db_url, "cancel", event_id)
    assert ended.returncode == 0 and ended.stdout.strip() == f"{event_id}: finished", ended.stderr
    event = site.tournaments.get(event_id)
    assert event.status == "finished" and event.ends_at <= event.starts_at + 3600
    assert event_id not in _admin(db_url, "list").stdout
    assert event_id in _admin(db_url, "list", "--all").stdout
    again = _admin(db_url, "cancel", event_id)
    assert again.returncode != 0 and "over already" in again.stderr
    assert "no tournament" in _admin(db_url, "cancel", "nosuchev").stderr


def test_bad_options_are_named(site, db_url) -> None:
    for args, words in (
        (("--clock", "fast"), "--clock is minutes+seconds"),
        (("--variant", "8x8"), "variant"),
        (("--start", "pie"), "start must be"),
    ):
        r = _admin(db_url, "create", "--name", "X", *args)
        assert r.returncode != 0 and words in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr


def _start_now(site, event_id: str) -> None:
    import time

    from sqlalchemy import update

    from emergo.server.core import models as m

    db: Database = site.db
    with db.write() as tx:
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event_id)
            .values(starts_at=time.time() - 1, ends_at=time.time() + 3599)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event_id)
            .values(due=time.time() - 1)
        )
    site.director.sweep()
