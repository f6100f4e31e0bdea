"""The engine's search in C (:class:`Searcher`): iterative-deepening PVS over the kernel."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from emergo import _kernel
from emergo.board import Board, Move, MoveKind
from emergo.kernel.evaluation import TERMS, load_weights, shipped_weights, weight_vector
from emergo.kernel.positions import checked_count, pack
from emergo.search import InfoCallback, Limit, Score, SearchInfo, SearchResult, time_budget

__all__ = ["Searcher", "Tables"]

_KINDS = {1: MoveKind.ENTER, 2: MoveKind.STEP, 3: MoveKind.CAPTURE}
_RawMove = tuple[int, int, tuple[int, ...]]
_RawLine = tuple[int, int, int, list[_RawMove], int, int]
"""value, depth, seldepth, moves, exact (a proven value), source (1: the endgame tables)"""
_POLL = 0.005  # seconds between looks at the caller's stop event
_LINGER = 2.0  # seconds the stop watcher waits for a next search before its thread ends


class _StopWatcher:
    """One thread that passes every running search's stop event on to its C search (a thread
    started and joined for each search waited milliseconds to run on a busy machine, a bot's
    every move).  The thread ends after :data:`_LINGER` seconds without a search."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[threading.Event, Any]] = {}
        self._next = 0
        self._running = False

    def add(self, stop: threading.Event, c: Any) -> int:
        with self._lock:
            self._next += 1
            self._watched[self._next] = (stop, c)
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="kernel-stop", daemon=True).start()
            return self._next

    def remove(self, key: int) -> None:
        """The search ended: no stop reaches its C search after this returns."""
        with self._lock:
            del self._watched[key]

    def _run(self) -> None:
        idle = 0.0
        while True:
            time.sleep(_POLL)
            with self._lock:  # c.stop() under the lock: never after remove() has returned
                if not self._watched:
                    idle += _POLL
                    if idle >= _LINGER:
                        self._running = False
                        return
                    continue
                idle = 0.0
                for stop, c in self._watched.values():
                    if stop.is_set():
                        c.stop()  # again each poll: a stop before the search began is not lost


_WATCHER = _StopWatcher()


def _move(raw: _RawMove) -> Move:
    kind, men, path = raw
    if kind == 1:
        return Move(MoveKind.ENTER, path, men, 0)
    return Move(_KINDS[kind], path, 0, men if kind == 3 else 0)


def _score(value: int, exact: int) -> Score:
    """A search value as a score: a 0 is a draw only when proven (a table's, not a repetition
    on the search's own line nor a draw found among evaluated alternatives)."""
    return Score.draw() if value == 0 and exact else Score.from_value(value)


def _infos(
    lines: list[_RawLine], nodes: int, seconds: float, tbhits: int
) -> tuple[SearchInfo, ...]:
    return tuple(
        SearchInfo(
            depth=depth,
            score=_score(value, exact),
            pv=tuple(_move(m) for m in pv),
            nodes=nodes,
            time=seconds,
            seldepth=seldepth,
            multipv=rank,
            source="tablebase" if source else "search",
            tbhits=tbhits,
        )
        for rank, (value, depth, seldepth, pv, exact, source) in enumerate(lines, 1)
    )


class Tables(Protocol):
    """Where a :class:`Searcher` finds the endgame tables of a variant
    (:class:`emergo.tablebase.Tablebase`): the 2- and 3-column tables, each ``None`` when
    there is none."""

    def kernel_tables(self, variant: str) -> tuple[Any, Any]: ...


