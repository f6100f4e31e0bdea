"""The opening explorer's store: the counts of each move from each position, a position's top
and recent games, and every game counted (docs/explorer.md).

Three tables (:mod:`emergo.server.core.models`): ``explorer_moves`` (source, variant, key,
move) -> White's wins, draws, Black's wins, the movers' rating sum and count;
``explorer_games`` (source, variant, key) -> the bounded lists of top and recent games;
``explorer_indexed`` (source, game id): the games counted.

**Exactly once.**  :meth:`Explorer.add` first marks the games in ``explorer_indexed``
(``INSERT ... ON CONFLICT DO NOTHING RETURNING``) and counts only those it marked, in the same
transaction: a game that ends is counted by the transaction that ends it
(:meth:`Explorer.game_over`, called from :meth:`emergo.server.user.ratings.Ratings.game_over`,
the one place a game's end is stored), and a rebuild running beside the server, a second
process or a command run twice skip it.  A failure of the explorer never fails the game's end:
its part runs in a savepoint and is logged; ``emergo admin explorer rebuild --resume`` counts
what was missed.

**Locks** (PostgreSQL): the rows a transaction changes are taken in key order (the moves'
upsert sorted, the lists' rows made first and locked sorted), after everything else the ending
transaction locks (the explorer comes last in it): two games ending at once take turns on the
rows they share and never wait for each other in a circle.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from emergo import round as rnd
from emergo.board import Board
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now, unavailable
from emergo.server.explorer.index import (
    PLY_LIMIT,
    SOURCES,
    Counts,
    Found,
    Game,
    archive_game,
    merge_lists,
    moves_of,
    tally,
)
from emergo.server.user.accounts import DELETED_NAME

__all__ = ["Explorer"]

log = logging.getLogger(__name__)

BATCH = 500
"""Rows one statement writes at most (within both databases' limits on parameters)."""


def _chunks(items: Sequence[Any], size: int = BATCH) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


class Explorer:
    """The explorer of one database (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _insert(self, table: Any) -> Any:
        dialect = postgresql if self.db.postgres else sqlite
        return dialect.insert(table)

    # --- counting ----------------------------------------------------------------------------

    def game_over(self, tx: Tx, row: Mapping[str, Any], state: rnd.RoundState) -> None:
        """A game was archived (``row``: its ``archive`` row) in the transaction ``tx`` that
        ends it: count it there (module docstring)."""
        try:
            moves = state.board().move_stack[:PLY_LIMIT]
            game = archive_game(row, state.root, moves)
        except Exception:  # never fail a game's end: the rebuild counts it later
            log.exception("the explorer could not read game %s", row.get("game_id"))
            return
        if game is None:
            return
        try:
            with tx.connection.begin_nested():
                self.add(tx, [game])
        except Exception as e:
            if tx.connection.invalidated and unavailable(e):
                raise  # the connection lost: the game's end fails whole (a 503, no traceback)
            log.exception("the explorer could not count game %s", game.id)

    def add(self, tx: Tx, games: Sequence[Game], t: float | None = None) -> int:
        """Count the games not counted yet, in ``tx``; how many were new."""
        unique = {(g.source, g.id): g for g in games}
        if not unique:
            return 0
        t = now() if t is None else t
        marked: set[tuple[str, str]] = set()
        for part in _chunks(sorted(unique)):
            statement = (
                self._insert(m.explorer_indexed)
                .on_conflict_do_nothing()
                .returning(m.explorer_indexed.c.source, m.explorer_indexed.c.game_id)
            )
            rows = [{"source": s, "game_id": i, "at": t} for s, i in part]
            marked.update((r.source, r.game_id) for r in tx.execute(statement, rows))
        fresh = [unique[k] for k in sorted(marked)]
        self._count(tx, tally(fresh))
        self._list(tx, fresh)
        return len(fresh)

    def _count(self, tx: Tx, counts: Mapping[tuple[str, str, str, str], Counts]) -> None:
        table = m.explorer_moves
        insert = self._insert(table)
        upsert = insert.on_conflict_do_update(
            index_elements=["source", "variant", "key", "move"],
            set_={
                name: table.c[name] + insert.excluded[name]
                for name in ("white", "draws", "black", "rating_sum", "rating_count")
            },
        )
        rows = [
            {
                "source": source,
                "variant": variant,
                "key": key,
                "move": move,
                "white": c.white,
                "draws": c.draws,
                "black": c.black,
                "rating_sum": c.rating_sum,
                "rating_count": c.rating_count,
            }
            for (source, variant, key, move), c in sorted(counts.items())
        ]
        for part in _chunks(rows):
            tx.execute(upsert, list(part))

    def _list(self, tx: Tx, games: Sequence[Game]) -> None:
        """Add the games to the top and recent lists of the positions they passed."""
        wanted: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for game in games:
            if game.listed is None:
                continue
            for seen in game.seen:
                where = (game.source, game.variant, seen.key)
                wanted.setdefault(where, []).append({**game.listed, "move": seen.move})
        if not wanted:
            return
        table = m.explorer_games
        places = sorted(wanted)
        # the rows first (a new position's made empty), then read locked: a game ending at the
        # same time on another process waits here and then reads what that one wrote
        # (one statement run for many rows: SQLAlchemy compiles it once)
        empty = self._insert(table).on_conflict_do_nothing()
        for part in _chunks(places):
            rows = [{"source": s, "variant": v, "key": k} for s, v, k in part]
            tx.execute(empty, [{**row, "top": [], "recent": []} for row in rows])
        current: dict[tuple[str, str, str], Any] = {}
        for (source, variant), keys in _by_source_variant(places).items():
            for part in _chunks(keys):
                query = (
                    select(table.c.key, table.c.top, table.c.recent)
                    .where(table.c.source == source)
                    .where(table.c.variant == variant)
                    .where(table.c.key.in_(list(part)))
                    .order_by(table.c.key)
                )
                for row in tx.execute(tx.locked(query)):
                    current[(source, variant, row.key)] = {"top": row.top, "recent": row.recent}
        insert = self._insert(table)
        upsert = insert.on_conflict_do_update(
            index_elements=["source", "variant", "key"],
            set_={"top": insert.excluded.top, "recent": insert.excluded.recent},
        )
        rows = []
        for place in places:
            lists = merge_lists(current.get(place), wanted[place])
            source, variant, key = place
            rows.append({"source": source, "variant": variant, "key": key, **lists})
        for part in _chunks(rows):
            tx.execute(upsert, list(part))

    # --- the archive: a rebuild ------------------------------------------------------------

    def clear(self, source: str) -> None:
        """Forget everything counted from ``source`` (a rebuild starts so).

        On PostgreSQL the three tables are locked against writes first (SHARE ROW EXCLUSIVE:
        reads go on; a game's end waits to count until the delete commits).  Without it each
        delete saw the commits made before it began: a game counted between the delete of the
        counts and the delete of the marks kept its counts and lost its mark, and the rebuild
        counted it a second time."""
        _check_source(source)
        # in the order a game's end takes them (its marks, its counts, its lists): locked in
        # another order, the clear and an ending game each held a table the other waited for
        tables = (m.explorer_indexed, m.explorer_moves, m.explorer_games)
        with self.db.write() as tx:
            if self.db.postgres:
                names = ", ".join(t.name for t in tables)
                tx.execute(text(f"LOCK TABLE {names} IN SHARE ROW EXCLUSIVE MODE"))
            for table in tables:
                tx.execute(delete(table).where(table.c.source == source))

    def _unindexed(self) -> Any:
        indexed = m.explorer_indexed
        return (
            m.archive.outerjoin(
                indexed,
                (indexed.c.source == "archive") & (indexed.c.game_id == m.archive.c.game_id),
            ),
            indexed.c.game_id.is_(None),
        )

    def backlog(self) -> int:
        """Archive games not counted yet (counted or found not to count)."""
        joined, missing = self._unindexed()
        with self.db.read() as c:
            return int(
                c.execute(select(func.count()).select_from(joined).where(missing)).scalar_one()
            )

    def index_archive(self, after: str | None = None, limit: int = 100) -> tuple[int, str | None]:
        """Count the next ``limit`` archive games not counted yet, by id after ``after``: the
        games are read and replayed outside any write, then counted in one short transaction.
        Returns (games read, the last id read: None when none was left)."""
        joined, missing = self._unindexed()
        query = (
            select(m.archive, m.games.c.state)
            .select_from(joined.join(m.games, m.games.c.id == m.archive.c.game_id))
            .where(missing)
            .order_by(m.archive.c.game_id)
            .limit(max(1, limit))
        )
        if after is not None:
            query = query.where(m.archive.c.game_id > after)
        with self.db.read() as c:
            rows = c.execute(query).all()
        if not rows:
            return 0, None
        games: list[Game] = []
        skipped: list[str] = []
        for row in rows:
            values = dict(row._mapping)
            state = values.pop("state")
            game = _archived(values, state)
            if game is None:
                skipped.append(values["game_id"])
            else:
                games.append(game)
        t = now()
        with self.db.write() as tx:
            self.add(tx, games, t)
            self._mark_skipped(tx, skipped, t)
        return len(rows), rows[-1].game_id

    def _mark_skipped(self, tx: Tx, ids: Sequence[str], t: float) -> None:
        """Games looked at and not counted (aborted, from a position ...): not looked at again."""
        seen = self._insert(m.explorer_indexed).on_conflict_do_nothing()
        for part in _chunks(list(ids)):
            tx.execute(seen, [{"source": "archive", "game_id": i, "at": t} for i in part])

    # --- the engine's games --------------------------------------------------------------

    def indexed(self, source: str, prefix: str) -> set[str]:
        """The ids of the games of ``source`` counted whose id starts with ``prefix``."""
        table = m.explorer_indexed
        with self.db.read() as c:
            rows = c.execute(
                select(table.c.game_id)
                .where(table.c.source == source)
                .where(table.c.game_id.startswith(prefix, autoescape=True))
            ).all()
        return {r.game_id for r in rows}

    def add_games(self, games: Sequence[Game]) -> int:
        """Count games (the engine's) in a transaction of their own; how many were new."""
        with self.db.write() as tx:
            return self.add(tx, games)

    # --- reading ---------------------------------------------------------------------------

    def lookup(self, source: str, variant: str, key: str) -> Found:
        """What the store holds of one position (``key``: the digest of its canonical key):
        one indexed read of its moves, one of its lists, one of the listed players' names."""
        _check_source(source)
        moves, lists = m.explorer_moves, m.explorer_games
        with self.db.read() as c:
            rows = c.execute(
                select(moves)
                .where(moves.c.source == source)
                .where(moves.c.variant == variant)
                .where(moves.c.key == key)
            ).all()
            found = Found(
                moves=[
                    (
                        r.move,
                        Counts(r.white, r.draws, r.black, int(r.rating_sum), r.rating_count),
                    )
                    for r in rows
                ]
            )
            listed = c.execute(
                select(lists.c.top, lists.c.recent)
                .where(lists.c.source == source)
                .where(lists.c.variant == variant)
                .where(lists.c.key == key)
            ).first()
            if listed is not None:
                found.lists = {"top": listed.top, "recent": listed.recent}
                found.names = _names(c, listed.top + listed.recent)
        return found


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r} (known: {', '.join(SOURCES)})")


def _by_source_variant(
    places: Sequence[tuple[str, str, str]],
) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for source, variant, key in places:
        out.setdefault((source, variant), []).append(key)
    return out


def _archived(row: Mapping[str, Any], state: Any) -> Game | None:
    """The game of an archive row and its game's stored state, or None when it does not count
    (or cannot be read: logged)."""
    try:
        data = state if isinstance(state, Mapping) else {}
        root = str(data.get("root", ""))
        texts = [str(t) for t in data.get("moves", ())]
        board = Board(root, variant=row["variant"])
        return archive_game(row, root, moves_of(board, texts))
    except Exception:
        log.exception("the explorer could not read game %s", row.get("game_id"))
        return None


def _names(c: Connection, games: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    ids = sorted({int(g[side]) for g in games for side in ("white", "black")})
    if not ids:
        return {}
    rows = c.execute(select(m.users.c.id, m.users.c.name).where(m.users.c.id.in_(ids))).all()
    return {int(r.id): r.name or DELETED_NAME for r in rows}
