"""The web app's store: games, their moves, settings and analyses (SQLAlchemy 2 + Alembic).

SQLite in the user's data directory by default (platformdirs); any SQLAlchemy URL works, so a
server can use PostgreSQL later.  The schema is versioned: :meth:`Store.open` runs the Alembic
migrations shipped in ``emergo/web/migrations`` before anything else touches the database.

A move is written (and committed) by :meth:`Store.add_move` before the server acknowledges it to
anyone, so a game survives a restart or a kill -9 between two moves.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit is in the write-ahead log (handed
to the operating system) when it returns, so it survives the server process dying at any moment,
``kill -9`` included (tests/web/test_web_games.py kills a real server); only a power cut or an
operating-system crash can lose the last commits, which were never flushed to the disk.  The
issue asks for the former.  ``synchronous=FULL`` added an fsync to every move: 1-6 ms a move,
and hundreds of ms at the p99 when other programs write to the disk.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
from sqlalchemy.pool import StaticPool

SCHEMA_HEAD = "0002"
"""The newest migration; :meth:`Store.open` upgrades every database to it."""


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game: its players, start position and tags; its moves are :class:`MoveRow` rows."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    variant: Mapped[str] = mapped_column(String(8), default="9x9")
    start: Mapped[str] = mapped_column(Text)
    """The start position (R22)."""
    white: Mapped[str] = mapped_column(String(200), default="?")
    black: Mapped[str] = mapped_column(String(200), default="?")
    players: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """How each side is played (human, engine level, ...), for resuming."""
    tags: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    result: Mapped[str] = mapped_column(String(8), default="*")
    termination: Mapped[str | None] = mapped_column(String(32), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="game", order_by="MoveRow.ply", cascade="all, delete-orphan"
    )


class MoveRow(Base):
    """One move of a game, in canonical R21 text, numbered from 1; under a time control, the
    seconds left on each clock just after it (a resumed game's clocks come from its last move)."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    white_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    black_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    game: Mapped[GameRow] = relationship(back_populates="moves")


class SettingRow(Base):
    """One setting of the page (view, naming, theme, ...) as a JSON value."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)


class AnalysisRow(Base):
    """A finished engine analysis of a position: its limit and its lines."""

    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    position: Mapped[str] = mapped_column(Text, index=True)
    limit: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    lines: Mapped[list[Any]] = mapped_column(JSON, default=list)


class StudyRow(Base):
    """An analysis board's variation tree from a start position (migration 0002).

    ``tree`` is the root's children as ``[{"move": text, "children": [...]}, ...]`` in
    canonical move texts, checked move by move before it is stored (:mod:`emergo.web.studies`).
    """

    __tablename__ = "studies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=now)
    name: Mapped[str] = mapped_column(String(200), default="")
    variant: Mapped[str] = mapped_column(String(8), default="9x9")
    start: Mapped[str] = mapped_column(Text)
    tree: Mapped[list[Any]] = mapped_column(JSON, default=list)
    nodes: Mapped[int] = mapped_column(Integer, default=0)


_GAMES = cast(Table, GameRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_INSERT_MOVE = insert(_MOVES).values(
    game_id=bindparam("game"),
    ply=bindparam("ply"),
    text=bindparam("text"),
    created=bindparam("stamp"),
    white_left=bindparam("white_left"),
    black_left=bindparam("black_left"),
)
_SET_VERSION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"))
    .values(version=bindparam("version"), updated=bindparam("stamp"))
)
_BUMP_VERSION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"))
    .values(version=_GAMES.c.version + 1, updated=bindparam("stamp"))
)


def default_url() -> str:
    """SQLite in the user's data directory: ``.../emergo/emergo.sqlite3``."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("emergo", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'emergo.sqlite3'}"


def url_of(db: str | None) -> str:
    """A database URL from ``--db``: a URL as it is, a file path as SQLite, None the default."""
    if not db:
        return default_url()
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a commit survives the process's death (kill -9), not a power cut; no fsync a
    # move (the module docstring says why that is the durability the server promises).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class StoreError(Exception):
    """The database cannot be opened; the message is one line that names it, says why and
    what to do (``emergo serve`` prints it as it is)."""


def _where(engine: Engine) -> str:
    """The database as a person names it: the SQLite file, else the URL (no password)."""
    if engine.dialect.name == "sqlite" and engine.url.database:
        return str(engine.url.database)
    return engine.url.render_as_string(hide_password=True)


def _reason(error: BaseException) -> str:
    """The first line of what the driver said (SQLAlchemy adds the SQL and a web link)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def _check_sqlite(engine: Engine) -> None:
    """Refuse an SQLite file that is not a database or has damaged pages, before anything
    reads or writes it (``PRAGMA quick_check``: every page of every table and index, in
    about a second for a hundred megabytes)."""
    where = _where(engine)
    try:
        with engine.connect() as connection:
            problems = [row[0] for row in connection.exec_driver_sql("PRAGMA quick_check(1)")]
    except Exception as e:  # sqlite3.DatabaseError: not a database, malformed, encrypted
        reason = _reason(e)
        if "not a database" in reason:
            raise StoreError(
                f"cannot open the database {where}: it is not an SQLite database ({reason}); "
                "name the right file, or another (a new one is made), with --db PATH"
            ) from None
        if "malformed" not in reason and "corrupt" not in reason:
            raise
        problems = [reason]
    if problems != ["ok"]:
        lines = [line for p in problems for line in str(p).splitlines() if line.strip()]
        first = next((line for line in lines if not line.startswith("***")), "malformed")
        raise StoreError(
            f"cannot open the database {where}: the file is damaged ({first.strip()}); "
            "restore it from a backup, or start with another file (--db PATH); "
            "it is left as it is"
        )


def migrate(engine: Engine) -> None:
    """Upgrade the database to :data:`SCHEMA_HEAD` with the shipped Alembic migrations."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The database behind the web app; thread-safe (one short session per call).

    SQLite lets one transaction write at a time, and a writer that finds the database locked
    sleeps and retries (its busy handler: 1, 2, 5, 10 ... 100 ms): with many live games
    storing moves from worker threads at once, that cost hundreds of milliseconds.  So the
    writes of this process take turns on a lock of their own first (a waiter wakes the moment
    the write before it commits); SQLite's busy handler remains for other processes.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        sqlite = engine.dialect.name == "sqlite"
        self._write_lock: AbstractContextManager[Any] = (
            threading.Lock() if sqlite else nullcontext()
        )

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Open (creating and migrating when needed) the database at ``url``; a
        :class:`StoreError` saying what is wrong in one line when it cannot (a bad URL, an
        unwritable file, not a database, damaged pages, a failed migration)."""
        url = url or default_url()
        try:
            if url in ("sqlite://", "sqlite:///:memory:"):  # one shared connection, or no tables
                engine = create_engine(
                    url, poolclass=StaticPool, connect_args={"check_same_thread": False}
                )
            else:
                engine = create_engine(url)
        except Exception as e:
            raise StoreError(f"cannot open the database {url}: {_reason(e)}") from e
        try:
            if engine.dialect.name == "sqlite":
                if engine.url.database not in (None, "", ":memory:"):
                    _check_sqlite(engine)  # before any pragma or migration writes to it
                    engine.dispose()  # the connection that checked has no pragmas set
                event.listen(engine, "connect", _sqlite_pragmas)
            migrate(engine)
        except StoreError:
            engine.dispose()
            raise
        except Exception as e:
            engine.dispose()
            raise StoreError(
                f"cannot open the database {_where(engine)}: {_reason(e)}; check it (and that "
                "it can be written), or start with another (--db PATH)"
            ) from e
        return cls(engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session for reading (WAL: readers never wait for the writer)."""
        with Session(self.engine) as session, session.begin():
            yield session

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A session that writes, committed at the end (one writer of this process at a time)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            yield session

    def schema_version(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    # --- settings ------------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        with self.session() as s:
            return {row.key: row.value for row in s.scalars(select(SettingRow))}

    def set_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        with self.writing() as s:
            for key, value in values.items():
                row = s.get(SettingRow, key)
                if row is None:
                    s.add(SettingRow(key=key, value=value))
                else:
                    row.value = value
        return self.settings()

    # --- games ---------------------------------------------------------------------------------

    def create_game(
        self,
        start: str,
        *,
        variant: str = "9x9",
        white: str = "?",
        black: str = "?",
        players: dict[str, Any] | None = None,
        tags: dict[str, Any] | None = None,
    ) -> int:
        with self.writing() as s:
            row = GameRow(
                start=start,
                variant=variant,
                white=white,
                black=black,
                players=players or {},
                tags=tags or {},
            )
            s.add(row)
            s.flush()
            return row.id

    def add_move(
        self,
        game_id: int,
        ply: int,
        text: str,
        *,
        version: int | None = None,
        clocks: tuple[float, float] | None = None,
    ) -> None:
        """Store move ``ply`` (from 1) of a game and commit; call before acknowledging it.

        ``clocks``: the seconds left (white, black) just after it, stored in the same row.
        Every move of every live game comes here, so it is two statements built once (plain
        SQL, no ORM session: a quarter of the time) in one transaction.
        """
        white_left, black_left = clocks if clocks is not None else (None, None)
        values = {
            "game": game_id,
            "ply": ply,
            "text": text,
            "stamp": now(),
            "version": version,
            "white_left": white_left,
            "black_left": black_left,
        }
        with self._write_lock, self.engine.begin() as connection:
            bump = _BUMP_VERSION if version is None else _SET_VERSION
            if not connection.execute(bump, values).rowcount:
                raise KeyError(f"no game {game_id}")
            connection.execute(_INSERT_MOVE, values)

    def take_back(
        self,
        game_id: int,
        plies: int,
        *,
        version: int | None = None,
        clocks: tuple[float, float] | None = None,
    ) -> None:
        """Delete every move after ``plies`` (a takeback); ``clocks`` (white, black) are the
        clocks after it, kept with move ``plies`` (the game's clocks at that ply)."""
        with self.writing() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                raise KeyError(f"no game {game_id}")
            for move in list(game.moves):
                if move.ply > plies:
                    s.delete(move)
                elif move.ply == plies and clocks is not None:
                    move.white_left, move.black_left = clocks
            game.updated = now()
            game.version = version if version is not None else game.version + 1

    def finish_game(
        self, game_id: int, result: str, termination: str | None, *, version: int | None = None
    ) -> None:
        with self.writing() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                raise KeyError(f"no game {game_id}")
            game.result, game.termination, game.updated = result, termination, now()
            if version is not None:
                game.version = version

    def set_version(self, game_id: int, version: int) -> None:
        """Record a change that is not a move (a draw offer, an engine replaced)."""
        with self.writing() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                raise KeyError(f"no game {game_id}")
            game.version, game.updated = version, now()

    def game(self, game_id: int) -> dict[str, Any] | None:
        with self.session() as s:
            row = s.get(GameRow, game_id)
            return _game_dict(row, moves=True) if row is not None else None

    def games(self, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(
                select(GameRow).order_by(GameRow.updated.desc()).limit(limit).offset(offset)
            )
            return [_game_dict(row, moves=False) for row in rows]

    def count_moves(self, game_id: int) -> int:
        with self.session() as s:
            return int(
                s.scalar(select(func.count()).select_from(MoveRow).filter_by(game_id=game_id)) or 0
            )

    def delete_game(self, game_id: int) -> bool:
        with self.writing() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return False
            s.delete(row)
            return True

    # --- studies (the analysis board's trees) --------------------------------------------------

    def save_study(
        self,
        study_id: int | None,
        *,
        start: str,
        variant: str,
        tree: list[Any],
        nodes: int,
        name: str = "",
    ) -> int | None:
        """Create (``study_id`` None) or replace a study, checked by the caller; its id, or
        None when there is no study ``study_id``."""
        with self.writing() as s:
            if study_id is None:
                row = StudyRow(start=start, variant=variant, tree=tree, nodes=nodes, name=name)
                s.add(row)
                s.flush()
                return row.id
            found = s.get(StudyRow, study_id)
            if found is None:
                return None
            found.start, found.variant, found.tree, found.nodes = start, variant, tree, nodes
            found.name, found.updated = name, now()
            return found.id

    def study(self, study_id: int) -> dict[str, Any] | None:
        with self.session() as s:
            row = s.get(StudyRow, study_id)
            return _study_dict(row, tree=True) if row is not None else None

    def studies(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(select(StudyRow).order_by(StudyRow.updated.desc()).limit(limit))
            return [_study_dict(row, tree=False) for row in rows]

    def delete_study(self, study_id: int) -> bool:
        with self.writing() as s:
            row = s.get(StudyRow, study_id)
            if row is None:
                return False
            s.delete(row)
            return True

    # --- analyses ------------------------------------------------------------------------------

    def save_analysis(self, position: str, limit: dict[str, Any], lines: list[Any]) -> int:
        with self.writing() as s:
            row = AnalysisRow(position=position, limit=limit, lines=json.loads(json.dumps(lines)))
            s.add(row)
            s.flush()
            return row.id

    def analyses(self, position: str) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(
                select(AnalysisRow)
                .filter_by(position=position)
                .order_by(AnalysisRow.created.desc())
                .limit(20)
            )
            return [
                {
                    "id": r.id,
                    "created": r.created.isoformat(),
                    "position": r.position,
                    "limit": r.limit,
                    "lines": r.lines,
                }
                for r in rows
            ]


def _game_dict(row: GameRow, *, moves: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": row.id,
        "created": row.created.isoformat(),
        "updated": row.updated.isoformat(),
        "variant": row.variant,
        "start": row.start,
        "white": row.white,
        "black": row.black,
        "players": row.players,
        "tags": row.tags,
        "result": row.result,
        "termination": row.termination,
        "version": row.version,
    }
    if moves:
        out["moves"] = [m.text for m in row.moves]
        last = row.moves[-1] if row.moves else None
        out["clocks"] = (
            {"white": last.white_left, "black": last.black_left}
            if last is not None and last.white_left is not None and last.black_left is not None
            else None
        )
    return out


def _study_dict(row: StudyRow, *, tree: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": row.id,
        "created": row.created.isoformat(),
        "updated": row.updated.isoformat(),
        "name": row.name,
        "variant": row.variant,
        "start": row.start,
        "nodes": row.nodes,
    }
    if tree:
        out["tree"] = row.tree
    return out