class Searcher:
    """The engine's search in C: iterative-deepening PVS over the kernel (emergo.search.Searcher).

    Alpha-beta with principal variation search, aspiration windows, a shared
    transposition table of ``hash_mb`` megabytes, forced captures (R8) searched
    to the end at the leaves, repetitions (R19b) counted from the game's start,
    exact wins and losses (R18) and draws (R19a, R19b), and, given ``tablebase``
    (:class:`emergo.tablebase.Tablebase`), the endgame tables: a position of the tables
    at the root is not searched (every move valued by them, ``SearchInfo.source`` is
    ``"tablebase"``), and inside the tree it is a leaf of exact value.  A score of
    ``draw`` is a proven draw only: a repetition on the search's own line, or a draw the
    search prefers to evaluated alternatives, is reported as ``cp 0``.  The evaluation's weights
    come from ``weights`` (a mapping or a file, for every variant); by default
    each variant plays its own shipped weights (:func:`weights_file`), set in C
    when the variant of the searched board changes.  The GIL is released while
    it searches.

    One search at a time: :meth:`search` while another search of this searcher
    runs (in any thread), or :meth:`clear`/:meth:`resize`/:meth:`set_option`
    meanwhile, raise RuntimeError; :meth:`stop` is the call for a running
    search.  Ctrl-C raises KeyboardInterrupt and leaves the searcher usable.
    """

    name = "emergo-kernel"

    def __init__(
        self,
        *,
        hash_mb: int = 16,
        weights: Mapping[str, int] | str | Path | None = None,
        tablebase: Tables | None = None,
    ) -> None:
        self._c = _kernel.Searcher(checked_count(hash_mb, "hash_mb", 1, _kernel.MAX_HASH_MB))
        self.tablebase = tablebase
        """The endgame tables the searches use (``None``: none); may be changed between
        searches."""
        self._tables_on = True
        self._fixed: dict[str, int] | None = None
        if isinstance(weights, (str, Path)):
            self._fixed = load_weights(weights)
        elif weights is not None:
            self._fixed = {t.name: t.default for t in TERMS} | dict(weights)
            weight_vector(self._fixed)  # checked now, not at the first search
        self._variant = ""
        self._use_variant("9x9")

    @property
    def weights(self) -> dict[str, int]:
        """The weights in use: those of the variant searched last (9x9 before any search)."""
        return self.weights_for(self._variant)

    def weights_for(self, variant: str) -> dict[str, int]:
        """The weights this searcher evaluates ``variant``'s positions with."""
        return dict(self._fixed if self._fixed is not None else shipped_weights(variant))

    def _use_variant(self, variant: str) -> None:
        """Give C the weights of ``variant``; a new variant also starts from empty tables
        (the Zobrist key does not hold the variant)."""
        if variant == self._variant:
            return
        self._c.set_weights(weight_vector(self.weights_for(variant)))
        if self._variant:
            self._c.clear()
        self._variant = variant

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering history (a new game)."""
        self._c.clear()

    def resize(self, hash_mb: int) -> None:
        """A new, empty transposition table of ``hash_mb`` megabytes."""
        self._c.resize(checked_count(hash_mb, "hash_mb", 1, _kernel.MAX_HASH_MB))

    def set_option(self, name: str, value: int) -> None:
        """Set a tuning knob of the search: ``evasions`` (0..8, default 1), the quiescence
        plies where a player who is attacked but has no capture gets his moves searched."""
        self._c.set_option(name, value)

    def stop(self) -> None:
        """Stop the running search (from any thread); it returns its best move so far."""
        self._c.stop()

    def use_tablebase(self, on: bool) -> None:
        """Use the endgame tables of :attr:`tablebase` or not (the engine's ``Tablebases``
        option); nothing changes when there are none."""
        self._tables_on = bool(on)

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        """Search ``board`` (left unchanged) within ``limit`` (see emergo.search.Searcher)."""
        start = time.monotonic()
        multipv = checked_count(multipv, "multipv", 1)
        soft, hard = time_budget(limit, board.turn)
        depth = int(_kernel.MAX_DEPTH)
        nodes = 0
        if not limit.infinite:  # analysis runs until stopped, whatever else is set
            depth = min(limit.depth or depth, depth)  # deeper than MAX_DEPTH: as deep as it goes
            nodes = checked_count(limit.nodes or 0, "nodes")
        root = board.root()
        paths = [move.path for move in board.move_stack]
        self._use_variant(board.variant)
        tables: tuple[Any, Any] = (None, None)
        if self.tablebase is not None and self._tables_on:
            tables = self.tablebase.kernel_tables(board.variant)

        callback = None
        if on_info is not None:
            report = on_info

            def callback(
                lines: list[_RawLine], n: int, seconds: float, _depth: int, tbhits: int
            ) -> None:
                for info in _infos(lines, n, seconds, tbhits):
                    report(info)

        watched = _WATCHER.add(stop, self._c) if stop is not None else None
        spent = time.monotonic() - start
        try:
            term, lines, n, seconds, _, tbhits = self._c.search(
                pack(root),
                paths,
                depth,
                nodes,
                -1.0 if soft is None else max(soft - spent, 0.0),
                -1.0 if hard is None else max(hard - spent, 0.0),
                min(multipv, int(_kernel.MAX_MULTIPV)),
                callback,
                *tables,
            )
        finally:
            if watched is not None:
                _WATCHER.remove(watched)
        if term is not None or not lines:
            return SearchResult(None)
        infos = _infos(lines, n, seconds, tbhits)
        pv = infos[0].pv
        return SearchResult(pv[0], pv[1] if len(pv) > 1 else None, infos)
