"""The rounds service: plays a command on a stored game, with the database as the authority.

Every command goes the same way (lichess's one-writer round, as one transaction instead of an
actor):

1. read the game row **locked** (``SELECT ... FOR NO KEY UPDATE`` on PostgreSQL; on SQLite the
   transaction began with ``BEGIN IMMEDIATE``), so two commands on one game take turns however
   many processes receive them;
2. :func:`emergo.round.apply` (pure): the new state and its events, or a
   :class:`~emergo.round.RoundError` and nothing is written;
3. write the game row (the state as JSON, the version, the status, whose turn), the move (or
   the takeback), the events of the new version, the timer row (:func:`emergo.round.due`) and a
   ``g:ID`` notification, all in **one transaction**;
4. commit, and only then answer: an acknowledged move is in the database.

**The hot path.**  Most commands of a game (a move, an offer, its answer: anything that neither
ends the game nor takes a move back; in a hot-seat game, no takeback asked, which is granted at
once; in a correspondence game, one without a clock whose extension is :meth:`Extension.quiet`
and which no conditional move answers, else the locked path plays the reply; never in a
practice game of /learn, whose level a move may meet, nor under the swap rule) are played
on the game as this process last saw it (:mod:`emergo.server.round.cache`, no read at all) and
written in **one statement** that compares the version: the game row updated only if it is
still at the version the command was played on, the move's row, the timer and the notification
with it (PostgreSQL: one autocommitted statement, one round trip; SQLite: one transaction).  A
version that moved on meanwhile (another process, or a copy that lagged) writes nothing: the
command is played again on the game read from the database, at most a few times, then in the
locked transaction above.  So two moves for one ply can never both be written, and a refusal is
only ever answered from a state read from the database.

The version of the game row is the round's: every change bumps it by one and all its events
carry it.  A version's events go to every process in its notification
(:mod:`emergo.server.round.cache`); a version that is not just a move is kept in ``game_events``
too (a move's is its row of ``moves``), and a client that sees a gap gets the whole state again.

**The restart rule** (:mod:`emergo.server.round.processes`): the clocks get back the time no
process served; a process that stopped serving flags no one for a moment past it
(:attr:`Rounds.served_until`).
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import string
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from sqlalchemy import delete, insert, select, text, update

from emergo import round as rnd
from emergo.board import BLACK, WHITE, Color
from emergo.clock import TimeControl, speed_of
from emergo.round.boards import root_turn
from emergo.server.core import models as m
from emergo.server.core.db import CHANNEL, Database, Tx, now, unavailable
from emergo.server.core.errors import SiteError
from emergo.server.core.text import valid_id
from emergo.server.notify.events import user_event
from emergo.server.round import statements, swap
from emergo.server.round.cache import GameCache, note
from emergo.server.round.views import GAME_ROWS, GameView, Seats, color_name, view_of

__all__ = ["GameError", "GameView", "Played", "Rounds", "Seats", "color_name"]

log = logging.getLogger(__name__)


_ALPHABET = string.ascii_letters + string.digits


class GameError(SiteError):
    """A command refused before the round: no such game (404), not a player of it (403)."""


_LOCKED = object()
"""The hot path's answer: this command takes the locked transaction."""


def new_game_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


def control_of(clock_limit: float | None, increment: float | None, days: int | None) -> Any:
    """The round's time control of a challenge's terms (None: unlimited)."""
    if clock_limit is not None:
        return TimeControl.fischer(clock_limit, increment or 0.0)
    if days is not None:
        return TimeControl.correspondence(days)
    return None


UPSERT_TIMER = text(
    "INSERT INTO timers (game_id, due) VALUES (:game, :due) "
    "ON CONFLICT (game_id) DO UPDATE SET due = excluded.due"
)
_UPSERT_PRESENCE = text(
    "INSERT INTO presence (game_id, user_id, seen) VALUES (:game, :user, :seen) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET seen = excluded.seen"
)


@dataclass(frozen=True)
class Played:
    """What a command did: the state after it and its events (none: nothing changed)."""

    state: rnd.RoundState
    events: tuple[rnd.Event, ...]
    seats: Seats


