"""The house bots' supervisor: the engine's levels played by ``emergo bot`` processes.

No engine thinks inside a web process: with ``[bots] house_bots = true`` every web process runs
a :class:`Supervisor` thread, and the one that holds the ``house-bots`` lease
(:class:`emergo.online.bots.Lease`, renewed every :data:`TICK` seconds, lapsing after
:data:`LEASE` seconds) starts a child process ``emergo bot --level N`` a house account,
restarts one that exits (back-off 1, 2, 4 ... 60 s; reset after a minute of running) and stops
them when the server stops or loses the lease.  Another process takes the lease over once the
holder dies.  Each child gets a fresh ``bot:play`` token in its environment (never on its
command line); on taking the lease the holder revokes the house bots' older tokens, so the
children of a holder killed with ``kill -9`` (which also get SIGTERM from the kernel when their
parent dies, on Linux) cannot go on playing beside the new ones.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass

from sqlalchemy import delete, select

from emergo.online import models as m
from emergo.online.bots import Bots, Lease
from emergo.online.config import Config
from emergo.online.db import Database
from emergo.online.tokens import Tokens

log = logging.getLogger("emergo.online.bots")

LEASE_NAME = "house-bots"
TICK = 3.0
LEASE = 12.0
BACKOFF_MAX = 60.0
TOKEN_DESCRIPTION = "house bot (made by the server)"
STOP_GRACE = 5.0


def bot_command(level: int, url: str, concurrency: int) -> list[str]:
    """The command line of a house bot: the built-in engine at ``level`` (the token comes in
    ``EMERGO_BOT_TOKEN``).  ``abandon`` on exit: a restarted bot takes its games up again."""
    return [
        sys.executable,
        "-m",
        "emergo",
        "bot",
        "--server",
        url,
        "--level",
        str(level),
        "--concurrency",
        str(concurrency),
        "--on-exit",
        "abandon",
    ]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@dataclass
class Child:
    level: int
    user_id: int
    process: subprocess.Popen[bytes] | None = None
    token_id: int | None = None
    started: float = 0.0
    failures: int = 0
    next_start: float = 0.0


class Supervisor:
    def __init__(self, config: Config, db: Database, holder: str | None = None) -> None:
        self.config = config
        self.db = db
        self.bots = Bots(db)
        self.tokens = Tokens(db)
        self.lease = Lease(db, LEASE_NAME, holder or uuid.uuid4().hex[:16], LEASE)
        self.url = config.bots.url or f"http://127.0.0.1:{config.port}"
        self.children: dict[int, Child] = {}
        self.holding = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="emergo-house-bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(STOP_GRACE + 5)
            self._thread = None

    # --- the loop ---------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    self.tick()
                except Exception:
                    log.exception("the house bots' supervisor failed a round (it goes on)")
                self._stop.wait(TICK)
        finally:
            self._stop_children()
            if self.holding:
                try:
                    self.lease.release()
                except Exception:
                    log.exception("could not release the house bots' lease")

    def tick(self) -> None:
        held = self.lease.acquire()
        if held and not self.holding:
            log.info("this process runs the house bots (levels %s)", self.config.bots.levels)
            self._take_over()
        if not held and self.holding:
            log.warning("the house bots' lease went to another process: stopping ours")
            self._stop_children()
        self.holding = held
        if held:
            self._keep_running()

    def _take_over(self) -> None:
        house = self.bots.ensure_house(self.config.bots.levels)
        ids = [u.id for u in house.values()]
        with self.db.write() as tx:  # the last holder's children must stop playing
            tx.execute(
                delete(m.tokens)
                .where(m.tokens.c.user_id.in_(ids))
                .where(m.tokens.c.description == TOKEN_DESCRIPTION)
            )
        self.children = {
            level: Child(level, user.id)
            for level, user in sorted(house.items())
            if level in self.config.bots.levels
        }

    def _keep_running(self) -> None:
        t = time.monotonic()
        for child in self.children.values():
            process = child.process
            if process is not None and process.poll() is None:
                if t - child.started > 60:
                    child.failures = 0
                continue
            if process is not None:
                log.warning("house bot level %d exited (%s)", child.level, process.returncode)
                self._forget(child)
                child.failures += 1
                child.next_start = t + min(BACKOFF_MAX, 2.0 ** (child.failures - 1))
            if t >= child.next_start:
                self._spawn(child)

    def _spawn(self, child: Child) -> None:
        token = self.tokens.create(child.user_id, ("bot:play",), TOKEN_DESCRIPTION)
        with self.db.read() as c:
            child.token_id = c.execute(
                select(m.tokens.c.id)
                .where(m.tokens.c.hint == token[:8])
                .where(m.tokens.c.user_id == child.user_id)
                .order_by(m.tokens.c.id.desc())
            ).scalar()
        env = {**os.environ, "EMERGO_BOT_TOKEN": token}
        command = bot_command(child.level, self.url, self.config.bots.concurrency)
        child.process = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        child.started = time.monotonic()
        log.info("house bot level %d started (pid %d)", child.level, child.process.pid)

    def _forget(self, child: Child) -> None:
        if child.token_id is not None:
            try:
                self.tokens.revoke(child.token_id)
            except Exception:
                log.exception("could not revoke a house bot's token")
        child.process = None
        child.token_id = None

    def _stop_children(self) -> None:
        running = [c for c in self.children.values() if c.process is not None]
        for child in running:
            if child.process is not None and child.process.poll() is None:
                child.process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for child in running:
            process = child.process
            if process is None:
                continue
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self._forget(child)
