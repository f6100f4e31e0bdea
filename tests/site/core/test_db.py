"""The store on SQLite and PostgreSQL: the migrations build the models' tables, run once under a
lock, and a server refuses a schema that is not its own; locked writes; the bus after commit;
the timer sweep shared by two processes; the restart rule."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import subprocess
import sys
import threading
import time

import pytest
from sqlalchemy import delete, select, text, update

from emergo.server.core import models as m
from emergo.server.core.bus import LocalBus, PgBus
from emergo.server.core.config import Config
from emergo.server.core.db import SCHEMA_HEAD, Database, SchemaError
from emergo.server.round import processes
from emergo.server.round.processes import DOWNTIME
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, new_game, run_async
from tests.plugins.site import FAST, account, pg_database


def test_the_migrations_build_the_models(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    db = Database(db_url)
    try:
        db.migrate()
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, m.metadata)
        # the only table the models lack is the migrations' own record
        assert [
            d for d in differences if not (d[0] == "remove_table" and d[1].name == "online_schema")
        ] == []
        assert db.revision() == SCHEMA_HEAD
    finally:
        db.close()


def test_migrate_twice_and_the_schema_check(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    db = Database(url)
    with pytest.raises(SchemaError, match="emergo admin migrate"):
        db.check_schema()
    assert db.migrate() == (None, SCHEMA_HEAD)
    assert db.migrate() == (SCHEMA_HEAD, SCHEMA_HEAD)
    db.check_schema()
    with db.engine.begin() as c:
        c.execute(text("UPDATE online_schema SET version_num = '9999'"))
    with pytest.raises(SchemaError, match="newer than this server"):
        db.check_schema()
    db.close()


def test_migration_0013_forgets_the_unsalted_known_clients(db_url):
    """Known log-in clients of before 0013 (an unsalted hash of the address: reversible) are
    deleted by the upgrade; nothing else is touched."""
    db = Database(db_url)
    try:
        db.migrate()
        with db.engine.begin() as c:
            c.execute(m.users.insert().values(id=1, name="ann", name_key="ann", created=0.0))
            c.execute(m.login_clients.insert().values(user_id=1, client="0" * 64, seen=0.0))
            c.execute(text("UPDATE online_schema SET version_num = '0012'"))
        assert db.migrate() == ("0012", SCHEMA_HEAD)
        with db.engine.connect() as c:
            assert c.execute(select(m.login_clients)).all() == []
            assert c.execute(select(m.users.c.name)).scalars().all() == ["ann"]
    finally:
        db.close()


def test_sqlite_migrates_itself_postgresql_does_not(tmp_path, pg):
    site = Site.open(Config(db=str(tmp_path / "fresh.sqlite3"), **FAST))
    assert site.db.revision() == SCHEMA_HEAD
    site.close()
    url = pg.create_database("empty")
    with pytest.raises(SchemaError, match="no online schema yet: run `emergo admin migrate"):
        Site.open(Config(db=url, **FAST))


def test_two_migrations_at_once_on_postgresql(pg):
    """Two `emergo admin migrate` processes at once: one migrates, the other waits and finds
    the schema up to date (the advisory lock)."""
    url = pg.create_database("race")
    command = [sys.executable, "-m", "emergo", "admin", "--db", url, "migrate"]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = sorted(p.communicate(timeout=120)[0] for p in procs)
    assert [p.returncode for p in procs] == [0, 0]
    assert "migrated the database from schema (empty)" in outs[0] + outs[1]
    assert any("already" in o for o in outs), outs
    db = Database(url)
    assert db.revision() == SCHEMA_HEAD
    db.close()


def test_a_games_row_keeps_room_for_its_next_version_and_its_state_inline(pg):
    """On PostgreSQL a move's update stays on the row's page (fillfactor) and a long game's
    state is neither compressed nor moved out of line at each move (toast_tuple_target)."""
    db = Database(pg_database(pg))
    try:
        with db.engine.connect() as c:
            options = c.execute(text("SELECT reloptions FROM pg_class WHERE relname = 'games'"))
            assert set(options.scalar_one()) >= {"fillfactor=70", "toast_tuple_target=8160"}
    finally:
        db.close()


def test_locked_writes_serialise_a_read_modify_write(site):
    """Many threads increment one counter through read-then-write transactions: none lost."""
    with site.db.write() as tx:
        tx.execute(m.rate_limits.insert().values(key="k", window=0, count=0))

    def bump() -> None:
        with site.db.write() as tx:
            row = tx.execute(tx.locked(select(m.rate_limits).where(m.rate_limits.c.key == "k")))
            found = row.one()
            time.sleep(0.001)  # a window for another writer, were there no lock
            tx.execute(
                update(m.rate_limits)
                .where(m.rate_limits.c.key == "k")
                .values(count=found.count + 1)
            )

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: bump(), range(80)))
    with site.db.read() as c:
        assert c.execute(select(m.rate_limits.c.count)).scalar() == 80


def test_the_bus_wakes_only_after_commit(site):
    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        site.bus.start(loop)
        try:
            sub = site.bus.subscribe("g:x", "u:1")
            seen: list[str] = []

            def write() -> None:
                try:
                    with site.db.write() as tx:
                        tx.notify("g:x", "5")
                        raise RuntimeError("rolled back")
                except RuntimeError:
                    pass
                with site.db.write() as tx:
                    tx.notify("u:1", "7")

            await asyncio.to_thread(write)
            assert await sub.wait(5)
            await asyncio.sleep(0.2)  # anything else would be here by now
            seen.extend(f"{k}={v}" for k, v in sub.take().items())
            sub.close()
            return seen
        finally:
            site.bus.stop()

    assert run_async(main) == ["u:1=7"]
    assert isinstance(site.bus, PgBus if site.db.postgres else LocalBus)


def test_two_processes_sweep_without_taking_one_game_twice(pg):
    """Two sites (as two processes) sweep 20 flagged games at once: each ends exactly once."""
    url = pg_database(pg)
    one = Site.open(Config(db=url, **FAST))
    two = Site.open(Config(db=url, **FAST))
    try:
        pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
        from starlette.testclient import TestClient

        from emergo.server.app import create_app

        _a, ann_token = account(one, "ann")
        _b, bob_token = account(one, "bob")
        with TestClient(create_app(one, start=False), base_url="http://127.0.0.1") as c:
            ann, bob = Player(c, "ann", ann_token), Player(c, "bob", bob_token)
            games = []
            for _ in range(20):
                game = new_game(ann, bob, **{"clock.limit": 1, "clock.increment": 0})
                ann.play(game, "d4")
                bob.play(game, "e6")
                games.append(game)
        time.sleep(3.0)  # every White flag fell (1 s + the grace)
        counts: list[int] = []
        threads = [
            threading.Thread(target=lambda s=s: counts.append(s.rounds.sweep(limit=100)))
            for s in (one, two)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sum(counts) == 20, counts
        for game in games:
            view = one.rounds.get(game)
            assert view.status == "over" and view.state.outcome.termination.value == "time-forfeit"
            assert [v for v, _ in one.rounds.events_after(game, 0)] == [1, 2, 3]
    finally:
        one.close()
        two.close()


def _white_to_move_on_the_clock(site, players):
    """A live game after d4 e6: its id and state, White's clock running."""
    ann, bob = players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    before = site.rounds.get(game).state
    assert before.clock is not None and before.clock.running is not None
    return game, before


