"""The archive: every finished game, found by player, opponent, variant, speed, result and date;
a player's results by colour and against any opponent (docs/ratings.md).

Two tables written when a game ends (:mod:`emergo.server.user.ratings`) serve it: ``archive`` (one
row a game: the site's search, newest first by the index on ``ended``, or on ``variant, speed,
ended``) and ``player_games`` (one row a player and game: a player's games newest first by
``user_id, ended``, head-to-head by ``user_id, opponent_id, ended``).  Pages are read by keyset
(the ``ended`` time and id of the last game seen), never by offset, so the hundredth page costs
what the first does.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, or_, select

from emergo.geometry import VARIANTS
from emergo.server.core import models as m
from emergo.server.core.db import Database
from emergo.server.core.errors import SiteError
from emergo.server.core.text import digits
from emergo.server.round.service import STATUS
from emergo.server.round.views import GAME_ROWS, GameView, view_of
from emergo.server.user.accounts import DELETED_NAME, NAME
from emergo.server.user.glicko2 import PROVISIONAL_DEVIATION
from emergo.server.user.perfs import SPEEDS

__all__ = ["MAX_PAGE", "RESULTS", "Archive", "ArchiveError", "ArchivedGame", "Query", "query_of"]

MAX_PAGE = 100
"""The most games one page of a search holds."""
RESULTS = {
    "1-0": "1-0",
    "white": "1-0",
    "0-1": "0-1",
    "black": "0-1",
    "1/2-1/2": "1/2-1/2",
    "draw": "1/2-1/2",
    "*": "*",
    "aborted": "*",
}
"""The results a search takes (any of these names), as the archive stores them."""
SIDE_RESULTS = ("win", "loss", "draw")
"""Results from the searched player's side."""
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_WHITE = m.users.alias("white_user")
_BLACK = m.users.alias("black_user")


class ArchiveError(SiteError):
    """A search that cannot be made; the message says which field and why."""


