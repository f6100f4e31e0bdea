"""The search interface: limits, scores, progress reports, and the searcher behind the engine.

Front ends (the engine protocol, the match runner, ``emergo play``) talk to a
:class:`Searcher`; which one they get is decided by :func:`backend`.  The strong
search lives in the C kernel (:mod:`emergo.kernel`); until the kernel exposes a
``Searcher``, :class:`PythonSearcher` stands in: an iterative-deepening
alpha-beta over the pure-Python :class:`~emergo.board.Board` with a material
evaluation.  It is correct and honours every limit, but it is slow and weak; it
is the fallback, not the engine.

Scores are always from the point of view of the player to move, in centi-men
(100 = one man), or an exact win or loss in a number of plies (R18), or a draw.
"""

from __future__ import annotations

import importlib
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from emergo.board import WHITE, Board, Color, Move
from emergo.players import material

# --- limits and time management --------------------------------------------------------------


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
        for name in ("depth", "nodes", "movestogo"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"Limit {name} must be a positive integer, not {value!r}")
        for name in ("time", "wtime", "btime", "winc", "binc"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int | float) or not math.isfinite(value) or value < 0
            ):
                raise ValueError(f"Limit {name} must be a number of seconds >= 0, not {value!r}")

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

WIN_VALUE = 1_000_000
"""Search value of a win on the board now; a win in n plies is ``WIN_VALUE - n``."""
MAX_PLIES = 1000
"""Longest proven win or loss a value can express."""


@dataclass(frozen=True)
class Score:
    """A search score for the player to move: centi-men, a win or loss in n plies, or a draw.

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


class Searcher(Protocol):
    """What a search backend implements; the kernel's ``emergo.kernel.Searcher`` must too.

    ``search`` must not change ``board`` (work on a copy or undo every move),
    must honour every field of ``limit`` and return soon after ``stop`` is set,
    must call ``on_info`` (from the searching thread) as iterations complete, and
    must return a legal move whenever one exists, even when stopped at once.
    With ``multipv=k`` it reports the best k lines, ranked by ``SearchInfo.multipv``.
    ``clear`` forgets everything learnt (a new game).
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


def backend(kind: str = "auto", *, hash_mb: int = 16) -> Searcher:
    """The searcher to use: the kernel's when it has one, else :class:`PythonSearcher`.

    ``kind`` is ``auto``, ``kernel`` (fail if the kernel has no searcher) or ``python``.
    The kernel searcher is built as ``emergo.kernel.Searcher(hash_mb=hash_mb)``.
    """
    if kind not in ("auto", "kernel", "python"):
        raise ValueError(f"unknown search backend {kind!r}: expected auto, kernel or python")
    if kind != "python":
        try:
            kernel = importlib.import_module("emergo.kernel")
        except ImportError as e:
            if kind == "kernel":
                raise ValueError(f"the C kernel is not available: {e}") from None
        else:
            factory = getattr(kernel, "Searcher", None)
            if factory is not None:
                searcher: Searcher = factory(hash_mb=hash_mb)
                return searcher
            if kind == "kernel":
                raise ValueError("the C kernel has no searcher yet (emergo.kernel.Searcher)")
    return PythonSearcher(hash_mb=hash_mb)


# --- the interim Python search --------------------------------------------------------------

MAX_DEPTH = 64
QUIESCENCE_PLIES = 8
"""How far forced captures (R8) are followed past the nominal depth."""
_INF = WIN_VALUE + 1
_CHECK_EVERY = 64  # nodes between clock and stop checks


class _Abort(Exception):
    """Raised inside the tree when a limit is reached or the search is stopped."""


