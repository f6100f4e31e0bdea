"""Game flow: two players of any kind, a clock, takebacks, draw offers and the outcome (R18-R20).

A :class:`Game` is the one controller every interface drives -- the terminal game, the
browser app, the online server.  It holds the board and decides who may do what; the
interface only passes on what people do and shows the events it gets.

Players are a :class:`Human` (moves come from the interface) or a :class:`Computer` (a
:class:`~emergo.search.Searcher` with a :class:`~emergo.search.Limit`), which thinks in a
background thread and plays when its search ends.  The rules end the game (R18 no pieces,
R19a blocked, R19b repetition); the players end it by resignation or agreement (R19c,
R20); the clock ends it by time forfeit (R20).

>>> from emergo.board import WHITE, BLACK
>>> game = Game(Human("Ann"), Human("Bob"))
>>> str(game.play("d4", by=WHITE)), str(game.play("e6", by=BLACK))
('d4', 'e6')
>>> game.offer_draw(by=WHITE) is None        # pending: Bob answers when he likes
True
>>> game.answer_draw(by=BLACK, accept=True)
>>> game.outcome.reason(), game.version
('draw by agreement (R19c)', 4)
>>> game.record().headers["Result"]
'1/2-1/2'

Thread safety: every method may be called from any thread.  One lock guards the state, so a
read (``game.board``, ``game.moves``, ``game.clock(WHITE)``...) sees one consistent moment,
and a request that is refused (:class:`GameError`, or a parser error such as
:class:`~emergo.errors.IllegalMoveError`) changes nothing.

Events: ``game.subscribe(callback)`` registers ``callback(event)``.  Callbacks run in the
thread that made the change -- the caller's for ``play``/``takeback``/..., the engine's
thread for a computer's :class:`Thinking` reports and moves, the clock's thread for a time
forfeit -- or, when two threads change the game at once, in the one already delivering;
never while the game's lock is held (a callback may call the game), one at a time, in the
order of the changes.  So an interface with a thread of its own (an event loop) hands
events over to it (``loop.call_soon_threadsafe``).  Every change of state bumps
:attr:`Game.version` and the event that reports it carries the new version, so a client
that saw version ``v`` knows what it missed.
"""

from __future__ import annotations

import datetime
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import TypeAlias

from emergo.board import BLACK, COLOR_NAMES, WHITE, Board, Color, Move, Outcome, Termination
from emergo.clock import TimeControl
from emergo.geometry import Names
from emergo.levels import DEFAULT_MOVETIME, LEVEL_MAX, LevelSearcher, default_movetime
from emergo.players import backend as make_backend
from emergo.record import Game as Record
from emergo.search import Limit, Score, Searcher, SearchInfo, SearchResult

__all__ = [
    "DEFAULT_MOVETIME",
    "DRAW_ACCEPT_BELOW",
    "ClockTick",
    "Computer",
    "ComputerFailed",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "Human",
    "MovePlayed",
    "Player",
    "TakenBack",
    "Thinking",
    "TimeControl",
    "accepts_draw",
    "events",
]

log = logging.getLogger(__name__)

HINT_TIME = 1.0
"""Seconds of a :meth:`Game.hint` search without a limit."""
DRAW_THINK_TIME = 0.25
"""Seconds a computer thinks about a draw offer."""
DRAW_ACCEPT_BELOW = -50
"""A computer accepts a draw when its score is below this many centi-men (half a man down)."""
DEAD_DRAW_WINDOW = 10
"""In the movement phase a score within this many centi-men of 0 is a dead draw."""


class GameError(ValueError):
    """A request the game refuses now: not that side's turn, a computer's side, the game over."""


# --- players -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Human:
    """A person: the interface passes on the moves and the answers.

    >>> Human("Ann").name
    'Ann'
    """

    name: str = "Human"


