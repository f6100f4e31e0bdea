"""The house bots' supervisor: the engine's levels played as bot accounts (``emergo-N``).

No engine thinks inside a request: the house bots play their bot accounts like any bot.  In
local mode (``emergo serve``) each level is a :class:`emergo.botclient.runner.Bot` on a thread of
the server process (one process on this machine: starting eleven Python processes would cost
seconds and hundreds of MB) that reaches the site's services directly, not its own HTTP
(:mod:`emergo.server.bots.inprocess`: the same bot, another transport); in public mode each is
an ``emergo bot`` process, a client of the Bot API.
With ``[bots] house_bots = true`` (the default) every web process runs a :class:`Supervisor`
thread, and the one that holds the ``house-bots`` lease
(:class:`emergo.server.bots.accounts.Lease`, renewed every :data:`TICK` seconds, lapsing after
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import delete, select

from emergo.botclient.api import Transport
from emergo.server.bots.accounts import Bots, Lease
from emergo.server.core import models as m
from emergo.server.core.config import Config
from emergo.server.core.db import Database
from emergo.server.user.tokens import Tokens

log = logging.getLogger(__name__)


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
        "--correspondence-concurrency",  # a game against the computer without a clock is one
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


class Runner(Protocol):
    """One house bot running: a child process, or a thread of this process (local mode)."""

    def running(self) -> bool: ...
    def exit_status(self) -> str: ...
    def stop(self) -> None: ...
    def wait(self, seconds: float) -> bool: ...
    def kill(self) -> None: ...


class ProcessRunner:
    """``emergo bot --level N`` in a child process (public mode)."""

    def __init__(self, level: int, url: str, concurrency: int, token: str) -> None:
        env = {**os.environ, "EMERGO_BOT_TOKEN": token}
        self.process = subprocess.Popen(
            bot_command(level, url, concurrency),
            env=env,
            stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )

    def running(self) -> bool:
        return self.process.poll() is None

    def exit_status(self) -> str:
        return f"exit status {self.process.returncode}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()

    def wait(self, seconds: float) -> bool:
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


class ThreadRunner:
    """The same bot on a thread of this process (local mode), over ``api`` (the site's own
    services): its engine searches without the interpreter's lock (the kernel's search
    releases it), so the server's event loop goes on."""

    def __init__(self, level: int, api: Transport, concurrency: int) -> None:
        from emergo.botclient.config import BotConfig
        from emergo.botclient.engines import EngineSpec
        from emergo.botclient.runner import Bot

        config = BotConfig(
            engine=EngineSpec(level=level),
            concurrency=concurrency,
            correspondence_concurrency=concurrency,  # games against the computer without a clock
            accept_takebacks=True,  # one person at the screen: the local app took moves back
            on_exit="abandon",
        )
        self.bot = Bot(api, config)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=f"house-bot-{level}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.bot.run()
        except BaseException as e:  # reported by exit_status; the supervisor restarts it
            self.error = e

    def running(self) -> bool:
        return self.thread.is_alive()

    def exit_status(self) -> str:
        return f"{type(self.error).__name__}: {self.error}" if self.error else "stopped"

    def stop(self) -> None:
        self.bot.stop("abandon")

    def wait(self, seconds: float) -> bool:
        self.thread.join(seconds)
        return not self.thread.is_alive()

    def kill(self) -> None:
        self.bot.stop("abandon")  # a second stop abandons at once; the thread is a daemon


@dataclass
class Child:
    level: int
    user_id: int
    runner: Runner | None = None
    token_id: int | None = None
    started: float = 0.0
    failures: int = 0
    next_start: float = 0.0


class Supervisor:
    """``connect``: the in-process transport of a house bot's account (local mode: its bots
    are threads, :class:`ThreadRunner`); without it, each bot is a process over HTTP."""

    def __init__(
        self,
        config: Config,
        db: Database,
        holder: str | None = None,
        connect: Callable[[int], Transport] | None = None,
    ) -> None:
        self.config = config
        self.connect = connect
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

    def request_stop(self) -> None:
        """Begin to stop, without waiting (the server is about to stop): each bot is told to
        leave its games and close its event stream, which the server waits for before it stops."""
        self._stop.set()
        for child in list(self.children.values()):
            if child.runner is not None:
                child.runner.stop()

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
            runner = child.runner
            if runner is not None and runner.running():
                if t - child.started > 60:
                    child.failures = 0
                continue
            if runner is not None:
                log.warning("house bot level %d stopped (%s)", child.level, runner.exit_status())
                self._forget(child)
                child.failures += 1
                child.next_start = t + min(BACKOFF_MAX, 2.0 ** (child.failures - 1))
            if t >= child.next_start and not self._stop.is_set():  # none started to stop
                self._spawn(child)

    def _spawn(self, child: Child) -> None:
        concurrency = self.config.bots.concurrency
        if self.connect is not None:  # a thread that needs no token: it speaks no HTTP
            child.runner = ThreadRunner(child.level, self.connect(child.user_id), concurrency)
        else:
            token = self.tokens.create(child.user_id, ("bot:play",), TOKEN_DESCRIPTION)
            with self.db.read() as c:
                child.token_id = c.execute(
                    select(m.tokens.c.id)
                    .where(m.tokens.c.hint == token[:8])
                    .where(m.tokens.c.user_id == child.user_id)
                    .order_by(m.tokens.c.id.desc())
                ).scalar()
            child.runner = ProcessRunner(child.level, self.url, concurrency, token)
        child.started = time.monotonic()
        if self._stop.is_set():  # the stop came while it was made: request_stop missed it
            child.runner.stop()
            return
        log.info("house bot level %d started", child.level)

    def _forget(self, child: Child) -> None:
        if child.token_id is not None:
            try:
                self.tokens.revoke(child.token_id)
            except Exception:
                log.exception("could not revoke a house bot's token")
        child.runner = None
        child.token_id = None

    def _stop_children(self) -> None:
        running = [c for c in self.children.values() if c.runner is not None]
        for child in running:
            if child.runner is not None:
                child.runner.stop()
        deadline = time.monotonic() + STOP_GRACE
        for child in running:
            runner = child.runner
            if runner is None:
                continue
            if not runner.wait(max(0.1, deadline - time.monotonic())):
                runner.kill()
            self._forget(child)
