"""The site's processes and the restart rule.

Each server process has a row of ``processes``: written when it starts (:func:`register`),
every :data:`HEARTBEAT` seconds while it runs (:func:`heartbeat`), and when it stops cleanly
(:func:`unregister`, with the moment it stopped serving).

The clocks are timestamps, so a game whose processes all stopped would charge the player to
move for the downtime.  When a server starts and every process is gone -- each stopped
cleanly, or silent for :data:`DOWNTIME` seconds (killed) -- every live game in progress gets
back, on the clock that was running, the time since the last moment any process served (and
its timer row moves with it), as lichess gives time back after a restart; correspondence and
unlimited games are not touched.  One process alone gives it, under a lock.  A turn that began
within the downtime gets back only what it ran.  (Issue 27, finding 10: a clean stop of every
process for 15 s had charged 11.3 s, an outage under 10 s all of it.)
"""

from __future__ import annotations

import dataclasses
import logging
import os
import secrets
import socket

from sqlalchemy import delete, insert, select, text, update

from emergo import round as rnd
from emergo.server.core import models as m
from emergo.server.core.db import Tx
from emergo.server.round.service import UPSERT_TIMER, Rounds, clocks_at
from emergo.server.round.views import GAME_ROWS, color_name, view_of

log = logging.getLogger(__name__)

DOWNTIME = 10.0
"""Seconds without a heartbeat after which a process that did not stop cleanly (killed) is
taken for gone: a starting server then gives the clocks back the time since."""
MIN_GIVEN = 1.0
"""Less than this given back is not worth a new version of every live game."""
HEARTBEAT = 2.0
"""How often a process writes its heartbeat."""
_RESTART_LOCK = 0x656D6572676F + 1


def register(rounds: Rounds) -> str:
    """Record this process (its heartbeat row); first give the clocks back the downtime when
    every process was gone (module docstring).  Returns the process's id."""
    process_id = f"{socket.gethostname()[:12]}-{os.getpid()}-{secrets.token_hex(3)}"
    t = rounds.clock()
    with rounds.db.write() as tx:
        if rounds.db.postgres:
            tx.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _RESTART_LOCK})
        rows = tx.execute(select(m.processes.c.seen, m.processes.c.stopped)).all()
        alive = any(r.stopped is None and t - r.seen < DOWNTIME for r in rows)
        served = max((r.stopped if r.stopped is not None else r.seen for r in rows), default=None)
        if not alive and served is not None and t - served >= MIN_GIVEN:
            given = _give_back(tx, t - served, t)
            log.warning(
                "no server ran for %.0f s: %d live games got the time back", t - served, given
            )
        tx.execute(insert(m.processes).values(id=process_id, started=t, seen=t))
        tx.execute(delete(m.processes).where(m.processes.c.seen < t - 86400))
    return process_id


def heartbeat(rounds: Rounds, process_id: str) -> None:
    with rounds.db.write() as tx:
        tx.execute(
            update(m.processes).where(m.processes.c.id == process_id).values(seen=rounds.clock())
        )


def unregister(rounds: Rounds, process_id: str, stopped: float | None = None) -> None:
    """A clean stop: ``stopped`` is when the process stopped serving (its streams and sockets
    ended: :meth:`emergo.server.site.Site.begin_stop`), kept for the restart rule."""
    at = stopped if stopped is not None else rounds.clock()
    with rounds.db.write() as tx:
        tx.execute(
            update(m.processes).where(m.processes.c.id == process_id).values(seen=at, stopped=at)
        )


def _give_back(tx: Tx, downtime: float, t: float) -> int:
    rows = tx.execute(
        tx.locked(
            GAME_ROWS.where(m.games.c.status == "started").where(m.games.c.speed == "live"),
            of=m.games,
        )
    ).all()
    given = 0
    for row in rows:
        game = view_of(row)
        clock = game.state.clock
        if clock is None or clock.running is None or clock.since is None:
            continue
        # no more than the clock ran: a turn that began after the site stopped serving (a move
        # in flight at the stop, or served after the last heartbeat of a process killed) had
        # been given the time before it began too
        seconds = min(downtime, max(0.0, t - clock.since))
        state = dataclasses.replace(
            game.state,
            clock=clock.give_time(clock.running, seconds),
            version=game.state.version + 1,
        )
        note = {
            "t": "timeGiven",
            "version": state.version,
            "color": color_name(clock.running),
            "seconds": seconds,
            "clocks": list(clocks_at(state, t) or ()),
        }
        tx.execute(
            update(m.games)
            .where(m.games.c.id == game.id)
            .values(state=state.to_json(), version=state.version, updated=t)
        )
        tx.execute(
            insert(m.game_events).values(
                game_id=game.id, version=state.version, events=[note], at=t
            )
        )
        due = rnd.due(state)
        if due is not None:
            tx.execute(UPSERT_TIMER, {"game": game.id, "due": due})
        tx.notify(f"g:{game.id}", str(state.version))
        given += 1
    return given
