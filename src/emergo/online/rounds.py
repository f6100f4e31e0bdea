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

The version of the game row is the round's: every change bumps it by one and all its events
carry it.  The events are kept by version (``game_events``), so a reader that woke on a
notification sends exactly the versions its client has not had, and a client that sees a gap
asks for the whole state again.

**The restart rule.**  The clocks are timestamps, so a game whose processes all stopped would
charge the player to move for the downtime.  When a server starts and no process has been alive
for :data:`DOWNTIME` seconds or more (``processes`` heartbeats), every live game in progress
gets the downtime back on the clock that was running (and its timer row moves with it), as
lichess gives time back after a restart; correspondence and unlimited games are not touched.
One process alone gives it, under a lock.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import secrets
import socket
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import delete, insert, select, text, update

from emergo import round as rnd
from emergo.board import BLACK, WHITE, Color
from emergo.clock import TimeControl, speed_of
from emergo.online import models as m
from emergo.online.challenges import user_event
from emergo.online.db import Database, Tx, now
from emergo.online.users import DELETED_NAME

log = logging.getLogger("emergo.online.rounds")

DOWNTIME = 10.0
"""Seconds without any live process after which a starting server gives the clocks time back."""
HEARTBEAT = 2.0
"""How often a process writes its heartbeat."""
_ALPHABET = string.ascii_letters + string.digits
_RESTART_LOCK = 0x656D6572676F + 1


class GameError(ValueError):
    """A command refused before the round: no such game (404), not a player of it (403)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def color_name(color: Color) -> str:
    return "white" if color == WHITE else "black"


@dataclass(frozen=True)
class Seats:
    """Who plays a game: the users' ids and names."""

    white_id: int
    black_id: int
    white: str
    black: str
    white_bot: bool = False
    black_bot: bool = False

    def color_of(self, user_id: int) -> Color | None:
        if user_id == self.white_id:
            return WHITE
        if user_id == self.black_id:
            return BLACK
        return None

    def id_of(self, color: Color) -> int:
        return self.white_id if color == WHITE else self.black_id

    def name_of(self, color: Color) -> str:
        return self.white if color == WHITE else self.black


@dataclass(frozen=True)
class GameView:
    """A stored game as a reader sees it: its row's fields and the round's state."""

    id: str
    seats: Seats
    state: rnd.RoundState
    variant: str
    speed: str
    time_control: str | None
    rated: bool
    status: str
    player_chat: bool
    created: float
    updated: float

    @property
    def version(self) -> int:
        return self.state.version


_white = m.users.alias("white")
_black = m.users.alias("black")
_GAME = (
    select(
        m.games,
        _white.c.name.label("white_name"),
        _black.c.name.label("black_name"),
        _white.c.bot.label("white_bot"),
        _black.c.bot.label("black_bot"),
    )
    .join(_white, _white.c.id == m.games.c.white_id)
    .join(_black, _black.c.id == m.games.c.black_id)
)


def _view(row: Any) -> GameView:
    return GameView(
        id=row.id,
        seats=Seats(
            white_id=row.white_id,
            black_id=row.black_id,
            white=row.white_name or DELETED_NAME,
            black=row.black_name or DELETED_NAME,
            white_bot=bool(row.white_bot),
            black_bot=bool(row.black_bot),
        ),
        state=rnd.RoundState.from_json(row.state),
        variant=row.variant,
        speed=row.speed,
        time_control=row.time_control,
        rated=row.rated,
        status=row.status,
        player_chat=row.player_chat,
        created=row.created,
        updated=row.updated,
    )


def new_game_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


def control_of(clock_limit: float | None, increment: float | None, days: int | None) -> Any:
    """The round's time control of a challenge's terms (None: unlimited)."""
    if clock_limit is not None:
        return TimeControl.fischer(clock_limit, increment or 0.0)
    if days is not None:
        return TimeControl.correspondence(days)
    return None


