"""The built-in players and search backends: THE one registry (:data:`PLAYERS`).

Every front end (``emergo play``, ``emergo match``, ``emergo-engine``, the game
flow, the web app) picks its computers here, by name:

>>> from emergo import players
>>> list(players.PLAYERS)
['random', 'greedy', 'mcts', 'engine', 'python']
>>> searcher = players.searcher("greedy", seed=1)

Each entry is a :class:`~emergo.search.Searcher` factory.  ``random`` and
``greedy`` are simple players, pure functions of ``(board, rng)``
(:func:`random_player`, :func:`greedy_player`: the same position and random
state give the same move; they are weak on purpose, opponents and yardsticks)
wrapped as searchers; ``mcts`` is Monte-Carlo tree search (:mod:`emergo.mcts`);
``engine`` is the best search there is (:func:`backend`) at a playing level
(:mod:`emergo.levels`); ``python`` the same over the interim Python search.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol

from emergo import perft
from emergo.board import Board, Color, Move
from emergo.levels import LEVEL_MAX, LevelSearcher
from emergo.pysearch import PythonSearcher, material
from emergo.search import InfoCallback, Limit, Searcher, SearchResult
from emergo.wire import DEPTH_MAX, HASH

Player = Callable[[Board, random.Random], Move]
"""A player chooses a legal move of the position; ``rng`` is its only source of chance."""

WIN_SCORE = 1000
"""Score of a move after which the opponent has lost (R18): above any material balance."""


def _legal(board: Board) -> list[Move]:
    moves = board.moves()
    if not moves:
        raise ValueError(f"no legal move in {board.position()!r}: the game is over (R18, R19a)")
    return moves


def random_player(board: Board, rng: random.Random) -> Move:
    """A legal move chosen uniformly at random."""
    return rng.choice(_legal(board))


def evaluate_after(board: Board, mover: Color) -> int:
    """Score, for ``mover``, of the position after his move (the opponent is to move).

    Material balance, minus twice the men the opponent's best capture would take
    (each man taken costs a man and gives the opponent a prisoner, R9, R11);
    a lost opponent scores :data:`WIN_SCORE` (R18); a draw (R19a, R19b) scores 0.
    """
    opponent = not mover
    if not board.hand(opponent) and not board.occupied(opponent):
        return WIN_SCORE  # R18
    replies = board.generate()
    if replies.count() == 0 or board.repetitions() >= 3:
        return 0  # R19a, R19b: a draw
    balance = material(board, mover) - material(board, opponent)
    if board.is_capturing():  # R8: the opponent must capture, and takes the most men (R11)
        balance -= 2 * replies.size
    return balance


def greedy_player(board: Board, rng: random.Random) -> Move:
    """The move with the best score after it (one ply, :func:`evaluate_after`); ties at random."""
    mover = board.turn
    best_score: int | None = None
    best: list[Move] = []
    for move in _legal(board):
        board.push_unchecked(move)  # a move from moves()
        try:
            score = evaluate_after(board, mover)
        finally:
            board.pop()
        if best_score is None or score > best_score:
            best_score, best = score, [move]
        elif score == best_score:
            best.append(move)
    return rng.choice(best)


__all__ = [
    "BACKENDS",
    "PLAYERS",
    "WIN_SCORE",
    "Entry",
    "Player",
    "PlayerSearcher",
    "backend",
    "count_divide",
    "count_perft",
    "evaluate_after",
    "greedy_player",
    "kernel_missing",
    "material",
    "random_player",
    "searcher",
]


# --- simple players as searchers ------------------------------------------------------------


class PlayerSearcher:
    """A simple :data:`Player` behind the :class:`~emergo.search.Searcher` interface.

    It ignores the limit (it does not think) and draws from its own random
    generator, seeded by ``seed``.
    """

    def __init__(self, name: str, player: Player, seed: int = 0) -> None:
        self.name = name
        self._player = player
        self.rng = random.Random(seed)

    def clear(self) -> None:
        pass

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        board = board.copy()
        if board.outcome() is not None:
            return SearchResult(None)
        return SearchResult(self._player(board, self.rng))


# --- search backends --------------------------------------------------------------------------

BACKENDS = ("auto", "kernel", "python")
"""What :func:`backend` accepts."""


def backend(kind: str = "auto", *, hash_mb: int = 16) -> Searcher:
    """The engine's search: the C kernel's (``kernel``), the interim Python one (``python``).

    The kernel's plays the endings of :mod:`emergo.tablebase` perfectly (the process's
    :func:`emergo.tablebase.default` tables: the 2-column ones always, the 3-column ones
    once built).

    ``auto`` takes the kernel's when the extension is built, else
    :class:`~emergo.pysearch.PythonSearcher`; ``kernel`` fails (ValueError) when it
    is not built.  ``hash_mb`` sizes the search tables: megabytes in the bounds of the
    engine's ``Hash`` option (:data:`emergo.wire.HASH`, 1..4096), else ValueError.
    """
    if kind not in BACKENDS:
        raise ValueError(f"unknown search backend {kind!r}: expected auto, kernel or python")
    low, high = HASH.min or 1, HASH.max or 1
    if isinstance(hash_mb, bool) or not isinstance(hash_mb, int):
        raise TypeError(f"hash_mb must be an int, not {type(hash_mb).__name__}")
    if not low <= hash_mb <= high:
        raise ValueError(f"hash_mb must be in {low}..{high} megabytes, not {hash_mb}")
    if kind != "python":
        try:
            from emergo import kernel  # needs the built C extension
        except ImportError as e:
            if kind == "kernel":
                raise ValueError(f"the C kernel is not available: {e}") from None
        else:
            from emergo import tablebase  # the endgame tables of the data directory

            return kernel.Searcher(hash_mb=hash_mb, tablebase=tablebase.default())
    return PythonSearcher(hash_mb=hash_mb)


# --- perft by the fastest backend ------------------------------------------------------------


def count_perft(board: Board, depth: int, *, reference: bool = False) -> int:
    """:func:`emergo.perft.perft` by the C kernel when it is built (and not ``reference``).

    ``depth`` is 0..:data:`emergo.wire.DEPTH_MAX`, else ValueError."""
    _perft_depth(depth)
    fast = None if reference else _kernel()
    return int(fast.perft(board, depth)) if fast is not None else perft.perft(board, depth)


def count_divide(board: Board, depth: int, *, reference: bool = False) -> dict[str, int]:
    """:func:`emergo.perft.perft_divide` as ``{canonical move text: count}``, fastest backend."""
    _perft_depth(depth)
    fast = None if reference else _kernel()
    if fast is not None:
        return dict(fast.perft_divide(board, depth))
    return {str(move): n for move, n in perft.perft_divide(board, depth)}


def _perft_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"perft depth must be an int, not {type(depth).__name__}")
    if not 0 <= depth <= DEPTH_MAX:
        raise ValueError(f"perft depth must be in 0..{DEPTH_MAX}, not {depth}")


def _kernel() -> ModuleType | None:
    """The C kernel (:mod:`emergo.kernel`), or None when its extension is not built."""
    try:
        from emergo import kernel
    except ImportError:
        return None
    return kernel


def kernel_missing() -> str | None:
    """Why the C kernel cannot be used (its ImportError's message), or None when it is built.

    Without it (no C compiler when the package was installed) everything still
    works: :func:`backend` ``auto`` is :class:`~emergo.pysearch.PythonSearcher`
    and perft is :mod:`emergo.perft`, only slower; ``mcts`` needs the kernel.
    """
    try:
        from emergo import kernel  # noqa: F401
    except ImportError as e:
        return str(e)
    return None


# --- the registry -----------------------------------------------------------------------------


class Factory(Protocol):
    """Builds a searcher; each factory uses the settings that concern it and ignores the rest."""

    def __call__(
        self,
        *,
        seed: int = 0,
        level: int = LEVEL_MAX,
        hash_mb: int = 16,
        exploration: float | None = None,
        playouts: int | None = None,
    ) -> Searcher: ...


@dataclass(frozen=True)
class Entry:
    """One built-in computer: its name, a one-line description and its searcher factory.

    ``backend`` is the search backend kind (:func:`backend`) of an entry that is the
    engine's search at a level, ``None`` for the others (which ignore ``level``).
    """

    name: str
    description: str
    factory: Factory
    backend: str | None = None


def _random(*, seed: int = 0, **_: object) -> Searcher:
    return PlayerSearcher("random", random_player, seed)


def _greedy(*, seed: int = 0, **_: object) -> Searcher:
    return PlayerSearcher("greedy", greedy_player, seed)


def _mcts(
    *,
    seed: int = 0,
    exploration: float | None = None,
    playouts: int | None = None,
    **_: object,
) -> Searcher:
    try:
        from emergo import mcts  # its playouts need the C kernel
    except ImportError as e:
        raise ValueError(f"mcts needs the C kernel: {e}") from None
    return mcts.MCTSSearcher(
        exploration=mcts.DEFAULT_EXPLORATION if exploration is None else exploration,
        playouts=mcts.DEFAULT_PLAYOUTS if playouts is None else playouts,
        seed=seed,
    )


def _leveled(kind: str) -> Factory:
    def make(*, seed: int = 0, level: int = LEVEL_MAX, hash_mb: int = 16, **_: object) -> Searcher:
        return LevelSearcher(backend(kind, hash_mb=hash_mb), level, seed=seed)

    return make


PLAYERS: dict[str, Entry] = {
    entry.name: entry
    for entry in (
        Entry("random", "a legal move chosen uniformly at random", _random),
        Entry("greedy", "one ply deep: the move that leaves the best material balance", _greedy),
        Entry("mcts", "Monte-Carlo tree search on kernel playouts", _mcts),
        Entry(
            "engine",
            "the engine: the best search there is, at a level 1..11",
            _leveled("auto"),
            "auto",
        ),
        Entry(
            "python",
            "the engine's interim pure-Python search, at a level",
            _leveled("python"),
            "python",
        ),
    )
}
"""Every built-in computer, by the name the command line, the protocol and matches use."""


def searcher(
    name: str,
    *,
    seed: int = 0,
    level: int = LEVEL_MAX,
    hash_mb: int = 16,
    exploration: float | None = None,
    playouts: int | None = None,
) -> Searcher:
    """A new searcher for the built-in computer ``name`` (ValueError for an unknown name)."""
    entry = PLAYERS.get(name)
    if entry is None:
        raise ValueError(f"unknown player {name!r}: expected one of {', '.join(PLAYERS)}")
    return entry.factory(
        seed=seed, level=level, hash_mb=hash_mb, exploration=exploration, playouts=playouts
    )
