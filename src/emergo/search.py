"""The search interface: limits, scores, progress reports, the Searcher protocol, time management.

Front ends (the engine protocol, the match runner, ``emergo play``) talk to a
:class:`Searcher`; the built-in ones are made by :mod:`emergo.players`
(``players.backend(kind)`` for the engine's search).  The searchers themselves
live elsewhere: the C kernel's in :mod:`emergo.kernel`, the interim pure-Python
alpha-beta in :mod:`emergo.pysearch`, the playing levels in :mod:`emergo.levels`
and Monte-Carlo tree search in :mod:`emergo.mcts`.

Scores are always from the point of view of the player to move, in centi-men
(100 = one man), or an exact win or loss in a number of plies (R18), or a draw.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from emergo.board import WHITE, Board, Color, Move

# --- limits and time management --------------------------------------------------------------

# The bounds of a search limit: also those of the protocol and the command line (emergo.wire).
DEPTH_MAX = 100
"""Plies a search may be asked for (the C kernel's ``MAX_DEPTH``: deeper is never reached)."""
NODES_MAX = 10**15
"""Nodes a search may be asked for (days of search; far inside every counter of the kernel)."""
SECONDS_MAX = 7 * 24 * 3600.0
"""Seconds a move time or a clock may hold (a week)."""
MULTIPV_MAX = 64
"""Best lines a search may be asked for (the C kernel's ``MAX_MULTIPV``)."""
MOVES_TO_GO_MAX = 10_000
"""Moves until the next time control."""


@dataclass(frozen=True)
class Limit:
    """When a search must stop; every field left ``None`` means no limit of that kind.

    Times are in seconds.  ``time`` is a fixed time for this move; ``wtime``/``btime``
    are the players' clocks and ``winc``/``binc`` their increments per move (the
    searcher budgets its own time from them, :func:`time_budget`); ``movestogo`` is
    the number of moves until the next time control.  ``infinite`` searches until
    stopped (analysis), whatever else is set.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float | None = None
    binc: float | None = None
    movestogo: int | None = None
    infinite: bool = False

    def __post_init__(self) -> None:
        highest = {"depth": DEPTH_MAX, "nodes": NODES_MAX, "movestogo": MOVES_TO_GO_MAX}
        for name, high in highest.items():
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or not 1 <= value <= high):
                raise ValueError(f"Limit {name} must be an integer in 1..{high}, not {value!r}")
        for name in ("time", "wtime", "btime", "winc", "binc"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int | float)
                or not math.isfinite(value)
                or not 0 <= value <= SECONDS_MAX
            ):
                raise ValueError(
                    f"Limit {name} must be a number of seconds in 0..{SECONDS_MAX:g}, not {value!r}"
                )

    def is_timed(self) -> bool:
        """Does the limit bound the time the search takes (a move time or a clock)?"""
        return not self.infinite and (
            self.time is not None or self.wtime is not None or self.btime is not None
        )


MOVE_OVERHEAD = 0.05
"""Seconds kept back from the clock for the protocol round trip and process scheduling."""

DEFAULT_MOVES_TO_GO = 30
"""Moves the clock must last when the limit does not say (Emergo games run 40-80 moves each)."""


def time_budget(limit: Limit, turn: Color) -> tuple[float | None, float | None]:
    """The soft and hard time limits, in seconds, of a search for the player ``turn``.

    After the soft limit no new iteration starts; at the hard limit the search
    stops at once.  ``(None, None)`` means the search is not timed.
    """
    if limit.infinite:
        return None, None
    soft: float | None = None
    hard: float | None = None
    clock = limit.wtime if turn == WHITE else limit.btime
    if clock is not None:
        inc = (limit.winc if turn == WHITE else limit.binc) or 0.0
        mtg = limit.movestogo or DEFAULT_MOVES_TO_GO
        usable = max(clock - MOVE_OVERHEAD, 0.001)
        soft = min(clock / mtg + 0.75 * inc, usable)
        hard = min(max(4 * soft, clock / 4 + inc / 2), usable)
        soft = min(soft, hard)
    if limit.time is not None:
        fixed = max(limit.time - MOVE_OVERHEAD / 5, 0.001)
        soft = fixed if soft is None else min(soft, fixed)
        hard = fixed if hard is None else min(hard, fixed)
    return soft, hard


# --- scores ---------------------------------------------------------------------------------

ScoreKind = Literal["cp", "win", "loss", "draw"]
Source = Literal["search", "tablebase"]

WIN_VALUE = 1_000_000
"""Search value of a win on the board now; a win in n plies is ``WIN_VALUE - n``."""
MAX_PLIES = 1000
"""Longest proven win or loss a value can express."""


@dataclass(frozen=True)
class Score:
    """A search score for the player to move: centi-men, a win or loss in n plies, or a draw.

    ``win``, ``loss`` and ``draw`` are proven results; ``draw`` in particular is never a
    repetition the search met on its own line nor a draw it chose among merely evaluated
    alternatives: those are ``cp 0`` (docs/engine.md).

    >>> str(Score.cp(35)), str(Score.win(7)), str(Score.loss(4)), str(Score.draw())
    ('cp 35', 'win 7', 'loss 4', 'draw')
    >>> Score.loss(2) < Score.loss(6) < Score.cp(-500) < Score.cp(80) < Score.win(9) < Score.win(3)
    True
    >>> -Score.win(3)
    Score(kind='loss', value=3)
    """

    kind: ScoreKind
    value: int = 0
    """Centi-men for ``cp``, plies for ``win`` and ``loss``, 0 for ``draw``."""

    @classmethod
    def cp(cls, centimen: int) -> Score:
        return cls("cp", int(centimen))

    @classmethod
    def win(cls, plies: int) -> Score:
        return cls("win", int(plies))

    @classmethod
    def loss(cls, plies: int) -> Score:
        return cls("loss", int(plies))

    @classmethod
    def draw(cls) -> Score:
        return cls("draw", 0)

    @classmethod
    def from_value(cls, value: int) -> Score:
        """The score of a search value (see :data:`WIN_VALUE`)."""
        if value >= WIN_VALUE - MAX_PLIES:
            return cls.win(WIN_VALUE - value)
        if value <= -WIN_VALUE + MAX_PLIES:
            return cls.loss(WIN_VALUE + value)
        return cls.cp(value)

    def to_value(self) -> int:
        """The search value of the score: proven wins above, proven losses below any centi-men."""
        if self.kind == "win":
            return WIN_VALUE - self.value
        if self.kind == "loss":
            return -WIN_VALUE + self.value
        return self.value if self.kind == "cp" else 0

    def is_exact(self) -> bool:
        """A proven result (win, loss or draw), not an estimate."""
        return self.kind != "cp"

    def __neg__(self) -> Score:
        """The same score seen by the other player."""
        if self.kind == "win":
            return Score.loss(self.value)
        if self.kind == "loss":
            return Score.win(self.value)
        return Score(self.kind, -self.value)

    def __lt__(self, other: Score) -> bool:
        return self.to_value() < other.to_value()

    def __le__(self, other: Score) -> bool:
        return self.to_value() <= other.to_value()

    def __gt__(self, other: Score) -> bool:
        return self.to_value() > other.to_value()

    def __ge__(self, other: Score) -> bool:
        return self.to_value() >= other.to_value()

    def __str__(self) -> str:
        return "draw" if self.kind == "draw" else f"{self.kind} {self.value}"

    def token(self) -> str:
        """The protocol form, one word: ``35``, ``-120``, ``win7``, ``loss4``, ``draw``."""
        if self.kind == "cp":
            return str(self.value)
        return "draw" if self.kind == "draw" else f"{self.kind}{self.value}"

    @classmethod
    def parse(cls, text: str) -> Score:
        """Read a score in either form: ``cp 35`` / ``35``, ``win 7`` / ``win7``, ``draw``."""
        t = text.strip().lower().replace(" ", "")
        try:
            if t == "draw":
                return cls.draw()
            for kind in ("win", "loss", "cp"):
                if t.startswith(kind):
                    n = int(t[len(kind) :])
                    if kind != "cp" and n < 0:
                        break
                    return cls(kind, n)
            return cls.cp(int(t))
        except ValueError:
            pass
        raise ValueError(f"not a score: {text!r} (expected e.g. 35, cp 35, win 7, loss 4, draw)")


# --- what a search reports ------------------------------------------------------------------


@dataclass(frozen=True)
class SearchInfo:
    """One progress report: the best line found at a depth (UCI's ``info``)."""

    depth: int
    score: Score
    pv: tuple[Move, ...]
    nodes: int = 0
    time: float = 0.0
    """Seconds since the search started."""
    seldepth: int | None = None
    multipv: int = 1
    """Rank of this line, 1 for the best (``multipv`` searches report several lines)."""
    source: Source = "search"
    """Where the score comes from: ``search``, or ``tablebase`` (the endgame tables valued
    every move of the position, :mod:`emergo.tablebase`: the score is exact)."""
    tbhits: int = 0
    """Positions the search found in the endgame tables."""

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: the move to play (``None`` when there is no legal move)."""

    move: Move | None
    ponder: Move | None = None
    """The expected reply, when the search has one."""
    infos: tuple[SearchInfo, ...] = field(default=())
    """The last report of each line, best line first."""


InfoCallback = Callable[[SearchInfo], None]


@runtime_checkable
class TablebaseUser(Protocol):
    """A searcher that can use the endgame tables or not (the engine's ``Tablebases`` option)."""

    def use_tablebase(self, on: bool) -> None: ...


class Searcher(Protocol):
    """What a search backend implements; the kernel's ``emergo.kernel.Searcher`` must too.

    ``search`` must not change ``board`` (work on a copy or undo every move),
    must honour every field of ``limit`` and return soon after ``stop`` is set,
    must call ``on_info`` (from the searching thread) as iterations complete, and
    must return a legal move whenever one exists, even when stopped at once.
    With ``multipv=k`` it reports the best k lines, ranked by ``SearchInfo.multipv``.
    ``clear`` forgets everything learnt (a new game).

    One search at a time: a searcher holds tables that one search fills, so a
    second ``search`` while one is running (from another thread) raises
    :class:`RuntimeError` at once instead of corrupting them.  To search several
    positions at once, use one searcher per thread.
    """

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult: ...

    def clear(self) -> None: ...


class Busy:
    """The one-search-at-a-time guard of a searcher (see :class:`Searcher`).

    ``with busy:`` around a search: entering while a search holds it raises
    :class:`RuntimeError` at once (the flag is tested and set in one atomic step).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise RuntimeError(
                f"{self._name} is already searching: one search at a time per searcher"
            )

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


class GuardedSearcher:
    """Base of the Python searchers: :meth:`search` holds the one-search-at-a-time guard
    (:class:`Busy`) and hands the work to ``_search``, which a subclass implements."""

    def __init__(self) -> None:
        self._busy = Busy(type(self).__name__)

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        """Search ``board`` (left unchanged) within ``limit``; one search at a time (Searcher)."""
        with self._busy:
            return self._search(board, limit, multipv, on_info, stop)

    def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: InfoCallback | None,
        stop: threading.Event | None,
    ) -> SearchResult:
        raise NotImplementedError