_UPSERT_TIMER = text(
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
    (:class:`emergo.online.correspondence.Correspondence`): vacation time given back before it,
    the conditional reply, ratings, the archive and notices after it, timers held back while the
    player to move is on vacation."""

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


class Rounds:
    """Plays commands on the games of one database (module docstring)."""

    def __init__(self, db: Database, clock: Callable[[], float] = now) -> None:
        self.db = db
        self.clock = clock
        self.extension: Extension | None = None

    # --- games -----------------------------------------------------------------------------------

    def create(self, tx: Tx, challenge: Any, white_id: int, black_id: int, t: float) -> str:
        """A new game from an accepted challenge's row, in the acceptance's transaction."""
        control = control_of(challenge.clock_limit, challenge.clock_increment, challenge.days)
        state = rnd.RoundState.new(variant=challenge.variant, time_control=control, now=t)
        game_id = new_game_id()
        turn = white_id if state.turn == WHITE else black_id
        tx.execute(
            insert(m.games).values(
                id=game_id,
                white_id=white_id,
                black_id=black_id,
                variant=challenge.variant,
                speed=speed_of(control),
                time_control=control.tag() if control is not None else None,
                rated=challenge.rated,
                state=state.to_json(),
                version=state.version,
                status="started",
                result="*",
                turn_id=turn,
                player_chat=True,
                challenge_id=challenge.id,
                created=t,
                updated=t,
            )
        )
        due = rnd.due(state)
        if due is not None:
            tx.execute(_UPSERT_TIMER, {"game": game_id, "due": due})
        start = {"type": "gameStart", "game": {"gameId": game_id, "id": game_id}}
        for user_id in (white_id, black_id):
            user_event(tx, user_id, start, t)
        return game_id

    def get(self, game_id: str) -> GameView | None:
        if not isinstance(game_id, str) or len(game_id) != 8:
            return None
        with self.db.read() as c:
            row = c.execute(_GAME.where(m.games.c.id == game_id)).first()
        return _view(row) if row is not None else None

    def refresh(self, game: GameView) -> GameView:
        """The same game as stored now (one row, no join; the state decoded only when its
        version changed): what a stream or socket reads on each notification."""
        with self.db.read() as c:
            row = c.execute(
                select(
                    m.games.c.version,
                    m.games.c.state,
                    m.games.c.status,
                    m.games.c.player_chat,
                    m.games.c.updated,
                ).where(m.games.c.id == game.id)
            ).first()
        if row is None:
            return game
        state = game.state if row.version == game.version else rnd.RoundState.from_json(row.state)
        return dataclasses.replace(
            game, state=state, status=row.status, player_chat=row.player_chat, updated=row.updated
        )

    def events_after(self, game_id: str, version: int) -> list[tuple[int, list[Any]]]:
        """The events of every version after ``version``: ``[(version, [event JSON...])...]``."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.game_events.c.version, m.game_events.c.events)
                .where(m.game_events.c.game_id == game_id)
                .where(m.game_events.c.version > version)
                .order_by(m.game_events.c.version)
            ).all()
        return [(r.version, r.events) for r in rows]

    def playing(self, user_id: int, limit: int = 100) -> list[GameView]:
        """The user's games in progress, those where it is their turn first."""
        with self.db.read() as c:
            rows = c.execute(
                _GAME.where(m.games.c.status == "started")
                .where((m.games.c.white_id == user_id) | (m.games.c.black_id == user_id))
                .order_by(m.games.c.updated.desc())
                .limit(limit)
            ).all()
        views = [_view(r) for r in rows]
        return sorted(views, key=lambda v: v.seats.id_of(v.state.turn) != user_id)

    def moves(self, game_id: str) -> list[tuple[int, str, float | None, float | None, float]]:
        with self.db.read() as c:
            rows = c.execute(
                select(m.moves).where(m.moves.c.game_id == game_id).order_by(m.moves.c.ply)
            ).all()
        return [(r.ply, r.text, r.white_left, r.black_left, r.at) for r in rows]

    # --- commands --------------------------------------------------------------------------------

    def play(
        self, game_id: str, user_id: int, make: Callable[[Color, GameView], rnd.Command]
    ) -> Played:
        """Play the command ``make(color, game)`` builds for the user's side (module docstring).

        :class:`GameError` when there is no such game (404) or the user does not play it (403);
        :class:`emergo.round.RoundError` when the round refuses it; either way nothing changed.
        """
        if not isinstance(game_id, str) or len(game_id) != 8:
            raise GameError("no such game", 404)
        with self.db.write() as tx:
            row = tx.execute(tx.locked(_GAME.where(m.games.c.id == game_id), of=m.games)).first()
            if row is None:
                raise GameError("no such game", 404)
            game = _view(row)
            color = game.seats.color_of(user_id)
            if color is None:
                raise GameError("you do not play this game", 403)
            t = self.clock()
            command = make(color, game)  # checks the version the player saw
            if self.extension is not None:
                game = self.extension.prepare(tx, self, game, t)
            state, events = rnd.apply(game.state, command, t)
            if events:
                self._write(tx, game, state, events, t)
                if self.extension is not None:
                    state = self.extension.after(tx, self, game, state, events, t)
            if isinstance(command, rnd.Move):
                tx.execute(_UPSERT_PRESENCE, {"game": game_id, "user": user_id, "seen": t})
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
        values: dict[str, Any] = {
            "state": state.to_json(),
            "version": state.version,
            "updated": t,
            "turn_id": None if over else game.seats.id_of(state.turn),
        }
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
            clocks = _clocks(state, t)
            tx.execute(
                insert(m.moves),
                [
                    {
                        "game_id": game.id,
                        "ply": ply,
                        "text": state.moves[ply - 1],
                        "white_left": clocks[0] if clocks else None,
                        "black_left": clocks[1] if clocks else None,
                        "at": t,
                    }
                    for ply in range(old_ply + 1, new_ply + 1)
                ],
            )
        tx.execute(
            insert(m.game_events).values(
                game_id=game.id,
                version=state.version,
                events=[e.to_json() for e in events],
                at=t,
            )
        )
        due = None if over else self._due(tx, game, state)
        if due is None:
            tx.execute(delete(m.timers).where(m.timers.c.game_id == game.id))
        else:
            tx.execute(_UPSERT_TIMER, {"game": game.id, "due": due})
        tx.notify(f"g:{game.id}", str(state.version))
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

    # --- timers ----------------------------------------------------------------------------------

    def sweep(self, limit: int = 50) -> int:
        """End what is due (loss on time, correspondence deadlines, games never started): one
        game a transaction, locking the game row with ``SKIP LOCKED`` so that the processes
        sweeping at once share the work and a game a command holds is left to the next sweep;
        how many games changed."""
        changed = 0
        skipped: list[str] = []
        for _ in range(limit):
            t = self.clock()
            with self.db.write() as tx:
                query = (
                    _GAME.join(m.timers, m.timers.c.game_id == m.games.c.id)
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
                game = _view(row)
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
                        tx.execute(_UPSERT_TIMER, {"game": game.id, "due": due})
        return changed

    # --- processes and the restart rule ----------------------------------------------------------

    def register_process(self) -> str:
        """Record this process (its heartbeat row); first give the clocks back the downtime
        when every process was gone (module docstring).  Returns the process's id."""
        process_id = f"{socket.gethostname()[:12]}-{os.getpid()}-{secrets.token_hex(3)}"
        t = self.clock()
        with self.db.write() as tx:
            if self.db.postgres:
                tx.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _RESTART_LOCK})
            last = tx.execute(select(m.processes.c.seen).order_by(m.processes.c.seen.desc()))
            seen = last.scalars().first()
            if seen is not None and t - seen >= DOWNTIME:
                given = self._give_back(tx, t - seen, t)
                log.warning(
                    "no server ran for %.0f s: %d live games got the time back", t - seen, given
                )
            tx.execute(insert(m.processes).values(id=process_id, started=t, seen=t))
            tx.execute(delete(m.processes).where(m.processes.c.seen < t - 86400))
        return process_id

    def heartbeat(self, process_id: str) -> None:
        with self.db.write() as tx:
            tx.execute(
                update(m.processes).where(m.processes.c.id == process_id).values(seen=self.clock())
            )

    def unregister_process(self, process_id: str) -> None:
        """A clean stop: the heartbeat stays (its time is when the site was last served)."""
        self.heartbeat(process_id)

    def _give_back(self, tx: Tx, downtime: float, t: float) -> int:
        rows = tx.execute(
            tx.locked(
                _GAME.where(m.games.c.status == "started").where(m.games.c.speed == "live"),
                of=m.games,
            )
        ).all()
        given = 0
        for row in rows:
            game = _view(row)
            clock = game.state.clock
            if clock is None or clock.running is None:
                continue
            state = dataclasses.replace(
                game.state,
                clock=clock.give_time(clock.running, downtime),
                version=game.state.version + 1,
            )
            note = {
                "t": "timeGiven",
                "version": state.version,
                "color": color_name(clock.running),
                "seconds": downtime,
                "clocks": list(_clocks(state, t) or ()),
            }
            tx.execute(
                update(m.games)
                .where(m.games.c.id == game.id)
                .values(state=state.to_json(), version=state.version, updated=t)
            )
            tx.execute(
                insert(m.game_events).values(
                    game_id=game.id, version=state.version, events=[note], at=t
                )
            )
            due = rnd.due(state)
            if due is not None:
                tx.execute(_UPSERT_TIMER, {"game": game.id, "due": due})
            tx.notify(f"g:{game.id}", str(state.version))
            given += 1
        return given


def _clocks(state: rnd.RoundState, t: float) -> tuple[float, float] | None:
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
