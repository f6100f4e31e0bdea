"""Correspondence that works: vacations, conditional moves, and what happens around each command
on a stored game (docs/ratings.md).

:class:`Correspondence` is the rounds service's extension
(:class:`emergo.server.round.service.Rounds`
calls it inside each command's transaction):

* :meth:`~Correspondence.prepare`, before the round sees a command or the timer: a
  correspondence player to move who was on vacation gets that time back on his clock
  (:func:`emergo.server.correspondence.vacation.credit`; a version of its own with a ``timeGiven``
  event, as the restart rule's);
* :meth:`~Correspondence.after`, once the command is written: the conditional move of the
  player to move is played at once when the opponent's move was foreseen (a second version in
  the same transaction: no one ever sees the position in between), and dropped otherwise; a game
  that ended is archived and rated (:mod:`emergo.server.user.ratings`) and its correspondence
  players told; a correspondence move tells the player to move and sets his alarm
  (:mod:`emergo.server.notify.notices`);
* :meth:`~Correspondence.timer_due`: the game's timer, held back while the player to move is on
  vacation (:func:`emergo.server.correspondence.vacation.timer_due`).

Conditional moves are kept one tree a player and game (``conditionals``), for correspondence
games only, read by their owner alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, text, update

from emergo import round as rnd
from emergo.board import BLACK, WHITE
from emergo.clock import color_key
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx
from emergo.server.correspondence.conditional import Conditional, ConditionalError, answer, build
from emergo.server.correspondence.vacation import Period, Vacations, credit, timer_due
from emergo.server.notify.notices import Notices
from emergo.server.round.service import GameError
from emergo.server.round.views import GAME_ROWS, GameView, view_of
from emergo.server.user.ratings import Ratings

if TYPE_CHECKING:
    from emergo.server.round.service import Rounds


__all__ = ["Correspondence"]

_UPSERT_TIMER = text(
    "INSERT INTO timers (game_id, due) VALUES (:game, :due) "
    "ON CONFLICT (game_id) DO UPDATE SET due = excluded.due"
)
_UPSERT_CREDIT = text(
    "INSERT INTO credits (game_id, credited_until) VALUES (:game, :until) "
    "ON CONFLICT (game_id) DO UPDATE SET credited_until = excluded.credited_until"
)
_UPSERT_CONDITIONAL = text(
    "INSERT INTO conditionals (game_id, user_id, tree, version) "
    "VALUES (:game, :user, :tree, :version) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET tree = excluded.tree, version = excluded.version"
)


def _correspondence_clock(state: rnd.RoundState) -> bool:
    clock = state.clock
    return (
        clock is not None
        and clock.control.kind == "correspondence"
        and clock.running is not None
        and not state.is_over
    )


class Correspondence:
    """Vacations, conditional moves and the rounds service's extension (module docstring)."""

    def __init__(self, db: Database, ratings: Ratings, notices: Notices) -> None:
        self.db = db
        self.ratings = ratings
        self.notices = notices
        self.game_over_hooks: list[Callable[[Tx, GameView, rnd.RoundState, float], None]] = []
        """What else a game's end does in its transaction (issue 30: an event's result)."""
        self.command_hooks: list[Callable[[Tx, GameView, rnd.RoundState, float], None]] = []
        """What else every written command of a game taking the locked path does in its
        transaction, given the game before it and the state after (issue 28: a practice
        level met by a move or by the game's end)."""
        self.present: Callable[[str, int], bool] = lambda _game, _user: False
        """Whether a player has the game open on this process (the site's presence): no
        your-turn notice then, as lichess tells a player only when away from the game."""

    def quiet(self, game: GameView, state: rnd.RoundState) -> bool:
        """Whether a move of ``game`` to ``state`` (not over) asks nothing of :meth:`after` but
        a conditional reply: no clock (no vacation time, no alarm) and the player to move at the
        game on this process (no notice)."""
        return (
            state.clock is None
            and game.state.clock is None
            and self.present(game.id, game.seats.id_of(state.turn))
        )

    # --- vacations -------------------------------------------------------------------------------

    def _vacations(self, c: Any, user_id: int) -> Vacations:
        joined = c.execute(select(m.users.c.created).where(m.users.c.id == user_id)).scalar()
        rows = c.execute(
            select(m.vacations.c.started, m.vacations.c.ended)
            .where(m.vacations.c.user_id == user_id)
            .order_by(m.vacations.c.started)
        ).all()
        return Vacations(float(joined or 0.0), tuple(Period(r.started, r.ended) for r in rows))

    def vacations(self, user_id: int) -> Vacations:
        with self.db.read() as c:
            return self._vacations(c, user_id)

    def start_vacation(self, rounds: Rounds, user_id: int, now: float) -> Vacations:
        """Start a vacation now (:class:`VacationError` saying why not); the timers of the
        player's correspondence games are held back until it can end."""
        with self.db.write() as tx:
            before = self._vacations(tx, user_id)
            after = before.start(now)
            last = before.periods[-1] if before.periods else None
            if last is not None and last.end is None:  # it ran out by itself: close it
                ends = before.ends_at()
                tx.execute(
                    update(m.vacations)
                    .where(m.vacations.c.user_id == user_id)
                    .where(m.vacations.c.ended.is_(None))
                    .values(ended=ends)
                )
            tx.execute(insert(m.vacations).values(user_id=user_id, started=now, ended=None))
            self._rearm(tx, rounds, user_id, now, credit_first=False)
        return after

    def stop_vacation(self, rounds: Rounds, user_id: int, now: float) -> Vacations:
        """End the vacation going on: the time away is given back at once on the player's
        correspondence clocks and their timers run again."""
        with self.db.write() as tx:
            after = self._vacations(tx, user_id).stop(now)
            tx.execute(
                update(m.vacations)
                .where(m.vacations.c.user_id == user_id)
                .where(m.vacations.c.ended.is_(None))
                .values(ended=now)
            )
            self._rearm(tx, rounds, user_id, now, credit_first=True)
        return after

    def _rearm(self, tx: Tx, rounds: Rounds, user_id: int, t: float, *, credit_first: bool) -> None:
        rows = tx.execute(
            tx.locked(
                GAME_ROWS.where(m.games.c.status == "started")
                .where(m.games.c.speed == "correspondence")
                .where((m.games.c.white_id == user_id) | (m.games.c.black_id == user_id)),
                of=m.games,
            )
        ).all()
        for row in rows:
            game = view_of(row)
            if game.seats.id_of(game.state.turn) != user_id:  # the opponent's move
                continue
            if credit_first:
                game = self.prepare(tx, rounds, game, t)
            due = self.timer_due(tx, game, game.state)
            if due is not None:
                tx.execute(_UPSERT_TIMER, {"game": game.id, "due": due})

    # --- conditional moves -----------------------------------------------------------------------

    def conditional(self, game_id: str, user_id: int) -> Conditional | None:
        """The player's own conditional moves in a game (no one else's)."""
        with self.db.read() as c:
            tree = c.execute(
                select(m.conditionals.c.tree)
                .where(m.conditionals.c.game_id == game_id)
                .where(m.conditionals.c.user_id == user_id)
            ).scalar()
        return None if tree is None else Conditional.from_json(tree)

    def set_conditional(
        self, game_id: str, user_id: int, lines: Iterable[str | Sequence[str]]
    ) -> Conditional:
        """Keep the player's conditional moves (they replace his earlier ones; no lines: none).

        :class:`GameError` (404, 403) for a game not his, :class:`ConditionalError` for lines
        that cannot be kept or a game that is not a correspondence game in progress.
        """
        with self.db.write() as tx:
            row = tx.execute(
                tx.locked(GAME_ROWS.where(m.games.c.id == game_id), of=m.games)
            ).first()
            if row is None:
                raise GameError("no such game", 404)
            game = view_of(row)
            color = game.seats.color_of(user_id)
            if color is None:
                raise GameError("you do not play this game", 403)
            if game.speed != "correspondence":
                raise ConditionalError("conditional moves are for correspondence games")
            lines = list(lines)
            where = (m.conditionals.c.game_id == game_id) & (m.conditionals.c.user_id == user_id)
            if not lines:
                tx.execute(delete(m.conditionals).where(where))
                return Conditional()
            tree = build(game.state.board(), lines, color)
            tx.execute(
                _UPSERT_CONDITIONAL,
                {
                    "game": game_id,
                    "user": user_id,
                    "tree": _json(tree.to_json()),
                    "version": game.version,
                },
            )
        return tree

    # --- the rounds service's extension ----------------------------------------------------------

    def prepare(self, tx: Tx, rounds: Rounds, game: GameView, t: float) -> GameView:
        """Give the player to move of a correspondence game his vacation time back (a version
        of its own: ``timeGiven``), before anything is decided on the game."""
        state = game.state
        if not _correspondence_clock(state):
            return game
        clock = state.clock
        assert clock is not None and clock.running is not None
        color = clock.running
        away = self._vacations(tx, game.seats.id_of(color))
        if not away.periods:
            return game
        until = tx.execute(
            select(m.credits.c.credited_until).where(m.credits.c.game_id == game.id)
        ).scalar()
        given = credit(clock, color, away, until, t)
        if given == clock:
            return game
        seconds = given.left(color) - clock.left(color)
        new = dataclasses.replace(state, clock=given, version=state.version + 1)
        event = {
            "t": "timeGiven",
            "version": new.version,
            "color": color_key(color),
            "seconds": seconds,
            "clocks": [given.remaining(WHITE, t), given.remaining(BLACK, t)],
            "why": "vacation",
        }
        tx.execute(
            update(m.games)
            .where(m.games.c.id == game.id)
            .values(state=new.to_json(), version=new.version, updated=t)
        )
        tx.execute(
            insert(m.game_events).values(game_id=game.id, version=new.version, events=[event], at=t)
        )
        tx.execute(_UPSERT_CREDIT, {"game": game.id, "until": t})
        after = dataclasses.replace(game, state=new)
        due = self.timer_due(tx, after, new)
        if due is not None:
            tx.execute(_UPSERT_TIMER, {"game": game.id, "due": due})
        self.notices.set_alarm(tx, after, new)
        tx.notify(f"g:{game.id}", str(new.version))
        tx.on_commit(lambda: rounds.cache.advance(game.id, new.version, [event], new, t))
        return after

    def timer_due(self, tx: Tx, game: GameView, state: rnd.RoundState) -> float | None:
        """The round's due time, held back while the player to move is on vacation."""
        due = rnd.due(state)
        if due is None or not _correspondence_clock(state):
            return due
        clock = state.clock
        assert clock is not None and clock.running is not None
        away = self._vacations(tx, game.seats.id_of(clock.running))
        return timer_due(due, clock, clock.running, away)

    def after(
        self,
        tx: Tx,
        rounds: Rounds,
        before: GameView,
        state: rnd.RoundState,
        events: Sequence[rnd.Event],
        t: float,
    ) -> rnd.RoundState:
        """What follows a written command (module docstring); the game's state at the end."""
        final = state
        moved = [e for e in events if isinstance(e, rnd.MovePlayed)]
        where = m.conditionals.c.game_id == before.id
        if state.is_over or any(isinstance(e, rnd.TakenBack) for e in events):
            tx.execute(delete(m.conditionals).where(where))
        elif moved and before.speed == "correspondence":
            final = self._conditional_reply(tx, rounds, before, state, moved[-1], t)
        for command_hook in self.command_hooks:
            command_hook(tx, before, final, t)
        if final.is_over and not before.state.is_over:
            self.ratings.game_over(tx, before, final, t)
            for hook in self.game_over_hooks:
                hook(tx, before, final, t)
            if before.speed == "correspondence":
                self.notices.game_over(tx, before, final, t)
            tx.execute(delete(m.credits).where(m.credits.c.game_id == before.id))
            tx.execute(delete(m.conditionals).where(where))
        elif (
            not final.is_over
            and before.speed == "correspondence"
            and final.moves != before.state.moves
        ):
            game = dataclasses.replace(before, state=final)
            if self.present(before.id, before.seats.id_of(final.turn)):
                self.notices.set_alarm(tx, game, final)
            else:
                self.notices.your_turn(tx, game, final, t)
        return final

    def _conditional_reply(
        self,
        tx: Tx,
        rounds: Rounds,
        before: GameView,
        state: rnd.RoundState,
        move: rnd.MovePlayed,
        t: float,
    ) -> rnd.RoundState:
        owner = not move.color
        owner_id = before.seats.id_of(owner)
        where = (m.conditionals.c.game_id == before.id) & (m.conditionals.c.user_id == owner_id)
        stored = tx.execute(select(m.conditionals.c.tree).where(where)).scalar()
        if stored is None:
            return state
        try:
            reply, rest = answer(Conditional.from_json(stored), move.text)
        except ConditionalError:
            reply, rest = None, Conditional()
        if reply is None:
            tx.execute(delete(m.conditionals).where(where))
            return state
        try:
            after, events = rnd.apply(state, rnd.Move(owner, reply), t)
        except rnd.RoundError:
            tx.execute(delete(m.conditionals).where(where))
            return state
        rounds._write(tx, dataclasses.replace(before, state=state), after, events, t)
        if rest and not after.is_over:
            tx.execute(
                update(m.conditionals)
                .where(where)
                .values(tree=rest.to_json(), version=after.version)
            )
        else:
            tx.execute(delete(m.conditionals).where(where))
        return after


def _json(value: Any) -> Any:
    """A JSON column's value for a raw statement: text, as both databases take it."""
    import json

    return json.dumps(value, separators=(",", ":"))
