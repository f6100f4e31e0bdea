"""The online site's database: the engine, transactions that lock, migrations, the schema check.

SQLite (the default: one file, one server process) or PostgreSQL (a deployment: any number of
processes) through SQLAlchemy 2; psycopg 3 is PostgreSQL's driver.

**Writing** (:meth:`Database.write`) is one transaction that others cannot interleave with:

* on PostgreSQL the command locks the rows it changes (``SELECT ... FOR NO KEY UPDATE`` of the
  game: :meth:`Tx.locked`); notifications (:meth:`Tx.notify`) are ``pg_notify`` calls inside the
  transaction, which PostgreSQL delivers to every listening process at commit and never
  otherwise;
* on SQLite the transaction begins with ``BEGIN IMMEDIATE`` (the database's write lock, taken at
  once, so a read-then-write never meets a writer in between), and this process's writers take
  turns on a lock of their own first (no sleeping in SQLite's busy handler); notifications are
  kept and handed to the in-process bus after the commit.

**Migrations** are the Alembic scripts in ``emergo/online/migrations``, the same for both
databases, recorded in the table ``online_schema``.  :func:`migrate` runs them under a lock
(PostgreSQL: an advisory lock; SQLite: the write lock), so two processes never race; a server
refuses to start on a database whose schema is not this code's (:func:`check_schema`).  The
SQLite default migrates itself when the server starts (one process, one file: a newcomer's one
line works); PostgreSQL is migrated by ``emergo admin migrate`` (docs/online.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Select, create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from emergo.online.config import DEFAULT_DB_FILE

SCHEMA_HEAD = "0003"
"""The newest migration of this code."""
VERSION_TABLE = "online_schema"
CHANNEL = "emergo_online"
"""The PostgreSQL LISTEN/NOTIFY channel of the bus."""
_MIGRATION_LOCK = 0x656D6572676F  # "emergo": the advisory lock id of migrations

Notify = Callable[[list[tuple[str, str]]], None]
"""Hands notifications (topic, payload) to the in-process bus after a commit (SQLite)."""


class SchemaError(RuntimeError):
    """The database's schema is not the one this code needs; the message says what to run."""


def default_url() -> str:
    """SQLite in the user's data directory: ``.../emergo/emergo-online.sqlite3``."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("emergo", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / DEFAULT_DB_FILE}"


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

    def notify(self, topic: str, payload: str = "") -> None:
        """Tell every process's subscribers of ``topic`` once this transaction commits."""
        if self.db.postgres:
            self.connection.execute(
                text("SELECT pg_notify(:channel, :message)"),
                {"channel": CHANNEL, "message": f"{topic}|{payload}"},
            )
        self.notes.append((topic, payload))


class Database:
    """The engine and its transactions (module docstring); thread-safe."""

    def __init__(self, url: str | None = None, *, pool_size: int = 10) -> None:
        self.url = url_of(url)
        if self.url in ("sqlite://", "sqlite:///:memory:"):
            engine = create_engine(
                self.url, poolclass=StaticPool, connect_args={"check_same_thread": False}
            )
        elif self.url.startswith("sqlite"):
            engine = create_engine(self.url, connect_args={"timeout": 10})
        else:
            engine = create_engine(self.url, pool_size=pool_size, max_overflow=2 * pool_size)
        self.engine: Engine = engine
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

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A transaction for reading (WAL on SQLite: readers never wait for the writer)."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """One transaction that writes, committed at the end (rolled back on an exception); its
        notifications go out after the commit."""
        with self._write_lock, self.engine.connect() as connection:
            connection = connection.execution_options(emergo_write=True)
            tx = Tx(self, connection)
            with connection.begin():
                yield tx
        if tx.notes and not self.postgres and self.after_commit is not None:
            self.after_commit(tx.notes)

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
