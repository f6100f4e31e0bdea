"""The local app's old store (``emergo.sqlite3``, before the one server) brought into the site:
every saved game and study, and the settings, of one player.

The old store was the local app's own (schema 0001 or 0002 of ``emergo/web/migrations``, read
here with :mod:`sqlite3`, never written): games against the engine and hot-seat games with their
moves and clocks, studies (trees of variations with comments and marks), settings, analyses.
On the site a game's person is the local player (or the account named), an engine the house bot
of its level (a time a move: level 11), both people of a hot-seat game the one player (the
names the old games gave them kept as the record's tags); a finished game goes into the archive,
an unfinished one resumes where it stood, its clocks as they were.  Each study becomes a private
study of the player, one chapter.  The analyses (a cache of engine lines) are not kept.

:func:`import_local` does one file (``emergo admin import-local FILE``); :func:`import_old_data`
is the first start of ``emergo serve`` after the upgrade, which imports the old file of the data
directory once (the ``imports`` table remembers it).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from emergo import record
from emergo import round as rnd
from emergo.board import BLACK, WHITE, Board, Outcome, Termination
from emergo.clock import TimeControl
from emergo.levels import LEVEL_MAX
from emergo.server.core import models as m
from emergo.server.core.config import OLD_LOCAL_FILE
from emergo.server.core.db import data_folder, now
from emergo.server.round.service import GameView, Seats
from emergo.server.study.chapters import ChapterRecord, count_nodes, own_text
from emergo.server.user.accounts import User
from emergo.server.user.preferences import SETTINGS

if TYPE_CHECKING:
    from emergo.server.site import Site

OLD_SCHEMAS = ("0001", "0002")
"""The old store's schemas this reads."""


class ImportError_(ValueError):
    """An old store that cannot be read: the message says which file and why."""


@dataclass
class Summary:
    """What an import brought over."""

    source: str
    games: int = 0
    finished: int = 0
    studies: int = 0
    settings: int = 0
    skipped: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def line(self) -> str:
        skipped = f"; skipped: {'; '.join(self.skipped)}" if self.skipped else ""
        return (
            f"imported {self.source}: {self.games} games ({self.finished} finished), "
            f"{self.studies} studies, {self.settings} settings{skipped}"
        )


def _time(value: Any) -> float:
    """An old store's datetime (naive UTC text) as seconds since the epoch."""
    stamp = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.timestamp()