def test_the_restart_rule_gives_the_downtime_back(site, client, players):
    game, before = _white_to_move_on_the_clock(site, players)
    down = DOWNTIME + 50
    # every process stopped `down` seconds ago, just as White's turn began
    with site.db.write() as tx:
        tx.execute(update(m.processes).values(seen=time.time() - down))
        shifted = dataclasses.replace(
            before, clock=dataclasses.replace(before.clock, since=before.clock.since - down)
        )
        tx.execute(update(m.games).values(state=shifted.to_json()))
    assert shifted.clock.remaining(True, time.time()) < 300 - down + 5
    processes.register(site.rounds)
    after = site.rounds.get(game).state
    assert after.version == before.version + 1
    left = after.clock.remaining(True, time.time())
    assert 295 < left <= 300, left  # charged for the seconds served, not the downtime
    assert site.rounds.events_after(game, before.version)[0][1][0]["t"] == "timeGiven"
    # a process that starts while another runs gives nothing
    processes.register(site.rounds)
    assert site.rounds.get(game).state.version == after.version


def test_a_clean_stop_of_every_process_gives_back_even_a_short_downtime(site, client, players):
    """Issue 27, finding 10: every process stopped cleanly (``stopped``, the moment its streams
    ended) for 4 s: the running clock gets those 4 s back, where only a silence of DOWNTIME
    counted before; a process that may still run (its heartbeat fresh) gives nothing."""
    game, before = _white_to_move_on_the_clock(site, players)
    down = 4.0
    assert down < DOWNTIME
    stopped = time.time() - down
    with site.db.write() as tx:
        tx.execute(delete(m.processes))
    one = processes.register(site.rounds)
    two = processes.register(site.rounds)
    processes.unregister(site.rounds, one, stopped - 1)
    # one process stopped, the other may still serve: nothing given
    processes.register(site.rounds)
    assert site.rounds.get(game).state.version == before.version
    with site.db.write() as tx:
        tx.execute(delete(m.processes).where(m.processes.c.id.not_in([one, two])))
        shifted = dataclasses.replace(
            before, clock=dataclasses.replace(before.clock, since=before.clock.since - down)
        )
        tx.execute(update(m.games).values(state=shifted.to_json()))
    processes.unregister(site.rounds, two, stopped)  # the last to stop: the site served till then
    processes.register(site.rounds)
    after = site.rounds.get(game).state
    assert after.version == before.version + 1
    given = site.rounds.events_after(game, before.version)[0][1][0]
    assert given["t"] == "timeGiven" and down <= given["seconds"] < down + 5
    left = after.clock.remaining(True, time.time())
    assert 295 < left <= 300, left


