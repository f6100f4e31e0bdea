"""The local game: :class:`Game`, the round (:mod:`emergo.round`) behind a lock, its threads.

See :mod:`emergo.game` for the contract (threads, events, versions).
"""

from __future__ import annotations

import datetime
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import TracebackType

from emergo import round as _round
from emergo.board import BLACK, COLOR_NAMES, WHITE, Board, Color, Move, Outcome, Termination
from emergo.clock import TimeControl
from emergo.game.draws import computer_accepts
from emergo.game.errors import GameError, StaleVersionError
from emergo.game.feed import ComputerFailed, Event, Feed, Thinking
from emergo.game.players import Computer, Human, Player, computer_limit
from emergo.geometry import Names
from emergo.players import backend as make_backend
from emergo.record import Game as Record
from emergo.round import RoundState
from emergo.round.state import RULE_ENDINGS
from emergo.search import Limit, Searcher, SearchInfo, SearchResult

__all__ = ["HINT_TIME", "Game"]

HINT_TIME = 1.0
"""Seconds of a :meth:`Game.hint` search without a limit."""

_GAME_TAGS = ("TimeControl", "WhiteClock", "BlackClock")
"""Tags record() writes from the game's own state (seconds left: so a server can resume)."""


@dataclass
class _Thought:
    """A computer's search under way in its own thread."""

    generation: int
    color: Color
    stop: threading.Event
    thread: threading.Thread