def _open(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise ImportError_(f"no file {path}")
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        source.row_factory = sqlite3.Row
        version = source.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as e:
        raise ImportError_(f"{path} is not the local app's store: {e}") from None
    if version is None or version[0] not in OLD_SCHEMAS:
        source.close()
        raise ImportError_(
            f"{path} is not the local app's store (schema {version[0] if version else 'none'}, "
            f"expected one of {', '.join(OLD_SCHEMAS)})"
        )
    return source


def import_local(site: Site, path: str | Path, owner: User) -> Summary:
    """Bring the games, studies and settings of the old store ``path`` into the site as
    ``owner``'s (module docstring), in one transaction; what was brought over.  Refused
    (:class:`ImportError_`) when the file is not such a store or was imported already."""
    path = Path(path).expanduser().resolve()
    source_key = str(path)
    source = _open(path)
    summary = Summary(source_key)
    try:
        # the house bots the old engine games need, before the import's one transaction
        levels = {
            _level(json.loads(r[0])[c])
            for r in source.execute("SELECT players FROM games")
            for c in ("white", "black")
            if json.loads(r[0])[c].get("kind") == "engine"
        }
        house = site.bots.ensure_house(tuple(sorted(levels))) if levels else {}
        with site.db.write() as tx:
            if tx.execute(select(m.imports).where(m.imports.c.source == source_key)).first():
                raise ImportError_(f"{path} was imported already")
            for row in source.execute("SELECT * FROM games ORDER BY id"):
                try:
                    finished = _import_game(site, tx, source, row, owner, house)
                except (ValueError, KeyError, TypeError) as e:  # a game the rules refuse
                    summary.skipped.append(f"game {row['id']}: {e}")
                    continue
                summary.games += 1
                summary.finished += finished
            summary.studies = _import_studies(site, tx, source, owner, summary)
            summary.settings = _import_settings(site, tx, source, owner)
            tx.execute(
                insert(m.imports).values(source=source_key, at=now(), summary=summary.json())
            )
    finally:
        source.close()
    return summary


def _level(spec: dict[str, Any]) -> int:
    """The house bot's level that plays an old engine: its level; a time a move: full strength."""
    level = spec.get("level")
    if isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= LEVEL_MAX:
        return level
    return LEVEL_MAX


def _player(spec: dict[str, Any], owner: User, house: dict[int, User]) -> int:
    """The account of an old game's player: the owner for a person, else a house bot."""
    if spec.get("kind") != "engine":
        return owner.id
    return house[_level(spec)].id


def _import_game(
    site: Site,
    tx: Any,
    source: sqlite3.Connection,
    row: sqlite3.Row,
    owner: User,
    house: dict[int, User],
) -> bool:
    """One old game as a site game; whether it was finished."""
    specs = json.loads(row["players"])
    tags = json.loads(row["tags"]) or {}
    moves = source.execute(
        "SELECT ply, text, created, white_left, black_left FROM moves "
        "WHERE game_id = ? ORDER BY ply",
        (row["id"],),
    ).fetchall()
    control = TimeControl.parse(tags["TimeControl"]) if tags.get("TimeControl") else None
    clocks = None
    if control is not None and moves and moves[-1]["white_left"] is not None:
        clocks = (float(moves[-1]["white_left"]), float(moves[-1]["black_left"]))
    created, updated = _time(row["created"]), _time(row["updated"])
    state = rnd.RoundState.new(
        variant=row["variant"],
        root=row["start"],
        time_control=control,
        now=created,
        moves=[r["text"] for r in moves],
        clocks=clocks,
        local=True,
    )
    state = _ending(state, row["result"], row["termination"], updated)
    white_id = _player(specs["white"], owner, house)
    black_id = _player(specs["black"], owner, house)
    record_tags = {"White": row["white"], "Black": row["black"]}
    record_tags.update({k: str(v) for k, v in tags.items() if k != "TimeControl"})
    record_tags["Annotator"] = f"imported from the local app's game {row['id']}"
    game_id = site.rounds.start(
        tx,
        state,
        white_id,
        black_id,
        rated=False,
        t=created,
        tags=record_tags,
        move_clocks=[(r["white_left"], r["black_left"]) for r in moves],
    )
    if state.outcome is None:
        return False
    seats = Seats(white_id, black_id, row["white"], row["black"])
    view = GameView(
        id=game_id,
        seats=seats,
        state=state,
        variant=state.variant,
        speed="live" if control is not None and control.speed == "live" else "correspondence",
        time_control=control.tag() if control is not None else None,
        rated=False,
        status="over",
        player_chat=True,
        created=created,
        updated=updated,
    )
    site.ratings.game_over(tx, view, state, updated)
    return True


def _ending(
    state: rnd.RoundState, result: str, termination: str | None, t: float
) -> rnd.RoundState:
    """The old game's end when the rules did not make it (a resignation, an agreed draw, a
    flag): the same outcome on the round's state."""
    if state.outcome is not None or termination is None or result == "*":
        return state
    kind = Termination(termination)
    winner = {"1-0": WHITE, "0-1": BLACK}.get(result)
    clock = state.clock.stop(t) if state.clock is not None else None
    return dataclasses.replace(state, outcome=Outcome(kind, winner), clock=clock)


def _import_studies(
    site: Site, tx: Any, source: sqlite3.Connection, owner: User, summary: Summary
) -> int:
    """Each old study as a private study of the owner with one chapter: its tree of moves
    (``{move, children, comment, mark}``) as a record, each mark the NAG it stands for, the
    comments kept; its name and times kept.  A study the rules refuse is skipped, said why."""
    count = 0
    for row in source.execute("SELECT * FROM studies ORDER BY id"):
        try:
            chapter = _old_study(row)
        except (ValueError, KeyError, TypeError) as e:  # a move the rules refuse, a bad tree
            summary.skipped.append(f"study {row['id']}: {e}")
            continue
        study = site.studies.create(
            owner, chapter.name, "private", [chapter], tx=tx, t=_time(row["created"])
        )
        updated = _time(row["updated"])
        tx.execute(update(m.studies).where(m.studies.c.id == study.id).values(updated=updated))
        count += 1
    return count


def _old_study(row: sqlite3.Row) -> ChapterRecord:
    """An old study's tree as a chapter (its record built in code: written canonically)."""
    game = record.Game.from_board(Board(row["start"]))
    stack: list[tuple[record.GameNode, list[Any]]] = [(game, json.loads(row["tree"]))]
    while stack:
        node, children = stack.pop()
        for item in children:
            child = node.add_variation(str(item["move"]))
            child.comment = " ".join(str(item.get("comment") or "").split())
            mark = item.get("mark") or ""
            if mark:
                child.nags.add(record.NAG_OF_MARK[mark])
            stack.append((child, item.get("children") or []))
    name = str(row["name"] or "").strip()[:200] or f"Study {row['id']}"
    return ChapterRecord(name, own_text(game), game.variant, count_nodes(game))


def _import_settings(site: Site, tx: Any, source: sqlite3.Connection, owner: User) -> int:
    """The old settings the site keeps (the board's look and sound) as the owner's."""
    kept: dict[str, Any] = {}
    for row in source.execute('SELECT "key", value FROM settings'):
        key, value = row[0], json.loads(row[1]) if row[1] is not None else None
        if key in SETTINGS and value in SETTINGS[key] and type(value) is type(SETTINGS[key][0]):
            kept[key] = value
    if kept:
        site.preferences.change(owner.id, kept, tx=tx)
    return len(kept)


def import_old_data(site: Site) -> Iterator[str]:
    """The first start of ``emergo serve`` after the upgrade: the local app's store of the data
    directory imported once as the local player's; a line for what was done."""
    if site.local_user is None:
        return
    path = data_folder() / OLD_LOCAL_FILE
    if not path.is_file():
        return
    with site.db.read() as c:
        if c.execute(select(m.imports).where(m.imports.c.source == str(path.resolve()))).first():
            return
    try:
        summary = import_local(site, path, site.local_user)
    except ImportError_ as e:
        yield f"the old local store was not imported: {e}"
        return
    yield summary.line()
