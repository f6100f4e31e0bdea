"""An event as read (docs/tournaments.md, "On the site"): its row (:class:`Event`), its players
(:class:`Roster`), pairings (:class:`Pairing`) and the standings' lines (:class:`Line`) of each
system, as :mod:`.service` stores them and the pages and the API show them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select

from emergo.clock import TimeControl
from emergo.server.core import models as m
from emergo.server.tournament import swiss as sw
from emergo.server.tournament.sheet import ArenaGame, standings
from emergo.server.tournament.spec import Settings
from emergo.server.user.accounts import DELETED_NAME
from emergo.server.user.perfs import perf_key

PAGE_PAIRINGS = 200  # the pairings an event's page (and its API's ``pairings``) shows, newest first

STATUS_CODES = {"created": 10, "started": 20, "finished": 30}


@dataclass(frozen=True)
class Event:
    """A stored event as readers see it."""

    id: str
    kind: str
    name: str
    created_by: str | None
    variant: str
    clock_limit: float | None
    clock_increment: float | None
    days: int | None
    rated: bool
    status: str
    starts_at: float
    ends_at: float | None
    rounds: int | None
    round: int
    round_due: float | None
    settings: Settings
    created: float
    nb_players: int = 0

    @property
    def control(self) -> TimeControl | None:
        if self.clock_limit is not None:
            return TimeControl.fischer(self.clock_limit, self.clock_increment or 0.0)
        if self.days is not None:
            return TimeControl.correspondence(self.days)
        return None

    @property
    def perf(self) -> str:
        return perf_key(self.variant, self.control)

    @property
    def speed(self) -> str:
        return "live" if self.clock_limit is not None else "correspondence"

    @property
    def full_name(self) -> str:
        suffix = {"arena": "Arena", "swiss": "Swiss", "robin": "Round robin", "match": "Match"}
        name = self.name
        return (
            name
            if name.lower().endswith(suffix[self.kind].lower())
            else f"{name} {suffix[self.kind]}"
        )

    def path(self) -> str:
        return f"/swiss/{self.id}" if self.kind == "swiss" else f"/tournament/{self.id}"

    def clock_json(self) -> dict[str, Any] | None:
        if self.clock_limit is None:
            return None
        return {"limit": int(self.clock_limit), "increment": int(self.clock_increment or 0)}

    def json(self, t: float) -> dict[str, Any]:
        """lichess's shape of an arena (``GET /api/tournament/{id}``) or a Swiss
        (``GET /api/swiss/{id}``), with our fields (``start``, ``kind``, ``days``)."""
        creator = self.created_by.lower() if self.created_by else None
        common: dict[str, Any] = {
            "id": self.id,
            "createdBy": creator,
            "name": self.name,
            "fullName": self.full_name,
            "system": self.kind,
            "variant": self.variant,
            "rated": self.rated,
            "clock": self.clock_json(),
            "days": self.days,
            "nbPlayers": self.nb_players,
            "start": self.settings.start,
            "conditions": self.settings.entry().describe(),
            "hasPassword": self.settings.entry().password is not None,
            "description": self.settings.description or None,
            "url": self.path(),
        }
        if self.kind == "swiss":
            out = {
                **common,
                "startsAt": _iso(self.starts_at),
                "round": self.round,
                "nbRounds": self.rounds,
                "status": self.status,
                "isFinished": self.status == "finished",
            }
            if self.round_due is not None and self.status != "finished":
                out["nextRound"] = {
                    "at": _iso(self.round_due),
                    "in": max(0, int(self.round_due - t)),
                }
            return out
        out = {
            **common,
            "perf": {"key": self.perf, "name": self.perf},
            "startsAt": int(self.starts_at * 1000),
            "status": STATUS_CODES[self.status],
            "isStarted": self.status == "started",
            "isFinished": self.status == "finished",
            "secondsToStart": max(0, int(self.starts_at - t)) if self.status == "created" else 0,
        }
        if self.kind == "arena":
            out["minutes"] = int(((self.ends_at or self.starts_at) - self.starts_at) / 60)
            out["finishesAt"] = int((self.ends_at or self.starts_at) * 1000)
            out["berserkable"] = self.settings.berserkable
            out["streakable"] = self.settings.streakable
        else:
            out["nbRounds"] = self.rounds
            out["round"] = self.round
        return out


def _iso(t: float) -> str:
    import datetime

    return (
        datetime.datetime.fromtimestamp(t, datetime.UTC)
        .isoformat(timespec="seconds")
        .replace("+00:00", "Z")
    )


_creator = m.users.alias("creator")
EVENT_ROWS = select(m.tournaments, _creator.c.name.label("creator_name")).outerjoin(
    _creator, _creator.c.id == m.tournaments.c.created_by
)
"""The events' rows with their creator's name (:func:`event_of` reads one)."""


def event_of(row: Any, nb_players: int = 0) -> Event:
    return Event(
        id=row.id,
        kind=row.kind,
        name=row.name,
        created_by=getattr(row, "creator_name", None),
        variant=row.variant,
        clock_limit=row.clock_limit,
        clock_increment=row.clock_increment,
        days=row.days,
        rated=bool(row.rated),
        status=row.status,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        rounds=row.rounds,
        round=row.round,
        round_due=row.round_due,
        settings=Settings.from_json(row.settings),
        created=row.created,
        nb_players=nb_players,
    )


@dataclass(frozen=True)
class Line:
    """A line of an event's standings: rank, player, score (an arena's points, else points),
    rating, performance, and the rest by kind (an arena's sheet and fire, the tie-breaks)."""

    rank: int
    name: str
    score: float
    rating: int
    performance: int | None
    games: int
    status: str = "active"
    sheet: str = ""
    fire: bool = False
    tie_breaks: tuple[float, ...] = ()
    bot: bool = False

    def json(self, kind: str) -> dict[str, Any]:
        score: float | int = int(self.score) if kind == "arena" else self.score
        out: dict[str, Any] = {
            "rank": self.rank,
            "score" if kind != "swiss" else "points": score,
            "rating": self.rating,
            "username": self.name,
            "performance": self.performance,
        }
        if kind == "arena":
            out["sheet"] = {"scores": self.sheet, "fire": self.fire}
        else:
            out["tieBreak"] = self.tie_breaks[0] if self.tie_breaks else 0
            out["tieBreaks"] = list(self.tie_breaks)
        if self.status != "active":
            out["withdraw"] = True
        if self.bot:
            out["title"] = "BOT"
        return out


@dataclass(frozen=True)
class Pairing:
    """A pairing of an event: its round and board, the players, the game, the result."""

    round: int
    board: int
    white: str
    black: str
    game_id: str | None
    status: str
    result: str
    forfeit: bool = False
    opening: str | None = None
    berserk_white: bool = False
    berserk_black: bool = False
    movement_plies: int = 0
    white_rating: int = 0
    black_rating: int = 0
    white_id: int = 0
    black_id: int = 0
    ended: float | None = None

    def json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "board": self.board,
            "white": self.white,
            "black": self.black,
            "gameId": self.game_id,
            "status": self.status,
            "result": self.result,
            "forfeit": self.forfeit,
            "ballot": self.opening,
        }


