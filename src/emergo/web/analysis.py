"""Engine analysis for the web app: a search run off the event loop, streamed, stoppable.

One :class:`Analyst` per client owns one searcher (the C kernel's when it is built).  A search
runs in a worker thread; its progress reports (multi-PV lines) are handed to the event loop as
they come, and :meth:`Analyst.stop` ends it at once (the searcher returns its best line so far).
Scores go to the page from White's point of view (:mod:`emergo.analyse`).  A position of the
endgame tables (:mod:`emergo.tablebase`) is answered by them: its line's ``source`` is
``tablebase`` and the line carries ``tablebase``, the table's value and every move's
(:func:`tablebase_data`), for the board's tablebase panel.

A review (``WS /ws/review``) is :func:`emergo.analyse.review_game` with its ``on_move`` and
``stop``: each move's review is handed on as soon as the positions on both sides of it are
searched, and a stop ends the search under way at once (the moves reviewed so far stay).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from emergo.analyse import (
    GameReview,
    MoveReview,
    clipped,
    format_score,
    result_text,
    white_view,
)
from emergo.board import Board
from emergo.geometry import Names
from emergo.search import Limit, Score, Searcher, SearchInfo, SearchResult
from emergo.web.positions import JSON, RequestError, move_data

MAX_MULTIPV = 8
MAX_TIME = 60.0
MAX_DEPTH = 64
HASH_MB = 16


def new_searcher() -> Searcher:
    """The strongest searcher available: the C kernel's with the endgame tables, else the
    pure-Python one."""
    try:
        kernel = importlib.import_module("emergo.kernel")
    except ImportError:
        # the pure-Python searcher's home moves with issue 9 (emergo.pysearch)
        for name in ("emergo.pysearch", "emergo.search"):
            try:
                factory = importlib.import_module(name).PythonSearcher
                break
            except (ImportError, AttributeError):
                continue
        else:  # pragma: no cover - the library always has one of them
            raise RuntimeError("no searcher available") from None
        searcher: Searcher = factory(hash_mb=HASH_MB)
        return searcher
    from emergo import tablebase

    fast: Searcher = kernel.Searcher(hash_mb=HASH_MB, tablebase=tablebase.default())
    return fast


def limit_from(request: JSON, *, allow_infinite: bool) -> tuple[Limit, int]:
    """The search limit and multi-PV count a request asks for, checked."""
    multipv = request.get("multipv", 1)
    if isinstance(multipv, bool) or not isinstance(multipv, int) or not 1 <= multipv <= 8:
        raise RequestError(f"multipv must be an integer from 1 to {MAX_MULTIPV}")
    seconds = request.get("time")
    depth = request.get("depth")
    infinite = bool(request.get("infinite", False)) and allow_infinite
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or not 0 < seconds <= MAX_TIME
    ):
        raise RequestError(f"time must be a number of seconds in (0, {MAX_TIME:g}]")
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH
    ):
        raise RequestError(f"depth must be an integer from 1 to {MAX_DEPTH}")
    if seconds is None and depth is None and not infinite:
        seconds = 1.0
    return Limit(time=seconds, depth=depth, infinite=infinite), multipv


def info_data(board: Board, info: SearchInfo) -> JSON:
    """One line of analysis as JSON: the score from White's side, the moves as routes."""
    score = white_view(info.score, board.turn)
    scratch = board.copy(stack=False)
    pv = []
    for move in info.pv:
        if not scratch.is_legal(move):
            break
        pv.append(move_data(scratch, move))
        scratch.push(move)
    data: JSON = {
        "multipv": info.multipv,
        "depth": info.depth,
        "score": format_score(score),
        "centimen": clipped(score),
        "pv": pv,
        "nodes": info.nodes,
        "time": round(info.time, 3),
        "nps": info.nps,
        "source": info.source,
    }
    if info.source == "tablebase":
        data["tablebase"] = tablebase_data(board)
    return data


def tablebase_data(board: Board) -> JSON | None:
    """The endgame tables' answer for a position, ``None`` outside them (or without the kernel):
    ``{"wdl", "dtm", "text", "moves": [{"move", "wdl", "dtm"}, ...]}``, values for the player
    to move (``wdl`` 1 win, 0 draw, -1 loss; ``dtm`` plies to the end, negative when he loses),
    each move's for the player making it, best first; ``text`` in words (``White wins in 37
    plies``)."""
    try:
        from emergo import tablebase
    except ImportError:  # pragma: no cover - the module imports without the kernel
        return None
    tables = tablebase.default()
    try:
        dtm = tables.probe_dtm(board)
        moves = tables.probe_moves(board)
    except tablebase.TablebaseError:
        return None
    wdl = 0 if dtm == 0 else 1 if dtm > 0 else -1
    score = Score.draw() if dtm == 0 else Score.win(dtm) if dtm > 0 else Score.loss(-dtm)
    return {
        "wdl": wdl,
        "dtm": dtm,
        "text": result_text(white_view(score, board.turn)),
        "moves": [
            {"move": move_data(board, item.move), "wdl": item.wdl, "dtm": item.dtm}
            for item in moves
        ],
    }


_T = TypeVar("_T")

SEARCH_THREADS = max(2, min(4, os.cpu_count() or 2))
"""Engine searches (analyses, reviews, hints) running at once; more wait their turn."""
_searches: ThreadPoolExecutor | None = None
_searches_lock = threading.Lock()


