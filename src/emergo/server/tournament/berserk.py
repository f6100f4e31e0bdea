"""Berserk in an arena (lila's): before their first move of an event's game, a player may give
up half of their clock for one more point if they win (:mod:`.sheet` counts it).

:func:`berserk` plays it as a round command is played, in **one transaction**: the game row
locked, the player's clock halved in the round's state (a new version, its event
``{"t": "berserk", "version", "color", "clocks"}`` for the game's socket and streams, the
timer, the ``g:ID`` notification) and the pairing's ``berserk_white``/``berserk_black`` set.
Lila also takes the increment away; the site's clock has one control for both sides, so the
berserker keeps the increment (docs/tournaments.md says so).
"""

from __future__ import annotations

import dataclasses

from sqlalchemy import insert, select, text, update

from emergo import round as rnd
from emergo.board import BLACK, WHITE
from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.tournament.service import TournamentError

__all__ = ["berserk"]

_UPSERT_TIMER = text(
    "INSERT INTO timers (game_id, due) VALUES (:game, :due) "
    "ON CONFLICT (game_id) DO UPDATE SET due = excluded.due"
)


def berserk(db: Database, game_id: str, user_id: int, t: float | None = None) -> str:
    """The player ``user_id`` goes berserk in the arena game ``game_id`` (module docstring);
    their colour.  :class:`TournamentError` 404 (no such game of theirs in an arena), 409 (the
    event has no berserk, they moved already, once only, the game over or without a clock)."""
    t = now() if t is None else t
    with db.write() as tx:
        game = tx.execute(tx.locked(select(m.games).where(m.games.c.id == game_id))).first()
        pairing = tx.execute(
            select(m.tournament_games, m.tournaments.c.kind, m.tournaments.c.settings)
            .join(m.tournaments, m.tournaments.c.id == m.tournament_games.c.tournament_id)
            .where(m.tournament_games.c.game_id == game_id)
        ).first()
        if game is None or pairing is None or user_id not in (game.white_id, game.black_id):
            raise TournamentError("no such game of yours in a tournament", 404)
        if pairing.kind != "arena" or not (pairing.settings or {}).get("berserkable", True):
            raise TournamentError("this event has no berserk", 409)
        color = WHITE if user_id == game.white_id else BLACK
        done = pairing.berserk_white if color == WHITE else pairing.berserk_black
        if done:
            raise TournamentError("you went berserk already", 409)
        state = rnd.RoundState.from_json(game.state)
        clock = state.clock
        if state.outcome is not None or clock is None or clock.control.kind != "fischer":
            raise TournamentError("berserk is for a game in play on a live clock", 409)
        if any(state.mover(ply) == color for ply in range(len(state.moves))):
            raise TournamentError("berserk is before your first move", 409)
        left = clock.remaining(color, t) / 2
        since = t if clock.running == color else clock.since  # charged up to now already
        if color == WHITE:
            clock = dataclasses.replace(clock, white=left, since=since)
        else:
            clock = dataclasses.replace(clock, black=left, since=since)
        history = state.clock_history
        if history:
            white, black = history[-1]
            history = (*history[:-1], (left, black) if color == WHITE else (white, left))
        state = dataclasses.replace(
            state, clock=clock, clock_history=history, version=state.version + 1
        )
        event = {
            "t": "berserk",
            "version": state.version,
            "color": "white" if color == WHITE else "black",
            "clocks": [clock.remaining(WHITE, t), clock.remaining(BLACK, t)],
        }
        tx.execute(
            update(m.games)
            .where(m.games.c.id == game_id)
            .values(state=state.to_json(), version=state.version, updated=t)
        )
        tx.execute(
            insert(m.game_events).values(
                game_id=game_id, version=state.version, events=[event], at=t
            )
        )
        due = rnd.due(state)
        if due is not None:
            tx.execute(_UPSERT_TIMER, {"game": game_id, "due": due})
        column = "berserk_white" if color == WHITE else "berserk_black"
        tx.execute(
            update(m.tournament_games)
            .where(m.tournament_games.c.id == pairing.id)
            .values(**{column: True})
        )
        tx.notify(f"g:{game_id}", str(state.version))
        tx.notify(f"t:{pairing.tournament_id}", "berserk")
    return "white" if color == WHITE else "black"