class _Context:
    def __init__(
        self, limit: Limit, hard: float | None, stop: threading.Event | None, start: float
    ) -> None:
        self.nodes = 0
        self.seldepth = 0
        self.max_nodes = limit.nodes
        self.deadline = None if hard is None else start + hard
        self.stop = stop
        self.start = start

    def count(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Abort
        if self.nodes % _CHECK_EVERY == 0:
            if self.stop is not None and self.stop.is_set():
                raise _Abort
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _Abort


def evaluate(board: Board) -> int:
    """Static value for the player to move: the balance of men controlled (R5, R9), in centi-men."""
    me = board.turn
    return 100 * (material(board, me) - material(board, not me))


class PythonSearcher:
    """Iterative-deepening alpha-beta in pure Python: the fallback until the kernel searches.

    Negamax with a fail-hard window, forced captures (R8) followed up to
    :data:`QUIESCENCE_PLIES` past the depth, a table of best moves for move
    ordering, and exact game ends (R18 win, R19a/b draws).  Evaluation is material
    only (:func:`evaluate`).  ``hash_mb`` bounds the best-move table.
    """

    name = "emergo-python"

    def __init__(self, *, hash_mb: int = 16) -> None:
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {hash_mb}")
        self._capacity = hash_mb * 4096  # ~256 bytes per entry
        self._best: dict[int, Move] = {}

    def clear(self) -> None:
        self._best.clear()

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        start = time.monotonic()
        board = board.copy()  # the caller's board stays untouched; history kept for R19b
        root_moves = board.moves() if board.outcome() is None else []
        if not root_moves:
            return SearchResult(None)
        multipv = max(1, min(multipv, len(root_moves)))
        soft, hard = time_budget(limit, board.turn)
        ctx = _Context(limit, hard, stop, start)
        max_depth = min(limit.depth or MAX_DEPTH, MAX_DEPTH)
        order = self._order(board, root_moves)
        lines: list[tuple[int, list[Move]]] = []  # (value, pv), best first
        infos: tuple[SearchInfo, ...] = ()

        def report(depth: int) -> None:
            nonlocal infos
            elapsed = time.monotonic() - start
            infos = tuple(
                SearchInfo(
                    depth=depth,
                    score=Score.from_value(value),
                    pv=tuple(pv),
                    nodes=ctx.nodes,
                    time=elapsed,
                    seldepth=max(ctx.seldepth, depth),
                    multipv=rank,
                )
                for rank, (value, pv) in enumerate(lines, 1)
            )
            if on_info is not None:
                for info in infos:
                    on_info(info)

        for depth in range(1, max_depth + 1):
            partial: list[tuple[int, list[Move]]] = []
            try:
                self._root(board, order, depth, multipv, ctx, partial)
            except _Abort:
                if multipv == 1 and partial:
                    # The first move searched was the last best, so the best of the
                    # completed moves is at least as well founded as the last iteration.
                    lines = sorted(partial, key=lambda line: -line[0])[:1]
                    report(depth)
                break
            lines = sorted(partial, key=lambda line: -line[0])[:multipv]
            report(depth)
            # Next iteration: the best lines first, in rank order, then the rest.
            ranked = [pv[0] for _, pv in lines]
            order = ranked + [m for m in order if m not in ranked]
            best = abs(lines[0][0])
            if best >= WIN_VALUE - MAX_PLIES and WIN_VALUE - best <= depth:
                break  # a proven result no deeper search can change
            if soft is not None and time.monotonic() - start >= soft * 0.6:
                break  # the next iteration would not finish within the soft limit
            if limit.is_timed() and len(root_moves) == 1:
                break  # a forced move needs no thought
        best_pv = lines[0][1] if lines else [order[0]]
        return SearchResult(best_pv[0], best_pv[1] if len(best_pv) > 1 else None, infos)

    def _order(self, board: Board, moves: list[Move]) -> list[Move]:
        best = self._best.get(hash(board))
        if best is not None and best in moves:
            return [best] + [m for m in moves if m != best]
        return moves

    def _root(
        self,
        board: Board,
        order: list[Move],
        depth: int,
        multipv: int,
        ctx: _Context,
        out: list[tuple[int, list[Move]]],
    ) -> None:
        """Search every root move; lines with exact values go to ``out`` as they complete."""
        for move in order:
            # The k-th best value so far bounds what a new line must beat to be reported.
            alpha = -_INF
            if len(out) >= multipv:
                alpha = sorted((v for v, _ in out), reverse=True)[multipv - 1]
            pv: list[Move] = []
            board.push(move)
            try:
                value = -self._negamax(board, depth - 1, -_INF, -alpha, 1, ctx, pv)
            finally:
                board.pop()
            if value > alpha or len(out) < multipv:
                out.append((value, [move, *pv]))
        best = max(out, key=lambda line: line[0])
        self._remember(board, best[1][0])

    def _remember(self, board: Board, move: Move) -> None:
        if len(self._best) >= self._capacity:
            self._best.clear()
        self._best[hash(board)] = move

    def _negamax(
        self,
        board: Board,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        ctx: _Context,
        pv: list[Move],
    ) -> int:
        ctx.count()
        ctx.seldepth = max(ctx.seldepth, ply)
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0  # R19a, R19b: a draw
            # R18: a win for the player to move counts for him
            return WIN_VALUE - ply if outcome.winner == board.turn else -(WIN_VALUE - ply)
        if depth <= 0 and (not board.is_capturing() or depth <= -QUIESCENCE_PLIES):
            return evaluate(board)
        # Below the nominal depth only forced captures (R8) get here: no stand pat.
        best_move: Move | None = None
        for move in self._order(board, board.moves()):
            child: list[Move] = []
            board.push(move)
            try:
                value = -self._negamax(board, depth - 1, -beta, -alpha, ply + 1, ctx, child)
            finally:
                board.pop()
            if value > alpha:
                alpha, best_move = value, move
                pv[:] = [move, *child]
                if value >= beta:
                    break
        if best_move is not None:
            self._remember(board, best_move)
        return alpha


# --- playing levels -------------------------------------------------------------------------

LEVEL_MAX = 11
"""Full strength: the search as it is, within the limit the front end gives."""
LEVEL_CLIP = 2000
"""Centi-men a proven win or loss counts as when a level weighs its moves."""


@dataclass(frozen=True)
class LevelSetting:
    """How one playing level searches and chooses (docs/engine.md has the table).

    The search is capped at ``depth`` plies or ``nodes`` nodes (unless the front
    end's limit is tighter), asked for the best ``lines`` moves
    (multi-PV), and one of them is drawn with softmax weights
    ``exp((score - best) / temperature)``: a high temperature makes plausible
    blunders (a worse move is likely, a much worse one less so), 0 always
    plays the best move.
    """

    level: int
    depth: int | None
    nodes: int | None
    lines: int
    temperature: float
    """In centi-men; 0 plays the best line."""
    label: str


def _levels() -> tuple[LevelSetting, ...]:
    rows: list[tuple[int | None, int | None, int, float, str]] = [
        # depth, nodes, lines, temperature, label
        (1, None, 12, 200.0, "beginner: one ply, blunders freely"),
        (None, 1_000, 10, 150.0, "beginner"),
        (None, 2_500, 10, 110.0, "novice: sees the reply"),
        (None, 6_000, 8, 80.0, "novice"),
        (None, 15_000, 6, 55.0, "casual"),
        (None, 40_000, 5, 38.0, "club"),
        (None, 100_000, 4, 24.0, "strong club"),
        (None, 250_000, 3, 13.0, "expert"),
        (None, 500_000, 2, 6.0, "master"),
        (None, 1_200_000, 1, 0.0, "grandmaster: best move only"),
        (None, None, 1, 0.0, "full strength"),
    ]
    return tuple(LevelSetting(n, *row) for n, row in enumerate(rows, 1))


LEVELS: tuple[LevelSetting, ...] = _levels()
"""The playing levels 1..:data:`LEVEL_MAX`, weakest first (``LEVELS[level - 1]``)."""


def level_setting(level: int) -> LevelSetting:
    """The setting of a level; a clear error outside 1..:data:`LEVEL_MAX`."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= LEVEL_MAX:
        raise ValueError(f"level must be a whole number in 1..{LEVEL_MAX}, not {level!r}")
    return LEVELS[level - 1]


def level_limit(level: int, limit: Limit) -> Limit:
    """``limit`` with the level's depth and node caps added (the tighter of each wins)."""
    setting = level_setting(level)

    def tighter(own: int | None, cap: int | None) -> int | None:
        return cap if own is None else own if cap is None else min(own, cap)

    return replace(
        limit, depth=tighter(limit.depth, setting.depth), nodes=tighter(limit.nodes, setting.nodes)
    )


def _weight_value(score: Score) -> float:
    return float(max(-LEVEL_CLIP, min(LEVEL_CLIP, score.to_value())))


def choose_line(
    infos: tuple[SearchInfo, ...], temperature: float, rng: random.Random
) -> SearchInfo:
    """One of the ranked lines, drawn with softmax weights over their scores (see LevelSetting).

    Lines without a move are skipped; with ``temperature <= 0`` the best line is taken.
    """
    lines = [info for info in infos if info.pv]
    if not lines:
        raise ValueError("no line with a move to choose from")
    lines.sort(key=lambda info: info.multipv)
    if temperature <= 0 or len(lines) == 1:
        return lines[0]
    best = max(_weight_value(info.score) for info in lines)
    weights = [math.exp((_weight_value(info.score) - best) / temperature) for info in lines]
    return rng.choices(lines, weights)[0]


class LevelSearcher:
    """A searcher playing at a level: the inner search capped, then a move drawn (LevelSetting).

    At :data:`LEVEL_MAX` it is the inner searcher unchanged.  Below, every search
    starts from empty tables (``inner.clear()``: what deeper searches left there
    would change a capped search's scores) and the draw's random generator is
    seeded by ``seed``, the position (R22) and the number of moves played: under
    depth or node caps the same game replays the same way.
    Reports of lines beyond the ``multipv`` the caller asked for are not passed on;
    when the draw is not the best line, it is reported last as line 1, so a front
    end's last report describes the move played.
    """

    def __init__(self, inner: Searcher, level: int = LEVEL_MAX, *, seed: int = 0) -> None:
        self.setting = level_setting(level)
        self.inner = inner
        self.seed = seed

    @property
    def level(self) -> int:
        return self.setting.level

    def clear(self) -> None:
        self.inner.clear()

    def rng(self, board: Board) -> random.Random:
        """The random draw for this position (string seeds are stable across runs)."""
        return random.Random(f"{self.seed} {board.position()} {len(board.move_stack)}")

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        setting = self.setting
        if setting.level == LEVEL_MAX:
            return self.inner.search(board, limit, multipv=multipv, on_info=on_info, stop=stop)
        asked = max(1, multipv)
        self.inner.clear()

        def report(info: SearchInfo) -> None:
            if on_info is not None and info.multipv <= asked:
                on_info(info)

        result = self.inner.search(
            board,
            level_limit(setting.level, limit),
            multipv=max(asked, setting.lines),
            on_info=report,
            stop=stop,
        )
        shown = tuple(info for info in result.infos if info.multipv <= asked)
        if result.move is None or setting.temperature <= 0 or len(result.infos) < 2:
            return SearchResult(result.move, result.ponder, shown)
        line = choose_line(result.infos, setting.temperature, self.rng(board))
        ponder = line.pv[1] if len(line.pv) > 1 else None
        if line.multipv != 1:
            line = replace(line, multipv=1)
            shown = (line, *(info for info in shown if info.multipv != 1))
            if on_info is not None:
                on_info(line)
        return SearchResult(line.pv[0], ponder, shown)