class Extension(Protocol):
    """What issue 21 adds around each command, in its transaction
    (:class:`emergo.server.correspondence.extension.Correspondence`): vacation time given back
    before it, the conditional reply, ratings, the archive and notices after it, timers held back
    while the player to move is on vacation."""

    def prepare(self, tx: Tx, rounds: Rounds, game: GameView, t: float) -> GameView: ...

    def after(
        self,
        tx: Tx,
        rounds: Rounds,
        before: GameView,
        state: rnd.RoundState,
        events: Sequence[rnd.Event],
        t: float,
    ) -> rnd.RoundState: ...

    def timer_due(self, tx: Tx, game: GameView, state: rnd.RoundState) -> float | None: ...

    def quiet(self, game: GameView, state: rnd.RoundState) -> bool:
        """Whether a move of ``game`` to ``state`` (not over) asks nothing of the extension
        unless a conditional move answers it: the hot path may write it (module docstring)."""
        ...


class Rounds:
    """Plays commands on the games of one database (module docstring)."""

    def __init__(self, db: Database, clock: Callable[[], float] = now) -> None:
        self.db = db
        self.clock = clock
        self.extension: Extension | None = None
        self.served_until: float | None = None
        """When this process stopped serving (:meth:`emergo.server.site.Site.begin_stop`): its
        timer sweep no longer ends a game on time for a moment past it, time the next process
        to start gives back (the restart rule), rather than flag it while its player could not
        play."""
        self.cache = GameCache()
        """This process's copy of the games it serves (:mod:`emergo.server.round.cache`)."""
        self._reading: dict[str, threading.Lock] = {}
        self._reading_lock = threading.Lock()
        self._fast_sql: dict[tuple[bool, bool, bool, bool], str] = {}

    # --- games -----------------------------------------------------------------------------------

    def start(
        self,
        tx: Tx,
        state: rnd.RoundState,
        white_id: int,
        black_id: int,
        *,
        rated: bool,
        t: float,
        challenge_id: str | None = None,
        tags: dict[str, str] | None = None,
        move_clocks: Sequence[tuple[float | None, float | None]] = (),
    ) -> str:
        """Store a new game in ``state`` (its players told ``gameStart``), in the caller's
        transaction; its id.  ``white_id == black_id``: a hot-seat game (:attr:`Seats.hotseat`);
        ``tags``: what its record carries beside the site's (an imported game's names);
        ``move_clocks``: the clocks after each of the moves it begins with (an imported game's)."""
        control = state.time_control
        # lichess starts challenge X's game as game X (berserk's accept counts on it)
        game_id = challenge_id if challenge_id is not None else new_game_id()
        over = state.outcome is not None
        tx.execute(
            insert(m.games).values(
                id=game_id,
                white_id=white_id,
                black_id=black_id,
                variant=state.variant,
                speed=speed_of(control),
                time_control=control.tag() if control is not None else None,
                rated=rated,
                state=state.to_json(),
                version=state.version,
                status="over" if over else "started",
                result=_result(state.outcome) if state.outcome is not None else "*",
                termination=state.outcome.termination.value if state.outcome else None,
                player_chat=True,
                challenge_id=challenge_id,
                tags=tags,
                created=t,
                updated=t,
            )
        )
        if state.moves:  # a game that begins with moves (an imported one): its move rows
            history = list(move_clocks) or [(None, None)] * len(state.moves)
            tx.execute(
                insert(m.moves),
                [
                    {
                        "game_id": game_id,
                        "ply": ply,
                        "text": text,
                        "white_left": history[ply - 1][0] if ply <= len(history) else None,
                        "black_left": history[ply - 1][1] if ply <= len(history) else None,
                        "at": t,
                    }
                    for ply, text in enumerate(state.moves, 1)
                ],
            )
        if over:
            return game_id
        due = rnd.due(state)
        if due is not None:
            tx.execute(UPSERT_TIMER, {"game": game_id, "due": due})
        start = {"type": "gameStart", "game": {"gameId": game_id, "id": game_id}}
        for user_id in dict.fromkeys((white_id, black_id)):
            user_event(tx, user_id, start, t)
        return game_id

    def get(self, game_id: str) -> GameView | None:
        """The game as stored (None: no such game, or an id no game can have)."""
        if not valid_id(game_id):
            return None
        with self.db.read() as c:
            row = c.execute(GAME_ROWS.where(m.games.c.id == game_id)).first()
        if row is None:
            return None
        game = view_of(row)
        self.cache.put(game)  # kept up to date from now on by the bus
        return game

    def latest(self, game: GameView) -> GameView:
        """The newest version of ``game`` this process knows (what a stream or socket sends on
        each notification): from this process's copy, or read from the database once for all
        the game's readers here when the copy is stale or missing."""
        found = self.cache.get(game.id)
        if found is not None:
            return found
        with self._read_lock(game.id):
            found = self.cache.get(game.id)  # another reader read it meanwhile
            if found is not None:
                return found
            self.cache.misses += 1
            fresh = self.refresh(game)
            self.cache.put(fresh)
            return fresh

    def _read_lock(self, game_id: str) -> threading.Lock:
        with self._reading_lock:
            lock = self._reading.get(game_id)
            if lock is None:
                if len(self._reading) > 10_000:
                    self._reading.clear()
                lock = self._reading[game_id] = threading.Lock()
            return lock

    def refresh(self, game: GameView) -> GameView:
        """The same game as stored now (one row, no join; the state decoded only when its
        version changed)."""
        with self.db.read() as c:
            row = c.execute(
                select(
                    m.games.c.version,
                    m.games.c.state,
                    m.games.c.status,
                    m.games.c.player_chat,
                    m.games.c.updated,
                    m.games.c.white_id,
                ).where(m.games.c.id == game.id)
            ).first()
        if row is None:
            return game
        if row.white_id != game.seats.white_id:  # the seats exchanged (round/swap.py)
            return self.get(game.id) or game
        state = game.state if row.version == game.version else rnd.RoundState.from_json(row.state)
        return dataclasses.replace(
            game, state=state, status=row.status, player_chat=row.player_chat, updated=row.updated
        )

    def events_after(self, game_id: str, version: int) -> list[tuple[int, list[Any]]]:
        """The events of every version after ``version``: ``[(version, [event JSON...])...]``
        (a version that is only a move: derived from its row of ``moves``)."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.game_events.c.version, m.game_events.c.events)
                .where(m.game_events.c.game_id == game_id)
                .where(m.game_events.c.version > version)
            ).all()
            moved = c.execute(
                select(m.moves)
                .where(m.moves.c.game_id == game_id)
                .where(m.moves.c.version > version)
            ).all()
            game = c.execute(
                select(m.games.c.variant, m.games.c.state).where(m.games.c.id == game_id)
            ).first()
        found = {r.version: r.events for r in rows}
        if moved and game is not None:
            first = root_turn(game.variant, game.state["root"])
            for r in moved:
                if r.version in found:
                    continue
                color = first if r.ply % 2 == 1 else not first
                clocks = None if r.white_left is None else (r.white_left, r.black_left)
                event = rnd.MovePlayed(r.version, r.ply, r.text, color, clocks)
                found[r.version] = [event.to_json()]
        return sorted(found.items())

    def playing(self, user_id: int, limit: int = 100) -> list[GameView]:
        """The user's games in progress, those where it is their turn first."""
        with self.db.read() as c:
            rows = c.execute(
                GAME_ROWS.where(m.games.c.status == "started")
                .where((m.games.c.white_id == user_id) | (m.games.c.black_id == user_id))
                .order_by(m.games.c.updated.desc())
                .limit(limit)
            ).all()
        views = [view_of(r) for r in rows]
        return sorted(views, key=lambda v: v.seats.id_of(v.state.turn) != user_id)

    def moves(self, game_id: str) -> list[tuple[int, str, float | None, float | None, float]]:
        with self.db.read() as c:
            rows = c.execute(
                select(m.moves).where(m.moves.c.game_id == game_id).order_by(m.moves.c.ply)
            ).all()
        return [(r.ply, r.text, r.white_left, r.black_left, r.at) for r in rows]

    # --- commands --------------------------------------------------------------------------------

    def play(
        self,
        game_id: str,
        user_id: int,
        make: Callable[[Color, GameView], rnd.Command],
        action: str | None = None,
    ) -> Played:
        """Play the command ``make(color, game)`` builds for the user's side (module docstring).

        :class:`GameError` when there is no such game (404) or the user does not play it (403);
        :class:`emergo.round.RoundError` when the round refuses it; either way nothing changed.
        """
        if not valid_id(game_id):
            raise GameError("no such game", 404)
        fresh = False
        for _ in range(4):
            game = None if fresh else self.cache.get(game_id)
            if game is None:
                game = self.get(game_id)
                if game is None:
                    raise GameError("no such game", 404)
                fresh = True
                self.cache.put(game)
            try:
                played = self._play_fast(game, user_id, make, action)
            except (GameError, rnd.RoundError):
                if fresh:
                    raise
                fresh = True  # refused on this process's copy: only a stored state says no
                continue
            if played is _LOCKED:
                break
            if isinstance(played, Played):
                return played
            fresh = True  # the version moved on meanwhile: play it on the stored game
        return self._play_locked(game_id, user_id, make, action)

    def _play_fast(
        self,
        game: GameView,
        user_id: int,
        make: Callable[[Color, GameView], rnd.Command],
        action: str | None,
    ) -> Played | object | None:
        """The hot path (module docstring): the command played and written in one statement;
        None when the version moved on, :data:`_LOCKED` when it takes the locked transaction."""
        color = game.seats.seat_of(user_id, game.state, action)
        if color is None:
            raise GameError("you do not play this game", 403)
        extended = game.speed == "correspondence" and self.extension is not None
        if (
            game.state.outcome is not None
            or (extended and game.state.clock is not None)
            or game.swap_rule
            or game.learn is not None  # a practice level may be met by any move (a hold's par)
        ):
            return _LOCKED
        t = self.clock()
        command = make(color, game)  # checks the version the player saw
        state, events = rnd.apply(game.state, command, t)
        if not events:
            return Played(state, events, game.seats)
        old, new = game.state.moves, state.moves
        if (
            state.outcome is not None
            or any(isinstance(e, rnd.TakenBack) for e in events)
            or len(new) - len(old) not in (0, 1)
            or new[: len(old)] != old
            or (game.seats.hotseat and state.takeback_offer is not None)  # granted at once
            or (extended and self.extension is not None and not self.extension.quiet(game, state))
        ):
            return _LOCKED
        if not self._write_fast(game, state, events, t, unanswered=extended):
            # a conditional move may answer it: the locked path plays the reply
            return _LOCKED if extended else None
        return Played(state, events, game.seats)

    def _write_fast(
        self,
        game: GameView,
        state: rnd.RoundState,
        events: tuple[rnd.Event, ...],
        t: float,
        *,
        unanswered: bool = False,
    ) -> bool:
        """The statement(s) of the hot path; False when the version moved on (or, with
        ``unanswered``, a conditional move is stored for the game)."""
        moved = len(state.moves) > len(game.state.moves)
        pure_move = moved and len(events) == 1
        due = rnd.due(state)
        events_json = [e.to_json() for e in events]
        state_json = state.to_json()
        played = next((e for e in events if isinstance(e, rnd.MovePlayed)), None)
        clocks = played.clocks if played is not None else None
        text = note(state.version, events_json, state_json, t)
        params: dict[str, Any] = {
            "id": game.id,
            "old": game.state.version,
            "version": state.version,
            "state": orjson.dumps(state_json).decode(),
            "t": t,
            "ply": len(state.moves),
            "text": state.moves[-1] if moved else None,
            "wl": clocks[0] if clocks else None,
            "bl": clocks[1] if clocks else None,
            "events": None if pure_move else orjson.dumps(events_json).decode(),
            "due": due,
            "channel": CHANNEL,
            "note": self.db.note(f"g:{game.id}", text),
        }
        try:
            with self.db.raw_write() as tx:
                if self.db.postgres:
                    key = (moved, not pure_move, due is not None, unanswered)
                    sql = self._fast_sql.get(key) or self._fast_sql.setdefault(
                        key, statements.fast_pg(*key)
                    )
                    if tx.execute(sql, params).fetchone() is None:
                        return False
                else:
                    if (
                        tx.execute(
                            statements.CAS_UNANSWERED if unanswered else statements.CAS, params
                        ).rowcount
                        != 1
                    ):
                        return False
                    if moved:
                        tx.execute(statements.MOVE, params)
                    if not pure_move:
                        tx.execute(statements.EVENTS, params)
                    tx.execute(statements.TIMER if due is not None else statements.NO_TIMER, params)
                tx.notify(f"g:{game.id}", str(state.version))
                tx.on_commit(
                    lambda: self.cache.advance(game.id, state.version, events_json, state, t)
                )
        except Exception as e:
            if not (unavailable(e) and self._committed(game.id, state)):
                raise
            # the connection broke after the commit: it is stored, and the answer says so
            self.cache.drop(game.id)
        return True

    def _committed(self, game_id: str, state: rnd.RoundState) -> bool:
        """Whether ``state`` is stored (a statement whose connection broke may have committed)."""
        try:
            stored = self.get(game_id)
        except Exception:
            return False
        return (
            stored is not None
            and stored.version >= state.version
            and stored.state.moves[: len(state.moves)] == state.moves
        )

    def _play_locked(
        self,
        game_id: str,
        user_id: int,
        make: Callable[[Color, GameView], rnd.Command],
        action: str | None,
    ) -> Played:
        """A command in one transaction holding the game row's lock (module docstring)."""
        with self.db.write() as tx:
            row = tx.execute(
                tx.locked(GAME_ROWS.where(m.games.c.id == game_id), of=m.games)
            ).first()
            if row is None:
                raise GameError("no such game", 404)
            game = view_of(row)
            color = game.seats.seat_of(user_id, game.state, action)
            if color is None:
                raise GameError("you do not play this game", 403)
            t = self.clock()
            command = make(color, game)  # checks the version the player saw
            swap_rule = game.swap_rule  # issue 30: round/swap.py
            if swap_rule:
                swap.refuse_over_swap(row.tags, command, game.state)
            if self.extension is not None:
                game = self.extension.prepare(tx, self, game, t)
            state, events = rnd.apply(game.state, command, t)
            if events:
                self._write(tx, game, state, events, t)
                if swap_rule:
                    swap.after_command(tx, game_id, row.tags, game.state, state)
                if self.extension is not None:
                    state = self.extension.after(tx, self, game, state, events, t)
            if game.seats.hotseat and state.takeback_offer is not None:
                # one person holds both seats: a takeback asked is a takeback granted
                answer = rnd.AnswerTakeback(not state.takeback_offer, True)
                asked = dataclasses.replace(game, state=state)
                state, more = rnd.apply(state, answer, t)
                self._write(tx, asked, state, more, t)
                events = (*events, *more)
        return Played(state, events, game.seats)

    def _write(
        self,
        tx: Tx,
        game: GameView,
        state: rnd.RoundState,
        events: tuple[rnd.Event, ...],
        t: float,
    ) -> None:
        over = state.outcome is not None
        state_json = state.to_json()
        values: dict[str, Any] = {"state": state_json, "version": state.version, "updated": t}
        if over and state.outcome is not None:
            values.update(
                status="over",
                result=_result(state.outcome),
                termination=state.outcome.termination.value,
            )
        tx.execute(update(m.games).where(m.games.c.id == game.id).values(**values))
        old_ply = len(game.state.moves)
        new_ply = len(state.moves)
        if new_ply < old_ply or state.moves[:old_ply] != game.state.moves:  # a takeback
            tx.execute(
                delete(m.moves).where(m.moves.c.game_id == game.id).where(m.moves.c.ply > new_ply)
            )
            old_ply = min(old_ply, new_ply)
        if new_ply > old_ply:
            now_clocks = clocks_at(state, t)
            played = {e.ply: e.clocks for e in events if isinstance(e, rnd.MovePlayed)}
            tx.execute(
                insert(m.moves),
                [
                    {
                        "game_id": game.id,
                        "ply": ply,
                        "text": state.moves[ply - 1],
                        "white_left": (played.get(ply) or now_clocks or (None, None))[0],
                        "black_left": (played.get(ply) or now_clocks or (None, None))[1],
                        "at": t,
                        "version": state.version,
                    }
                    for ply in range(old_ply + 1, new_ply + 1)
                ],
            )
        events_json = [e.to_json() for e in events]
        tx.execute(
            insert(m.game_events).values(
                game_id=game.id, version=state.version, events=events_json, at=t
            )
        )
        due = None if over else self._due(tx, game, state)
        if due is None:
            tx.execute(delete(m.timers).where(m.timers.c.game_id == game.id))
        else:
            tx.execute(UPSERT_TIMER, {"game": game.id, "due": due})
        tx.notify(
            f"g:{game.id}",
            str(state.version),
            wire=note(state.version, events_json, state_json, t),
        )
        tx.on_commit(lambda: self.cache.advance(game.id, state.version, events_json, state, t))
        if over and state.outcome is not None:
            finish = {
                "type": "gameFinish",
                "game": {"gameId": game.id, "id": game.id, "status": _status(state)},
            }
            for user_id in (game.seats.white_id, game.seats.black_id):
                user_event(tx, user_id, finish, t)

    def _due(self, tx: Tx, game: GameView, state: rnd.RoundState) -> float | None:
        """The game's timer: the round's :func:`emergo.round.due`, or the extension's."""
        if self.extension is not None:
            return self.extension.timer_due(tx, game, state)
        return rnd.due(state)

    def set_player_chat(self, game_id: str, user_id: int, open_: bool) -> None:
        """Open or close the players' room of a game (either player may)."""
        with self.db.write() as tx:
            row = tx.execute(
                tx.locked(select(m.games.c.white_id, m.games.c.black_id)).where(
                    m.games.c.id == game_id
                )
            ).first()
            if row is None:
                raise GameError("no such game", 404)
            if user_id not in (row.white_id, row.black_id):
                raise GameError("you do not play this game", 403)
            tx.execute(update(m.games).where(m.games.c.id == game_id).values(player_chat=open_))
            tx.notify(f"c:{game_id}", "room")
            tx.on_commit(lambda: self.cache.set_chat(game_id, open_))

    # --- timers ----------------------------------------------------------------------------------

    def sweep(self, limit: int = 50) -> int:
        """End what is due (loss on time, correspondence deadlines, games never started): one
        game a transaction, locking the game row with ``SKIP LOCKED`` so that the processes
        sweeping at once share the work and a game a command holds is left to the next sweep;
        how many games changed."""
        changed = 0
        skipped: list[str] = []
        first = self.db.raw_one("SELECT min(due) FROM timers")
        if first is None or first[0] is None or first[0] > self._sweep_time():
            return 0  # nothing due: one statement, no transaction (4 times a second a process)
        for _ in range(limit):
            t = self._sweep_time()
            with self.db.write() as tx:
                query = (
                    GAME_ROWS.join(m.timers, m.timers.c.game_id == m.games.c.id)
                    .where(m.timers.c.due <= t)
                    .order_by(m.timers.c.due)
                    .limit(1)
                )
                if skipped:
                    query = query.where(m.games.c.id.not_in(skipped))
                if self.db.postgres:
                    query = query.with_for_update(of=m.games, skip_locked=True, key_share=True)
                row = tx.execute(query).first()
                if row is None:
                    break
                game = view_of(row)
                if self.extension is not None:
                    game = self.extension.prepare(tx, self, game, t)
                try:
                    state, events = rnd.apply(game.state, rnd.Timeout(), t)
                except rnd.RoundError as e:  # a state the round refuses to time out: look no more
                    log.warning("game %s: the timer failed: %s", game.id, e)
                    tx.execute(delete(m.timers).where(m.timers.c.game_id == game.id))
                    continue
                if events:
                    self._write(tx, game, state, events, t)
                    if self.extension is not None:
                        self.extension.after(tx, self, game, state, events, t)
                    changed += 1
                else:  # not due after all (the clock moved on): the round's own next time
                    due = self._due(tx, game, game.state)
                    if due is None:
                        tx.execute(delete(m.timers).where(m.timers.c.game_id == game.id))
                    else:
                        if due <= t:  # the round disagrees with its own due(): look again soon
                            log.warning("game %s: due at %.3f but nothing to do", game.id, due)
                            skipped.append(game.id)
                            due = t + 1.0
                        tx.execute(UPSERT_TIMER, {"game": game.id, "due": due})
        return changed

    def _sweep_time(self) -> float:
        t = self.clock()
        return t if self.served_until is None else min(t, self.served_until)


def clocks_at(state: rnd.RoundState, t: float) -> tuple[float, float] | None:
    """Both clocks at ``t`` (white, black), or None for a game without a clock."""
    clock = state.clock
    if clock is None:
        return None
    return clock.remaining(WHITE, t), clock.remaining(BLACK, t)


def _result(outcome: Any) -> str:
    result: str = outcome.result()  # "*" for an aborted game
    return result


def _status(state: rnd.RoundState) -> str:
    """lichess's status name of a finished game (docs/online.md maps them)."""
    outcome = state.outcome
    if outcome is None:
        return "started"
    return STATUS.get(outcome.termination.value, outcome.termination.value)


STATUS = {
    "no-pieces": "mate",
    "blocked": "stalemate",
    "repetition": "draw",
    "resignation": "resign",
    "agreement": "draw",
    "time-forfeit": "outoftime",
    "aborted": "aborted",
    "abandoned": "timeout",
}
"""The round's terminations as lichess's game statuses."""
