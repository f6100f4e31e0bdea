"""The round: how one game is played, as a pure function (issue 19; lila's round module).

``apply(state, command, now) -> (state, events)`` is the whole of it.  A :class:`RoundState` is
a value (a database row, a message); a command is what a player (or the timer) does; ``now``
is the wall time in seconds, passed in, never read here.  Nothing here starts a thread or
touches a store: the online server reads a state, applies one command and writes the result
in one transaction; the local :class:`emergo.game.Game` is the same round behind a lock.

>>> from emergo.board import WHITE, BLACK
>>> state = RoundState.new(time_control=TimeControl.fischer(300, 2), now=0.0)
>>> state, events = apply(state, Move(WHITE, "d4"), now=3.0)
>>> state, events = apply(state, Move(BLACK, "E6"), now=5.0)   # any text the parser takes
>>> state.moves, state.version, state.clock.running == WHITE     # both moved: White's runs
(('d4', 'e6'), 2, True)
>>> [e.to_json()["t"] for e in apply(state, Resign(BLACK), now=9.0)[1]]
['gameOver']
>>> apply(state, Move(BLACK, "d5"), now=9.0)
Traceback (most recent call last):
    ...
emergo.round.RoundError: it is not Black's turn

The contract (docs/architecture.md, "The round"):

* A refused command raises :class:`RoundError` (a ``ValueError`` saying why: "it is not
  Black's turn", "the game is over: ...", the board's ``IllegalMoveError`` text) and nothing
  changed.  A command that changes nothing (a ``Timeout`` before anything is due) returns the
  same state and no events.  Every change bumps :attr:`RoundState.version` by exactly 1, and
  all events of that change carry the new version.
* Time is settled first.  A move by the side to move is charged on its clock first (its
  ``lag`` compensated up to the quota, :mod:`emergo.clock`): a move that comes after its flag
  fell ends the game on time instead, and a first move after its deadline aborts it.  Any
  other command first does what :class:`Timeout` would do at ``now``; when that ends the game,
  that is the result and the command is not applied.
* :func:`due` is the next wall time at which ``Timeout()`` changes the state; the online server
  stores it as the game's timer.

The rules chosen (lichess's facts, our code):

* **When the clock starts.**  Online (``local=False``) the clock starts when both sides have
  made their first move; until then each first move has a deadline, counted from the game's
  creation (or the previous move, or a takeback), of :data:`FIRST_MOVE_SECONDS` by the
  control's category: 15 s ultrabullet, 20 s bullet, 25 s blitz, 30 s rapid, 35 s classical,
  and the whole days of a correspondence move.  A missed deadline aborts the game
  (``Termination.ABORTED``, no result).  Unlimited games have no deadlines.  A local game
  (``local=True``, :class:`emergo.game.Game`) starts its clock with :class:`StartClock` (or
  its first move), has no deadlines, and no lag compensation.
* **Flags.**  A timer flags the running side :meth:`~emergo.clock.Clock.flag_grace` seconds
  (its lag quota, at most 2 s) after its time ran out, so that a move on the wire that would be
  compensated is not pre-empted.  Loss on time: ``Termination.TIME_FORFEIT`` (R20).
* **Abort**: either side, only before both sides have moved (fewer than 2 plies in the round).
* **Resign**: either side, any time while the game goes on (lichess asks for an abort before
  both sides have moved; a resignation then is the player's choice here).
* **Draw offers** (R19c): a side may offer at any time; its offer stands through its own moves;
  the other side accepts (:class:`AnswerDraw`, or an offer of its own, or a move with
  ``offering_draw``) or declines (:class:`AnswerDraw`, or any other move of its).  An offer
  twice is refused.
* **Takebacks**: a side with a move in the round may propose; the other side accepts or
  declines; a proposal meets a proposal as an acceptance; any move ends the proposal (the
  event says declined, by the mover).  Accepted, it takes back the proposer's last move and
  the reply after it when there is one (one or two plies, as lila's ``Takebacker``).  The
  clocks go back to what they were after the ply the game returns to (the time since is
  given back; ``clock_history`` keeps them), or stay as they are when the round does not know
  that ply (a game resumed later).  Online, going back before both sides' first moves stops
  the clock again.  A local game may also take back a move that ended it by the rules (R18,
  R19a, R19b): the game goes on.
* **Claims** (lila's ``RoundSocket``): when the server has seen the opponent gone longer than
  :func:`claim_grace` (40 s; 80 s rapid; 120 s classical; 30 days for correspondence and
  unlimited games), after both sides have moved, a side may claim the win (only while the
  opponent is to move) or a draw: ``Termination.ABANDONED``.  Presence is the server's to
  measure: the command carries ``opponent_gone_since``.

The board of a state (:meth:`RoundState.board`) comes from a cache keyed by (variant, root,
moves), so a server that builds the state from a database row for each command does not
replay the game each time; a miss replays the canonical move texts with checked pushes (about
8 microseconds a ply, ``tools/bench_round.py``).
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from emergo.board import COLOR_NAMES, Board, Color, MoveKind, Outcome, Termination
from emergo.board import Move as BoardMove
from emergo.clock import DAY, Clock, TimeControl, color_key, color_of

__all__ = [
    "BOARD_CACHE_SIZE",
    "CLAIM_GRACE_CORRESPONDENCE",
    "CLAIM_GRACE_FACTOR",
    "CLAIM_GRACE_LIVE",
    "FIRST_MOVE_SECONDS",
    "Abort",
    "AnswerDraw",
    "AnswerTakeback",
    "ClaimDraw",
    "ClaimVictory",
    "ClockStarted",
    "Command",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "GameOver",
    "Move",
    "MovePlayed",
    "OfferDraw",
    "ProposeTakeback",
    "Resign",
    "RoundError",
    "RoundState",
    "StartClock",
    "TakebackDeclined",
    "TakebackProposed",
    "TakenBack",
    "TimeControl",
    "Timeout",
    "apply",
    "claim_grace",
    "due",
    "first_move_time",
]

FIRST_MOVE_SECONDS = {
    "ultrabullet": 15.0,
    "bullet": 20.0,
    "blitz": 25.0,
    "rapid": 30.0,
    "classical": 35.0,
}
"""Seconds for each of the first two moves of an online live game, by category (lila)."""
CLAIM_GRACE_LIVE = 40.0
"""Seconds the opponent must be gone before a claim in a live game (lila's disconnect timeout)."""
CLAIM_GRACE_FACTOR = {"rapid": 2, "classical": 3}
"""Slower live categories wait this many times longer (lila)."""
CLAIM_GRACE_CORRESPONDENCE = 30 * DAY
"""Correspondence and unlimited games: 30 days (lila: no claim without a live clock)."""
BOARD_CACHE_SIZE = 256
"""Boards kept by (variant, root, moves): a few hundred live games' last positions."""

_RULE_ENDINGS = (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)


class RoundError(ValueError):
    """A command the round refuses now; the message says why.  Nothing changed."""


def first_move_time(control: TimeControl | None) -> float | None:
    """Seconds for each first move of an online game; ``None`` (unlimited): no deadline.

    >>> first_move_time(TimeControl.fischer(180, 2)), first_move_time(None)
    (25.0, None)
    """
    if control is None:
        return None
    if control.kind == "correspondence":
        return control.base
    return FIRST_MOVE_SECONDS[control.category]


def claim_grace(control: TimeControl | None) -> float:
    """Seconds the opponent must have been gone before a claim (win or draw).

    >>> claim_grace(TimeControl.fischer(180, 2)), claim_grace(TimeControl.fischer(1800))
    (40.0, 120.0)
    """
    if control is None or control.kind == "correspondence":
        return CLAIM_GRACE_CORRESPONDENCE
    return CLAIM_GRACE_LIVE * CLAIM_GRACE_FACTOR.get(control.category, 1)


# --- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """``by`` plays ``text`` (any R21 text the parser takes).

    ``lag``: seconds the move spent on the network, as the server measured or was told; up to
    the mover's quota is not charged.  ``offering_draw``: the mover offers a draw with it (or
    accepts the other side's pending offer).
    """

    by: Color
    text: str
    lag: float = 0.0
    offering_draw: bool = False


@dataclass(frozen=True)
class Resign:
    """``by`` resigns (R20)."""

    by: Color


@dataclass(frozen=True)
class Abort:
    """``by`` calls the game off: only before both sides have moved; no result."""

    by: Color


@dataclass(frozen=True)
class OfferDraw:
    """``by`` offers a draw (R19c), or accepts the other side's offer."""

    by: Color


@dataclass(frozen=True)
class AnswerDraw:
    """``by`` answers the draw the other side offered."""

    by: Color
    accept: bool


@dataclass(frozen=True)
class ProposeTakeback:
    """``by`` proposes to take back its last move (and the reply), or accepts a proposal."""

    by: Color


@dataclass(frozen=True)
class AnswerTakeback:
    """``by`` answers the takeback the other side proposed."""

    by: Color
    accept: bool


@dataclass(frozen=True)
class ClaimVictory:
    """``by`` claims the win: the opponent has been gone since ``opponent_gone_since``."""

    by: Color
    opponent_gone_since: float


@dataclass(frozen=True)
class ClaimDraw:
    """``by`` claims a draw: the opponent has been gone since ``opponent_gone_since``."""

    by: Color
    opponent_gone_since: float


@dataclass(frozen=True)
class Timeout:
    """The timer: flags a side out of time, aborts a game whose first moves did not come."""


@dataclass(frozen=True)
class StartClock:
    """A local game starts its clock now for the side to move (``RoundState.local`` only)."""


Command: TypeAlias = (
    Move
    | Resign
    | Abort
    | OfferDraw
    | AnswerDraw
    | ProposeTakeback
    | AnswerTakeback
    | ClaimVictory
    | ClaimDraw
    | Timeout
    | StartClock
)

# --- events ------------------------------------------------------------------------------------


def _clocks_json(clocks: tuple[float, float] | None) -> list[float] | None:
    return None if clocks is None else [clocks[0], clocks[1]]


@dataclass(frozen=True)
class MovePlayed:
    """A move: canonical ``text`` (R21), ``ply`` from the root (from 1), the mover ``color``.

    ``clocks``: seconds left (white, black) just after it, or ``None`` without a clock.
    """

    version: int
    ply: int
    text: str
    color: Color
    clocks: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "move",
            "version": self.version,
            "ply": self.ply,
            "text": self.text,
            "color": color_key(self.color),
            "clocks": _clocks_json(self.clocks),
        }