@dataclass(frozen=True)
class Query:
    """What to find; every field optional.  ``player``/``vs``: user names; ``result``: ``1-0``,
    ``0-1``, ``1/2-1/2``, ``*``, or with a player ``win``, ``loss``, ``draw``; ``since``/
    ``until``: wall seconds (ended at or after / before); ``before``: the keyset of the last game
    of the previous page; ``aborted``: aborted games too (lichess leaves them out unless asked;
    a search for the result ``*`` finds them)."""

    player: str | None = None
    vs: str | None = None
    variant: str | None = None
    speed: str | None = None
    rated: bool | None = None
    result: str | None = None
    color: str | None = None
    since: float | None = None
    until: float | None = None
    limit: int = 30
    before: tuple[float, str] | None = None
    aborted: bool = False

    def params(self) -> dict[str, str]:
        """The query as URL parameters (a next page's link)."""
        out: dict[str, str] = {}
        for key in ("player", "vs", "variant", "speed", "result", "color"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.rated is not None:
            out["rated"] = "true" if self.rated else "false"
        if self.aborted:
            out["aborted"] = "true"
        if self.since is not None:
            out["since"] = str(int(self.since * 1000))
        if self.until is not None:
            out["until"] = str(int(self.until * 1000))
        out["max"] = str(self.limit)
        return out


def _time(value: str, what: str, *, end: bool) -> float:
    """Milliseconds since the epoch, or a day ``YYYY-MM-DD`` (UTC; its end for ``until``)."""
    if _DATE.fullmatch(value):
        try:
            day = datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            raise ArchiveError(f"{what} is not a date: {value!r}") from None
        return day.timestamp() + (86400.0 if end else 0.0)
    if digits(value) and len(value) <= 15:
        return int(value) / 1000.0
    raise ArchiveError(
        f"{what} is a date (YYYY-MM-DD) or milliseconds since 1970, not {value[:20]!r}"
    )


def query_of(params: Mapping[str, str], *, default_limit: int = 30) -> Query:
    """A :class:`Query` from URL parameters (lichess's names where it has them: ``vs``,
    ``rated``, ``perfType``, ``color``, ``since``, ``until``, ``max``); :class:`ArchiveError`
    naming the bad one."""
    get = {k: v for k, v in params.items() if isinstance(v, str) and v != ""}
    player = get.get("player")
    vs = get.get("vs")
    for key, name in (("player", player), ("vs", vs)):
        if name is not None and not NAME.fullmatch(name):
            raise ArchiveError(f"{key} is a user name, not {name[:30]!r}")
    variant, speed = get.get("variant"), get.get("speed")
    perf = get.get("perfType")
    if perf is not None:
        variant_part, _, speed_part = perf.partition("-")
        variant, speed = variant or variant_part, speed or speed_part
    if variant is not None and variant not in VARIANTS:
        raise ArchiveError(f"variant is one of {', '.join(VARIANTS)}")
    if speed is not None and speed not in SPEEDS:
        raise ArchiveError(f"speed is one of {', '.join(SPEEDS)}")
    rated: bool | None = None
    if "rated" in get:
        if get["rated"] not in ("true", "false"):
            raise ArchiveError("rated is true or false")
        rated = get["rated"] == "true"
    result = get.get("result")
    if result is not None:
        if result in SIDE_RESULTS:
            if player is None:
                raise ArchiveError(f"result {result} needs a player")
        elif result in RESULTS:
            result = RESULTS[result]
        else:
            raise ArchiveError("result is white, black, draw, aborted (or win, loss with a player)")
    aborted = False
    if "aborted" in get:
        if get["aborted"] not in ("true", "false"):
            raise ArchiveError("aborted is true or false")
        aborted = get["aborted"] == "true"
    color = get.get("color")
    if color is not None:
        if color not in ("white", "black"):
            raise ArchiveError("color is white or black")
        if player is None:
            raise ArchiveError("color needs a player")
    if vs is not None and player is None:
        raise ArchiveError("vs needs a player")
    since = _time(get["since"], "since", end=False) if "since" in get else None
    until = _time(get["until"], "until", end=True) if "until" in get else None
    limit = default_limit
    if "max" in get:
        if not digits(get["max"]):
            raise ArchiveError("max is a number of games")
        limit = int(get["max"][:6])
    before = None
    if "before" in get:
        at, _, game_id = get["before"].partition("_")
        if not (digits(at) and len(at) <= 15 and re.fullmatch(r"[A-Za-z0-9]{8}", game_id)):
            raise ArchiveError("before is the cursor of a previous page")
        before = (int(at) / 1000.0, game_id)
    return Query(
        player, vs, variant, speed, rated, result, color, since, until, limit, before, aborted
    )


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game as the archive lists it."""

    id: str
    white: str
    black: str
    variant: str
    speed: str
    rated: bool
    result: str
    termination: str
    plies: int
    white_rating: int | None
    black_rating: int | None
    white_diff: int | None
    black_diff: int | None
    ended: float
    white_provisional: bool = False
    """Whether White's rating before the game was provisional (rated games; see _PROVISIONAL)."""
    black_provisional: bool = False
    tags: dict[str, str] | None = None
    """The tags the game carries beside the site's: its fair start, its event (issue 30)."""

    @property
    def cursor(self) -> str:
        """The keyset of this game: the next page starts after it."""
        return f"{int(self.ended * 1000)}_{self.id}"

    @property
    def status(self) -> str:
        return STATUS.get(self.termination, self.termination)

    @property
    def winner(self) -> str | None:
        return {"1-0": "white", "0-1": "black"}.get(self.result)

    def json(self) -> dict[str, Any]:
        """lichess's game JSON (the fields the archive knows)."""

        def side(name: str, rating: int | None, diff: int | None, prov: bool) -> dict[str, Any]:
            user = None if name == DELETED_NAME else {"name": name, "id": name.lower()}
            out: dict[str, Any] = {"user": user}
            if rating is not None:
                out["rating"] = rating
                out["ratingDiff"] = diff
                if prov:
                    out["provisional"] = True
            return out

        out: dict[str, Any] = {
            "id": self.id,
            "rated": self.rated,
            "variant": self.variant,
            "speed": self.speed,
            "perf": f"{self.variant}-{self.speed}",
            "lastMoveAt": int(self.ended * 1000),
            "status": self.status,
            "result": self.result,
            "plies": self.plies,
            "players": {
                "white": side(
                    self.white, self.white_rating, self.white_diff, self.white_provisional
                ),
                "black": side(
                    self.black, self.black_rating, self.black_diff, self.black_provisional
                ),
            },
        }
        if self.winner is not None:
            out["winner"] = self.winner
        return out


def _archived(row: Any) -> ArchivedGame:
    return ArchivedGame(
        id=row.game_id,
        white=row.white_name or DELETED_NAME,
        black=row.black_name or DELETED_NAME,
        variant=row.variant,
        speed=row.speed,
        rated=row.rated,
        result=row.result,
        termination=row.termination,
        plies=row.plies,
        white_rating=row.white_rating,
        black_rating=row.black_rating,
        white_diff=row.white_diff,
        black_diff=row.black_diff,
        ended=row.ended,
        white_provisional=_was_provisional(row.white_rating, row.white_rd_before),
        black_provisional=_was_provisional(row.black_rating, row.black_rd_before),
        tags=getattr(row, "game_tags", None),
    )


def _was_provisional(rating: int | None, rd_before: float | None) -> bool:
    """A rated game's player was provisional: no rated game of this rating before (a fresh
    rating's deviation, 500) or the deviation after the previous one 110 or more."""
    if rating is None:
        return False
    return rd_before is None or rd_before >= PROVISIONAL_DEVIATION


def _rd_before(user_id: Any) -> Any:
    """The archive does not store whether a player was provisional: it is derived from the
    rating history, the deviation after the player's last rated game of the same rating (the
    perf of this game's history row) before this one. That is the RD before the game without
    the growth of the time between (a player back after long away may have been provisional
    and show without the "?"); the perf's current RD is not used (it says nothing of then)."""
    this = m.rating_history.alias("this_game")
    h = m.rating_history.alias("before_game")
    perf = (
        select(this.c.perf)
        .where(this.c.game_id == m.archive.c.game_id, this.c.user_id == user_id)
        .limit(1)
        .scalar_subquery()
    )
    return (
        select(h.c.rd)
        .where(h.c.user_id == user_id, h.c.perf == perf, h.c.at < m.archive.c.ended)
        .order_by(h.c.at.desc())
        .limit(1)
        .scalar_subquery()
    )


_COLUMNS = (
    m.archive,
    _WHITE.c.name.label("white_name"),
    _BLACK.c.name.label("black_name"),
    _rd_before(m.archive.c.white_id).label("white_rd_before"),
    _rd_before(m.archive.c.black_id).label("black_rd_before"),
    select(m.games.c.tags)
    .where(m.games.c.id == m.archive.c.game_id)
    .scalar_subquery()
    .label("game_tags"),  # issue 30: the game's fair start and event
)


class Archive:
    """Searches of one database's finished games (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def user_id(self, c: Any, name: str) -> int | None:
        if not NAME.fullmatch(name):
            return None
        row = c.execute(
            select(m.users.c.id, m.users.c.deleted).where(m.users.c.name_key == name.lower())
        ).first()
        return None if row is None or row.deleted else int(row.id)

    def search(self, q: Query) -> tuple[list[ArchivedGame], str | None]:
        """A page of games, newest first, and the cursor of the next page (None: no more).

        Unknown players are an :class:`ArchiveError` (404).
        """
        limit = max(1, min(q.limit, MAX_PAGE))
        with self.db.read() as c:
            statement = self._statement(c, q).limit(limit + 1)
            rows = c.execute(statement).all()
        games = [_archived(r) for r in rows[:limit]]
        more = len(rows) > limit
        return games, (games[-1].cursor if more and games else None)

    def _statement(self, c: Any, q: Query) -> Any:
        a = m.archive
        base = (
            select(*_COLUMNS)
            .join(_WHITE, _WHITE.c.id == a.c.white_id)
            .join(_BLACK, _BLACK.c.id == a.c.black_id)
        )
        if q.player is not None:
            user = self.user_id(c, q.player)
            if user is None:
                raise _unknown(q.player)
            p = m.player_games
            base = base.join(p, and_(p.c.game_id == a.c.game_id, p.c.user_id == user))
            ended, order_id = p.c.ended, p.c.game_id
            if q.vs is not None:
                other = self.user_id(c, q.vs)
                if other is None:
                    raise _unknown(q.vs)
                base = base.where(p.c.opponent_id == other)
            if q.color is not None:
                base = base.where(p.c.color == q.color)
            if q.result in SIDE_RESULTS:
                base = base.where(p.c.score == q.result)
            elif q.result is not None:
                base = base.where(a.c.result == q.result)
            variant, speed, rated = p.c.variant, p.c.speed, p.c.rated
        else:
            ended, order_id = a.c.ended, a.c.game_id
            if q.result is not None:
                base = base.where(a.c.result == q.result)
            variant, speed, rated = a.c.variant, a.c.speed, a.c.rated
        if not q.aborted and q.result != "*":  # lichess hides aborted games
            base = base.where(a.c.result != "*")
        if q.variant is not None:
            base = base.where(variant == q.variant)
        if q.speed is not None:
            base = base.where(speed == q.speed)
        if q.rated is not None:
            base = base.where(rated.is_(q.rated))
        if q.since is not None:
            base = base.where(ended >= q.since)
        if q.until is not None:
            base = base.where(ended < q.until)
        if q.before is not None:
            at, game_id = q.before
            base = base.where(or_(ended < at, and_(ended == at, order_id < game_id)))
        return base.order_by(ended.desc(), order_id.desc())

    def one(self, game_id: str) -> ArchivedGame | None:
        """A finished game's archive row (None while it goes on)."""
        a = m.archive
        with self.db.read() as c:
            row = c.execute(
                select(*_COLUMNS)
                .join(_WHITE, _WHITE.c.id == a.c.white_id)
                .join(_BLACK, _BLACK.c.id == a.c.black_id)
                .where(a.c.game_id == game_id)
            ).first()
        return None if row is None else _archived(row)

    def record_extras(
        self, game_id: str, *, clocks: bool = True
    ) -> tuple[dict[str, str], list[tuple[float | None, float | None]]]:
        """What a game's record carries beside its state: the tags stored with it (an imported
        game's players' names ...) and, with ``clocks``, both clocks after each move."""
        with self.db.read() as c:
            tags = c.execute(select(m.games.c.tags).where(m.games.c.id == game_id)).scalar()
            rows = (
                c.execute(
                    select(m.moves.c.white_left, m.moves.c.black_left)
                    .where(m.moves.c.game_id == game_id)
                    .order_by(m.moves.c.ply)
                ).all()
                if clocks
                else []
            )
        kept = {str(k): str(v) for k, v in (tags or {}).items()} if isinstance(tags, dict) else {}
        return kept, [(r.white_left, r.black_left) for r in rows]

    def page_with_states(
        self, q: Query
    ) -> tuple[list[tuple[ArchivedGame, GameView]], Query | None]:
        """A page of :meth:`search` with each game's stored state (for records), and the query
        of the next page (None: no more)."""
        found, cursor = self.search(q)
        if not found:
            return [], None
        with self.db.read() as c:
            rows = c.execute(GAME_ROWS.where(m.games.c.id.in_([g.id for g in found]))).all()
        views = {row.id: view_of(row) for row in rows}
        pairs = [(g, views[g.id]) for g in found if g.id in views]
        if cursor is None:
            return pairs, None
        return pairs, dataclasses.replace(q, before=(found[-1].ended, found[-1].id))

    def user(self, name: str) -> tuple[int, str, float, bool] | None:
        """An account by name: (id, name, created, bot); None for none (or deleted)."""
        if not NAME.fullmatch(name):
            return None
        with self.db.read() as c:
            row = c.execute(
                select(m.users.c.id, m.users.c.name, m.users.c.created, m.users.c.bot)
                .where(m.users.c.name_key == name.lower())
                .where(m.users.c.deleted.is_(False))
                .where(m.users.c.disabled.is_(False))
            ).first()
        return None if row is None else (int(row.id), row.name, float(row.created), bool(row.bot))

    def results(self, user_id: int) -> dict[str, dict[str, int]]:
        """A player's finished games by colour and score: ``{"white": {"win": n, "draw": n,
        "loss": n}, "black": {...}, "all": {...}}`` (aborted games not counted)."""
        p = m.player_games
        with self.db.read() as c:
            rows = c.execute(
                select(p.c.color, p.c.score, func.count())
                .where(p.c.user_id == user_id)
                .where(p.c.score != "none")
                .group_by(p.c.color, p.c.score)
            ).all()
        out = {side: {"win": 0, "draw": 0, "loss": 0} for side in ("white", "black", "all")}
        for color, score, count in rows:
            out[color][score] += count
            out["all"][score] += count
        return out

    def head_to_head(self, user_id: int, opponent_id: int) -> dict[str, int]:
        """A player's score against one opponent: wins, draws, losses."""
        p = m.player_games
        with self.db.read() as c:
            rows = c.execute(
                select(p.c.score, func.count())
                .where(p.c.user_id == user_id)
                .where(p.c.opponent_id == opponent_id)
                .where(p.c.score != "none")
                .group_by(p.c.score)
            ).all()
        out = {"win": 0, "draw": 0, "loss": 0}
        for score, count in rows:
            out[score] += count
        return out

    def last_seen(self, user_id: int) -> float | None:
        """When the player was last seen on the site, as far as the database knows: his latest
        log-in, heartbeat at a game, token use or game end; None if never."""
        queries = (
            select(func.max(m.sessions.c.created)).where(m.sessions.c.user_id == user_id),
            select(func.max(m.presence.c.seen)).where(m.presence.c.user_id == user_id),
            select(func.max(m.tokens.c.last_used)).where(m.tokens.c.user_id == user_id),
            select(func.max(m.player_games.c.ended)).where(m.player_games.c.user_id == user_id),
        )
        with self.db.read() as c:
            times = [c.execute(q).scalar() for q in queries]
        known = [float(t) for t in times if t is not None]
        return max(known) if known else None

    def counts(self, user_id: int) -> dict[str, int]:
        """lichess's ``count`` of a user: all finished games, rated ones, wins, losses, draws
        (an aborted game is in none of them)."""
        p = m.player_games
        with self.db.read() as c:
            rows = c.execute(
                select(p.c.rated, p.c.score, func.count())
                .where(p.c.user_id == user_id)
                .group_by(p.c.rated, p.c.score)
            ).all()
        out = {"all": 0, "rated": 0, "win": 0, "loss": 0, "draw": 0}
        for rated, score, count in rows:
            if score not in ("win", "loss", "draw"):
                continue  # an aborted game (score "none") was never played: it counts nowhere
            out["all"] += count
            if rated:
                out["rated"] += count
            if score in out:
                out[score] += count
        return out


def _unknown(name: str) -> ArchiveError:
    error = ArchiveError(f"no player named {name[:30]!r}")
    error.status = 404
    return error
