"""An arena played by real ``emergo bot`` processes on two ``emergo serve`` processes and a
PostgreSQL of the test's own (issue 30, "Done means"):

* many bot accounts (``EMERGO_ARENA_BOTS``: 10 in the suite, which a loaded 2-core machine
  stands beside everything else; the issue's run is ``EMERGO_ARENA_BOTS=50``) join
  with ``emergo bot --join ID`` and play a short arena to its end, each bot on one of the two
  servers, so that two processes pair at once;
* one bot is killed with ``kill -9`` in the middle of a game: its game ends by the clock and
  the event goes on (pairings made after it);
* PostgreSQL is restarted in the middle of the event: every result recorded before the
  restart is there after it, and the event goes on;
* at the end every pairing is legal (never a player in two games, no colour streak over 3, a
  pairing's result its game's), the standings are a recount of the games, and no process wrote
  a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from emergo.server.core import models as m
from emergo.server.core.config import Config
from emergo.server.site import Site
from emergo.server.tournament.event import arena_games
from emergo.server.tournament.sheet import player_sheet
from emergo.server.tournament.spec import arena_spec
from tests.plugins.events import arena_violations
from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import Cluster, binaries
from tests.plugins.servers import Server
from tests.plugins.site import FAST

pytest.importorskip("httpx2")
pytest.importorskip("py4swiss")
pytestmark = [pytest.mark.system, pytest.mark.slow]

BOTS = int(os.environ.get("EMERGO_ARENA_BOTS", "10"))
MINUTES = float(os.environ.get("EMERGO_ARENA_MINUTES", "5"))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    pytest.importorskip("psycopg")
    found = binaries()
    if found is None:
        pytest.skip("PostgreSQL is not installed (tools/test.sh installs Debian's postgresql)")
    cluster = Cluster(found)
    servers: list[Server] = []
    bots: list[subprocess.Popen[bytes]] = []
    try:
        url = cluster.create_database("arena")
        site = Site.open(Config(db=url, **FAST), migrate=True)
        tokens = {}
        for n in range(BOTS):
            user = site.users.create(f"bot{n:02d}", None, bot=True)
            tokens[user.name] = site.tokens.create(user.id, ("bot:play",))
        yield {
            "cluster": cluster,
            "url": url,
            "site": site,
            "tokens": tokens,
            "servers": servers,
            "bots": bots,
            "tmp": tmp_path,
        }
        site.close()
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.send_signal(signal.SIGKILL)
                bot.wait(10)
        for server in servers:
            server.stop()
        cluster.stop()
    logs = "".join(p.read_text() for p in tmp_path.glob("server-*.log"))
    assert "Traceback" not in logs, logs[-3000:]


def _bot(server: Server, name: str, token: str, event_id: str, log: Path) -> Any:
    handle = open(log, "a")  # noqa: SIM115 - the child holds it
    command = [sys.executable, "-m", "emergo", "bot", "--server", server.base, "--level", "1"]
    return subprocess.Popen(
        [*command, "--join", event_id, "--hash", "4"],
        stdout=handle,
        stderr=subprocess.STDOUT,
        env={**os.environ, "EMERGO_BOT_TOKEN": token, "PYTHONUNBUFFERED": "1"},
    )


def _pairings(site: Site, event_id: str) -> list[Any]:
    with site.db.read() as c:
        return list(
            c.execute(
                select(m.tournament_games)
                .where(m.tournament_games.c.tournament_id == event_id)
                .order_by(m.tournament_games.c.id)
            ).all()
        )


def test_an_arena_of_bot_processes_survives_a_kill_and_a_database_restart(world):
    site: Site = world["site"]
    tmp: Path = world["tmp"]
    servers = world["servers"]
    for n in range(2):
        servers.append(Server(world["url"], tmp / f"server-{n}.log"))
    spec = arena_spec(
        {
            "name": "Bots",
            "clockTime": 0.25,  # 15 s: the killed bot's game ends by its clock soon
            "clockIncrement": 1,
            "minutes": 60,
            "waitMinutes": 60,
            "conditions.bots": "true",
            "rated": "true",
        }
    )
    event = site.tournaments.create(spec, None)
    procs: dict[str, Any] = {}
    for n, (name, token) in enumerate(world["tokens"].items()):
        procs[name] = _bot(servers[n % 2], name, token, event.id, tmp / f"{name}.log")
        world["bots"].append(procs[name])
    wait_for(
        lambda: site.tournaments.get(event.id).nb_players == BOTS,
        60 + 3 * BOTS,
        f"{BOTS} bots to join",
    )
    t = time.time()
    with site.db.write() as tx:  # start now, for MINUTES
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(starts_at=t, ends_at=t + MINUTES * 60)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event.id)
            .values(due=t)
        )
    wait_for(
        lambda: sum(p.status == "over" for p in _pairings(site, event.id)) >= 2,
        MINUTES * 60 / 2,
        "two games over",
    )
    # kill -9 a bot in the middle of its game
    playing = [p for p in _pairings(site, event.id) if p.status == "playing"]
    assert playing, "no game in play to kill a bot in"
    victim_game = playing[0]
    victim = site.users.get(victim_game.white_id).name
    procs[victim].send_signal(signal.SIGKILL)
    procs[victim].wait(10)
    killed_at = time.time()
    # the victim's game ends (by its clock) and the event goes on: pairings made after it
    wait_for(
        lambda: (
            next(p for p in _pairings(site, event.id) if p.id == victim_game.id).status != "playing"
        ),
        180,
        "the killed bot's game to end",
    )
    wait_for(
        lambda: any(p.created > killed_at for p in _pairings(site, event.id)),
        120,
        "a pairing after the kill",
    )
    # PostgreSQL restarted in the middle of the event: no recorded result lost
    before = {p.id: p.result for p in _pairings(site, event.id) if p.status == "over"}
    world["cluster"].halt("fast")
    time.sleep(3)
    world["cluster"].start()
    wait_for(lambda: _readable(site), 60, "the database back")
    after = {p.id: p.result for p in _pairings(site, event.id)}
    assert all(after.get(i) == result for i, result in before.items())
    restarted = time.time()
    wait_for(
        lambda: any(p.created > restarted for p in _pairings(site, event.id)),
        180,
        "a pairing after the restart",
    )
    # to the end of the event, brought forward: what remains to see is its end, not its length
    # (an arena ends at its time, its games in play counted when they end)
    with site.db.write() as tx:
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(ends_at=min(t + MINUTES * 60, time.time() + 5))
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event.id)
            .values(due=time.time())
        )
    wait_for(
        lambda: site.tournaments.get(event.id).status == "finished",
        MINUTES * 60 + 300,
        "the event's end",
    )
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs.values():
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    event, _players, pairings, lines = site.tournaments.view(event.id)
    over = [p for p in pairings if p.status == "over"]
    print(f"{BOTS} bots, {len(pairings)} pairings, {len(over)} games over")
    assert len(over) >= BOTS // 2
    assert not arena_violations(site, event.id)
    counted = arena_games(event, pairings)
    assert {line.name: line.score for line in lines} == {
        line.name: player_sheet(line.name, counted).total for line in lines
    }


def _readable(site: Site) -> bool:
    try:
        with site.db.read() as c:
            c.execute(select(m.tournaments.c.id).limit(1)).first()
        return True
    except Exception:
        return False