class Game:
    """A game between two players, from ``board`` (default the start; its move stack is kept).

    ``time_control`` adds clocks; ``tags`` go into :meth:`record` (``Event``, ``Site``...);
    ``analyser`` is the full-strength searcher for :meth:`hint` and draw offers (default
    the built-in engine, made when first needed; never a player's own searcher, which may
    be searching at the same time); ``now`` is the time source of the clocks (monotonic
    seconds; tests pass a fake).

    The rules of play are :mod:`emergo.round`'s: the game holds a local
    :class:`~emergo.round.RoundState` (``local=True``: the clock runs from :meth:`start`, no
    first-move deadlines, no lag compensation) and every move, offer, takeback, resignation
    and time forfeit is a :func:`~emergo.round.apply`, whose events the subscribers get as they
    are, with the round's version.  What stays here is what a round has no business with: the
    players (a computer's thinking thread) and the clock's watcher thread.  A takeback is a
    proposal the game answers at once (``TakebackProposed``, then ``TakenBack``; a person
    takes back only while nobody else replied); a draw offer to a computer is answered by the
    analyser.
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
        self._players: dict[Color, Player] = {WHITE: white, BLACK: black}
        self._time_control = time_control
        self._now = now
        start = board if board is not None else Board()
        root = start.root()
        self._state = RoundState.new(
            root.variant,
            root.position(),
            time_control,
            now=now(),
            moves=[root.move_text(m) for m in start.move_stack],
            local=True,
        )
        # The game itself decides Result and Termination (record()).
        self._tags = {
            k: v for k, v in (tags or {}).items() if k not in ("Result", "Termination", *_GAME_TAGS)
        }
        self._date = self._tags.pop("Date", "") or datetime.date.today().strftime("%Y.%m.%d")
        self._offers = 0  # draw offers made so far: a computer's answer is for one of them
        self._started = False
        self._closed = False
        self._paused = False
        self._thought: _Thought | None = None
        self._generation = 0
        self._last_thread: threading.Thread | None = None
        self._watcher: threading.Thread | None = None
        self._feed = Feed(self._changed)
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
        board = record.end().board()
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
        state = game._state
        outcome = record.outcome()
        if outcome is not None:  # resignation, agreement, time, abort are in the tags only
            state = replace(state, outcome=outcome)
        if state.clock is not None:
            left = [state.clock.white, state.clock.black]
            for i, tag in enumerate(("WhiteClock", "BlackClock")):
                if tag in headers:
                    try:
                        left[i] = max(float(headers[tag]), 0.0)
                    except ValueError:
                        raise ValueError(f'bad {tag} "{headers[tag]}": seconds left') from None
                    if not math.isfinite(left[i]):
                        raise ValueError(f'bad {tag} "{headers[tag]}": seconds left')
            clock = state.clock.set_left(left[0], left[1])
            state = replace(state, clock=clock, clock_history=((left[0], left[1]),))
        game._state = state
        return game

    # --- state --------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of the board, with its move stack."""
        with self._lock:
            return self._state.board().copy()

    def position(self) -> str:
        """The current position (R22)."""
        with self._lock:
            return self._state.board().position()

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move from the root position."""
        with self._lock:
            return tuple(self._state.board().move_stack)

    @property
    def turn(self) -> Color:
        with self._lock:
            return self._state.turn

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (R18-R20), or ``None`` while it goes on."""
        with self._lock:
            return self._state.outcome

    def is_over(self) -> bool:
        with self._lock:
            return self._state.outcome is not None

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
        """The round's version: bumped by every change (moves, takebacks, offers, the end)."""
        with self._lock:
            return self._state.version

    @property
    def draw_offer(self) -> Color | None:
        """The side whose draw offer waits for an answer, if any."""
        with self._lock:
            return self._state.draw_offer

    @property
    def time_control(self) -> TimeControl | None:
        return self._time_control

    @property
    def state(self) -> RoundState:
        """The round as it stands (a value: :mod:`emergo.round`)."""
        with self._lock:
            return self._state

    def clock(self, color: Color) -> float | None:
        """Seconds left on ``color``'s clock (``None`` without a time control)."""
        with self._lock:
            clock = self._state.clock
            return None if clock is None else clock.remaining(color, self._now())

    def name(self, color: Color) -> str:
        """The player's name (a computer's says which engine and level)."""
        return self._players[color].name

    # --- events -------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` on every event from now on; returns the unsubscribe call."""
        return self._feed.subscribe(callback)

    def _emit(self, event: Event) -> None:
        """Queue an event (under the lock); :meth:`_flush` delivers it after the lock is left."""
        self._feed.emit(event)

    def _flush(self) -> None:
        """Deliver queued events, in order, outside the lock (:class:`~emergo.game.feed.Feed`)."""
        self._feed.flush()

    # --- the round ----------------------------------------------------------------------

    def _apply_locked(self, command: _round.Command) -> None:
        """Apply a round command now and pass on its events (under the lock).

        A refusal (:class:`~emergo.round.RoundError`) is a :class:`GameError`: nothing changed.
        """
        before = self._state
        try:
            state, news = _round.apply(before, command, self._now())
        except _round.RoundError as e:
            raise GameError(str(e)) from None
        if state is before:
            return
        self._state = state
        self._changed.notify_all()
        for event in news:
            if isinstance(event, _round.DrawOffered):
                self._offers += 1
            elif isinstance(event, _round.GameOver):
                self._cancel_thought_locked()
            self._emit(event)

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
        self._start_clock_locked()
        self._think_if_due_locked()

    def _start_clock_locked(self) -> None:
        """Run the side to move's clock, and the watcher that flags it (a started game's)."""
        clock = self._state.clock
        if clock is None or clock.running is not None or self._state.outcome is not None:
            return
        self._apply_locked(_round.StartClock())
        if self._watcher is None or not self._watcher.is_alive():
            self._watcher = threading.Thread(
                target=self._watch, name="emergo-game-clock", daemon=True
            )
            self._watcher.start()

    def play(
        self,
        move: Move | str,
        *,
        by: Color | None = None,
        names: Names = "oblique",
        version: int | None = None,
    ) -> Move:
        """Play a person's move (a Move or a text in any R21 notation) and return it.

        ``by`` is the side playing it (default: the side to move); ``version``, the
        :attr:`version` its sender saw (:class:`StaleVersionError` when the game has left it).
        Raises :class:`GameError` when the game is over, it is not ``by``'s turn or ``by`` is
        a computer, and the board's :class:`~emergo.errors.IllegalMoveError` (etc.) when the
        move is not legal; nothing changes then.  Starts the game if needed.
        """
        try:
            with self._lock:
                self._check_version_locked(version)
                color = self._state.turn if by is None else by
                self._check_live_locked(color, "move")
                if color != self._state.turn:
                    raise GameError(f"it is not {COLOR_NAMES[color]}'s turn")
                board = self._state.board()
                if isinstance(move, str):
                    move = board.parse_move(move, names)
                elif not board.is_legal(move):
                    board.copy().push(move)  # raises IllegalMoveError, saying why
                self._start_locked()
                plies = self._state.ply
                self._play_locked(move, color)
                outcome = self._state.outcome
                if outcome is not None and self._state.ply == plies:  # its time ran out first
                    raise GameError(f"the game is over: {outcome.reason()}")
        finally:
            self._flush()  # a time forfeit found on the way is news even when we refuse
        return move

    def _check_version_locked(self, version: int | None) -> None:
        """Refuse a request made at another version than the game's (:class:`StaleVersionError`):
        checked under the lock, so nothing the game does by itself (a computer's move, a flag
        falling) can come between the check and the change."""
        current = self._state.version
        if version is not None and version != current:
            raise StaleVersionError(
                f"the game changed: it is at version {current}, not {version}", current
            )

    def _check_live_locked(self, color: Color | None = None, what: str = "") -> None:
        """Refuse (GameError) when the game is closed or over -- the clock looked at first --
        or when ``color`` is a computer, which cannot do ``what`` through the interface."""
        if self._closed:
            raise GameError("the game is closed")
        self._check_time_locked()
        outcome = self._state.outcome
        if outcome is not None:
            raise GameError(f"the game is over: {outcome.reason()}")
        if color is not None and isinstance(self._players[color], Computer):
            raise GameError(f"{COLOR_NAMES[color]} is a computer: it cannot {what} here")

    def _play_locked(self, move: Move, color: Color) -> None:
        """Play a legal move for ``color`` (the side to move): the round, events, the end."""
        self._apply_locked(_round.Move(color, self._state.board().move_text(move)))
        self._think_if_due_locked()

    # --- computers ----------------------------------------------------------------------

    def _think_if_due_locked(self) -> None:
        if not self._started or self._closed or self._paused or self._state.outcome is not None:
            return
        if self._thought is not None:
            return
        color = self._state.turn
        player = self._players[color]
        if not isinstance(player, Computer):
            return
        self._generation += 1
        stop = threading.Event()
        thread = threading.Thread(
            target=self._think,
            args=(
                self._generation,
                player,
                color,
                self._state.board().copy(),
                computer_limit(player, self._state, self._now()),
            ),
            kwargs={"stop": stop, "previous": self._last_thread},
            name=f"emergo-game-{COLOR_NAMES[color].lower()}",
            daemon=True,
        )
        self._thought = _Thought(self._generation, color, stop, thread)
        self._last_thread = thread
        self._changed.notify_all()
        thread.start()

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
            elif move is not None and self._state.board().is_legal(move):
                self._play_locked(move, color)
            else:
                if not failure:
                    what = f"an illegal move {move}" if move is not None else "no move"
                    failure = f"{player.name} chose {what} in {self.position()!r}"
                self._paused = True  # an interface may resume (retry) or take over
                self._emit(ComputerFailed(color, failure, self._state.version))
                self._changed.notify_all()
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

        def idle() -> bool:
            return self._thought is None and self._feed.delivered()

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

    def takeback(self, *, by: Color, version: int | None = None) -> list[Move]:
        """Take back ``by``'s last move and every computer reply after it; returns them in order.

        A computer's search is stopped first.  Raises :class:`GameError` when ``by`` is a
        computer, has no move to take back, a person has replied since, or the players
        ended the game (an end by the rules, R18/R19, can be taken back).  The clocks go back
        to what they were at that ply (the time spent since is given back) when this game saw
        that ply; a ply before it was resumed (:meth:`from_record`) keeps the clocks running.
        ``version``: the :attr:`version` its sender saw (:class:`StaleVersionError` when the
        game has left it: a reply made meanwhile would be taken back unseen).
        """
        try:
            with self._lock:
                self._check_version_locked(version)
                state = self._state
                outcome = state.outcome
                if outcome is None or outcome.termination not in RULE_ENDINGS or self._closed:
                    self._check_live_locked(by, "take back")
                    state = self._state
                elif isinstance(self._players[by], Computer):
                    raise GameError(f"{COLOR_NAMES[by]} is a computer: it cannot take back here")
                plies = len(state.moves)
                mine = [i for i in range(plies) if state.mover(i) == by]
                if not mine:
                    raise GameError(f"{COLOR_NAMES[by]} has no move to take back")
                for i in range(mine[-1] + 1, plies):
                    if isinstance(self._players[state.mover(i)], Human):
                        other = COLOR_NAMES[state.mover(i)]
                        raise GameError(f"{other} has replied: {other}'s move goes back first")
                taken = list(state.board().move_stack[mine[-1] :])
                self._cancel_thought_locked()
                self._apply_locked(_round.ProposeTakeback(by))
                self._apply_locked(_round.AnswerTakeback(not by, accept=True))
                if outcome is not None and self._started:
                    self._start_clock_locked()  # the game goes on: so does its clock
                self._think_if_due_locked()
        finally:
            self._flush()
        return taken

    def offer_draw(self, *, by: Color, version: int | None = None) -> bool | None:
        """``by`` offers a draw (R19c): ``True``/``False`` a computer's answer, ``None`` pending.

        A computer answers at once from a short full-strength search (:func:`accepts_draw`);
        a person answers later with :meth:`answer_draw` (a move of theirs declines).  An offer
        while the other side's offer is pending accepts it.  ``version``: the :attr:`version`
        its sender saw (:class:`StaleVersionError` when the game has left it).
        """
        try:
            with self._lock:
                self._check_version_locked(version)
                self._check_live_locked(by, "offer a draw")
                self._apply_locked(_round.OfferDraw(by))
                if self._state.outcome is not None:
                    return True  # it met the other side's offer
                offer = self._offers
                board = self._state.board().copy()
        finally:
            self._flush()
        if isinstance(self._players[not by], Human):
            return None
        with self._analysis_lock:
            accepted = computer_accepts(self._analysis(), board, not by)
        with self._lock:
            if self._offers != offer or self._state.draw_offer != by:
                return False  # the computer moved meanwhile, which declined the offer
            self._apply_locked(_round.AnswerDraw(not by, accepted))
        self._flush()
        return accepted

    def answer_draw(self, *, by: Color, accept: bool, version: int | None = None) -> None:
        """A person answers the draw offered to them (``version`` as :meth:`offer_draw`)."""
        try:
            with self._lock:
                self._check_version_locked(version)
                self._check_live_locked(by, "answer a draw offer")
                self._apply_locked(_round.AnswerDraw(by, accept))
        finally:
            self._flush()

    def resign(self, *, by: Color, version: int | None = None) -> None:
        """``by`` resigns (R20); any side may, a computer's too (an operator's decision).
        ``version``: the :attr:`version` its sender saw (:class:`StaleVersionError` when the
        game has left it: nobody resigns a position he has not seen)."""
        try:
            with self._lock:
                self._check_version_locked(version)
                self._check_live_locked()
                self._apply_locked(_round.Resign(by))
        finally:
            self._flush()

    # --- clocks -------------------------------------------------------------------------

    def _check_time_locked(self) -> bool:
        """End the game if the side to move has run out of time (R20); did it end?"""
        before = self._state
        if before.outcome is not None or _round.due(before) is None:
            return False
        self._apply_locked(_round.Timeout())
        return self._state is not before and self._state.outcome is not None

    def check_time(self) -> Outcome | None:
        """Look at the clock now (a timer does so by itself); the outcome if time has run out."""
        with self._lock:
            self._check_time_locked()
            outcome = self._state.outcome
        self._flush()
        if outcome is None or outcome.termination is not Termination.TIME_FORFEIT:
            return None
        return outcome

    def _watch(self) -> None:
        """The clock's thread: wakes when the running clock would reach 0, even if nobody moves."""
        with self._changed:
            while not self._closed and self._state.outcome is None:
                if self._check_time_locked():
                    break
                when = _round.due(self._state)
                left = 0.25 if when is None else when - self._now()
                # A fake time source need not follow the real one: look again now and then.
                self._changed.wait(min(max(left, 0.005), 0.25))
        self._flush()

    # --- records ------------------------------------------------------------------------

    def record(self) -> Record:
        """The game as a record: date, players, time control, the moves, and how it ended;
        with a clock, each move this game saw carries the mover's time left (``[%clk]``)."""
        with self._lock:
            tags = dict(self._tags)
            tags.update(
                Date=self._date,
                White=self._players[WHITE].name,
                Black=self._players[BLACK].name,
            )
            clock = self._state.clock
            if self._time_control is not None and clock is not None:
                tags["TimeControl"] = self._time_control.tag()
                now = self._now()
                for color, tag in ((WHITE, "WhiteClock"), (BLACK, "BlackClock")):
                    left = clock.remaining(color, now)
                    tags[tag] = f"{left:.3f}".rstrip("0").rstrip(".")
            tags.setdefault("Event", "emergo game")
            outcome = self._state.outcome
            if outcome is not None and outcome.termination not in RULE_ENDINGS:
                tags["Result"] = outcome.result()
                tags["Termination"] = outcome.termination.value
            record = Record.from_board(self._state.board(), **tags)
            history = self._state.clock_history[1:]  # the clocks after each ply seen here
            first = len(self._state.moves) - len(history)
            white_first = record.board().turn == WHITE
            nodes = list(record.mainline())[first:]
            for ply, (node, clocks) in enumerate(zip(nodes, history, strict=True), first):
                white_moved = (ply % 2 == 0) == white_first
                node.clock = round(clocks[0 if white_moved else 1], 3)
            return record

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
            state = self._state
            end = state.outcome.result() if state.outcome else f"{state.ply} plies"
            return f"<Game {self.name(WHITE)} vs {self.name(BLACK)}, {end}>"