class Computer:
    """A computer player: a :class:`~emergo.search.Searcher` and the limit of its searches.

    ``limit`` ``None`` lets the game decide: the clock when it has one, else
    :func:`~emergo.levels.default_movetime` seconds a move (1, 4 on the hexagon).  A limit of
    its own is kept under a clock too (the tighter bound wins, :func:`emergo.search.time_budget`).
    ``on_close`` releases what the player holds (an engine process); :meth:`close` calls it once.

    >>> Computer.engine(level=3).name
    'emergo engine, level 3'
    >>> Computer.engine(movetime=0.5).limit.time
    0.5
    """

    def __init__(
        self,
        searcher: Searcher,
        limit: Limit | None = None,
        *,
        name: str | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if limit is not None and limit.infinite:
            raise ValueError("a computer player needs a finite limit, not infinite")
        self.searcher = searcher
        self.limit = limit
        self.name: str = name or str(getattr(searcher, "name", "")) or type(searcher).__name__
        self._on_close = on_close

    @classmethod
    def engine(
        cls,
        level: int | None = None,
        *,
        movetime: float | None = None,
        seed: int = 0,
        backend: str = "auto",
        hash_mb: int = 16,
        name: str | None = None,
    ) -> Computer:
        """The built-in engine at ``level`` (1 weakest; default full strength), ``movetime`` a move.

        Without ``movetime`` the game decides the time (see :class:`Computer`).
        """
        if level is None:
            level = LEVEL_MAX
        if movetime is not None and not (math.isfinite(movetime) and movetime > 0):
            raise ValueError(f"movetime must be more than 0 seconds, not {movetime!r}")
        searcher = LevelSearcher(make_backend(backend, hash_mb=hash_mb), level, seed=seed)
        limit = Limit(time=movetime) if movetime is not None else None
        return cls(searcher, limit, name=name or f"emergo engine, level {searcher.level}")

    @classmethod
    def protocol(
        cls,
        command: str | list[str],
        *,
        limit: Limit | None = None,
        options: Mapping[str, object] | None = None,
        name: str | None = None,
        timeout: float | None = 10.0,
    ) -> Computer:
        """An external engine speaking the emergo protocol, started from ``command``.

        ``options`` are set after the handshake (e.g. ``{"Level": 5}``); :meth:`close` (or
        :meth:`Game.close`) ends the process.
        """
        from emergo.engine import ProtocolSearcher

        searcher = ProtocolSearcher.popen(command, timeout=timeout, options=options)
        return cls(searcher, limit, name=name or searcher.name, on_close=searcher.close)

    def close(self) -> None:
        """Release the player's resources (an engine process); idempotent."""
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()

    def __repr__(self) -> str:
        return f"Computer({self.name!r}, {self.limit!r})"


Player: TypeAlias = Human | Computer


# --- clocks --------------------------------------------------------------------------------


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovePlayed:
    """A move was played: ``text`` is canonical (R21); ``ply`` counts from the root, from 1.

    ``clocks`` are the seconds left (white, black) just after it (increment included), under a
    time control; an interface that stores the move stores them with it (to resume the clocks).
    """

    move: Move
    text: str
    ply: int
    color: Color
    version: int
    clocks: tuple[float, float] | None = None


@dataclass(frozen=True)
class TakenBack:
    """Moves were taken back, in the order they had been played.

    ``clocks`` are the seconds left (white, black) after it, under a time control.
    """

    moves: tuple[Move, ...]
    version: int
    clocks: tuple[float, float] | None = None


@dataclass(frozen=True)
class Thinking:
    """A computer's progress report (no version: it changes nothing)."""

    color: Color
    info: SearchInfo


@dataclass(frozen=True)
class DrawOffered:
    """``color`` offers a draw (R19c)."""

    color: Color
    version: int = 0


@dataclass(frozen=True)
class DrawDeclined:
    """``color`` declined the draw offered to it (a move of its own declines it too)."""

    color: Color
    version: int = 0


@dataclass(frozen=True)
class GameOver:
    """The game ended; ``outcome.reason()`` says why."""

    outcome: Outcome
    version: int


@dataclass(frozen=True)
class ClockTick:
    """Seconds left on the clocks, after every move (and at the start) under a time control."""

    white: float
    black: float


@dataclass(frozen=True)
class ComputerFailed:
    """A computer's search failed (its engine died...); the game is paused (:meth:`Game.resume`)."""

    color: Color
    message: str
    version: int


Event: TypeAlias = (
    MovePlayed
    | TakenBack
    | Thinking
    | DrawOffered
    | DrawDeclined
    | GameOver
    | ClockTick
    | ComputerFailed
)


class events:
    """The event types as one namespace: ``isinstance(event, events.MovePlayed)``."""

    MovePlayed: TypeAlias = MovePlayed
    TakenBack: TypeAlias = TakenBack
    Thinking: TypeAlias = Thinking
    DrawOffered: TypeAlias = DrawOffered
    DrawDeclined: TypeAlias = DrawDeclined
    GameOver: TypeAlias = GameOver
    ClockTick: TypeAlias = ClockTick
    ComputerFailed: TypeAlias = ComputerFailed


# --- draws ---------------------------------------------------------------------------------


def accepts_draw(score: Score, board: Board) -> bool:
    """Does a computer whose search scores ``score`` (its own view) accept a draw here?

    The rule: it accepts a proven draw, and it accepts when it stands clearly worse
    (below :data:`DRAW_ACCEPT_BELOW` centi-men, half a man, or a proven loss); in the
    movement phase (no men in hand, R17) it also accepts a dead level score (within
    :data:`DEAD_DRAW_WINDOW`).  Otherwise it plays on -- in the opening, where scores
    sit near 0, it always declines.

    >>> from emergo.board import Board
    >>> accepts_draw(Score.cp(0), Board()), accepts_draw(Score.cp(-120), Board())
    (False, True)
    >>> accepts_draw(Score.cp(5), Board("b 0/0 a5:w i5:b"))
    True
    """
    if score.kind == "draw" or score < Score.cp(DRAW_ACCEPT_BELOW):
        return True
    late = board.hand(WHITE) == 0 and board.hand(BLACK) == 0
    return late and score.kind == "cp" and abs(score.value) <= DEAD_DRAW_WINDOW


# --- the game ------------------------------------------------------------------------------

_RULE_ENDINGS = (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)
_GAME_TAGS = ("TimeControl", "WhiteClock", "BlackClock")
"""Tags record() writes from the game's own state (seconds left: so a server can resume)."""


@dataclass
class _Thought:
    """A computer's search under way in its own thread."""

    generation: int
    color: Color
    stop: threading.Event
    thread: threading.Thread


@dataclass
class _Offer:
    """A draw offer waiting for its answer (compared by identity: each offer is new)."""

    color: Color


@dataclass
class _Clocks:
    """Seconds left per colour, and when the running clock (the side to move's) last started."""

    left: dict[Color, float] = field(default_factory=dict)
    since: float | None = None


class Game:
    """A game between two players, from ``board`` (default the start; its move stack is kept).

    ``time_control`` adds clocks; ``tags`` go into :meth:`record` (``Event``, ``Site``...);
    ``analyser`` is the full-strength searcher for :meth:`hint` and draw offers (default
    the built-in engine, made when first needed; never a player's own searcher, which may
    be searching at the same time); ``now`` is the time source of the clocks (monotonic
    seconds; tests pass a fake).
    """

    def __init__(
        self,
        white: Player,
        black: Player,
        *,
        board: Board | None = None,
        time_control: TimeControl | None = None,
        tags: Mapping[str, str] | None = None,
        analyser: Searcher | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        for player in (white, black):
            if not isinstance(player, Human | Computer):
                raise TypeError(f"a player is a Human or a Computer, not {player!r}")
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._board = board.copy() if board is not None else Board()
        self._root_turn = self._board.root().turn
        self._players: dict[Color, Player] = {WHITE: white, BLACK: black}
        self._time_control = time_control
        self._now = now
        # The game itself decides Result and Termination (record()).
        self._tags = {
            k: v for k, v in (tags or {}).items() if k not in ("Result", "Termination", *_GAME_TAGS)
        }
        self._date = self._tags.pop("Date", "") or datetime.date.today().strftime("%Y.%m.%d")
        self._outcome: Outcome | None = self._board.outcome()
        self._version = 0
        self._started = False
        self._closed = False
        self._paused = False
        self._offer: _Offer | None = None
        self._thought: _Thought | None = None
        self._generation = 0
        self._last_thread: threading.Thread | None = None
        self._clocks = _Clocks()
        if time_control is not None:
            self._clocks.left = {WHITE: time_control.base, BLACK: time_control.base}
        # The clocks as they were at each ply (after its move): a takeback restores them.
        self._clock_marks: dict[int, dict[Color, float]] = {}
        self._mark_clocks_locked()
        self._watcher: threading.Thread | None = None
        self._subscribers: list[Callable[[Event], None]] = []
        self._outbox: list[Event] = []
        self._dispatcher: threading.Thread | None = None  # the thread delivering events
        self._analyser = analyser
        self._analysis_lock = threading.Lock()

    # --- resuming -----------------------------------------------------------------------

    @classmethod
    def from_record(
        cls,
        record: Record,
        *,
        white: Player | None = None,
        black: Player | None = None,
        time_control: TimeControl | None = None,
        analyser: Searcher | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> Game:
        """Resume a recorded game (its moves, tags and any ending).

        Players default to Humans named by the record, the time control to its
        ``TimeControl`` tag, the clocks to its ``WhiteClock``/``BlackClock`` tags (seconds
        left when it was recorded; else full).

        >>> game = Game(Human("Ann"), Human("Bob"))
        >>> _ = game.play("d4"), game.play("e6")
        >>> again = Game.from_record(game.record())
        >>> [str(m) for m in again.moves], again.players[WHITE].name
        (['d4', 'e6'], 'Ann')
        """
        headers = record.headers
        board = record.end()
        if time_control is None and headers.get("TimeControl"):
            time_control = TimeControl.parse(headers["TimeControl"])
        skip = {"White", "Black", "Result", "Termination", "Variant", "Position", *_GAME_TAGS}
        tags = {k: v for k, v in headers.items() if k not in skip}
        game = cls(
            white or Human(headers.get("White", "White")),
            black or Human(headers.get("Black", "Black")),
            board=board,
            time_control=time_control,
            tags=tags,
            analyser=analyser,
            now=now,
        )
        outcome = record.outcome()
        if outcome is not None:
            game._outcome = outcome  # resignation, agreement or time are in the tags only
        if time_control is not None:
            for color, tag in ((WHITE, "WhiteClock"), (BLACK, "BlackClock")):
                if tag in headers:
                    try:
                        left = float(headers[tag])
                    except ValueError:
                        raise ValueError(f'bad {tag} "{headers[tag]}": seconds left') from None
                    game._clocks.left[color] = max(left, 0.0)
            game._mark_clocks_locked()
        return game

    # --- state --------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the board, with its move stack."""
        with self._lock:
            return self._board.copy()

    def position(self) -> str:
        """The current position (R22)."""
        with self._lock:
            return self._board.position()

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move from the root position."""
        with self._lock:
            return tuple(self._board.move_stack)

    @property
    def turn(self) -> Color:
        with self._lock:
            return self._board.turn

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (R18-R20), or ``None`` while it goes on."""
        with self._lock:
            return self._outcome

    def is_over(self) -> bool:
        with self._lock:
            return self._outcome is not None

    @property
    def players(self) -> dict[Color, Player]:
        return dict(self._players)

    @property
    def thinking(self) -> bool:
        """Is a computer searching for its move now?"""
        with self._lock:
            return self._thought is not None

    @property
    def started(self) -> bool:
        """Has the game started (:meth:`start` or a first move): do the clocks run?"""
        with self._lock:
            return self._started

    @property
    def paused(self) -> bool:
        with self._lock:
            return self._paused

    @property
    def version(self) -> int:
        """Bumped by every change of state (moves, takebacks, offers, answers, the end)."""
        with self._lock:
            return self._version

    @property
    def draw_offer(self) -> Color | None:
        """The side whose draw offer waits for an answer, if any."""
        with self._lock:
            return self._offer.color if self._offer is not None else None

    @property
    def time_control(self) -> TimeControl | None:
        return self._time_control

    def clock(self, color: Color) -> float | None:
        """Seconds left on ``color``'s clock (``None`` without a time control)."""
        with self._lock:
            if self._time_control is None:
                return None
            return max(self._left_locked(color), 0.0)

    def name(self, color: Color) -> str:
        """The player's name (a computer's says which engine and level)."""
        return self._players[color].name

    # --- events -------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` on every event from now on; returns the unsubscribe call."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def _emit(self, event: Event) -> None:
        """Queue an event (under the lock); :meth:`_flush` delivers it after the lock is left."""
        self._outbox.append(event)

    def _flush(self) -> None:
        """Deliver queued events, in order, outside the lock; one thread delivers at a time.

        A thread that finds another delivering leaves its events to it: so a callback that
        calls the game does not deliver newer events before older ones still in its batch.
        """
        with self._lock:
            if self._dispatcher is not None:
                return
            self._dispatcher = threading.current_thread()
        try:
            while True:
                with self._lock:
                    if not self._outbox:
                        self._dispatcher = None
                        self._changed.notify_all()  # wait() also waits for the news
                        return
                    batch, self._outbox = self._outbox, []
                    callbacks = list(self._subscribers)
                for event in batch:
                    for callback in callbacks:
                        try:
                            callback(event)
                        except Exception:  # an interface's bug must not stop the game
                            log.exception("game event callback failed on %r", event)
        except BaseException:
            with self._lock:
                self._dispatcher = None
                self._changed.notify_all()
            raise

    def _bump(self) -> int:
        self._version += 1
        self._changed.notify_all()
        return self._version

    # --- running ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the clocks, and a computer to move starts thinking (idempotent)."""
        with self._lock:
            self._start_locked()
        self._flush()

    def _start_locked(self) -> None:
        if self._started or self._closed:
            return
        self._started = True
        if self._time_control is not None and self._outcome is None:
            self._clocks.since = self._now()
            self._emit(ClockTick(self._clocks.left[WHITE], self._clocks.left[BLACK]))
            self._watcher = threading.Thread(
                target=self._watch, name="emergo-game-clock", daemon=True
            )
            self._watcher.start()
        self._think_if_due_locked()

    def play(self, move: Move | str, *, by: Color | None = None, names: Names = "oblique") -> Move:
        """Play a person's move (a Move or a text in any R21 notation) and return it.

        ``by`` is the side playing it (default: the side to move).  Raises
        :class:`GameError` when the game is over, it is not ``by``'s turn or ``by`` is a
        computer, and the board's :class:`~emergo.errors.IllegalMoveError` (etc.) when the
        move is not legal; nothing changes then.  Starts the game if needed.
        """
        try:
            with self._lock:
                color = self._board.turn if by is None else by
                self._check_live_locked(color, "move")
                if color != self._board.turn:
                    raise GameError(f"it is not {COLOR_NAMES[color]}'s turn")
                if isinstance(move, str):
                    move = self._board.parse_move(move, names)
                elif not self._board.is_legal(move):
                    self._board.push(move)  # raises IllegalMoveError, saying why
                self._start_locked()
                self._play_locked(move, color)
        finally:
            self._flush()  # a time forfeit found on the way is news even when we refuse
        return move

    def _check_live_locked(self, color: Color | None = None, what: str = "") -> None:
        """Refuse (GameError) when the game is closed or over -- the clock looked at first --
        or when ``color`` is a computer, which cannot do ``what`` through the interface."""
        if self._closed:
            raise GameError("the game is closed")
        self._check_time_locked()
        if self._outcome is not None:
            raise GameError(f"the game is over: {self._outcome.reason()}")
        if color is not None and isinstance(self._players[color], Computer):
            raise GameError(f"{COLOR_NAMES[color]} is a computer: it cannot {what} here")

    def _play_locked(self, move: Move, color: Color) -> None:
        """Play a legal move for ``color`` (the side to move): clocks, events, the end."""
        board = self._board
        text = board.move_text(move)
        self._charge_clock_locked(color)
        board.push(move)
        if self._time_control is not None:
            if self._time_control.kind == "fischer":
                self._clocks.left[color] += self._time_control.increment
            else:
                self._clocks.left = dict.fromkeys((WHITE, BLACK), self._time_control.base)
        clocks = self._mark_clocks_locked()
        self._emit(MovePlayed(move, text, len(board.move_stack), color, self._bump(), clocks))
        if self._offer is not None and self._offer.color != color:
            self._offer = None  # a move by the side offered a draw declines it
            self._emit(DrawDeclined(color, self._bump()))
        if self._time_control is not None:
            self._emit(ClockTick(self._clocks.left[WHITE], self._clocks.left[BLACK]))
        outcome = board.outcome()
        if outcome is not None:
            self._finish_locked(outcome)
        else:
            self._think_if_due_locked()

    def _finish_locked(self, outcome: Outcome) -> None:
        self._charge_clock_locked(self._board.turn)
        self._clocks.since = None
        self._outcome = outcome
        self._offer = None
        self._cancel_thought_locked()
        self._emit(GameOver(outcome, self._bump()))

    # --- computers ----------------------------------------------------------------------

    def _think_if_due_locked(self) -> None:
        if not self._started or self._closed or self._paused or self._outcome is not None:
            return
        if self._thought is not None:
            return
        color = self._board.turn
        player = self._players[color]
        if not isinstance(player, Computer):
            return
        self._generation += 1
        stop = threading.Event()
        thread = threading.Thread(
            target=self._think,
            args=(self._generation, player, color, self._board.copy(), self._limit_locked(player)),
            kwargs={"stop": stop, "previous": self._last_thread},
            name=f"emergo-game-{COLOR_NAMES[color].lower()}",
            daemon=True,
        )
        self._thought = _Thought(self._generation, color, stop, thread)
        self._last_thread = thread
        self._changed.notify_all()
        thread.start()

    def _limit_locked(self, player: Computer) -> Limit:
        """The computer's limit, with the clock's time when the game has one."""
        tc = self._time_control
        if tc is None:
            return player.limit or Limit(time=default_movetime(self._board.variant))
        own = player.limit or Limit()
        if tc.kind == "fischer":
            return replace(
                own,
                wtime=max(self._left_locked(WHITE), 0.0),
                btime=max(self._left_locked(BLACK), 0.0),
                winc=tc.increment,
                binc=tc.increment,
            )
        left = max(self._left_locked(self._board.turn), 0.0)
        budget = max(left - min(0.25, 0.1 * left), 0.0)  # thread start and move round trip
        return replace(own, time=budget if own.time is None else min(own.time, budget))

    def _think(
        self,
        generation: int,
        player: Computer,
        color: Color,
        board: Board,
        limit: Limit,
        *,
        stop: threading.Event,
        previous: threading.Thread | None,
    ) -> None:
        """The engine thread: search, then play the move (unless the thought was cancelled)."""
        if previous is not None:
            previous.join()  # a cancelled thought may still run on the same searcher

        def report(info: SearchInfo) -> None:
            with self._lock:
                thought = self._thought
                if thought is None or thought.generation != generation:
                    stop.set()
                    return
                self._emit(Thinking(color, info))
            self._flush()

        with self._lock:
            thought = self._thought
            if thought is None or thought.generation != generation:
                return  # cancelled before it began
        result: SearchResult | None = None
        failure = ""
        try:
            # Even when stopped already, the searcher returns a legal move (Searcher's contract).
            result = player.searcher.search(board, limit, on_info=report, stop=stop)
        except Exception as e:  # a dying engine process, a broken searcher
            failure = f"{player.name} failed: {type(e).__name__}: {e}"
        with self._lock:
            thought = self._thought
            if thought is None or thought.generation != generation:
                return  # cancelled: a takeback, a resignation, the end, close()
            self._thought = None
            self._changed.notify_all()
            move = result.move if result is not None else None
            if self._check_time_locked():
                pass  # it thought too long (R20): the game is over, whatever it found
            elif move is not None and self._board.is_legal(move):
                self._play_locked(move, color)
            else:
                if not failure:
                    what = f"an illegal move {move}" if move is not None else "no move"
                    failure = f"{player.name} chose {what} in {self._board.position()!r}"
                self._paused = True  # an interface may resume (retry) or take over
                self._emit(ComputerFailed(color, failure, self._bump()))
        self._flush()

    def _cancel_thought_locked(self) -> None:
        """Stop a computer's search and forget it: its result will not be played."""
        thought = self._thought
        if thought is not None:
            thought.stop.set()
            self._thought = None
            self._changed.notify_all()

    def stop_thinking(self) -> None:
        """Stop a computer's search now; it plays its best move so far (then returns).

        Use :meth:`pause` to stop it without a move.
        """
        with self._lock:
            thought = self._thought
            if thought is None:
                return
            thought.stop.set()
        if thought.thread is not threading.current_thread():
            thought.thread.join()

    def pause(self) -> None:
        """Stop a computer's search without a move, and start none until :meth:`resume`."""
        with self._lock:
            self._paused = True
            self._cancel_thought_locked()
            self._changed.notify_all()

    def resume(self) -> None:
        """Let computers think again after :meth:`pause` (or a :class:`ComputerFailed`)."""
        with self._lock:
            self._paused = False
            self._think_if_due_locked()
        self._flush()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no computer is thinking (a person to move, the game over, or paused)
        and the events so far are delivered; ``False`` when ``timeout`` seconds passed first.

        (Called from an event callback, it does not wait for the delivery it is part of.)
        """
        me = threading.current_thread()

        def idle() -> bool:
            delivered = not self._outbox and self._dispatcher is None
            return self._thought is None and (delivered or self._dispatcher is me)

        with self._changed:
            return self._changed.wait_for(idle, timeout)

    def hint(self, limit: Limit | None = None) -> SearchResult:
        """A full-strength search of the current position (blocking; not while the lock is held)."""
        board = self.board
        with self._analysis_lock:
            return self._analysis().search(board, limit or Limit(time=HINT_TIME))

    def _analysis(self) -> Searcher:
        if self._analyser is None:
            self._analyser = make_backend("auto")
        return self._analyser

    # --- takebacks, draws, resignation --------------------------------------------------

    def _mover(self, ply: int) -> Color:
        """The side that played the ``ply``-th move (0-based) from the root."""
        return self._root_turn if ply % 2 == 0 else not self._root_turn

    def takeback(self, *, by: Color) -> list[Move]:
        """Take back ``by``'s last move and every computer reply after it; returns them in order.

        A computer's search is stopped first.  Raises :class:`GameError` when ``by`` is a
        computer, has no move to take back, a person has replied since, or the players
        ended the game (an end by the rules, R18/R19, can be taken back).  The clocks go back
        to what they were at that ply (the time spent since is given back) when this game saw
        that ply; a ply before it was resumed (:meth:`from_record`) keeps the clocks running.
        """
        try:
            with self._lock:
                outcome = self._outcome
                if outcome is None or outcome.termination not in _RULE_ENDINGS or self._closed:
                    self._check_live_locked(by, "take back")
                elif isinstance(self._players[by], Computer):
                    raise GameError(f"{COLOR_NAMES[by]} is a computer: it cannot take back here")
                stack = self._board.move_stack
                mine = [i for i in range(len(stack)) if self._mover(i) == by]
                if not mine:
                    raise GameError(f"{COLOR_NAMES[by]} has no move to take back")
                first = mine[-1]
                for i in range(first + 1, len(stack)):
                    if isinstance(self._players[self._mover(i)], Human):
                        other = COLOR_NAMES[self._mover(i)]
                        raise GameError(f"{other} has replied: {other}'s move goes back first")
                self._cancel_thought_locked()
                if outcome is None:
                    self._charge_clock_locked(self._board.turn)
                taken = [self._board.pop() for _ in range(len(stack) - first)]
                taken.reverse()
                clocks = None
                if self._time_control is not None:
                    if self._time_control.kind == "per-move":
                        self._clocks.left = dict.fromkeys((WHITE, BLACK), self._time_control.base)
                    elif first in self._clock_marks:  # the clocks as they were at that ply
                        self._clocks.left = dict(self._clock_marks[first])
                    for ply in [p for p in self._clock_marks if p > first]:
                        del self._clock_marks[ply]
                    clocks = self._mark_clocks_locked()
                    if self._started:
                        self._clocks.since = self._now()
                self._outcome = None
                self._offer = None
                self._emit(TakenBack(tuple(taken), self._bump(), clocks))
                if outcome is not None and self._started and self._time_control is not None:
                    self._restart_watcher_locked()
                self._think_if_due_locked()
        finally:
            self._flush()
        return taken

    def offer_draw(self, *, by: Color) -> bool | None:
        """``by`` offers a draw (R19c): ``True``/``False`` a computer's answer, ``None`` pending.

        A computer answers at once from a short full-strength search (:func:`accepts_draw`);
        a person answers later with :meth:`answer_draw` (a move of theirs declines).  An offer
        while the other side's offer is pending accepts it.
        """
        try:
            with self._lock:
                self._check_live_locked(by, "offer a draw")
                if self._offer is not None:
                    if self._offer.color == by:
                        raise GameError(f"{COLOR_NAMES[by]} has already offered a draw")
                    self._finish_locked(Outcome(Termination.AGREEMENT, None))
                    return True
                offer = self._offer = _Offer(by)
                self._emit(DrawOffered(by, self._bump()))
                board = self._board.copy()
        finally:
            self._flush()
        if isinstance(self._players[not by], Human):
            return None
        accepted = self._computer_accepts(board, not by)
        with self._lock:
            if self._offer is not offer or self._outcome is not None:
                return False  # the computer moved meanwhile, which declined the offer
            self._answer_locked(not by, accepted)
        self._flush()
        return accepted

    def _computer_accepts(self, board: Board, color: Color) -> bool:
        with self._analysis_lock:
            result = self._analysis().search(board, Limit(time=DRAW_THINK_TIME))
        if result.infos:
            score = result.infos[0].score
        else:  # an analyser that reports no score: the men each side controls (R5, R9)

            def men(c: Color) -> int:
                return board.hand(c) + sum(s.size for s in board.stacks().values() if s.owner == c)

            score = Score.cp(100 * (men(board.turn) - men(not board.turn)))
        return accepts_draw(score if board.turn == color else -score, board)

    def answer_draw(self, *, by: Color, accept: bool) -> None:
        """A person answers the draw offered to them."""
        try:
            with self._lock:
                self._check_live_locked(by, "answer a draw offer")
                if self._offer is None or self._offer.color == by:
                    raise GameError(f"no draw offer to {COLOR_NAMES[by]} waits for an answer")
                self._answer_locked(by, accept)
        finally:
            self._flush()

    def _answer_locked(self, by: Color, accept: bool) -> None:
        if accept:
            self._finish_locked(Outcome(Termination.AGREEMENT, None))
        else:
            self._offer = None
            self._emit(DrawDeclined(by, self._bump()))

    def resign(self, *, by: Color) -> None:
        """``by`` resigns (R20); any side may, a computer's too (an operator's decision)."""
        try:
            with self._lock:
                self._check_live_locked()
                self._finish_locked(Outcome(Termination.RESIGNATION, not by))
        finally:
            self._flush()

    # --- clocks -------------------------------------------------------------------------

    def _mark_clocks_locked(self) -> tuple[float, float] | None:
        """Remember the clocks (not running) at the current ply; they are (white, black)."""
        if self._time_control is None:
            return None
        self._clock_marks[len(self._board.move_stack)] = dict(self._clocks.left)
        return self._clocks.left[WHITE], self._clocks.left[BLACK]

    def _left_locked(self, color: Color) -> float:
        left = self._clocks.left[color]
        since = self._clocks.since
        if since is not None and color == self._board.turn:
            left -= self._now() - since
        return left

    def _charge_clock_locked(self, color: Color) -> None:
        """Take the time of the running turn off ``color``'s clock and restart the turn."""
        if self._time_control is None or self._clocks.since is None:
            return
        now = self._now()
        self._clocks.left[color] -= now - self._clocks.since
        self._clocks.since = now

    def _check_time_locked(self) -> bool:
        """End the game if the side to move has run out of time (R20); did it end?"""
        if self._time_control is None or self._clocks.since is None or self._outcome is not None:
            return False
        color = self._board.turn
        if self._left_locked(color) > 0:
            return False
        self._finish_locked(Outcome(Termination.TIME_FORFEIT, not color))
        self._clocks.left[color] = 0.0
        return True

    def check_time(self) -> Outcome | None:
        """Look at the clock now (a timer does so by itself); the outcome if time has run out."""
        with self._lock:
            self._check_time_locked()
            outcome = self._outcome
        self._flush()
        if outcome is None or outcome.termination is not Termination.TIME_FORFEIT:
            return None
        return outcome

    def _restart_watcher_locked(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(
                target=self._watch, name="emergo-game-clock", daemon=True
            )
            self._watcher.start()

    def _watch(self) -> None:
        """The clock's thread: wakes when the running clock would reach 0, even if nobody moves."""
        with self._changed:
            while not self._closed and self._outcome is None:
                if self._check_time_locked():
                    break
                left = self._left_locked(self._board.turn)
                # A fake time source need not follow the real one: look again now and then.
                self._changed.wait(min(max(left, 0.005), 0.25))
        self._flush()

    # --- records ------------------------------------------------------------------------

    def record(self) -> Record:
        """The game as a record: date, players, time control, the moves, and how it ended."""
        with self._lock:
            tags = dict(self._tags)
            tags.update(
                Date=self._date,
                White=self._players[WHITE].name,
                Black=self._players[BLACK].name,
            )
            if self._time_control is not None:
                tags["TimeControl"] = self._time_control.tag()
                for color, tag in ((WHITE, "WhiteClock"), (BLACK, "BlackClock")):
                    tags[tag] = f"{max(self._left_locked(color), 0.0):.3f}".rstrip("0").rstrip(".")
            tags.setdefault("Event", "emergo game")
            outcome = self._outcome
            if outcome is not None and outcome.termination not in _RULE_ENDINGS:
                tags["Result"] = outcome.result()
                tags["Termination"] = outcome.termination.value
            return Record.from_board(self._board, **tags)

    # --- the end ------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the background work and close the computers (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._cancel_thought_locked()
            self._changed.notify_all()
            threads = [t for t in (self._last_thread, self._watcher) if t is not None]
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5.0)
        for player in self._players.values():
            if isinstance(player, Computer):
                player.close()

    def __enter__(self) -> Game:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        with self._lock:
            plies = len(self._board.move_stack)
            state = self._outcome.result() if self._outcome else f"{plies} plies"
            return f"<Game {self.name(WHITE)} vs {self.name(BLACK)}, {state}>"
