"""The bus: tells the connections of every process that something changed, after the commit.

A notification is a topic and a short payload: ``g:ID`` a game's new version (with the
version's events and state when they fit: :mod:`emergo.server.round.service` keeps them in
each process's memory, so that every subscriber of the game on a process reads nothing from
the database), ``c:ID`` a chat line of a game, ``u:ID`` a user's event (challenge, game start,
game end), ``lobby`` the open seeks changed, ``a:...`` a credential ended
(:mod:`emergo.server.core.auth`).  A reader woken on a topic sends what it has not sent yet, so
a lost or merged notification costs nothing but a little delay.

* :class:`LocalBus` (SQLite: one process) and :class:`PgBus` alike: the database hands a
  transaction's notifications to this process's bus right after its commit
  (:attr:`emergo.server.core.db.Database.after_commit`).
* :class:`PgBus` (PostgreSQL): a transaction's ``pg_notify`` calls reach every process's
  ``LISTEN`` at commit; one thread a process listens (dropping its own process's, delivered
  already) and wakes the subscribers on its event loop.  After a lost connection it reconnects
  and wakes every subscriber (they fetch again) and tells the watchers (:meth:`Bus.watch`).

A watcher (:meth:`Bus.watch`) sees every notification of a topic prefix before the subscribers
are woken, on the thread that delivers it: a process's caches (a game's state, credentials)
stay up to date through it.

A subscriber waits on a future of its own, so a slow reader never makes the bus queue
up: it finds everything new in the database when it reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterable

from emergo.server.core.db import CHANNEL, Database

log = logging.getLogger(__name__)


class Subscription:
    """One reader's interest in some topics (use as a context manager, or :meth:`close`)."""

    def __init__(self, bus: Bus, topics: tuple[str, ...]) -> None:
        self.bus = bus
        self.topics = topics
        self.fired: dict[str, str] = {}
        """The topics notified since the last :meth:`take`, with their last payload."""
        self._waiters: list[asyncio.Future[bool]] = []

    async def wait(self, timeout: float | None = None) -> bool:
        """Wait for a notification (True) or the timeout (False); True at once when the bus
        is closing (the reader then sees :attr:`Bus.closing` and ends)."""
        if self.fired or self.bus.closing:
            return True
        # a future and a timer, not asyncio.wait_for (a task of its own each wake)
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        self._waiters.append(waiter)
        timer = None if timeout is None else loop.call_later(timeout, _settle, waiter, False)
        try:
            return await waiter
        finally:
            if timer is not None:
                timer.cancel()
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)

    def wake(self) -> None:
        """Wake the waiters (on the event loop)."""
        for waiter in self._waiters:
            _settle(waiter, True)

    def take(self) -> dict[str, str]:
        """The topics notified (and their last payload) since the last call."""
        fired, self.fired = self.fired, {}
        return fired

    def close(self) -> None:
        self.bus._unsubscribe(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _settle(waiter: asyncio.Future[bool], woke: bool) -> None:
    if not waiter.done():
        waiter.set_result(woke)


class Bus:
    """The subscribers of this process (the base of both buses)."""

    def __init__(self) -> None:
        self._topics: dict[str, set[Subscription]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closing = False
        """The server is stopping: every stream and socket ends (:meth:`close_readers`)."""
        self._watchers: list[tuple[str, Callable[[str, str], None]]] = []
        self._lost: list[Callable[[], None]] = []

    def watch(
        self, prefix: str, call: Callable[[str, str], None], lost: Callable[[], None] | None = None
    ) -> None:
        """Call ``call(topic, payload)`` for every notification whose topic starts with
        ``prefix`` (on the delivering thread, before the subscribers wake); ``lost()`` when
        notifications may have been lost (the bus reconnected)."""
        self._watchers.append((prefix, call))
        if lost is not None:
            self._lost.append(lost)

    def hears(self) -> bool:
        """Whether every process's notifications reach this one now: a watcher's memory (a
        game's copy, a known credential) is trusted only then."""
        return True

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def stop(self) -> None:
        self._loop = None

    def subscribe(self, *topics: str) -> Subscription:
        """A new subscription to ``topics`` (call on the event loop)."""
        sub = Subscription(self, topics)
        for topic in topics:
            self._topics.setdefault(topic, set()).add(sub)
        return sub

    def subscribers(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))

    def _unsubscribe(self, sub: Subscription) -> None:
        for topic in sub.topics:
            subs = self._topics.get(topic)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._topics[topic]

    def deliver(self, notes: Iterable[tuple[str, str]]) -> None:
        """Wake the subscribers of these notifications (from any thread)."""
        notes = list(notes)
        for topic, payload in notes:
            for prefix, call in self._watchers:
                if topic.startswith(prefix):
                    try:
                        call(topic, payload)
                    except Exception:  # a watcher's bug must not stop the bus
                        log.exception("a watcher of %s failed", prefix)
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._dispatch, notes)

    def _dispatch(self, notes: list[tuple[str, str]]) -> None:
        for topic, payload in notes:
            for sub in tuple(self._topics.get(topic, ())):
                sub.fired[topic] = payload
                sub.wake()

    def close_readers(self) -> None:
        """The server is stopping (Ctrl-C, SIGTERM): wake every reader, which ends its stream or
        socket cleanly instead of being cancelled mid-wait (from any thread, a signal handler's
        included)."""
        self.closing = True
        self.wake_all()

    def wake_all(self) -> None:
        """Every subscriber fetches again (after notifications may have been lost)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._wake_every)

    def _wake_every(self) -> None:
        self._dispatch([(topic, "") for topic in tuple(self._topics)])

    def lost(self) -> None:
        """Notifications may have been lost: the watchers forget what they kept, every
        subscriber fetches again."""
        for call in self._lost:
            try:
                call()
            except Exception:
                log.exception("a bus watcher failed")
        self.wake_all()


class LocalBus(Bus):
    """The bus of one process on SQLite."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        db.after_commit = self.deliver


