"""The periodic work of a server process: timers, heartbeats, housekeeping.

Nothing runs a thread per game.  Each game that something is due in has one ``timers`` row (the
round's :func:`emergo.round.due`: the flag of the running clock, a correspondence deadline, the
first-move deadline that aborts a game nobody started); every server process sweeps the rows
that are due every :data:`SWEEP` seconds (:meth:`emergo.server.round.service.Rounds.sweep`, ``FOR
UPDATE SKIP LOCKED``: whichever process is free takes a game, no two take the same).  So a game
is lost on time within about :data:`SWEEP` seconds of the flag even when no one is connected and
whichever processes are running; a move that arrives after the flag and before the sweep is
turned into the loss on time by the round itself.

Every :data:`~emergo.server.round.processes.HEARTBEAT` seconds a process writes its own
heartbeat (the restart rule's measure of downtime) and its players' presence; every
:data:`HOUSEKEEPING` seconds it expires challenges and deletes old rate-limit windows, user
events and sessions.
Every :data:`EVENTS` seconds it sweeps the tournaments' timers
(:meth:`emergo.server.tournament.director.Director.sweep`: starts, pairing passes, rounds, ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import delete

from emergo.server.core import models as m
from emergo.server.core.db import now
from emergo.server.round import processes

if TYPE_CHECKING:
    from emergo.server.challenge.service import Challenges
    from emergo.server.core.db import Database
    from emergo.server.core.limits import SharedLimiter
    from emergo.server.notify.notices import Notices
    from emergo.server.round.presence import Presence
    from emergo.server.round.service import Rounds
    from emergo.server.tournament.director import Director
    from emergo.server.user.logins import Logins


class Site(Protocol):
    """What the periodic work needs of :class:`emergo.server.site.Site`."""

    db: Database
    rounds: Rounds
    presence: Presence
    challenges: Challenges
    shared_limits: SharedLimiter
    logins: Logins
    notices: Notices
    director: Director
    process_id: str | None


log = logging.getLogger(__name__)


SWEEP = 0.25
EVENTS = 0.5
"""Seconds between two sweeps of the tournaments' timers (issue 30: pairing passes, rounds)."""
ALARMS = 5.0
"""Seconds between two looks at the correspondence alarms (issue 21)."""
MAIL = 30.0
"""Seconds between two rounds of notification mail (issue 21)."""
HOUSEKEEPING = 60.0
USER_EVENTS_KEPT = 86400.0


class Periodic:
    """Runs the site's periodic work on the event loop, the database work in threads."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        site = self.site
        next_beat = next_house = next_alarms = next_mail = next_events = 0.0
        while True:
            t = time.monotonic()
            await self._safely("the timer sweep", site.rounds.sweep)
            if t >= next_events:
                next_events = t + EVENTS
                await self._safely("the tournaments", site.director.sweep)
            if t >= next_beat:
                next_beat = t + processes.HEARTBEAT
                keys = list(site.presence.local)
                crowds = dict(site.presence.watchers)
                await self._safely("the heartbeat", functools.partial(self._beat, keys, crowds))
            if t >= next_alarms:
                next_alarms = t + ALARMS
                await self._safely("the alarms", lambda: site.notices.sweep_alarms(now()))
            if t >= next_mail and site.notices.mailer is not None:
                next_mail = t + MAIL
                await self._safely("the mail", lambda: site.notices.send_mail(now()))
            if t >= next_house:
                next_house = t + HOUSEKEEPING
                await self._safely("the housekeeping", self.housekeeping)
            await asyncio.sleep(SWEEP)

    def _beat(self, keys: list[tuple[str, int]], crowds: dict[str, int]) -> None:
        if self.site.process_id is not None:
            processes.heartbeat(self.site.rounds, self.site.process_id)
        self.site.presence.beat(keys, crowds, self.site.process_id)

    async def _safely(self, what: str, work: Callable[[], object]) -> None:
        try:
            await asyncio.to_thread(work)
        except Exception as e:  # the database away for a moment: the next round tries again
            log.warning("%s failed: %s: %s", what, type(e).__name__, str(e)[:200])

    def housekeeping(self) -> None:
        site = self.site
        t = now()
        site.challenges.expire(t)
        site.shared_limits.prune(t - 86400)
        site.logins.prune(t)
        with site.db.write() as tx:
            tx.execute(delete(m.user_events).where(m.user_events.c.at < t - USER_EVENTS_KEPT))
            tx.execute(delete(m.sessions).where(m.sessions.c.expires < t))
            tx.execute(delete(m.crowds).where(m.crowds.c.seen < t - 86400))
        site.notices.prune(t)