@dataclass
class Roster:
    """An event's players as one read: by id their name, rating at entry, status, first round,
    whether a bot, whether waiting (and since), the game they are in."""

    names: dict[int, str] = field(default_factory=dict)
    ratings: dict[int, int] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    joined_round: dict[int, int] = field(default_factory=dict)
    bots: dict[int, bool] = field(default_factory=dict)
    waiting: dict[int, float] = field(default_factory=dict)
    playing: dict[int, str] = field(default_factory=dict)


def roster(c: Any, event_id: str) -> Roster:
    rows = c.execute(
        select(m.tournament_players, m.users.c.name, m.users.c.bot)
        .join(m.users, m.users.c.id == m.tournament_players.c.user_id)
        .where(m.tournament_players.c.tournament_id == event_id)
        .order_by(m.tournament_players.c.joined, m.tournament_players.c.user_id)
    ).all()
    out = Roster()
    for r in rows:
        uid = int(r.user_id)
        out.names[uid] = r.name or f"{DELETED_NAME} {uid}"
        out.ratings[uid] = int(r.rating)
        out.status[uid] = r.status
        out.joined_round[uid] = int(r.joined_round)
        out.bots[uid] = bool(r.bot)
        if r.waiting is not None:
            out.waiting[uid] = float(r.waiting)
        if r.playing is not None:
            out.playing[uid] = r.playing
    return out


def pairings_of(c: Any, event_id: str, names: dict[int, str]) -> list[Pairing]:
    rows = c.execute(
        select(m.tournament_games)
        .where(m.tournament_games.c.tournament_id == event_id)
        .order_by(m.tournament_games.c.id)
    ).all()
    return [
        Pairing(
            round=r.round,
            board=r.board,
            white=names.get(r.white_id, DELETED_NAME),
            black=names.get(r.black_id, DELETED_NAME),
            game_id=r.game_id,
            status=r.status,
            result=r.result,
            forfeit=bool(r.forfeit),
            opening=r.opening,
            berserk_white=bool(r.berserk_white),
            berserk_black=bool(r.berserk_black),
            movement_plies=int(r.movement_plies),
            white_rating=int(r.white_rating),
            black_rating=int(r.black_rating),
            white_id=int(r.white_id),
            black_id=int(r.black_id),
            ended=r.ended,
        )
        for r in rows
    ]


def byes_of(c: Any, event_id: str) -> dict[int, int]:
    """A Swiss's byes: round -> user id."""
    rows = c.execute(select(m.tournament_byes).where(m.tournament_byes.c.tournament_id == event_id))
    return {int(r.round): int(r.user_id) for r in rows}


