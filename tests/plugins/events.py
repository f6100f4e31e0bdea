"""Helpers of the tournaments' tests (issue 30): a clock the test moves, scripted players who
finish a game, and the checks every event's record must pass (legal pairings, standings equal
to a recount from the games)."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from typing import Any

from sqlalchemy import select

from emergo.server.core import models as m


class Clock:
    """A wall clock the test moves (every service of a site reads it)."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def fake_clock(site: Any, start: float = 1_800_000_000.0) -> Clock:
    """Give the site's rounds, tournaments and director one clock the test moves."""
    clock = Clock(start)
    site.rounds.clock = clock
    site.tournaments.clock = clock
    site.director.clock = clock
    return clock


def play_out(site: Any, game_id: str, rng: random.Random, *, plies: int = 60) -> str:
    """Finish a game as two scripted players: random legal moves (``plies`` at most), then the
    side to move resigns, or (one time in four) both agree a draw; the result."""
    from emergo.server.round.service import GameError

    for _ in range(plies):
        game = site.rounds.get(game_id)
        if game.state.is_over:
            return str(game.state.outcome.result())
        board = game.state.board()
        move = rng.choice(list(board.moves()))
        user = site.users.get(game.seats.id_of(board.turn))
        try:
            site.play(game_id, user, "move", text=str(move))
        except GameError:  # too late: the round ended it (on time, or aborted)
            return str(site.rounds.get(game_id).state.outcome.result())
    game = site.rounds.get(game_id)
    if game.state.is_over:
        return str(game.state.outcome.result())
    turn = game.state.turn
    mover = site.users.get(game.seats.id_of(turn))
    other = site.users.get(game.seats.id_of(not turn))
    if rng.random() < 0.25:
        site.play(game_id, mover, "draw-yes")
        site.play(game_id, other, "draw-yes")
    else:
        site.play(game_id, mover, "resign")
    return str(site.rounds.get(game_id).state.outcome.result())


def playing(site: Any, event_id: str) -> list[str]:
    """The event's games in progress."""
    with site.db.read() as c:
        return list(
            c.execute(
                select(m.tournament_games.c.game_id)
                .where(m.tournament_games.c.tournament_id == event_id)
                .where(m.tournament_games.c.status == "playing")
                .order_by(m.tournament_games.c.id)
            ).scalars()
        )


def arena_violations(site: Any, event_id: str) -> list[str]:
    """What is wrong with an arena's pairings: a player in two games at once, an immediate
    rematch while others waited, a colour streak over 3; and a pairing row whose game says
    otherwise (players, result)."""
    problems = []
    with site.db.read() as c:
        rows = c.execute(
            select(
                m.tournament_games,
                m.games.c.white_id.label("gw"),
                m.games.c.black_id.label("gb"),
                m.games.c.result.label("gr"),
                m.games.c.status.label("gs"),
            )
            .join(m.games, m.games.c.id == m.tournament_games.c.game_id)
            .where(m.tournament_games.c.tournament_id == event_id)
            .order_by(m.tournament_games.c.id)
        ).all()
    busy: dict[int, tuple[float, float]] = {}
    last: dict[int, int] = {}
    streak: dict[int, list[str]] = defaultdict(list)
    intervals = defaultdict(list)
    for r in rows:
        if (r.gw, r.gb) != (r.white_id, r.black_id):
            problems.append(f"pairing {r.id}: its game has other players")
        if r.status == "over" and r.gr != r.result:
            problems.append(f"pairing {r.id}: result {r.result}, its game {r.gr}")
        for u in (r.white_id, r.black_id):
            intervals[u].append((r.created, r.ended if r.ended is not None else float("inf"), r.id))
        if last.get(r.white_id) == r.black_id or last.get(r.black_id) == r.white_id:
            problems.append(f"pairing {r.id}: an immediate rematch")
        last[r.white_id], last[r.black_id] = r.black_id, r.white_id
        if r.status != "aborted":
            streak[r.white_id].append("w")
            streak[r.black_id].append("b")
    del busy
    for u, spans in intervals.items():
        spans.sort()
        for (_a0, a1, ida), (b0, _b1, idb) in itertools.pairwise(spans):
            if b0 < a1:
                problems.append(f"user {u}: pairings {ida} and {idb} overlap")
    for u, colours in streak.items():
        text = "".join(colours)
        if "wwww" in text or "bbbb" in text:
            problems.append(f"user {u}: colours {text}")
    return problems
