"""The online site's database: the engine, transactions that lock, migrations, the schema check.

SQLite (the default: one file, one server process) or PostgreSQL (a deployment: any number of
processes) through SQLAlchemy 2; psycopg 3 is PostgreSQL's driver.

**Writing** (:meth:`Database.write`) is one transaction that others cannot interleave with:

* on PostgreSQL the command locks the rows it changes (``SELECT ... FOR NO KEY UPDATE`` of the
  game: :meth:`Tx.locked`); notifications (:meth:`Tx.notify`) are ``pg_notify`` calls inside the
  transaction, which PostgreSQL delivers to every listening process at commit and never
  otherwise; this process hands them to its own bus at once after the commit (the others get
  them through ``LISTEN``, which drops this process's own: each carries :attr:`Database.origin`);
* on SQLite the transaction begins with ``BEGIN IMMEDIATE`` (the database's write lock, taken at
  once, so a read-then-write never meets a writer in between), and this process's writers take
  turns on a lock of their own first (no sleeping in SQLite's busy handler); notifications are
  kept and handed to the in-process bus after the commit.

**The hot path** (:meth:`Database.raw_write`): one statement on a pooled driver connection of
its own, without SQLAlchemy (which costs about 0.2 ms a statement): on PostgreSQL autocommitted
(the statement is its transaction: one round trip, durable when it returns), on SQLite one
``BEGIN IMMEDIATE`` transaction under the same lock as :meth:`Database.write`.  A move is one
such statement (:mod:`emergo.server.round.service`).

**The request deadline** (:class:`Window`, :func:`deadline`): a request past its deadline
commits nothing; a transaction checks it before it starts and as it commits (:class:`Late`,
answered 503), and the edge (:class:`emergo.server.app.Deadline`) answers 503 at the deadline
only when no commit of the request is under way or done (else it waits for the answer), so a
503 always means that nothing was committed.

**Migrations** are the Alembic scripts in ``emergo/server/core/migrations``, the same for both
databases, recorded in the table ``online_schema``.  :func:`migrate` runs them under a lock
(PostgreSQL: an advisory lock; SQLite: the write lock), so two processes never race; a server
refuses to start on a database whose schema is not this code's (:func:`check_schema`).  The
SQLite default migrates itself when the server starts (one process, one file: a newcomer's one
line works); PostgreSQL is migrated by ``emergo admin migrate`` (docs/online.md).
"""

from __future__ import annotations

import contextvars
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Select, create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from emergo.server.core.config import DEFAULT_DB_FILE, OLD_SITE_FILE, DatabaseSettings

SCHEMA_HEAD = "0013"
"""The newest migration of this code."""
VERSION_TABLE = "online_schema"
CHANNEL = "emergo_online"
"""The PostgreSQL LISTEN/NOTIFY channel of the bus."""
_MIGRATION_LOCK = 0x656D6572676F  # "emergo": the advisory lock id of migrations

Notify = Callable[[list[tuple[str, str]]], None]
"""Hands notifications (topic, payload) to the in-process bus after a commit (SQLite)."""


RETRY_AFTER = 5
"""Seconds a client is told to wait (``Retry-After``) when the database does not answer."""


class Late(Exception):
    """The request's deadline passed before its transaction could commit: nothing was."""


class Window:
    """The time a request has to commit (module docstring), shared by the edge that set it and
    the threads that do its work; thread-safe.

    Once the deadline passed (:meth:`expire`, or the clock) a transaction that has not begun to
    commit never will (:class:`Late`), unless the request has committed something already: then
    its other transactions go on (a request is never half answered 503).  The edge asks
    :meth:`expire` whether a commit is under way or done: if not, a 503 is true at once."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._expired = False
        self._committing = 0
        self.committed = False

    def late(self) -> bool:
        return not self.committed and (self._expired or time.monotonic() > self.at)

    def check(self) -> None:
        if self.late():
            raise Late("the request's deadline passed: nothing was committed")

    def begin_commit(self) -> None:
        with self._lock:
            self.check()
            self._committing += 1

    def end_commit(self, done: bool) -> None:
        with self._lock:
            self._committing -= 1
            if done:
                self.committed = True

    def expire(self) -> bool:
        """The deadline is here: whether a commit is under way or done (then wait for it)."""
        with self._lock:
            self._expired = True
            return self._committing > 0 or self.committed


_WINDOW: contextvars.ContextVar[Window | None] = contextvars.ContextVar(
    "emergo_window", default=None
)


@contextmanager
def deadline(window: Window) -> Iterator[Window]:
    """Work in this context (and the threads it hands work to: ``asyncio.to_thread`` copies
    the context) commits nothing past ``window``'s deadline (module docstring)."""
    token = _WINDOW.set(window)
    try:
        yield window
    finally:
        _WINDOW.reset(token)