def arena_games(event: Event, pairings: list[Pairing]) -> list[ArenaGame]:
    """The arena's counted games: finished (not aborted) before the end, in the order they ended."""
    done = [p for p in pairings if p.status == "over" and p.result in ("1-0", "0-1", "1/2-1/2")]
    if event.ends_at is not None:
        done = [p for p in done if p.ended is not None and p.ended <= event.ends_at]
    done.sort(key=lambda p: (p.ended or 0.0, p.board))
    return [
        ArenaGame(
            p.white,
            p.black,
            {"1-0": "white", "0-1": "black"}.get(p.result),  # type: ignore[arg-type]
            p.movement_plies,
            p.berserk_white,
            p.berserk_black,
            p.white_rating,
            p.black_rating,
        )
        for p in done
    ]


def swiss_value(
    event: Event, players: Roster, pairings: list[Pairing], byes: dict[int, int]
) -> sw.Swiss:
    """The event as :class:`emergo.server.tournament.swiss.Swiss` (players by name): the rounds
    finished, who is absent now."""
    entrants = tuple(
        sw.Entrant(
            players.names[u], players.ratings[u], min(players.joined_round[u], event.rounds or 1)
        )
        for u in players.names
    )
    played = []
    finished_rounds = (
        event.round
        if not any(p.status == "playing" for p in pairings if p.round == event.round)
        else event.round - 1
    )
    for number in range(1, finished_rounds + 1):
        games = tuple(
            sw.Game(p.white, p.black, p.result, p.forfeit)
            for p in pairings
            if p.round == number and p.result in sw.RESULTS
        )
        bye = players.names.get(byes[number]) if number in byes else None
        played.append(sw.Round(games, bye))
    absent = frozenset(players.names[u] for u, s in players.status.items() if s != "active")
    return sw.Swiss(
        rounds=event.rounds or 1,
        entrants=entrants,
        played=tuple(played),
        absent=absent,
        white_first=int.from_bytes(event.id.encode(), "big") % 2 == 0,
    )


def robin_lines(players: Roster, pairings: list[Pairing]) -> list[Line]:
    """A round robin's or a match's standings: points, then Sonneborn-Berger, then the name."""
    points = {u: 0.0 for u in players.names}
    ids = {players.names[u]: u for u in players.names}
    for p in pairings:
        if p.result in ("1-0", "0-1", "1/2-1/2"):
            w = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[p.result]
            points[p.white_id] = points.get(p.white_id, 0.0) + w
            points[p.black_id] = points.get(p.black_id, 0.0) + 1 - w
    sb = {u: 0.0 for u in players.names}
    games = {u: 0 for u in players.names}
    perf: dict[int, list[int]] = {u: [] for u in players.names}
    for p in pairings:
        if p.result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        w = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[p.result]
        for me, other, score, rating in (
            (p.white_id, p.black_id, w, p.black_rating),
            (p.black_id, p.white_id, 1 - w, p.white_rating),
        ):
            sb[me] = sb.get(me, 0.0) + score * points.get(other, 0.0)
            if not p.forfeit:
                games[me] = games.get(me, 0) + 1
                perf.setdefault(me, []).append(rating + round((score - 0.5) * 1000))
    order = sorted(ids.values(), key=lambda u: (-points[u], -sb[u], players.names[u].lower()))
    return [
        Line(
            n,
            players.names[u],
            points[u],
            players.ratings[u],
            round(sum(perf[u]) / len(perf[u])) if perf[u] else None,
            games[u],
            players.status[u],
            tie_breaks=(sb[u],),
            bot=players.bots[u],
        )
        for n, u in enumerate(order, start=1)
    ]


def lines_of(
    event: Event, players: Roster, pairings: list[Pairing], byes: dict[int, int]
) -> list[Line]:
    """The standings of any event: a recount from its pairings."""
    if event.kind == "arena":
        ids = {players.names[u]: u for u in players.names}
        rows = standings(
            arena_games(event, pairings),
            players={players.names[u]: players.ratings[u] for u in players.names},
            finished=event.status == "finished",
            streaks=event.settings.streakable,
        )
        return [
            Line(
                s.rank,
                s.player,
                s.score,
                s.rating,
                s.performance,
                s.games,
                players.status.get(ids.get(s.player, 0), "active"),
                "".join(str(x) for x in s.sheet.scores),
                s.on_fire,
                bot=players.bots.get(ids.get(s.player, 0), False),
            )
            for s in rows
        ]
    if event.kind == "swiss":
        value = swiss_value(event, players, pairings, byes)
        ids = {players.names[u]: u for u in players.names}
        return [
            Line(
                s.rank,
                s.player,
                s.points,
                s.rating,
                s.performance,
                sum(1 for o, _, _ in value.outcomes(s.player) if o in ("win", "draw", "loss")),
                players.status[ids[s.player]],
                tie_breaks=(s.sonneborn_berger, s.buchholz),
                bot=players.bots[ids[s.player]],
            )
            for s in sw.standings(value)
        ]
    return robin_lines(players, pairings)


def with_players(event: Event, count: int) -> Event:
    return replace(event, nb_players=count)