class PgBus(Bus):
    """PostgreSQL LISTEN/NOTIFY across processes (module docstring)."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        from sqlalchemy.engine import make_url

        db.after_commit = self.deliver
        self._origin = db.origin
        url = make_url(db.url).set(drivername="postgresql")
        self._dsn = url.render_as_string(hide_password=False)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        super().start(loop)
        self._stopping.clear()
        self._thread = threading.Thread(target=self._listen, name="emergo-bus", daemon=True)
        self._thread.start()
        self.listening.wait(10)

    def hears(self) -> bool:
        # not while its connection is down or coming back: what other processes commit then
        # is heard by nobody here
        return self.listening.is_set()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._wake_listener()
            self._thread.join(5)
        super().stop()

    @property
    def _wake(self) -> str:
        """This process's own channel, heard by its listener alone: a stop wakes it there."""
        return f"{CHANNEL}_wake_{self._origin}"

    def _wake_listener(self) -> None:
        """Wake the listener out of its wait (else it sees the stop within its half second:
        every stop of a server, and of each test's app, waited for it)."""
        import psycopg

        if not self.listening.is_set():
            return
        try:
            with psycopg.connect(self._dsn, autocommit=True, connect_timeout=2) as connection:
                connection.execute(f"NOTIFY {self._wake}")
        except psycopg.Error:  # the database away: the listener's timeout still ends it
            pass

    def _listen(self) -> None:
        import psycopg

        delay = 0.1
        first = True
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    connection.execute(f"LISTEN {self._wake}")
                    if not first:  # notifications may have been lost while reconnecting
                        self.lost()
                    self.listening.set()
                    first, delay = False, 0.1
                    while not self._stopping.is_set():
                        # each as it arrives; the timeout only lets the loop see a stop
                        for note in connection.notifies(timeout=0.5):
                            if note.channel != CHANNEL:  # this process's wake: a stop
                                break
                            topic, _, rest = note.payload.partition("|")
                            origin, _, payload = rest.partition("|")
                            if origin != self._origin:  # this process's: delivered already
                                self.deliver([(topic, payload)])
            except psycopg.Error as e:
                self.listening.clear()  # the watchers' memory is not trusted from now on
                self.lost()
                log.warning("the bus lost its database connection (%s); reconnecting", type(e))
                self._stopping.wait(delay)
                delay = min(delay * 2, 5.0)
