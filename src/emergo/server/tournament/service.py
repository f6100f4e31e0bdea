"""The tournaments service: events stored, joined, left, read (docs/tournaments.md, "On the site").

The rules are the pure modules beside this one (:mod:`.arena`, :mod:`.sheet`, :mod:`.swiss`,
:mod:`.roundrobin`, :mod:`.conditions`); this module stores events and players, and
:mod:`.director` runs them from the timers.  Locks are taken in one order everywhere, so two
transactions never wait on each other in a circle: an event's timer row, then its event row,
then its players' rows (a game's row, when a game ends, comes before all of them).
"""

from __future__ import annotations

import math
import secrets
import string
from collections.abc import Callable

from sqlalchemy import delete, func, insert, select, text, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.tournament import matching
from emergo.server.tournament import swiss as sw
from emergo.server.tournament.conditions import Candidate, refusals
from emergo.server.tournament.event import (
    EVENT_ROWS,
    Event,
    Line,
    Pairing,
    Roster,
    byes_of,
    event_of,
    lines_of,
    pairings_of,
    roster,
    swiss_value,
)
from emergo.server.tournament.spec import MAX_AHEAD_DAYS, Spec
from emergo.server.user.accounts import User
from emergo.server.user.perfs import Perf
from emergo.server.user.ratings import Ratings

_ALPHABET = string.ascii_letters + string.digits
"""lichess's arena status numbers."""
MAX_PLAYERS_ARENA = 1000
MAX_PLAYERS_SWISS = 400
CREATED_PER_DAY = 12
"""Events a player may make a day (lichess's limit for an account, arenas and Swiss alike)."""

_POKE = text(
    "INSERT INTO tournament_timers (tournament_id, due) VALUES (:id, :due) "
    "ON CONFLICT (tournament_id) DO UPDATE SET due = CASE WHEN excluded.due < "
    "tournament_timers.due THEN excluded.due ELSE tournament_timers.due END"
)
_SET_TIMER = text(
    "INSERT INTO tournament_timers (tournament_id, due) VALUES (:id, :due) "
    "ON CONFLICT (tournament_id) DO UPDATE SET due = excluded.due"
)


class TournamentError(SiteError):
    """An event that cannot be made, joined or left: the message says why."""


def new_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


def poke(tx: Tx, event_id: str, due: float) -> None:
    """Have the event's director look at it by ``due`` (never later than it was due).  The
    first lock a transaction takes on an event (module docstring)."""
    tx.execute(_POKE, {"id": event_id, "due": due})


def set_timer(tx: Tx, event_id: str, due: float | None) -> None:
    if due is None:
        tx.execute(
            delete(m.tournament_timers).where(m.tournament_timers.c.tournament_id == event_id)
        )
    else:
        tx.execute(_SET_TIMER, {"id": event_id, "due": due})