@dataclass(frozen=True)
class DrawOffered:
    """``color`` offers a draw."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "drawOffered", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class DrawDeclined:
    """``color`` declined the draw offered to it (an answer, or a move)."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "drawDeclined", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakebackProposed:
    """``color`` proposes a takeback."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "takebackProposed", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakebackDeclined:
    """The takeback proposal ended: ``color`` declined it (an answer, or any move)."""

    version: int
    color: Color

    def to_json(self) -> dict[str, Any]:
        return {"t": "takebackDeclined", "version": self.version, "color": color_key(self.color)}


@dataclass(frozen=True)
class TakenBack:
    """``moves`` (canonical texts, in the order played) were taken back; ``clocks`` after it."""

    version: int
    moves: tuple[str, ...]
    clocks: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "takenBack",
            "version": self.version,
            "moves": list(self.moves),
            "clocks": _clocks_json(self.clocks),
        }


@dataclass(frozen=True)
class GameOver:
    """The game ended: ``outcome.reason()`` says why."""

    version: int
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "gameOver",
            "version": self.version,
            "result": self.outcome.result(),
            "termination": self.outcome.termination.value,
            "winner": color_key(self.outcome.winner),
            "reason": self.outcome.reason(),
        }


@dataclass(frozen=True)
class ClockStarted:
    """A local game's clock started for ``color`` (:class:`StartClock`)."""

    version: int
    color: Color
    clocks: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "t": "clockStarted",
            "version": self.version,
            "color": color_key(self.color),
            "clocks": _clocks_json(self.clocks),
        }