def check_deadline() -> None:
    """:class:`Late` when the current request's deadline has passed (and it committed nothing)."""
    window = _WINDOW.get()
    if window is not None:
        window.check()


@contextmanager
def _committing(effect: bool) -> Iterator[None]:
    """Around a commit: refused past the deadline, and marked while it runs (:class:`Window`)."""
    window = _WINDOW.get() if effect else None
    if window is None:
        yield
        return
    window.begin_commit()
    done = False
    try:
        yield
        done = True
    finally:
        window.end_commit(done)


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the database is away, stalled or busy (not that the request is
    wrong): no connection, a connection lost, no free connection in the pool within its
    timeout, a statement or lock wait past ``statement_timeout``, SQLite's write lock busy.
    The edges answer these 503 with ``Retry-After``; nothing was committed."""
    from sqlalchemy import exc

    if isinstance(error, Late):
        return True
    if _driver_unavailable(error):
        return True
    if isinstance(error, exc.TimeoutError):  # the pool's: no connection free in time
        return True
    if isinstance(error, exc.DBAPIError):
        return error.connection_invalidated or isinstance(
            error, exc.OperationalError | exc.InterfaceError
        )
    return False


def driver_errors() -> tuple[type[BaseException], ...]:
    """The classes of the drivers' own errors that :func:`unavailable` may call so (and
    :class:`Late`), for the edges' handlers."""
    import sqlite3

    found: list[type[BaseException]] = [Late, sqlite3.OperationalError]
    try:
        import psycopg
    except ImportError:
        return tuple(found)
    return (*found, psycopg.OperationalError, psycopg.InterfaceError)


def _driver_unavailable(error: BaseException) -> bool:
    """The driver's own errors of :func:`unavailable` (the hot path's, without SQLAlchemy)."""
    import sqlite3

    if isinstance(error, sqlite3.OperationalError):
        return True
    try:
        import psycopg
    except ImportError:
        return False
    gone = psycopg.OperationalError | psycopg.InterfaceError  # QueryCanceled is one too
    return isinstance(error, gone)


class SchemaError(RuntimeError):
    """The database's schema is not the one this code needs; the message says what to run."""


def data_folder() -> Path:
    """The user's data directory of emergo (made when missing): ``~/.local/share/emergo`` ..."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("emergo", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def default_url() -> str:
    """SQLite in the user's data directory: ``.../emergo/emergo-site.sqlite3``.  The old site's
    file (``emergo-online.sqlite3``, the same schema) is taken over under the new name when the
    new one is not there yet."""
    folder = data_folder()
    new, old = folder / DEFAULT_DB_FILE, folder / OLD_SITE_FILE
    if not new.exists() and old.exists():
        for suffix in ("", "-wal", "-shm"):  # SQLite's write-ahead log goes with it
            if Path(f"{old}{suffix}").exists():
                Path(f"{old}{suffix}").rename(f"{new}{suffix}")
    return f"sqlite:///{new}"


def url_of(db: str | None) -> str:
    """A database URL from ``--db``: ``postgresql://`` gets psycopg 3 as its driver, a file path
    is SQLite, None the default file."""
    if not db:
        return default_url()
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


def shown(url: str) -> str:
    """A URL fit for a message or a log: without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(a database URL that cannot be read)"


class Tx:
    """One write transaction: its connection, and notifications sent when it commits."""

    def __init__(self, db: Database, connection: Connection) -> None:
        self.db = db
        self.connection = connection
        self.notes: list[tuple[str, str]] = []
        self.committed: list[Callable[[], None]] = []
        """Called after the commit, before the notifications go out (:meth:`on_commit`)."""

    def on_commit(self, call: Callable[[], None]) -> None:
        """Call ``call`` once this transaction has committed (never if it rolls back)."""
        self.committed.append(call)

    def execute(self, statement: Any, parameters: Any = None) -> Any:
        return self.connection.execute(statement, parameters)

    def locked(self, query: Select[Any], of: Any = None) -> Select[Any]:
        """``query`` locking the rows it reads until the commit; on SQLite the transaction holds
        the database's write lock already.  PostgreSQL: ``FOR NO KEY UPDATE`` (we never change
        a key, so rows that only refer to these, a chat line or a heartbeat, need not wait), of
        the table ``of`` alone when given (a join must not lock its users' rows too)."""
        if not self.db.postgres:
            return query
        return query.with_for_update(of=of, key_share=True)

    def notify(self, topic: str, payload: str = "", *, wire: str | None = None) -> None:
        """Tell every process's subscribers of ``topic`` once this transaction commits;
        ``wire``: what the other processes get instead of ``payload`` (this one has it in
        memory already: :mod:`emergo.server.round.cache`)."""
        if self.db.postgres:
            self.connection.execute(
                text("SELECT pg_notify(:channel, :message)"),
                {"channel": CHANNEL, "message": self.db.note(topic, wire or payload)},
            )
        self.notes.append((topic, payload))