class Tournaments:
    """The events of one database (module docstring); :mod:`.director` runs them."""

    def __init__(
        self, db: Database, ratings: Ratings | None = None, clock: Callable[[], float] = now
    ) -> None:
        self.db = db
        self.ratings = ratings
        self.clock = clock

    # --- making ----------------------------------------------------------------------------------

    def created_since(self, user_id: int, since: float) -> int:
        with self.db.read() as c:
            return int(
                c.execute(
                    select(func.count())
                    .select_from(m.tournaments)
                    .where(m.tournaments.c.created_by == user_id)
                    .where(m.tournaments.c.created >= since)
                ).scalar()
                or 0
            )

    def create(
        self,
        spec: Spec,
        creator: User | None,
        *,
        t: float | None = None,
        schedule_key: str | None = None,
    ) -> Event:
        """Store a new event; ``creator`` None: the site's (the admin, the schedule).  A
        match's creator is its first player, the opponent joins it by name when it starts."""
        t = self.clock() if t is None else t
        lacking = matching.missing()
        if lacking is not None:
            raise TournamentError(
                f"tournaments need the pairing libraries of the tournament extra ({lacking} is "
                f"not installed): {matching.EXTRA}",
                501,
            )
        if creator is not None and self.created_since(creator.id, t - 86400) >= CREATED_PER_DAY:
            raise TournamentError(
                f"you made {CREATED_PER_DAY} tournaments in the last day: that is the limit", 429
            )
        starts_at = spec.starts_at if spec.starts_at is not None else t + spec.wait_minutes * 60
        if starts_at < t - 60:
            raise TournamentError("the start is in the past")
        if starts_at > t + MAX_AHEAD_DAYS * 86400:
            raise TournamentError(f"the start is more than {MAX_AHEAD_DAYS} days away")
        ends_at = starts_at + spec.minutes * 60 if spec.kind == "arena" and spec.minutes else None
        event_id = new_id()
        with self.db.write() as tx:
            if schedule_key is not None:
                taken = tx.execute(
                    select(m.tournaments.c.id).where(m.tournaments.c.schedule_key == schedule_key)
                ).scalar()
                if taken is not None:
                    raise TournamentError(f"the scheduled event {schedule_key} exists", 409)
            tx.execute(
                insert(m.tournaments).values(
                    id=event_id,
                    kind=spec.kind,
                    name=spec.name,
                    created_by=creator.id if creator is not None else None,
                    variant=spec.variant,
                    clock_limit=spec.clock_limit if spec.days is None else None,
                    clock_increment=spec.clock_increment if spec.days is None else None,
                    days=spec.days,
                    rated=spec.rated,
                    status="created",
                    starts_at=starts_at,
                    ends_at=ends_at,
                    rounds=spec.rounds,
                    round=0,
                    round_due=starts_at if spec.kind != "arena" else None,
                    settings=spec.settings.to_json(),
                    schedule_key=schedule_key,
                    created=t,
                )
            )
            set_timer(tx, event_id, starts_at)
        event = self.get(event_id)
        assert event is not None
        if creator is not None and spec.kind == "match":
            event = self.join(event_id, creator)
        return event

    # --- reading ---------------------------------------------------------------------------------

    def get(self, event_id: str) -> Event | None:
        if not isinstance(event_id, str) or len(event_id) != 8:
            return None
        with self.db.read() as c:
            row = c.execute(EVENT_ROWS.where(m.tournaments.c.id == event_id)).first()
            if row is None:
                return None
            count = c.execute(
                select(func.count())
                .select_from(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == event_id)
            ).scalar()
        return event_of(row, int(count or 0))

    def listing(
        self, *, kinds: tuple[str, ...] = ("arena", "robin", "match"), limit: int = 50
    ) -> dict[str, list[Event]]:
        """lichess's ``GET /api/tournament``: ``created``, ``started``, ``finished`` events."""
        out: dict[str, list[Event]] = {"created": [], "started": [], "finished": []}
        with self.db.read() as c:
            for status in out:
                order = (
                    m.tournaments.c.starts_at.desc()
                    if status == "finished"
                    else m.tournaments.c.starts_at
                )
                rows = c.execute(
                    EVENT_ROWS.where(m.tournaments.c.status == status)
                    .where(m.tournaments.c.kind.in_(kinds))
                    .order_by(order)
                    .limit(limit)
                ).all()
                counts: dict[str, int] = (
                    dict(
                        c.execute(
                            select(m.tournament_players.c.tournament_id, func.count())
                            .where(m.tournament_players.c.tournament_id.in_([r.id for r in rows]))
                            .group_by(m.tournament_players.c.tournament_id)
                        ).all()
                    )
                    if rows
                    else {}
                )
                out[status] = [event_of(r, int(counts.get(r.id, 0))) for r in rows]
        return out

    def view(self, event_id: str) -> tuple[Event, Roster, list[Pairing], list[Line]]:
        """An event with its players, pairings and standings (one read); 404 when none."""
        with self.db.read() as c:
            row = c.execute(EVENT_ROWS.where(m.tournaments.c.id == event_id)).first()
            if row is None:
                raise TournamentError("no such tournament", 404)
            players = roster(c, event_id)
            event = event_of(row, len(players.names))
            pairings = pairings_of(c, event_id, players.names)
            byes = byes_of(c, event_id)
        return event, players, pairings, lines_of(event, players, pairings, byes)

    def trf(self, event_id: str, site_name: str = "") -> str:
        """A Swiss as TRF16 (``/swiss/{id}.trf``)."""
        with self.db.read() as c:
            row = c.execute(EVENT_ROWS.where(m.tournaments.c.id == event_id)).first()
            if row is None or row.kind != "swiss":
                raise TournamentError("no such Swiss tournament", 404)
            players = roster(c, event_id)
            event = event_of(row, len(players.names))
            value = swiss_value(
                event, players, pairings_of(c, event_id, players.names), byes_of(c, event_id)
            )
        return sw.trf(value, name=event.full_name, site=site_name)

    def results_of(
        self, user_id: int, limit: int = 20
    ) -> list[tuple[Event, int | None, float | None]]:
        """A player's events, newest first, with their place and score once finished (the
        profile's list)."""
        with self.db.read() as c:
            rows = c.execute(
                EVENT_ROWS.add_columns(m.tournament_players.c.rank, m.tournament_players.c.score)
                .join(
                    m.tournament_players, m.tournament_players.c.tournament_id == m.tournaments.c.id
                )
                .where(m.tournament_players.c.user_id == user_id)
                .order_by(m.tournaments.c.starts_at.desc())
                .limit(limit)
            ).all()
        return [(event_of(r), r.rank, r.score) for r in rows]

    def event_of_game(self, game_id: str) -> Event | None:
        with self.db.read() as c:
            row = c.execute(
                EVENT_ROWS.join(
                    m.tournament_games, m.tournament_games.c.tournament_id == m.tournaments.c.id
                ).where(m.tournament_games.c.game_id == game_id)
            ).first()
        return event_of(row) if row is not None else None

    # --- players ---------------------------------------------------------------------------------

    def join(
        self,
        event_id: str,
        user: User,
        *,
        password: str | None = None,
        perf: Perf | None = None,
        top_rating: int | None = None,
    ) -> Event:
        """Join (or come back to) an event; :class:`TournamentError` saying why not.  ``perf``
        the player's rating of the event's board and speed (for the conditions and the seed)."""
        t = self.clock()
        event = self.get(event_id)
        if event is None:
            raise TournamentError("no such tournament", 404)
        if perf is None and self.ratings is not None:
            perf = self.ratings.perfs(user.id)[event.perf]
            top_rating = self._top_rating(user.id, event.perf, t)
        perf = perf or Perf()
        rating = perf.at(t)
        with self.db.write() as tx:
            poke(tx, event_id, t + (1.0 if event.kind == "arena" else 3600.0))
            row = tx.execute(
                tx.locked(select(m.tournaments).where(m.tournaments.c.id == event_id))
            ).first()
            event = event_of(row)
            if event.status == "finished":
                raise TournamentError("this tournament is over", 409)
            mine = tx.execute(
                select(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == event_id)
                .where(m.tournament_players.c.user_id == user.id)
            ).first()
            if mine is not None:  # coming back after a pause or a withdrawal
                if mine.status == "active":
                    return self._after(event_id)
                if event.kind in ("robin", "match") and event.status == "started":
                    raise TournamentError("a round robin's withdrawal is final", 409)
                if event.kind == "swiss" and not sw.can_join(event.rounds or 1, event.round):
                    raise TournamentError(
                        f"joining closes after round {(event.rounds or 1) // 2}", 409
                    )
                tx.execute(
                    update(m.tournament_players)
                    .where(m.tournament_players.c.tournament_id == event_id)
                    .where(m.tournament_players.c.user_id == user.id)
                    .values(status="active", waiting=t if event.kind == "arena" else None)
                )
                return self._after(event_id)
            reasons = refusals(
                event.settings.entry(),
                Candidate(
                    rated_games=perf.games,
                    rating=math.floor(rating.rating),
                    provisional=rating.provisional,
                    bot=user.bot,
                    top_rating=top_rating,
                ),
                password=password,
            )
            if event.kind == "match":
                opponent = (event.settings.opponent or "").lower()
                creator = row.created_by
                if user.id != creator and user.name.lower() != opponent:
                    reasons.append("this match is between two players: you are not one of them")
            if reasons:
                raise TournamentError("; ".join(reasons), 403)
            count = tx.execute(
                select(func.count())
                .select_from(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == event_id)
            ).scalar()
            limit = event.settings.max_players or (
                MAX_PLAYERS_SWISS if event.kind == "swiss" else MAX_PLAYERS_ARENA
            )
            if int(count or 0) >= limit:
                raise TournamentError(f"this tournament is full ({limit} players)", 409)
            joined_round = 1
            if event.kind == "swiss" and event.status == "started":
                if not sw.can_join(event.rounds or 1, event.round):
                    raise TournamentError(
                        f"joining closes after round {(event.rounds or 1) // 2}", 409
                    )
                joined_round = event.round + 1
            elif event.kind in ("robin", "match") and event.status != "created":
                raise TournamentError("this tournament has started: joining is closed", 409)
            tx.execute(
                insert(m.tournament_players).values(
                    tournament_id=event_id,
                    user_id=user.id,
                    rating=math.floor(rating.rating),
                    joined=t,
                    joined_round=joined_round,
                    status="active",
                    waiting=t if event.kind == "arena" else None,
                    playing=None,
                )
            )
            tx.notify(f"t:{event_id}", "players")
        return self._after(event_id)

    def withdraw(self, event_id: str, user: User, *, pause: bool = False) -> Event:
        """Leave an event: before it starts the entry is gone; once it runs, an arena's player is
        paused (``join`` again to come back), a Swiss's is not paired until they come back, a
        round robin's remaining games are forfeited."""
        t = self.clock()
        with self.db.write() as tx:
            poke(tx, event_id, t + 1.0)
            row = tx.execute(
                tx.locked(select(m.tournaments).where(m.tournaments.c.id == event_id))
            ).first()
            if row is None:
                raise TournamentError("no such tournament", 404)
            where = (m.tournament_players.c.tournament_id == event_id) & (
                m.tournament_players.c.user_id == user.id
            )
            mine = tx.execute(select(m.tournament_players).where(where)).first()
            if mine is None:
                raise TournamentError("you have not joined this tournament", 409)
            if row.status == "finished":
                raise TournamentError("this tournament is over", 409)
            if row.status == "created":
                if row.kind == "match" and row.created_by == user.id:
                    raise TournamentError(
                        "the match is yours: it starts with you or not at all", 409
                    )
                tx.execute(delete(m.tournament_players).where(where))
            else:
                status = "paused" if pause or row.kind == "arena" else "withdrawn"
                tx.execute(
                    update(m.tournament_players).where(where).values(status=status, waiting=None)
                )
            tx.notify(f"t:{event_id}", "players")
        return self._after(event_id)

    def _top_rating(self, user_id: int, perf: str, t: float) -> int | None:
        """The best rating of the last week (lila's guard of a maximum rating)."""
        with self.db.read() as c:
            best = c.execute(
                select(func.max(m.rating_history.c.rating))
                .where(m.rating_history.c.user_id == user_id)
                .where(m.rating_history.c.perf == perf)
                .where(m.rating_history.c.at >= t - 7 * 86400)
            ).scalar()
        return math.floor(best) if best is not None else None

    def _after(self, event_id: str) -> Event:
        event = self.get(event_id)
        assert event is not None
        return event
