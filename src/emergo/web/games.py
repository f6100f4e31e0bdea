"""Games in the browser: the one place the web app meets the game flow (:mod:`emergo.game`).

Nothing here decides a rule or a turn: an :class:`emergo.game.Game` does.  This module keeps
each live game's store row in step with it and tells the watching clients.

* **Stored before acknowledged.**  The game's event callback writes (and commits) a move, a
  takeback or the end to the store before it hands the news to the event loop, so no client
  hears of a move the store lacks; a ``kill -9`` loses nothing acknowledged.
* **Resumed from the store.**  A game the store holds unfinished is rebuilt (start position +
  stored moves + the players' specs) when a client first asks for it after a start-up.
* **Versions.**  Every change bumps the live game's ``version`` (the store keeps it), and every
  ``state`` message carries it; a client that reconnects gets the current state at once.
* **Engines that fail are replaced.**  A :class:`~emergo.game.ComputerFailed` (the engine
  process died, the searcher raised) or an engine that thinks far beyond its time (hung) makes
  the live game rebuild itself from its current board with a fresh computer player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from emergo import record
from emergo.board import BLACK, WHITE, Board, Color, Outcome, Termination
from emergo.game import (
    ClockTick,
    Computer,
    ComputerFailed,
    DrawDeclined,
    DrawOffered,
    Event,
    Game,
    GameError,
    GameOver,
    Human,
    MovePlayed,
    Player,
    StaleVersionError,
    TakenBack,
    Thinking,
    TimeControl,
)
from emergo.levels import LEVEL_MAX, LevelSearcher, default_movetime, level_setting
from emergo.search import Limit, Searcher
from emergo.web import timing
from emergo.web.analysis import OnDemandSearcher, SharedAnalyser, in_search_thread, info_data
from emergo.web.inputs import body_json, clean_name, id_of, one_line, parse_json
from emergo.web.positions import (
    JSON,
    RequestError,
    board_from,
    color_name,
    line_data,
    move_data,
    position_data,
)
from emergo.web.security import MAX_BODY
from emergo.web.store import Store

log = logging.getLogger("emergo.web.games")

COLORS: dict[str, Color] = {"white": WHITE, "black": BLACK}
HANG_GRACE = 20.0
"""Seconds beyond its own limit after which a thinking engine counts as hung."""
MAX_LIVE = 200
"""Live games kept in memory; beyond, finished and then the longest unused of those nobody
watches are closed (the store keeps them; they resume when next asked for)."""
ENGINE_IDLE = 60.0
"""Seconds without a change after which a live game lets its engines' tables go (a search
makes them again)."""
WATCHER_QUEUE = 256
"""Messages a WebSocket may have waiting to be sent; a client that falls further behind (it
does not read) is closed with :data:`SLOW_CLOSE`, so it holds nobody else up."""
SLOW_CLOSE = 4008
"""The close code of a client dropped for not reading its messages."""
SLOW_CLOSE_WAIT = 30.0
"""Seconds the close of a dropped client may wait for the client to take its last frames."""
STORE_WAIT = 10.0
"""Most seconds a command waits for its change to be stored before it answers (else a 503)."""
MAX_RESTARTS = 3
"""Times a live game replaces a failed engine before it gives up."""
ENGINE_HASH_MB = 8

PlayerFactory = Callable[[JSON, str], Player]


# --- players --------------------------------------------------------------------------------------


def check_player(spec: Any, color: str) -> JSON:
    """A player's spec, checked: ``{"kind": "human", "name"}`` or ``{"kind": "engine",
    "level": 1-11}`` or ``{"kind": "engine", "movetime": seconds}``."""
    if not isinstance(spec, dict):
        raise RequestError(f"{color} must be an object such as {{'kind': 'human'}}")
    kind = spec.get("kind", "human")
    if kind == "human":
        # one line of printable text: the name goes into the game's record as a tag
        return {
            "kind": "human",
            "name": clean_name(spec.get("name"), f"{color}'s name", default="Human"),
        }
    if kind == "engine":
        level, movetime = spec.get("level"), spec.get("movetime")
        if movetime is not None:
            if (
                not isinstance(movetime, int | float)
                or isinstance(movetime, bool)
                or not 0 < movetime <= 60
            ):
                raise RequestError("movetime must be seconds in (0, 60]")
            return {"kind": "engine", "movetime": float(movetime)}
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 11:
            raise RequestError("level must be an integer from 1 to 11")
        return {"kind": "engine", "level": level}
    raise RequestError(f"unknown player kind {kind!r} (human or engine)")


MAX_CLOCK = 3 * 3600.0
"""Most seconds of a clock's base (and of an increment: ``MAX_INCREMENT``)."""
MAX_INCREMENT = 600.0