def test_a_turn_begun_after_the_stop_gets_back_no_more_than_it_ran(site, client, players):
    """A move served after the site stopped serving (in flight at the stop; or after the last
    heartbeat of a process killed): the opponent's turn began after the time the restart gives
    back starts.  Before, that turn was given the whole downtime, seconds it never ran (here 5)
    given to the player to move as well."""
    game, before = _white_to_move_on_the_clock(site, players)
    with site.db.write() as tx:
        tx.execute(delete(m.processes))
    one = processes.register(site.rounds)
    processes.unregister(site.rounds, one, before.clock.since - 5)  # 5 s before White's turn
    processes.register(site.rounds)
    after = site.rounds.get(game).state
    given = site.rounds.events_after(game, before.version)[0][1][0]
    assert given["t"] == "timeGiven" and given["seconds"] < 5, given
    left = after.clock.remaining(True, time.time())
    assert left <= before.clock.white, (left, before.clock.white)  # never more than it had


def test_two_processes_starting_at_once_give_the_time_back_once(site, db_url, client, players):
    """The attack: two processes started at the same moment after an outage, each reading that
    every process is gone.  Held: the read and the give are one transaction under a lock (an
    advisory lock on PostgreSQL, the write lock on SQLite), and the second sees the first."""
    game, before = _white_to_move_on_the_clock(site, players)
    with site.db.write() as tx:
        tx.execute(update(m.processes).values(seen=time.time() - DOWNTIME - 30))
    other = Site.open(Config(db=db_url, **FAST))
    try:
        start = threading.Barrier(2)

        def register(rounds):
            start.wait(10)
            processes.register(rounds)

        threads = [
            threading.Thread(target=register, args=(r,)) for r in (site.rounds, other.rounds)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        other.close()
    given = [e for _v, events in site.rounds.events_after(game, before.version) for e in events]
    assert [e["t"] for e in given] == ["timeGiven"]
    assert site.rounds.get(game).state.version == before.version + 1


def test_a_stopping_process_flags_no_one_for_time_past_its_stop(site, client, players):
    """Between the stop (:meth:`Site.begin_stop`, the streams ended) and the process's end its
    timer sweep still ran: a player whose time ran out in those seconds lost on time, seconds
    the restart gives back to everyone else."""
    from emergo import round as rnd
    from emergo.server.round.service import UPSERT_TIMER

    game, before = _white_to_move_on_the_clock(site, players)
    out = before.clock.white + 2  # White's time ran out 2 s ago
    shifted = dataclasses.replace(
        before, clock=dataclasses.replace(before.clock, since=before.clock.since - out)
    )
    with site.db.write() as tx:
        tx.execute(update(m.games).values(state=shifted.to_json()))
        tx.execute(UPSERT_TIMER, {"game": game, "due": rnd.due(shifted)})
    site.rounds.served_until = time.time() - 5  # stopped serving when White had 3 s
    assert site.rounds.sweep() == 0
    assert site.rounds.get(game).state.outcome is None
    site.rounds.served_until = None  # a process that serves: the loss on time
    assert site.rounds.sweep() == 1
    assert site.rounds.get(game).state.outcome is not None


def test_begin_stop_marks_when_the_site_stopped_serving(site):
    site.process_id = processes.register(site.rounds)
    site.begin_stop()
    assert site.stopping_at is not None
    run_async(site.stop)
    with site.db.read() as c:
        row = c.execute(
            select(m.processes.c.seen, m.processes.c.stopped).where(
                m.processes.c.id == site.process_id
            )
        ).one()
    assert row.stopped == row.seen == site.stopping_at == site.rounds.served_until