async def in_search_thread(fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``fn(*args, **kwargs)`` on the engine searches' own bounded pool of threads.

    Long searches (a review, an infinite analysis) never take the event loop's default pool,
    which runs every move, store write and request: those are answered at once however many
    searches run; a search beyond :data:`SEARCH_THREADS` waits for one to end.
    """
    global _searches
    with _searches_lock:
        if _searches is None:
            _searches = ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="emergo-search")
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_searches, functools.partial(fn, *args, **kwargs))


class SharedAnalyser:
    """One full-strength analyser that every live game's hints and draw answers share
    (:class:`emergo.game.Game`'s ``analyser``), instead of a searcher and its hash per game.

    It holds at most ``size`` searchers, made by ``factory`` when first needed: a search takes
    a free one (waiting while all are busy) and gives it back, so however many games are live
    the analysers' memory is ``size`` hashes.  What one game's search leaves in a hash is
    keyed by position, so another game's search may use it.
    """

    name = "emergo shared analyser"

    def __init__(self, factory: Callable[[], Searcher], size: int = SEARCH_THREADS) -> None:
        self._factory = factory
        self._size = size
        self._free: list[Searcher] = []
        self.made = 0
        """Searchers made so far (at most ``size``)."""
        self._changed = threading.Condition()

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: Callable[[SearchInfo], None] | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        searcher = self._take()
        try:
            return searcher.search(board, limit, multipv=multipv, on_info=on_info, stop=stop)
        finally:
            with self._changed:
                self._free.append(searcher)
                self._changed.notify()

    def _take(self) -> Searcher:
        with self._changed:
            while not self._free and self.made >= self._size:
                self._changed.wait()
            if self._free:
                return self._free.pop()
            self.made += 1
        try:
            return self._factory()
        except BaseException:
            with self._changed:
                self.made -= 1
                self._changed.notify()
            raise

    def clear(self) -> None:
        """Nothing to forget for one game: the searchers are everyone's."""


class OnDemandSearcher:
    """A searcher whose tables exist only while they are of use: made by ``factory`` at the
    first search and dropped by :meth:`release` (the game over, closed, evicted or idle), or
    after every search when ``keep`` is false (an engine below full strength clears its
    tables before every search anyway: :class:`emergo.levels.LevelSearcher`)."""

    def __init__(self, factory: Callable[[], Searcher], *, keep: bool = True) -> None:
        self._factory = factory
        self._keep = keep
        self._searcher: Searcher | None = None
        self._lock = threading.Lock()

    @property
    def holds(self) -> bool:
        """Does it hold a searcher (and its tables) now?"""
        return self._searcher is not None

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: Callable[[SearchInfo], None] | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        with self._lock:
            searcher = self._searcher
            if searcher is None:
                searcher = self._searcher = self._factory()
        try:
            return searcher.search(board, limit, multipv=multipv, on_info=on_info, stop=stop)
        finally:
            if not self._keep:
                self.release(searcher)

    def clear(self) -> None:
        searcher = self._searcher
        if searcher is not None:
            searcher.clear()

    def release(self, searcher: Searcher | None = None) -> None:
        """Drop the searcher (``searcher``: only if it is still that one); the next search
        makes a new one.  A search running meanwhile finishes on the one it has."""
        with self._lock:
            if searcher is None or self._searcher is searcher:
                self._searcher = None


class Analyst:
    """Runs one search at a time for one client, off the event loop; stoppable."""

    def __init__(self, searcher_factory: Callable[[], Searcher] = new_searcher) -> None:
        self._factory = searcher_factory
        self._searcher: Searcher | None = None
        self._stop = threading.Event()
        self._task: asyncio.Future[Any] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def run(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: Callable[[JSON], None] | None = None,
    ) -> list[JSON]:
        """Search ``board`` in a worker thread; ``on_info`` gets each report on the loop."""
        if self.running:
            raise RequestError("an analysis is already running; stop it first", status=409)
        loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        stop = self._stop
        latest: dict[int, JSON] = {}

        def report(info: SearchInfo) -> None:  # in the search thread
            data = info_data(board, info)
            if on_info is not None:
                loop.call_soon_threadsafe(on_info, data)

        def work() -> list[JSON]:
            if self._searcher is None:
                self._searcher = self._factory()
            result = self._searcher.search(
                board.copy(), limit, multipv=multipv, on_info=report, stop=stop
            )
            for info in result.infos:
                latest[info.multipv] = info_data(board, info)
            return [latest[k] for k in sorted(latest)]

        self._task = asyncio.ensure_future(in_search_thread(work))
        try:
            return list(await asyncio.shield(self._task))
        except asyncio.CancelledError:
            stop.set()
            raise

    def stop(self) -> None:
        """Stop the running search at once (it returns its best lines so far)."""
        self._stop.set()

    async def close(self) -> None:
        """Stop and wait for the worker thread to finish."""
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception):  # the search's own error was reported already
                await self._task


# --- a stoppable review, move by move -------------------------------------------------------------


def review_data(review: GameReview, reviewed: MoveReview, names: Names) -> JSON:
    """One reviewed move for the page: its loss, its mark and the comment the record gets."""
    return {
        "ply": reviewed.ply,
        "mover": "white" if reviewed.mover else "black",
        "loss": reviewed.loss,
        "mark": reviewed.mark,
        "kind": reviewed.kind,
        "comment": review.annotation(reviewed, names),
    }