def check_clock(spec: Any) -> TimeControl | None:
    """A game's time control, checked: ``null`` (none), ``{"kind": "fischer", "base": seconds,
    "increment": seconds}`` or ``{"kind": "per-move", "base": seconds}`` (R20)."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise RequestError("clock must be null or an object such as {'kind': 'fischer', ...}")
    kind, base, increment = spec.get("kind"), spec.get("base"), spec.get("increment", 0)
    for name, value, most in (("base", base, MAX_CLOCK), ("increment", increment, MAX_INCREMENT)):
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= most:
            raise RequestError(f"the clock's {name} must be seconds in [0, {most:g}]")
    if kind == "fischer":
        if not base:
            raise RequestError("the clock's base must be more than 0 seconds")
        return TimeControl.fischer(float(base), float(increment))
    if kind == "per-move":
        if not base or increment:
            raise RequestError("a per-move clock needs a base of more than 0 s, no increment")
        return TimeControl.per_move(float(base))
    raise RequestError(f"unknown clock kind {kind!r} (fischer or per-move)")


def _time_control_of(saved: JSON) -> tuple[TimeControl | None, str | None]:
    """A saved game's time control, and a warning when its tag cannot be read (the game then
    resumes without a clock, and says so in its state: ``warning``)."""
    tag = (saved.get("tags") or {}).get("TimeControl")
    try:
        return (TimeControl.parse(tag) if tag else None), None
    except ValueError as e:
        warning = f"the stored time control {tag!r} cannot be read ({e}): the game has no clock"
        log.warning("game %s: %s", saved.get("id"), warning)
        return None, warning


def _clocks_of(saved: JSON) -> tuple[float, float] | None:
    """The clocks stored with a saved game's last move (None: full clocks, or no clock)."""
    clocks = saved.get("clocks")
    if not clocks:
        return None
    return float(clocks["white"]), float(clocks["black"])


def backend_for(variant: str) -> str:
    """The search backend for ``variant``: the C kernel when it plays it, else Python."""
    try:
        from emergo import kernel
    except ImportError:
        return "python"
    return "auto" if kernel.supports(variant) else "python"


def make_player(spec: JSON, variant: str) -> Player:
    """The player of a checked spec: a person, or the built-in engine (as
    :meth:`emergo.game.Computer.engine` makes it) whose searcher and hash exist only while
    it has a use for them (:class:`~emergo.web.analysis.OnDemandSearcher`): below full
    strength only during a search (the level clears its tables before each), at full
    strength until the game is over, closed or idle (:data:`ENGINE_IDLE`)."""
    if spec["kind"] == "human":
        return Human(spec["name"])
    from emergo.players import backend

    kind = backend_for(variant)
    level = spec.get("level", LEVEL_MAX)  # a time a move: full strength, as Computer.engine
    hash_mb = engine_hash_mb(level, variant)
    tables = OnDemandSearcher(lambda: backend(kind, hash_mb=hash_mb), keep=level == LEVEL_MAX)
    searcher = LevelSearcher(tables, level)
    limit = Limit(time=spec["movetime"]) if "movetime" in spec else None
    name = f"emergo engine, level {searcher.level}"
    return Computer(searcher, limit, name=name, on_close=tables.release)