_NAMED = re.compile(r"%\((\w+)\)s")


class RawTx:
    """The hot path's statement (:meth:`Database.raw_write`): SQL with ``%(name)s``
    parameters (psycopg's; rewritten as ``:name`` for SQLite), and its notifications."""

    def __init__(self, db: Database, cursor: Any) -> None:
        self.db = db
        self.cursor = cursor
        self.notes: list[tuple[str, str]] = []
        self.committed: list[Callable[[], None]] = []

    def execute(self, sql: str, parameters: dict[str, Any]) -> Any:
        """Run one statement; the cursor (``fetchone``, ``rowcount``)."""
        if self.db.sqlite:
            sql = self.db.sqlite_sql(sql)
        self.cursor.execute(sql, parameters)
        return self.cursor

    def notify(self, topic: str, payload: str = "") -> None:
        """As :meth:`Tx.notify`, but the caller's statement sends it on PostgreSQL (its text is
        :meth:`Database.note`); here it is only kept for this process's bus."""
        self.notes.append((topic, payload))

    def on_commit(self, call: Callable[[], None]) -> None:
        self.committed.append(call)


class Database:
    """The engine and its transactions (module docstring); thread-safe."""

    def __init__(self, url: str | None = None, settings: DatabaseSettings | None = None) -> None:
        """``settings``: a server's pool and timeouts (``[database]``); None: the pool's
        defaults and no statement timeout (``emergo admin migrate`` may run long)."""
        self.url = url_of(url)
        self.settings = settings or DatabaseSettings()
        if self.url in ("sqlite://", "sqlite:///:memory:"):
            engine = create_engine(
                self.url, poolclass=StaticPool, connect_args={"check_same_thread": False}
            )
        elif self.url.startswith("sqlite"):
            engine = create_engine(self.url, connect_args={"timeout": 10})
        else:
            options = self.settings
            connect: dict[str, Any] = {"connect_timeout": max(2, options.connect_timeout)}
            if settings is not None:
                # a lock held or a statement stuck past this is an error (503), not a hang
                milliseconds = int(options.statement_timeout * 1000)
                connect["options"] = f"-c statement_timeout={milliseconds}"
            engine = create_engine(
                self.url,
                pool_size=options.pool_size,
                max_overflow=options.max_overflow,
                pool_timeout=options.pool_timeout,
                pool_pre_ping=options.pool_pre_ping,
                connect_args=connect,
            )
        self.engine: Engine = engine
        self.origin = secrets.token_hex(4)
        """This process's mark on its notifications (its bus drops them from ``LISTEN``)."""
        self._sqlite_sql: dict[str, str] = {}
        self.postgres = engine.dialect.name == "postgresql"
        self.sqlite = engine.dialect.name == "sqlite"
        self.after_commit: Notify | None = None
        self._write_lock: AbstractContextManager[Any] = (
            threading.RLock() if self.sqlite else nullcontext()
        )
        if self.sqlite:
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """One round trip to the database (the health check); raises when it does not answer."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A transaction for reading (WAL on SQLite: readers never wait for the writer)."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    def note(self, topic: str, payload: str) -> str:
        """A notification's text on PostgreSQL's channel: ``topic|origin|payload``."""
        return f"{topic}|{self.origin}|{payload}"

    def sqlite_sql(self, sql: str) -> str:
        """``%(name)s`` parameters as SQLite's ``:name`` (cached)."""
        found = self._sqlite_sql.get(sql)
        if found is None:
            found = self._sqlite_sql[sql] = _NAMED.sub(r":\1", sql)
        return found

    def _committed(self, tx: Tx | RawTx) -> None:
        for call in tx.committed:
            call()
        if tx.notes and self.after_commit is not None:
            self.after_commit(tx.notes)

    @contextmanager
    def write(self, *, effect: bool = True) -> Iterator[Tx]:
        """One transaction that writes, committed at the end (rolled back on an exception); its
        notifications go out after the commit.  Nothing commits past the request's deadline
        (:class:`Window`); ``effect`` False: a write the request's answer does not depend on (a
        rate limit's count), which neither the deadline refuses nor makes the request's."""
        if effect:
            check_deadline()
        with self._write_lock, self.engine.connect() as connection:
            connection = connection.execution_options(emergo_write=True)
            tx = Tx(self, connection)
            transaction = connection.begin()
            try:
                yield tx
            except BaseException:
                transaction.rollback()
                raise
            with _committing(effect):
                transaction.commit()
        self._committed(tx)

    def raw_one(self, sql: str, parameters: dict[str, Any] | None = None) -> Any:
        """One row of one read statement on a pooled driver connection (autocommitted: no
        BEGIN and COMMIT around it); None when there is none."""
        pooled = self.engine.raw_connection()
        driver: Any = pooled.driver_connection
        broken = False
        try:
            if self.postgres:
                driver.autocommit = True
                try:
                    with driver.cursor() as cursor:
                        cursor.execute(sql, parameters or {})
                        return cursor.fetchone()
                finally:
                    if not driver.closed:
                        driver.autocommit = False
            cursor = driver.cursor()
            try:
                return cursor.execute(self.sqlite_sql(sql), parameters or {}).fetchone()
            finally:
                cursor.close()
        except Exception as e:
            broken = _driver_unavailable(e)
            raise
        finally:
            if broken:
                pooled.invalidate()
                self.engine.dispose()
            pooled.close()

    @contextmanager
    def raw_write(self) -> Iterator[RawTx]:
        """The hot path (module docstring): a driver cursor for one statement, autocommitted on
        PostgreSQL, in one ``BEGIN IMMEDIATE`` transaction on SQLite; a connection that failed
        is dropped from the pool.  Its notifications go to this process's bus after it."""
        check_deadline()
        with self._write_lock:
            pooled = self.engine.raw_connection()
            driver: Any = pooled.driver_connection
            broken = False
            try:
                if self.postgres:
                    driver.autocommit = True
                    try:
                        # the one statement is its own commit: marked as one
                        with _committing(True), driver.cursor() as cursor:
                            tx = RawTx(self, cursor)
                            yield tx
                    finally:
                        if not driver.closed:
                            driver.autocommit = False
                else:
                    cursor = driver.cursor()
                    cursor.execute("BEGIN IMMEDIATE")
                    try:
                        tx = RawTx(self, cursor)
                        yield tx
                        with _committing(True):
                            cursor.execute("COMMIT")
                    except BaseException:
                        cursor.execute("ROLLBACK")
                        raise
                    finally:
                        cursor.close()
            except Exception as e:
                broken = _driver_unavailable(e)
                raise
            finally:
                if broken:  # and the pool's other connections with it (a restarted server)
                    pooled.invalidate()
                    self.engine.dispose()
                pooled.close()
        self._committed(tx)

    # --- the schema ------------------------------------------------------------------------------

    def revision(self) -> str | None:
        """The schema's migration (None on an empty database)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
            return context.get_current_revision()

    def migrate(self) -> tuple[str | None, str]:
        """Upgrade to :data:`SCHEMA_HEAD` under a lock no other process can hold at the same time;
        returns (the revision before, the revision after)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        with self._write_lock, self.engine.connect() as connection:
            connection = connection.execution_options(emergo_write=True)
            if self.postgres:
                # held by this session until unlocked: a second `emergo admin migrate` (or a
                # server starting) waits here, then finds the schema up to date
                connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": _MIGRATION_LOCK})
                connection.commit()
            try:
                with connection.begin():
                    before = _revision_of(connection)
                    config.attributes["connection"] = connection
                    command.upgrade(config, "head")
                    after = _revision_of(connection)
            finally:
                if self.postgres:
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:id)"), {"id": _MIGRATION_LOCK}
                    )
                    connection.commit()
        return before, after or SCHEMA_HEAD

    def check_schema(self) -> None:
        """Raise :class:`SchemaError` unless the schema is this code's :data:`SCHEMA_HEAD`."""
        revision = self.revision()
        if revision == SCHEMA_HEAD:
            return
        where = shown(self.url)
        if revision is None:
            raise SchemaError(
                f"the database {where} has no online schema yet: run `emergo admin migrate "
                f"--db ...` first"
            )
        if revision < SCHEMA_HEAD:
            raise SchemaError(
                f"the database {where} is at schema {revision}, this server needs {SCHEMA_HEAD}: "
                "run `emergo admin migrate --db ...` (stop the old servers first)"
            )
        raise SchemaError(
            f"the database {where} is at schema {revision}, newer than this server's "
            f"{SCHEMA_HEAD}: upgrade emergo"
        )


def _revision_of(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy emits BEGIN itself (below): the driver's own transaction handling off
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a commit survives the death of the process (kill -9), not a power cut
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get("emergo_write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def now() -> float:
    """Wall time, seconds since the epoch: every time the site stores."""
    return time.time()
