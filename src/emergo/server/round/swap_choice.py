"""Black's choice under the swap rule, played on a stored game.  The rule, and what every
command checks of it, is :mod:`emergo.server.round.swap`, which the rounds service imports;
this module imports the service."""

from __future__ import annotations

import dataclasses

from sqlalchemy import insert, update

from emergo.ballots import FairStart
from emergo.server.core import models as m
from emergo.server.core.db import Tx
from emergo.server.round.service import UPSERT_TIMER, GameError, Rounds, clocks_at
from emergo.server.round.swap import pending, swap_state
from emergo.server.round.views import GAME_ROWS, Seats, view_of

__all__ = ["choose"]


def choose(rounds: Rounds, game_id: str, user_id: int, take: bool) -> Seats:
    """Black's choice under the swap rule (module docstring): ``take`` White's side or play on
    as Black; the seats after it.  :class:`GameError` 404 (no such game), 403 (not Black in
    it), 409 (no swap offered now: no swap rule, chosen already, not the ply, the game over)."""
    if not isinstance(game_id, str) or len(game_id) != 8:
        raise GameError("no such game", 404)
    with rounds.db.write() as tx:
        row = tx.execute(tx.locked(GAME_ROWS.where(m.games.c.id == game_id), of=m.games)).first()
        if row is None:
            raise GameError("no such game", 404)
        game = view_of(row)
        seats = game.seats
        if user_id not in (seats.white_id, seats.black_id):
            raise GameError("you do not play this game", 403)
        tags = dict(row.tags or {})
        fair = pending(tags)
        if fair is None or fair.swap is None:
            raise GameError("this game offers no swap (or it was chosen already)", 409)
        rule = fair.swap
        state = game.state
        if state.outcome is not None:
            raise GameError("the game is over", 409)
        if seats.hotseat:
            raise GameError("one player holds both seats: there is nobody to swap with", 409)
        if user_id != seats.black_id:
            raise GameError("the swap is Black's choice", 403)
        if not rule.due(state.board()):
            raise GameError(
                f"the swap ({rule}) is Black's choice after White's first {rule.entries} "
                f"{'entry' if rule.entries == 1 else 'entries'}, not now",
                409,
            )
        t = rounds.clock()
        if rounds.extension is not None:
            game = rounds.extension.prepare(tx, rounds, game, t)
            state = game.state
        tags["Swap"] = FairStart(swap=rule, swapped=take).tags()["Swap"]
        if take:
            state = swap_state(state, t)
            seats = Seats(
                white_id=seats.black_id,
                black_id=seats.white_id,
                white=seats.black,
                black=seats.white,
                white_bot=seats.black_bot,
                black_bot=seats.white_bot,
            )
        else:
            state = dataclasses.replace(state, version=state.version + 1)
        clocks = clocks_at(state, t)
        event = {
            "t": "swap",
            "version": state.version,
            "taken": take,
            "white": seats.white,
            "black": seats.black,
            "clocks": list(clocks) if clocks is not None else None,
        }
        tx.execute(
            update(m.games)
            .where(m.games.c.id == game_id)
            .values(
                white_id=seats.white_id,
                black_id=seats.black_id,
                turn_id=seats.id_of(state.turn),
                state=state.to_json(),
                version=state.version,
                tags=tags,
                updated=t,
            )
        )
        if take:
            _swap_pairing(tx, game_id)
        tx.execute(
            insert(m.game_events).values(
                game_id=game_id, version=state.version, events=[event], at=t
            )
        )
        due = rounds._due(tx, dataclasses.replace(game, seats=seats), state)
        if due is not None:
            tx.execute(UPSERT_TIMER, {"game": game_id, "due": due})
        tx.notify(f"g:{game_id}", str(state.version))  # elsewhere: read again, seats and all
        tx.on_commit(
            lambda: rounds.cache.advance(game_id, state.version, [event], state, t, seats=seats)
        )
    return seats


def _swap_pairing(tx: Tx, game_id: str) -> None:
    """An event's pairing of the game follows the seats (colours, berserk, ratings)."""
    pairing = m.tournament_games.c
    tx.execute(
        update(m.tournament_games)
        .where(pairing.game_id == game_id)
        .values(
            white_id=pairing.black_id,
            black_id=pairing.white_id,
            berserk_white=pairing.berserk_black,
            berserk_black=pairing.berserk_white,
            white_rating=pairing.black_rating,
            black_rating=pairing.white_rating,
        )
    )