Event: TypeAlias = (
    MovePlayed
    | DrawOffered
    | DrawDeclined
    | TakebackProposed
    | TakebackDeclined
    | TakenBack
    | GameOver
    | ClockStarted
)
Result: TypeAlias = tuple["RoundState", tuple[Event, ...]]

# --- boards ------------------------------------------------------------------------------------

_Key: TypeAlias = tuple[str, str, tuple[str, ...]]


def _replay(variant: str, root: str, moves: Sequence[str]) -> Board:
    """The board after ``moves`` (canonical R21 texts) from ``root``: each checked and pushed.

    A canonical text names the full path, so no parsing against the legal moves is needed
    (``Board.parse_move`` is about seven times slower); an entry's size follows from the
    position (R14).
    """
    board = Board(root, variant=variant)
    for ply, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RoundError(f"move {ply} is not a text: {text!r}")
        ended = board.outcome()
        if ended is not None:
            raise RoundError(f"move {ply} {text!r} comes after the end: {ended.reason()}")
        try:
            move = BoardMove.from_text(text, board.variant)
            if move.kind is MoveKind.ENTER and board.entry_size() != 1:
                move = BoardMove.enter(move.path[0], board.entry_size())
            board.push(move)
        except ValueError as e:
            raise RoundError(f"move {ply} {text!r}: {e}") from None
        if board.move_text(move) != text:
            raise RoundError(f"move {ply} {text!r} is not canonical: {board.move_text(move)!r}")
    return board


def _parse(board: Board, text: str) -> BoardMove:
    """The legal move ``text`` means: a canonical text directly, anything else by the parser.

    Clients mostly send canonical texts; checking one costs a few microseconds where
    ``Board.parse_move`` (abbreviations, other namings) costs tens.
    """
    try:
        move = BoardMove.from_text(text, board.variant)
        if move.kind is MoveKind.ENTER and board.entry_size() != 1:
            move = BoardMove.enter(move.path[0], board.entry_size())
        if board.is_legal(move) and board.move_text(move) == text:
            return move
    except ValueError:
        pass
    return board.parse_move(text)  # the parser's own errors say what is wrong


