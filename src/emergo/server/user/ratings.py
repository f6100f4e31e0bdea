"""The ratings service: a rated game's ratings in the transaction that ends it, and what profiles
and leaderboards read (docs/ratings.md).

When a game ends (:meth:`Ratings.game_over`, called by the rounds service inside the command's
transaction), the game goes into the archive (one ``archive`` row, and one ``player_games`` row
for each player's side) and, when it is rated and both sides moved, both players' ratings of the
game's variant and speed change (:func:`emergo.server.user.perfs.rate`): their ``perfs`` rows are
locked in the order of the users' ids (two games of one player ending at once take turns; two
such transactions never wait for each other in a circle), and a ``rating_history`` row a player
keeps the chart.  So a game is never over without its ratings, nor rated twice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, text, update

from emergo import round as rnd
from emergo.board import WHITE, Termination
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx
from emergo.server.user.accounts import DELETED_NAME
from emergo.server.user.glicko2 import Rating
from emergo.server.user.perfs import PERF_KEYS, Perf, Perfs, parse_perf_key, perf_key, rate

__all__ = ["Leader", "Ratings", "counts_for_rating"]

_INSERT_PERF = text(
    "INSERT INTO perfs (user_id, perf, rating, rd, volatility, games, latest) "
    "VALUES (:user, :perf, :rating, :rd, :volatility, 0, NULL) "
    "ON CONFLICT (user_id, perf) DO NOTHING"
)


def counts_for_rating(state: rnd.RoundState) -> bool:
    """Whether a rated game's end changes ratings: it ended with a result after both sides
    moved (lichess rates no game of fewer than two moves)."""
    outcome = state.outcome
    return outcome is not None and outcome.termination is not Termination.ABORTED and state.ply >= 2


def _score(state: rnd.RoundState) -> float:
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == WHITE else 0.0


def _side_scores(state: rnd.RoundState) -> tuple[str, str]:
    """``player_games.score`` of White and of Black."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.termination is Termination.ABORTED:
        return "none", "none"
    if outcome.winner is None:
        return "draw", "draw"
    return ("win", "loss") if outcome.winner == WHITE else ("loss", "win")


def _perf(row: Any) -> Perf:
    return Perf(Rating(row.rating, row.rd, row.volatility), row.games, row.latest)


@dataclass(frozen=True)
class Leader:
    """A leaderboard's line: the player and his rating now."""

    name: str
    rating: int
    rd: int
    games: int

    def json(self) -> dict[str, Any]:
        return {
            "id": self.name.lower(),
            "username": self.name,
            "rating": self.rating,
            "rd": self.rd,
            "games": self.games,
        }


