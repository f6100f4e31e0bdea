"""Backups of an SQLite site: ``emergo admin backup FILE`` and ``emergo admin restore FILE``.

A backup is made with SQLite's online backup API (:meth:`sqlite3.Connection.backup`): a
consistent copy of the database as of one moment while the server goes on writing (the copy
restarts by itself when a write lands between its steps), written to ``FILE.partial``, checked
(``PRAGMA integrity_check`` and the schema's table) and only then renamed to ``FILE``.

A restore copies a backup over the site's database with the same API, page by page under the
database's lock, so the WAL and shared-memory files stay consistent (a file copy over a live
WAL database corrupts it).  It refuses a database that a server is serving (a process's
heartbeat in the ``processes`` table is younger than :data:`IN_USE`) unless forced, and keeps
the database it replaces beside it (``NAME.before-restore-TIME``).

PostgreSQL is backed up with ``pg_dump`` and restored with ``pg_restore`` (docs/deploy.md).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from emergo.server.core.db import VERSION_TABLE

IN_USE = 10.0
"""Seconds: a server process's heartbeat younger than this means the database is in use (the
processes write one every 2 s)."""
PAGES_A_STEP = 1024
"""Pages copied a step: between steps the server may write (a step holds the read lock)."""


class BackupError(RuntimeError):
    """A backup or restore that cannot be done, with the reason."""


@dataclass(frozen=True)
class Summary:
    """What a backup holds: its schema's revision, games and users, size in bytes."""

    revision: str | None
    games: int
    users: int
    size: int


def sqlite_path(url: str) -> Path:
    """The file of an SQLite URL; :class:`BackupError` for another database."""
    if not url.startswith("sqlite:///") or url in ("sqlite:///:memory:",):
        raise BackupError(
            "emergo admin backup and restore are for SQLite; back up PostgreSQL with pg_dump "
            "and restore it with pg_restore (docs/deploy.md)"
        )
    return Path(url[len("sqlite:///") :])


def summary(path: Path) -> Summary:
    """Check that ``path`` is a whole SQLite database of the site; what it holds."""
    try:
        with _connect(path, readonly=True) as c:
            check = c.execute("PRAGMA integrity_check").fetchone()
            if check is None or check[0] != "ok":
                raise BackupError(f"{path} is damaged: {check[0] if check else 'no answer'}")
            tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if VERSION_TABLE not in tables or "games" not in tables:
                raise BackupError(f"{path} is not a database of the emergo online site")
            row = c.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
            games = c.execute("SELECT count(*) FROM games").fetchone()[0]
            users = c.execute("SELECT count(*) FROM users").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{path} is not an SQLite database ({e})") from None
    return Summary(row[0] if row else None, int(games), int(users), path.stat().st_size)


def backup(
    source: Path,
    target: Path,
    *,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Copy the live database ``source`` to ``target`` (module docstring); ``force``: replace
    an existing ``target``.  ``progress(done, total)`` pages after each step."""
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.resolve() == source.resolve():
        raise BackupError("the backup must be another file than the database")
    if target.exists() and not force:
        raise BackupError(f"{target} exists: choose another name, or --force to replace it")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with _connect(source, readonly=True) as src, _connect(partial) as dst:

            def step(_status: int, remaining: int, total: int) -> None:
                if progress is not None:
                    progress(total - remaining, total)

            src.backup(dst, pages=PAGES_A_STEP, progress=step)
            # one file: no WAL beside the copy
            dst.execute("PRAGMA journal_mode=DELETE")
        found = summary(partial)
        os.replace(partial, target)
    except sqlite3.Error as e:
        raise BackupError(f"the backup failed: {e}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Summary(found.revision, found.games, found.users, target.stat().st_size)


def in_use(path: Path, now: float | None = None) -> float | None:
    """Seconds since a server's last heartbeat when one is younger than :data:`IN_USE`, else
    None (no server serves the database, or none has for a while)."""
    if not path.exists():
        return None
    try:
        with _connect(path, readonly=True) as c:
            row = c.execute("SELECT max(seen) FROM processes").fetchone()
    except sqlite3.DatabaseError:
        return None  # no processes table: never served
    if row is None or row[0] is None:
        return None
    age = (now if now is not None else time.time()) - float(row[0])
    return max(age, 0.0) if age < IN_USE else None


def restore(source: Path, target: Path, *, force: bool = False) -> tuple[Summary, Path | None]:
    """Copy the backup ``source`` over the database ``target`` (module docstring); returns what
    it holds and where the replaced database was kept (None when there was none)."""
    found = summary(source)
    age = in_use(target)
    if age is not None and not force:
        raise BackupError(
            f"{target} is in use: a server wrote its heartbeat {age:.0f} s ago. Stop every "
            f"server first (then wait {IN_USE:.0f} s), or --force if none runs"
        )
    kept: Path | None = None
    try:
        if target.exists() and target.stat().st_size > 0:
            kept = target.with_name(
                f"{target.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
            )
            backup(target, kept, force=True)
        with _connect(source, readonly=True) as src, _connect(target) as dst:
            src.backup(dst, pages=PAGES_A_STEP)
    except sqlite3.Error as e:
        raise BackupError(f"the restore failed: {e}") from None
    return found, kept


@contextmanager
def _connect(path: Path, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection, closed at the end (sqlite3's own context manager only commits)."""
    if readonly:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    else:
        connection = sqlite3.connect(path, timeout=10)
    try:
        connection.execute("PRAGMA busy_timeout=10000")
        yield connection
    finally:
        connection.close()