def engine_hash_mb(level: int, variant: str) -> int:
    """Megabytes of hash for an engine at ``level``: :data:`ENGINE_HASH_MB` at full strength;
    below, room for two entries of 16 bytes a node of the level's cap (its tables are made
    afresh for every search: a level-1 engine needs 1 MB, not 8 zeroed for each move)."""
    nodes = level_setting(level, variant).nodes
    if level == LEVEL_MAX:
        return ENGINE_HASH_MB
    needed = max(1, -(-(nodes or 0) * 32 // 2**20))
    return min(ENGINE_HASH_MB, 1 << (needed - 1).bit_length())


def release_tables(player: Player) -> None:
    """Let a computer player's search tables go (a later search makes them again)."""
    searcher: Any = getattr(player, "searcher", None)
    while searcher is not None:
        if isinstance(searcher, OnDemandSearcher):
            searcher.release()
            return
        searcher = getattr(searcher, "inner", None)


_analysers: dict[str, SharedAnalyser] = {}
_analysers_lock = threading.Lock()


def shared_analyser(variant: str) -> SharedAnalyser:
    """The analyser every live game of ``variant``'s search backend shares for its hints and
    draw answers (:class:`~emergo.web.analysis.SharedAnalyser`): no searcher per game."""
    kind = backend_for(variant)
    with _analysers_lock:
        analyser = _analysers.get(kind)
        if analyser is None:
            analyser = _analysers[kind] = SharedAnalyser(lambda: _new_analyser(kind))
        return analyser


def _new_analyser(kind: str) -> Searcher:
    from emergo.players import backend

    return backend(kind, hash_mb=ENGINE_HASH_MB)


# --- a live game ----------------------------------------------------------------------------------


class LiveGame:
    """A running :class:`emergo.game.Game`, its store row, and the WebSockets watching it.

    ``version`` is the store's: the game's own version plus ``base`` (the versions of the games
    this one replaced: before a restart, before an engine was replaced).
    """

    def __init__(
        self,
        game_id: int,
        store: Store,
        loop: asyncio.AbstractEventLoop,
        specs: dict[str, JSON],
        board: Board,
        *,
        base: int = 0,
        outcome: Outcome | None = None,
        factory: PlayerFactory = make_player,
        time_control: TimeControl | None = None,
        clocks: tuple[float, float] | None = None,
    ) -> None:
        """``clocks``: the seconds left (white, black) to resume with (the store's)."""
        self.id = game_id
        self.time_control = time_control
        self.store = store
        self.loop = loop
        self.specs = specs
        self.factory = factory
        self.watchers: dict[WebSocket, Watcher] = {}
        """The WebSockets watching, each with its own queue of messages (:class:`Watcher`)."""
        self.commands = threading.Lock()
        """Held by a command from its version check to its change stored (:func:`command`):
        two commands with the same version cannot both pass the check."""
        self.busy = 0
        """Commands under way (a busy game is not evicted from the registry)."""
        self.last_used = self.last_change = time.monotonic()
        self.queue: asyncio.Queue[tuple[JSON, bool, timing.Trace | None] | None] = asyncio.Queue()
        self.pump = loop.create_task(self._pump())
        self.restarts = 0
        self.failed: str | None = None
        self.warning: str | None = None
        """Something the players should know that did not stop the game (an unread clock)."""
        self.closed = False
        self.analysis: JSON | None = None
        self._thinking_since: tuple[int, float, float] | None = None
        self._replacing = threading.Lock()
        self.base = base
        self.plies = len(board.move_stack)
        # What the store holds (the board, the end, the version): the only state clients see.
        self._stored_lock = threading.Lock()
        self._stored_changed = threading.Condition(self._stored_lock)
        self.store_failed = False
        self.stored_board = board.copy()
        self.stored_outcome = outcome
        self.stored_version = base
        # The stored line for the clients, kept move by move (not rebuilt for every state), and
        # the stored position's data: computed once per stored change, whoever asks.
        self._line = line_data(board)
        self._view: JSON | None = None
        self.game = self._new_game(board, outcome, clocks if time_control else None)
        self.watchdog = loop.create_task(self._watch())

    # the game and its replacement

    def _new_game(
        self,
        board: Board,
        outcome: Outcome | None = None,
        clocks: tuple[float | None, float | None] | None = None,
    ) -> Game:
        variant = board.variant
        white = self.factory(self.specs["white"], variant)
        black = self.factory(self.specs["black"], variant)
        tc = self.time_control
        if outcome is None and clocks is None:
            game = Game(
                white=white,
                black=black,
                board=board,
                time_control=tc,
                analyser=shared_analyser(variant),
            )
        else:  # a resignation, agreement or time forfeit the store recorded; clocks kept
            tags = {}
            if outcome is not None:
                tags = {"Result": outcome.result(), "Termination": outcome.termination.value}
            for tag, left in zip(("WhiteClock", "BlackClock"), clocks or (), strict=False):
                if left is not None:
                    tags[tag] = f"{max(left, 0.0):.3f}"
            game = Game.from_record(
                record.Game.from_board(board, **tags),
                white=white,
                black=black,
                time_control=tc,
                analyser=shared_analyser(variant),
            )
        self.unsubscribe = game.subscribe(self.on_event)
        game.start()
        return game

    @property
    def version(self) -> int:
        """The version of the stored state (what clients may know of)."""
        with self._stored_lock:
            return self.stored_version

    def current_version(self, game: Game) -> int:
        """The version now, changes not stored yet included (a client has not seen those)."""
        return max(self.version, self.base + game.version)

    def replace_engine(self, why: str, failed: Game | None = None) -> None:
        """Rebuild the game from its board with fresh players (from any thread but the game's);
        ``failed``: only if that game is still the live one (one failure, one replacement)."""
        with self._replacing:
            if failed is not None and failed is not self.game:
                return
            self._replace_locked(why)

    def _replace_locked(self, why: str) -> None:
        old = self.game
        clocks = (old.clock(WHITE), old.clock(BLACK)) if self.time_control else None
        old.close()
        old.wait(5.0)  # the events of the old game delivered (and stored) first
        self.unsubscribe()
        with self._stored_lock:
            board, outcome = self.stored_board.copy(), self.stored_outcome
            self.base = self.stored_version = self.stored_version + 1
            self._view = None
        if self.closed:
            return
        if self.restarts >= MAX_RESTARTS:
            self.failed = f"{why}; the engine failed {self.restarts + 1} times: the game is stopped"
            self._send({"type": "event", "event": "EngineGaveUp", "error": self.failed}, True)
            return
        self.restarts += 1
        self.failed = why
        log.warning("game %s: %s; the engine is restarted", self.id, why)
        self.game = self._new_game(board, outcome, clocks)
        self.store.set_version(self.id, self.version)
        self._send({"type": "event", "event": "EngineRestarted", "error": why}, True)

    # events: store first, then the clients

    def on_event(self, event: Event) -> None:
        """From any thread: store what must survive, then tell every client (in that order)."""
        if isinstance(event, ClockTick):  # the clocks after a move: news, not a change
            tick = {"white": round(event.white, 3), "black": round(event.black, 3)}
            self._send({"type": "event", "event": "ClockTick", **tick}, False)
            return
        version = self.base + getattr(event, "version", 0)
        try:
            if isinstance(event, MovePlayed):
                timing.mark("play")
                self.store.add_move(
                    self.id, event.ply, event.text, version=version, clocks=event.clocks
                )
                timing.mark("store")
                self.plies = event.ply
            elif isinstance(event, TakenBack):
                self.plies -= len(event.moves)
                self.store.take_back(self.id, self.plies, version=version, clocks=event.clocks)
            elif isinstance(event, GameOver):
                outcome = event.outcome
                self.store.finish_game(
                    self.id, outcome.result(), outcome.termination.value, version=version
                )
                self.release_tables()  # a takeback (R18, R19 endings) makes them again
            elif isinstance(event, DrawOffered | DrawDeclined):
                self.store.set_version(self.id, version)
        except Exception:  # the store failed: nobody may hear of a change it lacks
            log.exception("game %s: cannot store %r; the game stops", self.id, event)
            self.failed = "the store failed: the game is stopped"
            with self._stored_lock:
                self.store_failed = True
                self._stored_changed.notify_all()
            self.loop.call_soon_threadsafe(self._close_soon)
            return
        if hasattr(event, "version"):
            self.last_change = time.monotonic()
            with self._stored_lock:  # stored: now clients may see it
                if isinstance(event, MovePlayed):
                    self._line["moves"].append(move_data(self.stored_board, event.move))
                    self.stored_board.push(event.move)
                elif isinstance(event, TakenBack):
                    for _ in event.moves:
                        self.stored_board.pop()
                        self._line["moves"].pop()
                    self.stored_outcome = None
                elif isinstance(event, GameOver):
                    self.stored_outcome = event.outcome
                self.stored_version = max(self.stored_version, version)
                self._view = None
                self._stored_changed.notify_all()
        message: JSON = {"type": "event", "event": type(event).__name__}
        if isinstance(event, MovePlayed):
            message.update(ply=event.ply, text=event.text, color=color_name(event.color))
        elif isinstance(event, DrawOffered | DrawDeclined | Thinking | ComputerFailed):
            message["color"] = color_name(event.color)
        if isinstance(event, GameOver):
            message["result"] = event.outcome.result()
            message["reason"] = event.outcome.reason()
        if isinstance(event, Thinking):  # engine progress: the line, not a new state
            data = info_data(self.game.board, event.info)
            self.analysis = data
            message["info"] = data
            self._send(message, False)
            return
        message["version"] = version
        if isinstance(event, ComputerFailed):
            message["error"] = event.message
            self._send(message, False)
            self.loop.call_soon_threadsafe(self._replace_soon, event.message, self.game)
            return
        self.analysis = None
        self._send(message, True, timing.current.get() if isinstance(event, MovePlayed) else None)

    def wait_stored(self, game: Game, timeout: float = STORE_WAIT) -> None:
        """Block until the store holds every change ``game`` has made so far (from a command's
        thread, after the change: another thread may be delivering the game's events, so the
        change may not be stored yet when the game's call returns).  A 503
        :class:`RequestError` when the store failed or is still behind after ``timeout``."""
        deadline = time.monotonic() + timeout
        target = self.base + game.version  # the game's lock, never taken under the store's
        with self._stored_lock:
            while self.stored_version < target and not self.store_failed:
                if self.game is not game or self.closed:  # replaced: its events were stored
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RequestError("the change is not stored yet: try again", 503)
                self._stored_changed.wait(min(remaining, 0.1))
            if self.store_failed:
                raise RequestError(self.failed or "the store failed", 503, kind="store")

    def _send(self, message: JSON, with_state: bool, trace: timing.Trace | None = None) -> None:
        item = (message, with_state, trace)
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    def _replace_soon(self, why: str, failed: Game) -> None:
        self.loop.create_task(asyncio.to_thread(self.replace_engine, why, failed))

    def _close_soon(self) -> None:
        self.loop.create_task(asyncio.to_thread(self.close))

    async def _pump(self) -> None:
        """Send the queued messages, in order, each with the state of that moment if asked."""
        while (item := await self.queue.get()) is not None:
            message, with_state, trace = item
            if trace is not None:
                trace.mark("to_loop")
            # encoded once for every client
            texts = [_encode(message)]
            if with_state:
                texts.append(_encode(self.state()))
            if trace is not None:
                trace.mark("state")
            for watcher in list(self.watchers.values()):  # queued, never awaited: nobody waits
                for text in texts:
                    watcher.push(text)
            if trace is not None:
                trace.mark("send")
                trace.done()

    async def _watch(self) -> None:
        """Replace an engine that thinks far beyond its limit (a hung process); let the
        engines' tables go when the game has not changed for :data:`ENGINE_IDLE` seconds."""
        while not self.closed:
            await asyncio.sleep(1.0)
            game = self.game
            if not game.thinking:
                self._thinking_since = None
                if time.monotonic() - self.last_change > ENGINE_IDLE:
                    self.release_tables()
                continue
            key = self.version
            if self._thinking_since is None or self._thinking_since[0] != key:
                # The allowance is fixed when the thought starts: the clock left then (a clock
                # read later has fallen by the time already spent thinking).
                self._thinking_since = (key, time.monotonic(), self._allowance(game))
                continue
            if time.monotonic() - self._thinking_since[1] > self._thinking_since[2]:
                self._thinking_since = None
                why = "the engine stopped answering"
                await asyncio.to_thread(self.replace_engine, why, game)

    @staticmethod
    def _allowance(game: Game) -> float:
        """Seconds the side to move may think before it counts as hung (read as it starts)."""
        player = game.players[game.turn]
        allowed = HANG_GRACE
        if isinstance(player, Computer) and player.limit is not None and player.limit.time:
            allowed += player.limit.time
        elif game.time_control is not None:  # it thinks within its clock
            allowed += max(game.clock(game.turn) or 0.0, 0.0)
        else:  # the game gives it the variant's default time
            allowed += default_movetime(game.board.variant)
        return allowed

    def state(self) -> JSON:
        """The whole state of the game now (one consistent moment)."""
        game = self.game
        with self._stored_lock:
            version = self.stored_version
            outcome = self.stored_outcome
            if self._view is None:  # once per stored change, however many clients ask
                self._view = position_data(self.stored_board)
            position = self._view
            line = {**self._line, "moves": list(self._line["moves"])}
            turn = self.stored_board.turn
        thinking = game.thinking and outcome is None
        offer = game.draw_offer
        data = dict(position)  # the cached view is shared: change a copy
        if outcome is not None and data["outcome"] is None:  # resignation, agreement, time
            data["outcome"] = {
                "result": outcome.result(),
                "termination": outcome.termination.value,
                "reason": outcome.reason(),
                "winner": None if outcome.winner is None else color_name(outcome.winner),
            }
            data.update(phase="over", moves=[], forbidden={})
        players = {
            name: {**self.specs[name], "display": game.name(color)}
            for name, color in COLORS.items()
        }
        return {
            "type": "state",
            "game": self.id,
            "version": version,
            "thinking": thinking,
            "drawOffer": None if offer is None else color_name(offer),
            "players": players,
            "analysis": self.analysis if thinking else None,
            "restarts": self.restarts,
            "failed": self.failed,
            "warning": self.warning,
            "state": data,
            "line": line,
            "clock": self.clock_data(game, outcome is None and data["outcome"] is None, turn),
        }

    def clock_data(self, game: Game, running: bool, turn: Color) -> JSON | None:
        """The clocks now: seconds left each, the one running (the side to move's), the control."""
        tc = self.time_control
        if tc is None:
            return None
        left = {name: max(game.clock(color) or 0.0, 0.0) for name, color in COLORS.items()}
        return {
            "control": tc.tag(),
            "kind": tc.kind,
            "base": tc.base,
            "increment": tc.increment,
            **{name: round(value, 3) for name, value in left.items()},
            "running": color_name(turn) if running and game.started else None,
        }

    def release_tables(self) -> None:
        """Let the engines' search tables go (their next search makes them again)."""
        for player in self.game.players.values():
            release_tables(player)

    @property
    def finished(self) -> bool:
        with self._stored_lock:
            return self.stored_outcome is not None

    def close(self) -> None:
        """Stop the game's background work and let its engines go (idempotent; the store
        keeps the game, which resumes when next asked for)."""
        if self.closed:
            return
        self.closed = True
        self.unsubscribe()
        self.game.close()
        self.release_tables()
        self.loop.call_soon_threadsafe(self._stop_tasks)

    def _stop_tasks(self) -> None:
        self.queue.put_nowait(None)
        self.watchdog.cancel()


class Watcher:
    """One WebSocket watching a live game: its own bounded queue of messages and the task that
    sends them, so a client that does not read holds up nobody but itself.  When more than
    :data:`WATCHER_QUEUE` messages wait, the client is dropped: nothing more is queued for it
    and it is closed with :data:`SLOW_CLOSE` (after the frames already handed to the
    connection; the page reconnects and gets the whole state)."""

    def __init__(self, ws: WebSocket, limit: int = WATCHER_QUEUE) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limit)
        self.dropped = False
        self.task = asyncio.get_running_loop().create_task(self._send())
        self._closing: asyncio.Task[None] | None = None

    def push(self, text: str) -> None:
        """Queue a message (on the event loop); never waits."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(f"too slow: {self.queue.maxsize} messages unread; reconnect")

    async def _send(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        except Exception:  # the client has gone: nothing more for it
            self.dropped = True

    def drop(self, reason: str) -> None:
        """Stop sending to this client and close it with :data:`SLOW_CLOSE`."""
        if self.dropped:
            return
        self.dropped = True
        log.warning("a client of %s is dropped: %s", self.ws.url.path, reason)
        self.task.cancel()
        self._closing = asyncio.get_running_loop().create_task(self._close(reason))

    async def _close(self, reason: str) -> None:
        with contextlib.suppress(Exception):  # the client may be gone or never read again
            await asyncio.wait_for(self.ws.close(SLOW_CLOSE, reason), SLOW_CLOSE_WAIT)

    def stop(self) -> None:
        """The socket's handler has ended: stop the sender (what is queued is dropped)."""
        self.dropped = True
        self.task.cancel()


def _encode(message: JSON) -> str:
    """A message as the WebSocket's text (as Starlette's ``send_json`` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _outcome_of_saved(saved: JSON, board: Board) -> Outcome | None:
    """A stored ending the board does not show itself (resignation, agreement, time)."""
    result = saved.get("result", "*")
    if result == "*" or board.outcome() is not None:
        return None
    try:
        termination = Termination(saved.get("termination") or "")
    except ValueError:
        termination = Termination.RESIGNATION if result != "1/2-1/2" else Termination.AGREEMENT
    winner = {"1-0": WHITE, "0-1": BLACK}.get(result)
    return Outcome(termination, winner)


# --- the registry of live games -------------------------------------------------------------------


def _store(conn: Request | WebSocket) -> Store:
    store: Store | None = conn.app.state.store
    if store is None:
        raise RequestError("this server has no store: start it with a database", 503)
    return store


def _lives(app: Any) -> dict[int, LiveGame]:
    lives: dict[int, LiveGame] | None = getattr(app.state, "live_games", None)
    if lives is None:
        lives = app.state.live_games = {}
    return lives


def _game_id(conn: Request | WebSocket) -> int:
    return id_of(conn.path_params.get("game_id"), "game")


def _saved(store: Store, game_id: int) -> JSON:
    saved = store.game(game_id)
    if saved is None:
        raise RequestError(f"no game {game_id}", 404)
    return saved


async def live_game(conn: Request | WebSocket, game_id: int) -> LiveGame:
    """The live game ``game_id``, resumed from the store when it is not running yet."""
    _store(conn)
    return await resume(conn.app, game_id)


async def resume(app: Any, game_id: int) -> LiveGame:
    """The live game ``game_id`` of ``app``, rebuilt from the store if it is not running."""
    lives = _lives(app)
    live = lives.get(game_id)
    if live is not None and not live.closed:
        live.last_used = time.monotonic()
        return live
    store: Store = app.state.store
    saved = await asyncio.to_thread(_saved, store, game_id)
    specs = saved.get("players") or {}
    try:
        specs = {c: check_player(specs.get(c), c) for c in COLORS}
    except RequestError:
        specs = {c: {"kind": "human", "name": saved[c]} for c in COLORS}
    board = board_from(saved["start"], list(saved.get("moves", [])))
    outcome = _outcome_of_saved(saved, board)
    loop = asyncio.get_running_loop()
    factory: PlayerFactory = getattr(app.state, "player_factory", make_player)

    time_control, warning = _time_control_of(saved)

    def build() -> LiveGame:
        return LiveGame(
            game_id,
            store,
            loop,
            specs,
            board,
            base=int(saved.get("version", 0)) + 1,
            outcome=outcome,
            factory=factory,
            time_control=time_control,
            clocks=_clocks_of(saved),
        )

    live = lives.get(game_id)  # another request may have resumed it meanwhile
    if live is not None and not live.closed:
        return live
    live = build()
    live.warning = warning
    lives[game_id] = live
    await _evict(lives, live)
    return live


async def _evict(lives: dict[int, LiveGame], keep: LiveGame) -> None:
    """Close live games until at most :data:`MAX_LIVE` are held: the finished ones first, then
    those unused longest; never one that is watched, thinking, under a command, or ``keep``
    (the one just asked for).  The store keeps them; they resume when next asked for."""
    if len(lives) <= MAX_LIVE:
        return
    idle = [
        g
        for g in lives.values()
        if g is not keep and not g.watchers and not g.busy and not g.game.thinking
    ]
    idle.sort(key=lambda g: (not g.finished, g.last_used))
    evicted = []
    for old in idle[: len(lives) - MAX_LIVE]:
        lives.pop(old.id, None)
        evicted.append(old)
    for old in evicted:
        await asyncio.to_thread(old.close)


# --- saved games (the store) ----------------------------------------------------------------------


async def list_games(request: Request) -> Response:
    store = _store(request)
    return JSONResponse({"games": await asyncio.to_thread(store.games)})


async def get_game(request: Request) -> Response:
    store = _store(request)
    game_id = _game_id(request)
    saved = await asyncio.to_thread(_saved, store, game_id)
    board = board_from(saved["start"], list(saved.get("moves", [])))
    out = {**saved, "state": position_data(board), "line": line_data(board)}
    live = _lives(request.app).get(game_id)
    if live is not None and not live.closed:
        out["live"] = live.state()
    return JSONResponse(out)


async def delete_game(request: Request) -> Response:
    store = _store(request)
    game_id = _game_id(request)
    live = _lives(request.app).pop(game_id, None)
    if live is not None:
        await asyncio.to_thread(live.close)
    if not await asyncio.to_thread(store.delete_game, game_id):
        raise RequestError(f"no game {game_id}", 404)
    return JSONResponse({"deleted": game_id})


async def game_record(request: Request) -> Response:
    store = _store(request)
    saved = await asyncio.to_thread(_saved, store, _game_id(request))
    board = board_from(saved["start"], list(saved.get("moves", [])))
    tags = {"White": saved["white"], "Black": saved["black"], **(saved.get("tags") or {})}
    if saved.get("created"):  # the day the game began, unless a tag of its own says otherwise
        tags.setdefault("Date", saved["created"][:10].replace("-", "."))
    # Names and tags are checked at the door, but a store may hold older ones a record cannot
    # (a newline in a name): each is written as one clean line, a tag of a bad name left out.
    game = record.Game.from_board(
        board, **{k: one_line(str(v)) for k, v in tags.items() if _TAG_NAME.fullmatch(str(k))}
    )
    if saved.get("result", "*") != "*" and board.outcome() is None:
        game.headers["Result"] = saved["result"]
        if saved.get("termination"):
            game.headers["Termination"] = saved["termination"]
    return PlainTextResponse(
        record.write_game(game),
        headers={"content-disposition": f'attachment; filename="emergo-{saved["id"]}.egn"'},
    )


_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
"""A record's tag names (docs/records.md)."""


# --- live games -----------------------------------------------------------------------------------


async def create_game(request: Request) -> Response:
    """``POST /api/games {"pos", "moves", "white": spec, "black": spec}`` starts a game."""
    store = _store(request)
    data = await body_json(request)
    moves = data.get("moves")
    if isinstance(moves, str):
        moves = moves.split()
    board = board_from(data.get("pos"), moves)
    if board.outcome() is not None:
        raise RequestError("the game is over in that position", kind="over")
    specs = {
        "white": check_player(data.get("white", {"kind": "human"}), "white"),
        "black": check_player(data.get("black", {"kind": "engine", "level": 5}), "black"),
    }
    time_control = check_clock(data.get("clock"))
    factory: PlayerFactory = getattr(request.app.state, "player_factory", make_player)
    names = {c: _display(factory, specs[c], board.variant) for c in COLORS}
    start = board.root()
    game_id = await asyncio.to_thread(
        store.create_game,
        start.position(),
        variant=board.variant,
        white=names["white"],
        black=names["black"],
        players=specs,
        tags={"TimeControl": time_control.tag()} if time_control else None,
    )
    for ply, move in enumerate(board.move_stack, 1):  # the moves before the game, stored first
        text = start.move_text(move)
        start.push(move)
        await asyncio.to_thread(store.add_move, game_id, ply, text, version=0)
    loop = asyncio.get_running_loop()
    live = LiveGame(game_id, store, loop, specs, board, factory=factory, time_control=time_control)
    _lives(request.app)[game_id] = live
    await _evict(_lives(request.app), live)
    return JSONResponse({"id": game_id, **live.state()})


def _display(factory: PlayerFactory, spec: JSON, variant: str) -> str:
    if spec["kind"] == "human":
        return str(spec["name"])
    if "movetime" in spec:
        return f"emergo engine, {spec['movetime']:g} s a move"
    return f"emergo engine, level {spec['level']}"


COMMANDS = ("move", "takeback", "resign", "draw", "answer", "hint", "stop")


async def command(live: LiveGame, data: Any) -> JSON | None:
    """Carry out one command (``move``, ``takeback``, ``resign``, ``draw``, ``answer``,
    ``hint``, ``stop``); its answer, if it has one of its own (a hint, a draw answer).

    Its arguments are checked first; then, in a worker thread, under the live game's command
    lock: the ``version`` it was sent with is compared with the game's, the change is made and
    stored -- so of two commands sent with the same version at most one passes."""
    if not isinstance(data, dict):
        raise RequestError("a command must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise RequestError(f"unknown command {kind!r} ({', '.join(COMMANDS)})")
    by = data.get("by")
    if by is not None and (not isinstance(by, str) or by not in COLORS):
        raise RequestError("by must be white or black")
    expected = data.get("version")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        raise RequestError("version must be a whole number")
    text, names, accept = data.get("text"), data.get("names", "oblique"), data.get("accept")
    if kind == "move":
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise RequestError("text must be a move text")
        if names not in ("oblique", "checker"):
            raise RequestError("names must be oblique or checker")
    if kind == "answer" and not isinstance(accept, bool):
        raise RequestError("accept must be true or false")
    if live.closed:
        raise RequestError(live.failed or "the game is closed", 409)
    if kind == "hint":  # a search of the position: no change, no version
        return await _hint(live.game)

    def run() -> JSON | None:
        timing.mark("to_thread")
        with live.commands:
            if live.closed:
                raise RequestError(live.failed or "the game is closed", 409)
            game = live.game
            now = live.current_version(game)
            if expected is not None and expected != now:
                raise RequestError(
                    f"the game has changed (version {now}, not {expected})",
                    409,
                    kind="version",
                    version=now,
                )
            side = game.turn if by is None else COLORS[by]
            # The game checks the version again under its own lock: an engine's reply or a
            # falling flag may land between the check above and the change (StaleVersionError).
            seen = None if expected is None else expected - live.base
            answer: JSON | None = None
            try:
                if kind == "move":
                    move = game.play(str(text).strip(), by=side, names=names, version=seen)
                    answer = {"type": "played", "text": str(move)}
                elif kind == "takeback":
                    taken = game.takeback(by=side, version=seen)
                    answer = {"type": "takenback", "moves": [str(m) for m in taken]}
                elif kind == "resign":
                    game.resign(by=side, version=seen)
                elif kind == "draw":
                    answer = {"type": "draw", "accepted": game.offer_draw(by=side, version=seen)}
                elif kind == "answer":
                    game.answer_draw(by=side, accept=bool(accept), version=seen)
                else:  # stop: the engine plays its best move now
                    game.stop_thinking()
                    return None
            except StaleVersionError:
                now = live.current_version(game)
                raise RequestError(
                    f"the game has changed (version {now}, not {expected})",
                    409,
                    kind="version",
                    version=now,
                ) from None
            live.wait_stored(game)  # stored before it is acknowledged
            return answer

    live.busy += 1
    live.last_used = time.monotonic()
    try:
        return await asyncio.to_thread(run)
    except GameError as e:
        raise RequestError(str(e), 409, kind="game") from None
    except RequestError:
        raise
    except ValueError as e:  # the board's IllegalMoveError, AmbiguousMoveError, ...
        raise RequestError(str(e), 400, kind="illegal") from None
    finally:
        live.busy -= 1


async def _hint(game: Game) -> JSON:
    if game.is_over():
        raise RequestError("the game is over", 409, kind="over")
    board = game.board
    result = await in_search_thread(game.hint)  # the game's own hint time
    if result.move is None or not board.is_legal(result.move):
        return {"type": "hint", "move": None, "lines": []}
    lines = [info_data(board, info) for info in result.infos[:1]]
    return {"type": "hint", "move": move_data(board, result.move), "lines": lines}


async def game_command(request: Request) -> Response:
    """``POST /api/games/{id}/{command}``: the WebSocket's commands over HTTP; answers the state
    after it (refusals: 400 a bad or illegal move, 409 not now: out of turn, over, stale)."""
    live = await live_game(request, _game_id(request))
    data = await body_json(request)
    data["type"] = request.path_params["command"]
    answer = await command(live, data)
    return JSONResponse({**(answer or {}), "state": live.state()})


async def ws_game(ws: WebSocket) -> None:
    """A live game: the server sends ``state`` messages (with ``version``) and events; the
    client sends commands (:func:`command`) as ``{"type": ..., "by", "version"?}``.  Everything
    for the client goes through its :class:`Watcher` (its own bounded queue)."""
    await ws.accept()
    try:
        live = await live_game(ws, _game_id(ws))
    except RequestError as e:
        await ws.send_json({"type": "error", "error": str(e), "status": e.status})
        await ws.close(4404)
        return
    watcher = live.watchers[ws] = Watcher(ws)
    try:
        watcher.push(_encode(live.state()))
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect" or watcher.dropped:
                break  # gone, or dropped for not reading: it commands nothing more
            raw = message.get("text")
            if raw is None:
                watcher.push(_encode({"type": "error", "error": "send JSON text messages"}))
                continue
            request_id: Any = None
            try:
                if len(raw) > MAX_BODY:
                    raise RequestError("message too large", 413)
                data = parse_json(raw)
                if isinstance(data, dict):
                    request_id = data.get("id")
                is_move = isinstance(data, dict) and data.get("type") == "move"
                timing.current.set(timing.begin() if is_move else None)
                answer = await command(live, data) or {"type": "ok", "command": data["type"]}
            except RequestError as e:
                answer = {"type": "error", "error": str(e), "status": e.status, **e.extra}
            except ValueError as e:  # a refusal of the game flow's not made a RequestError
                answer = {"type": "error", "error": str(e), "status": 400}
            if request_id is not None:
                answer["id"] = request_id
            watcher.push(_encode(answer))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if live.watchers.get(ws) is watcher:
            del live.watchers[ws]
        watcher.stop()


def routes() -> list[BaseRoute]:
    return [
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game, methods=["GET"]),
        Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/record", game_record, methods=["GET"]),
        Route("/api/games/{game_id}/{command}", game_command, methods=["POST"]),
        WebSocketRoute("/ws/game/{game_id}", ws_game),
    ]


RESUME_AT_START = 20
"""Unfinished games (the most recently played) resumed when the server starts."""


async def startup(app: Starlette) -> None:
    """Resume the unfinished games: an engine to move starts thinking again."""
    store: Store | None = app.state.store
    if store is None:
        return
    saved = await asyncio.to_thread(store.games, 200)
    unfinished = [g["id"] for g in saved if g["result"] == "*"][:RESUME_AT_START]
    for game_id in unfinished:
        try:
            await resume(app, game_id)
        except Exception:  # a game the store holds but cannot be replayed: leave it saved
            log.exception("game %s cannot be resumed", game_id)


async def shutdown(app: Starlette) -> None:
    """Stop every live game's background work (engine threads)."""
    for live in list(_lives(app).values()):
        with contextlib.suppress(Exception):
            await asyncio.to_thread(live.close)
    _lives(app).clear()