class Ratings:
    """The ratings of one database (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.archived: list[Callable[[Tx, dict[str, Any], rnd.RoundState], None]] = []
        """Called in the transaction that archives a game, with its ``archive`` row."""

    # --- in the transaction that ends a game -----------------------------------------------------

    def game_over(self, tx: Tx, game: Any, state: rnd.RoundState, t: float) -> None:
        """Archive the finished ``game`` (a :class:`emergo.server.round.service.GameView` before its
        end) and rate it when it counts; inside the ending command's transaction."""
        outcome = state.outcome
        assert outcome is not None
        seats = game.seats
        diffs: dict[int, tuple[int, int]] = {}
        if game.rated and counts_for_rating(state):
            diffs = self._rate(tx, game, state, t)
        white, black = diffs.get(seats.white_id), diffs.get(seats.black_id)
        row = dict(
            game_id=game.id,
            white_id=seats.white_id,
            black_id=seats.black_id,
            variant=game.variant,
            speed=game.speed,
            rated=bool(game.rated),
            result=outcome.result(),
            termination=outcome.termination.value,
            plies=state.ply,
            white_rating=white[0] if white else None,
            black_rating=black[0] if black else None,
            white_diff=white[1] if white else None,
            black_diff=black[1] if black else None,
            ended=t,
        )
        tx.execute(insert(m.archive).values(**row))
        scores = _side_scores(state)
        sides = [
            (seats.white_id, "white", seats.black_id, scores[0]),
            (seats.black_id, "black", seats.white_id, scores[1]),
        ]
        if seats.white_id == seats.black_id:
            # a hot-seat game: one row, in the player's games but in no count of results
            sides = [(seats.white_id, "white", seats.white_id, "none")]
        tx.execute(
            insert(m.player_games),
            [
                {
                    "user_id": user,
                    "game_id": game.id,
                    "color": color,
                    "opponent_id": other,
                    "variant": game.variant,
                    "speed": game.speed,
                    "rated": bool(game.rated),
                    "score": score,
                    "ended": t,
                }
                for user, color, other, score in sides
            ],
        )
        for archived in self.archived:  # the opening explorer (emergo.server.explorer)
            archived(tx, row, state)

    def _rate(
        self, tx: Tx, game: Any, state: rnd.RoundState, t: float
    ) -> dict[int, tuple[int, int]]:
        """Both players' new ratings; ``{user id: (rating before, change)}``, whole points."""
        key = perf_key(game.variant, state.time_control)
        white_id, black_id = game.seats.white_id, game.seats.black_id
        fresh = Rating()
        for user in sorted({white_id, black_id}):
            tx.execute(
                _INSERT_PERF,
                {
                    "user": user,
                    "perf": key,
                    "rating": fresh.rating,
                    "rd": fresh.rd,
                    "volatility": fresh.volatility,
                },
            )
        query = (
            select(m.perfs)
            .where(m.perfs.c.perf == key)
            .where(m.perfs.c.user_id.in_([white_id, black_id]))
            .order_by(m.perfs.c.user_id)
        )
        if self.db.postgres:
            query = query.with_for_update()
        rows = {row.user_id: _perf(row) for row in tx.execute(query).all()}
        before = {user: rows[user] for user in (white_id, black_id)}
        after_white, after_black = rate(before[white_id], before[black_id], _score(state), t)
        out = {}
        for user, old, new in (
            (white_id, before[white_id], after_white),
            (black_id, before[black_id], after_black),
        ):
            g = new.glicko
            tx.execute(
                update(m.perfs)
                .where(m.perfs.c.user_id == user)
                .where(m.perfs.c.perf == key)
                .values(
                    rating=g.rating, rd=g.rd, volatility=g.volatility, games=new.games, latest=t
                )
            )
            tx.execute(
                insert(m.rating_history).values(
                    user_id=user, perf=key, game_id=game.id, at=t, rating=g.rating, rd=g.rd
                )
            )
            shown_before = math.floor(old.glicko.rating)
            out[user] = (shown_before, math.floor(g.rating) - shown_before)
        return out

    # --- reading ---------------------------------------------------------------------------------

    def perfs(self, user_id: int) -> Perfs:
        """A player's ratings (those never played: a new player's)."""
        with self.db.read() as c:
            rows = c.execute(select(m.perfs).where(m.perfs.c.user_id == user_id)).all()
        return Perfs({row.perf: _perf(row) for row in rows if row.perf in PERF_KEYS})

    def history(self, user_id: int) -> dict[str, list[tuple[float, float]]]:
        """Each rating's points ``(time, rating after the game)``, oldest first."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.rating_history.c.perf, m.rating_history.c.at, m.rating_history.c.rating)
                .where(m.rating_history.c.user_id == user_id)
                .order_by(m.rating_history.c.perf, m.rating_history.c.at)
            ).all()
        out: dict[str, list[tuple[float, float]]] = {}
        for row in rows:
            out.setdefault(row.perf, []).append((row.at, row.rating))
        return out

    def leaderboard(self, key: str, now: float, limit: int = 100) -> list[Leader]:
        """The best players of one rating, provisional ones (deviation 110 or more, time away
        counted) left out, best first."""
        parse_perf_key(key)
        limit = max(1, min(int(limit), 200))
        leaders: list[Leader] = []
        offset, page = 0, max(limit * 2, 50)
        with self.db.read() as c:
            while len(leaders) < limit:
                rows = c.execute(
                    select(m.perfs, m.users.c.name)
                    .join(m.users, m.users.c.id == m.perfs.c.user_id)
                    .where(m.perfs.c.perf == key)
                    .where(m.perfs.c.games > 0)
                    .where(m.perfs.c.rd < 110)  # provisional as of the last game: never listed
                    .where(m.users.c.deleted.is_(False))
                    .where(m.users.c.disabled.is_(False))
                    .order_by(m.perfs.c.rating.desc(), m.perfs.c.user_id)
                    .offset(offset)
                    .limit(page)
                ).all()
                for row in rows:
                    rating = _perf(row).at(now)
                    if not rating.provisional:
                        leaders.append(
                            Leader(
                                row.name or DELETED_NAME,
                                math.floor(rating.rating),
                                math.floor(rating.rd),
                                row.games,
                            )
                        )
                if len(rows) < page:
                    break
                offset += page
        return leaders[:limit]

    def shown(
        self, wanted: Iterable[tuple[str, str]], now: float
    ) -> dict[tuple[str, str], tuple[int, bool]]:
        """Ratings as a list shows them beside names: ``{(name in lower case, perf key):
        (rating, provisional)}`` for each wanted pair of an active account (a rating never
        played: a new player's).  Two reads, however many names (the lobby's seeks)."""
        pairs = {(name.lower(), key) for name, key in wanted if key in PERF_KEYS}
        if not pairs:
            return {}
        names = {name for name, _ in pairs}
        keys = {key for _, key in pairs}
        with self.db.read() as c:
            users = {
                int(row.id): row.name_key
                for row in c.execute(
                    select(m.users.c.id, m.users.c.name_key)
                    .where(m.users.c.name_key.in_(names))
                    .where(m.users.c.deleted.is_(False))
                ).all()
            }
            rows = (
                c.execute(
                    select(m.perfs)
                    .where(m.perfs.c.user_id.in_(list(users)))
                    .where(m.perfs.c.perf.in_(keys))
                ).all()
                if users
                else []
            )
        perfs = {(users[int(row.user_id)], row.perf): _perf(row) for row in rows}
        out: dict[tuple[str, str], tuple[int, bool]] = {}
        for name, key in pairs:
            if name not in users.values():
                continue
            rating = perfs.get((name, key), Perf()).at(now)
            out[(name, key)] = (math.floor(rating.rating), rating.provisional)
        return out

    def provisional_count(self, key: str, now: float) -> int:
        """How many active players of one rating are left off its leaderboard as provisional
        (they have played, their deviation is still 110 or more): the page says why."""
        parse_perf_key(key)
        with self.db.read() as c:
            rows = c.execute(
                select(m.perfs)
                .join(m.users, m.users.c.id == m.perfs.c.user_id)
                .where(m.perfs.c.perf == key)
                .where(m.perfs.c.games > 0)
                .where(m.users.c.deleted.is_(False))
                .where(m.users.c.disabled.is_(False))
            ).all()
        return sum(1 for row in rows if _perf(row).at(now).provisional)