class _Boards:
    """Boards by (variant, root, moves), least recently used first; thread-safe.

    A board lent out (:meth:`RoundState.board`) is shared and never changed here; a board
    taken for a command (:meth:`take`) is the command's alone, and is given back under the
    new state's key (:meth:`give`): so a move at ply 300 pushes one move, not 300.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._boards: OrderedDict[_Key, tuple[Board, bool]] = OrderedDict()

    def _get(self, key: _Key) -> tuple[Board, bool] | None:
        entry = self._boards.get(key)
        if entry is not None and len(entry[0].move_stack) != len(key[2]):
            del self._boards[key]  # someone changed a lent board: never trust it again
            return None
        if entry is not None:
            self._boards.move_to_end(key)
        return entry

    def _put(self, key: _Key, board: Board, lent: bool) -> None:
        self._boards[key] = (board, lent)
        self._boards.move_to_end(key)
        while len(self._boards) > self.size:
            self._boards.popitem(last=False)

    def lend(self, key: _Key) -> Board:
        with self._lock:
            entry = self._get(key)
            if entry is not None:
                if not entry[1]:
                    self._boards[key] = (entry[0], True)
                return entry[0]
        board = _replay(*key)
        with self._lock:
            self._put(key, board, True)
        return board

    def take(self, key: _Key) -> Board:
        with self._lock:
            entry = self._get(key)
            if entry is not None and not entry[1]:
                del self._boards[key]
                return entry[0]
        if entry is not None:
            return entry[0].copy()
        return _replay(*key)

    def give(self, key: _Key, board: Board) -> None:
        with self._lock:
            if self.size > 0 and key not in self._boards:
                self._put(key, board, False)

    def outcome(self, key: _Key) -> Outcome | None:
        """The rules' ending after the moves of ``key`` (replayed and checked if not cached)."""
        with self._lock:
            entry = self._get(key)
            if entry is not None:  # read under the lock: a taken board is out of the cache
                return entry[0].outcome()
        board = _replay(*key)
        outcome = board.outcome()
        self.give(key, board)
        return outcome

    def clear(self) -> None:
        with self._lock:
            self._boards.clear()


_BOARDS = _Boards(BOARD_CACHE_SIZE)


@functools.lru_cache(maxsize=1024)
def _root_turn(variant: str, root: str) -> Color:
    return Board(root, variant=variant).turn


@functools.lru_cache(maxsize=1024)
def _canonical(variant: str, root: str) -> bool:
    """Is ``root`` the canonical R22 text of a position of ``variant``?  (Raises if none.)"""
    return Board(root, variant=variant).position() == root


# --- the state ---------------------------------------------------------------------------------


def _time(value: object, what: str) -> float:
    """``value`` as a time in seconds: a finite number (not a bool)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
        if math.isfinite(seconds):
            return seconds
    raise RoundError(f"{what} must be a finite time in seconds, not {value!r}")


@dataclass(frozen=True)
class RoundState:
    """One game as a value: where it started, the moves, the clock, offers and the end.

    ``root``: the R22 position the game started from; ``moves``: canonical R21 texts;
    ``clock``: ``None`` for an unlimited game; ``draw_offer``/``takeback_offer``: the side whose
    offer waits for an answer; ``version``: bumped by every change; ``created_at``,
    ``last_move_at``: wall times (a takeback counts as a move for the first-move deadline).
    Added to the contract: ``clock_history``, the clocks (white, black) after each ply this
    round has seen, the last for the current ply (a takeback restores them), and ``local``, a
    game on one machine (the clock starts with :class:`StartClock`; no deadlines, no lag
    compensation; a rules ending may be taken back).
    """

    variant: str
    root: str
    moves: tuple[str, ...]
    clock: Clock | None
    outcome: Outcome | None
    draw_offer: Color | None
    takeback_offer: Color | None
    version: int
    created_at: float
    last_move_at: float | None
    clock_history: tuple[tuple[float, float], ...] = ()
    local: bool = False

    @classmethod
    def new(
        cls,
        variant: str = "9x9",
        root: str | None = None,
        time_control: TimeControl | None = None,
        *,
        now: float,
        moves: Sequence[str] = (),
        clocks: tuple[float, float] | None = None,
        local: bool = False,
    ) -> RoundState:
        """A game from ``root`` (default the variant's start) at wall time ``now``.

        ``moves``: moves already played (any R21 texts; a resumed game); ``clocks``: seconds
        left (white, black) to start with instead of the full time; ``local``: see the class.
        An ending by the rules (R18, R19) is found at once.  Bad input raises RoundError.
        """
        now = _time(now, "now")
        try:
            board = Board(root, variant=variant) if root is not None else Board(variant=variant)
            start = board.position()
            for ply, text in enumerate(moves, 1):
                ended = board.outcome()
                if ended is not None:
                    raise RoundError(f"move {ply} {text!r} comes after the end: {ended.reason()}")
                board.push(board.parse_move(text))
        except RoundError:
            raise
        except ValueError as e:
            raise RoundError(str(e)) from None
        texts = tuple(str(m) for m in board.move_stack)
        clock = None
        if time_control is not None:
            clock = Clock.new(time_control, lag_compensation=not local)
            if clocks is not None:
                try:
                    clock = clock.set_left(*clocks)
                except (TypeError, ValueError) as e:
                    raise RoundError(f"bad clocks {clocks!r}: {e}") from None
        state = cls(
            variant=board.variant,
            root=start,
            moves=texts,
            clock=clock,
            outcome=board.outcome(),
            draw_offer=None,
            takeback_offer=None,
            version=0,
            created_at=now,
            last_move_at=None,
            clock_history=((clock.white, clock.black),) if clock is not None else (),
            local=bool(local),
        )
        _BOARDS.give(state._key(), board)
        return state

    def _key(self) -> _Key:
        return (self.variant, self.root, self.moves)

    @property
    def turn(self) -> Color:
        """The side to move."""
        root = _root_turn(self.variant, self.root)
        return root if len(self.moves) % 2 == 0 else not root

    @property
    def ply(self) -> int:
        """Moves played from the root."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def time_control(self) -> TimeControl | None:
        return None if self.clock is None else self.clock.control

    def board(self) -> Board:
        """The board with the moves pushed (and so their repetition history, R19b).

        Shared by every state with the same moves, and cached: read it, never change it
        (``board().copy()`` to play on).
        """
        return _BOARDS.lend(self._key())

    def mover(self, ply: int) -> Color:
        """The side that played the ``ply``-th move (0-based) from the root."""
        root = _root_turn(self.variant, self.root)
        return root if ply % 2 == 0 else not root

    # --- JSON -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values, for a database column or a message."""
        outcome = None
        if self.outcome is not None:
            outcome = {
                "termination": self.outcome.termination.value,
                "winner": color_key(self.outcome.winner),
            }
        return {
            "variant": self.variant,
            "root": self.root,
            "moves": list(self.moves),
            "clock": None if self.clock is None else self.clock.to_json(),
            "outcome": outcome,
            "draw_offer": color_key(self.draw_offer),
            "takeback_offer": color_key(self.takeback_offer),
            "version": self.version,
            "created_at": self.created_at,
            "last_move_at": self.last_move_at,
            "clock_history": list(map(list, self.clock_history)),
            "local": self.local,
        }

    @classmethod
    def from_json(cls, data: Any) -> RoundState:
        """The state :meth:`to_json` wrote; anything inconsistent raises RoundError."""
        if not isinstance(data, dict):
            raise RoundError(f"a round state is an object, not {type(data).__name__}")
        try:
            return cls._from_json(data)
        except KeyError as e:
            raise RoundError(f"a round state needs {e.args[0]!r}") from None
        except RoundError:
            raise
        except (TypeError, ValueError) as e:
            raise RoundError(f"bad round state: {e}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> RoundState:
        variant, root, moves = data["variant"], data["root"], data["moves"]
        if not (isinstance(variant, str) and isinstance(root, str) and isinstance(moves, list)):
            raise RoundError("variant and root are texts, moves a list of texts")
        if not _canonical(variant, root):
            raise RoundError(f"the root {root!r} is not a canonical R22 position")
        key: _Key = (variant, root, tuple(moves))
        ended = _BOARDS.outcome(key)  # replays and checks the moves (or finds them checked)
        outcome = None
        if data["outcome"] is not None:
            raw = data["outcome"]
            outcome = Outcome(Termination(raw["termination"]), color_of(raw["winner"]))
        if ended is not None and outcome != ended:
            raise RoundError(f"the moves ended the game ({ended.reason()}), not {outcome}")
        if ended is None and outcome is not None and outcome.termination in _RULE_ENDINGS:
            raise RoundError(f"the moves did not end the game by the rules: {outcome}")
        clock = None if data["clock"] is None else Clock.from_json(data["clock"])
        history = _history(data.get("clock_history", []))
        local = data.get("local", False)
        if not isinstance(local, bool):
            raise RoundError(f"local is true or false, not {local!r}")
        version = data["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise RoundError(f"the version is a count, not {version!r}")
        last = data["last_move_at"]
        state = cls(
            variant=variant,
            root=root,
            moves=key[2],
            clock=clock,
            outcome=outcome,
            draw_offer=color_of(data["draw_offer"]),
            takeback_offer=color_of(data["takeback_offer"]),
            version=version,
            created_at=_time(data["created_at"], "created_at"),
            last_move_at=None if last is None else _time(last, "last_move_at"),
            clock_history=history,
            local=local,
        )
        running = None if clock is None else clock.running
        if running is not None and (outcome is not None or running != state.turn):
            raise RoundError("only the side to move's clock runs, and only while it plays")
        if outcome is not None and (
            state.draw_offer is not None or state.takeback_offer is not None
        ):
            raise RoundError("a finished game has no offers")
        if len(history) > len(state.moves) + 1:
            raise RoundError("more clocks in the history than plies")
        return state


def _history(raw: Any) -> tuple[tuple[float, float], ...]:
    """``clock_history`` from JSON, checked in bulk (it is as long as the game)."""
    pairs_ok = isinstance(raw, list) and set(map(type, raw)) <= {list} and set(map(len, raw)) <= {2}
    flat = list(itertools.chain.from_iterable(raw)) if pairs_ok else []
    if not pairs_ok or not set(map(type, flat)) <= {int, float}:
        raise RoundError("clock_history is a list of [white, black] seconds")
    if flat and (min(flat) < 0 or not math.isfinite(sum(flat))):
        raise RoundError("a clock in the history is below 0 or not finite")
    return tuple(map(tuple, raw))


# --- apply -------------------------------------------------------------------------------------


def apply(state: RoundState, command: Command, now: float) -> Result:
    """The state after ``command`` at wall time ``now``, and what happened (see the module)."""
    if not isinstance(state, RoundState):
        raise RoundError(f"not a round state: {type(state).__name__}")
    now = _time(now, "now")
    if isinstance(command, Timeout):
        return _timed_out(state, now) or (state, ())
    if isinstance(command, StartClock):
        return _timed_out(state, now) or _start_clock(state, now)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RoundError(f"not a round command: {command!r}")
    by = command.by
    if not isinstance(by, bool):
        raise RoundError(f"by is a colour (True: White, False: Black), not {by!r}")
    if isinstance(command, Move) and state.outcome is None and by == state.turn:
        return _move(state, command, by, now)  # a move's own time is checked first
    ended = _timed_out(state, now)
    if ended is not None:
        return ended  # time decided the game before this command could count
    return handler(state, command, by, now)


def due(state: RoundState) -> float | None:
    """The next wall time at which ``Timeout()`` would change the state, or ``None``."""
    if state.outcome is not None:
        return None
    deadline = _first_move_deadline(state)
    if deadline is not None:
        return deadline
    if state.clock is not None and state.clock.running is not None:
        return _flag_due(state.clock)
    return None


def _first_move_deadline(state: RoundState) -> float | None:
    clock = state.clock
    if state.local or clock is None or clock.running is not None or len(state.moves) >= 2:
        return None
    seconds = first_move_time(clock.control)
    if seconds is None:
        return None
    since = state.last_move_at if state.last_move_at is not None else state.created_at
    return since + seconds


def _flag_due(clock: Clock) -> float:
    flag = clock.flag_at()
    assert flag is not None
    return flag + clock.flag_grace()


def _timed_out(state: RoundState, now: float) -> Result | None:
    """What time has decided at ``now``: an abort, a flag; ``None`` when nothing."""
    if state.outcome is not None:
        return None
    deadline = _first_move_deadline(state)
    if deadline is not None and now >= deadline:
        return _finish(state, now, Outcome(Termination.ABORTED, None))
    clock = state.clock
    if clock is not None and clock.running is not None and now >= _flag_due(clock):
        return _finish(state, now, Outcome(Termination.TIME_FORFEIT, not clock.running))
    return None


def _clocks(clock: Clock | None) -> tuple[float, float] | None:
    return None if clock is None else (clock.white, clock.black)


def _finish(
    state: RoundState, now: float, outcome: Outcome, events: Sequence[Event] = ()
) -> Result:
    """End the game: the clock charged and stopped, offers gone."""
    version = state.version + 1
    clock = None if state.clock is None else state.clock.stop(now)
    new = replace(
        state,
        clock=clock,
        outcome=outcome,
        draw_offer=None,
        takeback_offer=None,
        version=version,
    )
    return new, (*events, GameOver(version, outcome))


def _live(state: RoundState) -> None:
    if state.outcome is not None:
        raise RoundError(f"the game is over: {state.outcome.reason()}")


def _name(color: Color) -> str:
    return COLOR_NAMES[color]


def _move(state: RoundState, command: Move, by: Color, now: float) -> Result:
    text, lag = command.text, command.lag
    if not isinstance(text, str):
        raise RoundError(f"a move is a text, not {type(text).__name__}")
    if not isinstance(command.offering_draw, bool):
        raise RoundError(f"offering_draw is true or false, not {command.offering_draw!r}")
    ok = isinstance(lag, int | float) and not isinstance(lag, bool) and math.isfinite(lag)
    if not ok or lag < 0:
        raise RoundError(f"lag must be 0 or more seconds, not {lag!r}")
    deadline = _first_move_deadline(state)
    if deadline is not None and now >= deadline:
        return _finish(state, now, Outcome(Termination.ABORTED, None))
    clock = state.clock
    if clock is not None and clock.running is not None:
        clock = clock.switch(now, lag)
        if clock.running is None:  # no time was left: the flag fell before the move (R20)
            return _finish(state, now, Outcome(Termination.TIME_FORFEIT, not by))
    elif clock is not None and state.local:
        clock = clock.start(by, now).switch(now)
    key = state._key()
    board = _BOARDS.take(key)
    try:
        move = _parse(board, text)
    except ValueError as e:
        _BOARDS.give(key, board)
        raise RoundError(str(e)) from None
    canonical = board.move_text(move)
    board.push(move)
    moves = (*state.moves, canonical)
    _BOARDS.give((state.variant, state.root, moves), board)
    outcome = board.outcome()
    version = state.version + 1
    draw_offer = state.draw_offer
    late: list[Event] = []
    if draw_offer is not None and draw_offer != by:
        if command.offering_draw and outcome is None:
            outcome = Outcome(Termination.AGREEMENT, None)  # an offer meets an offer
        else:
            late.append(DrawDeclined(version, by))
        draw_offer = None
    elif command.offering_draw and draw_offer is None and outcome is None:
        draw_offer = by
        late.append(DrawOffered(version, by))
    if state.takeback_offer is not None:
        late.append(TakebackDeclined(version, by))
    if clock is not None and not state.local and clock.running is None and len(moves) >= 2:
        clock = clock.start(not by, now)  # both sides have moved: the clock starts
    if outcome is not None and clock is not None:
        clock = clock.stop(now)
    events: list[Event] = [MovePlayed(version, len(moves), canonical, by, _clocks(clock)), *late]
    if outcome is not None:
        events.append(GameOver(version, outcome))
        draw_offer = None
    history = state.clock_history
    if clock is not None:
        history = (*history, (clock.white, clock.black))
    new = replace(
        state,
        moves=moves,
        clock=clock,
        outcome=outcome,
        draw_offer=draw_offer,
        takeback_offer=None,
        version=version,
        last_move_at=now,
        clock_history=history,
    )
    return new, tuple(events)


def _move_refused(state: RoundState, command: Move, by: Color, now: float) -> Result:
    _live(state)
    raise RoundError(f"it is not {_name(by)}'s turn")


def _start_clock(state: RoundState, now: float) -> Result:
    if not state.local:
        raise RoundError("an online game's clock starts by itself, after both first moves")
    _live(state)
    clock = state.clock
    if clock is None:
        raise RoundError("the game has no clock")
    if clock.running is not None:
        return state, ()
    version = state.version + 1
    clock = clock.start(state.turn, now)
    new = replace(state, clock=clock, version=version)
    return new, (ClockStarted(version, state.turn, (clock.white, clock.black)),)


def _resign(state: RoundState, command: Resign, by: Color, now: float) -> Result:
    _live(state)
    return _finish(state, now, Outcome(Termination.RESIGNATION, not by))


def _abort(state: RoundState, command: Abort, by: Color, now: float) -> Result:
    _live(state)
    if len(state.moves) >= 2:
        raise RoundError("too late to abort: both sides have moved (resign instead)")
    return _finish(state, now, Outcome(Termination.ABORTED, None))


def _offer_draw(state: RoundState, command: OfferDraw, by: Color, now: float) -> Result:
    _live(state)
    if state.draw_offer == by:
        raise RoundError(f"{_name(by)} has already offered a draw")
    if state.draw_offer is not None:
        return _finish(state, now, Outcome(Termination.AGREEMENT, None))
    version = state.version + 1
    return replace(state, draw_offer=by, version=version), (DrawOffered(version, by),)


def _accept(command: AnswerDraw | AnswerTakeback) -> bool:
    if not isinstance(command.accept, bool):
        raise RoundError(f"accept is true or false, not {command.accept!r}")
    return command.accept


def _answer_draw(state: RoundState, command: AnswerDraw, by: Color, now: float) -> Result:
    _live(state)
    _accept(command)
    if state.draw_offer is None or state.draw_offer == by:
        raise RoundError(f"no draw offer to {_name(by)} waits for an answer")
    if command.accept:
        return _finish(state, now, Outcome(Termination.AGREEMENT, None))
    version = state.version + 1
    return replace(state, draw_offer=None, version=version), (DrawDeclined(version, by),)


def _takeback_open(state: RoundState) -> None:
    """Takebacks are for a game that goes on, or a local one the rules ended (R18, R19)."""
    ended = state.outcome
    if ended is not None and not (state.local and ended.termination in _RULE_ENDINGS):
        _live(state)


def _last_move_of(state: RoundState, color: Color) -> int | None:
    """The index of ``color``'s last move in the round, if any."""
    n = len(state.moves)
    if n and state.mover(n - 1) == color:
        return n - 1
    if n >= 2:
        return n - 2
    return None


def _propose_takeback(state: RoundState, command: ProposeTakeback, by: Color, now: float) -> Result:
    _takeback_open(state)
    if state.takeback_offer == by:
        raise RoundError(f"{_name(by)} has already proposed a takeback")
    if state.takeback_offer is not None:
        return _take_back(state, not by, now)  # a proposal meets a proposal
    if _last_move_of(state, by) is None:
        raise RoundError(f"{_name(by)} has no move to take back")
    version = state.version + 1
    return replace(state, takeback_offer=by, version=version), (TakebackProposed(version, by),)


def _answer_takeback(state: RoundState, command: AnswerTakeback, by: Color, now: float) -> Result:
    _takeback_open(state)
    _accept(command)
    if state.takeback_offer is None or state.takeback_offer == by:
        raise RoundError(f"no takeback proposal to {_name(by)} waits for an answer")
    if command.accept:
        return _take_back(state, not by, now)
    version = state.version + 1
    return replace(state, takeback_offer=None, version=version), (TakebackDeclined(version, by),)


def _take_back(state: RoundState, proposer: Color, now: float) -> Result:
    """Take back the proposer's last move and the reply after it, if any."""
    first = _last_move_of(state, proposer)
    if first is None:
        raise RoundError(f"{_name(proposer)} has no move to take back")
    taken = state.moves[first:]
    key = state._key()
    board = _BOARDS.take(key)
    for _ in taken:
        board.pop()
    moves = state.moves[:first]
    _BOARDS.give((state.variant, state.root, moves), board)
    clock, history = state.clock, state.clock_history
    if clock is not None:
        ran = clock.running is not None
        clock = clock.stop(now)
        if len(history) > len(taken):  # the clocks as they were at that ply
            values = history[-len(taken) - 1]
            history = history[: -len(taken)]
        else:  # a ply this round never saw (a resumed game): the clocks stay as they are
            base = clock.control.base
            per_move = clock.control.kind != "fischer"
            values = (base, base) if per_move else (clock.white, clock.black)
            history = (values,)
        clock = clock.set_left(*values)
        turn = state.mover(len(moves))
        if (state.local and ran) or (not state.local and len(moves) >= 2):
            clock = clock.start(turn, now)
    version = state.version + 1
    new = replace(
        state,
        moves=moves,
        clock=clock,
        outcome=None,
        draw_offer=None,
        takeback_offer=None,
        version=version,
        last_move_at=now,
        clock_history=history,
    )
    return new, (TakenBack(version, taken, _clocks(clock)),)


def _claim(state: RoundState, by: Color, since: object, now: float, what: str) -> None:
    _live(state)
    gone_since = _time(since, "opponent_gone_since")
    if len(state.moves) < 2:
        raise RoundError(f"both sides have not moved yet: abort instead of claiming {what}")
    if gone_since > now:
        raise RoundError("the opponent cannot have gone after now")
    grace = claim_grace(state.time_control)
    gone = now - gone_since
    if not gone > grace:
        raise RoundError(
            f"{_name(not by)} has been gone {gone:.0f} s: claiming {what} needs more than "
            f"{grace:.0f} s"
        )


def _claim_victory(state: RoundState, command: ClaimVictory, by: Color, now: float) -> Result:
    _live(state)
    if state.turn == by:
        raise RoundError(f"it is {_name(by)}'s turn: the win is claimed while the opponent moves")
    _claim(state, by, command.opponent_gone_since, now, "the win")
    return _finish(state, now, Outcome(Termination.ABANDONED, by))


def _claim_draw(state: RoundState, command: ClaimDraw, by: Color, now: float) -> Result:
    _claim(state, by, command.opponent_gone_since, now, "a draw")
    return _finish(state, now, Outcome(Termination.ABANDONED, None))


_HANDLERS: dict[type, Callable[[RoundState, Any, Color, float], Result]] = {
    Move: _move_refused,
    Resign: _resign,
    Abort: _abort,
    OfferDraw: _offer_draw,
    AnswerDraw: _answer_draw,
    ProposeTakeback: _propose_takeback,
    AnswerTakeback: _answer_takeback,
    ClaimVictory: _claim_victory,
    ClaimDraw: _claim_draw,
}
