"""Engine analysis on the server: a search run off the event loop, streamed, stoppable, bounded.

:class:`Analysis` (one a process, :attr:`emergo.server.site.Site.analysis`) owns the searches'
own pool of threads and the ``[analysis]`` limits (docs/online.md: a public site may turn the
engine off, or bound its time and lines).  One :class:`Analyst` per client owns one searcher
(the C kernel's when it is built).  A search runs in a thread of that pool; its progress reports
(multi-PV lines) are handed to the event loop as they come, and :meth:`Analyst.stop` ends it at
once (the searcher returns its best line so far).
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
from emergo.search import Limit, Score, Searcher, SearchInfo
from emergo.server.board.positions import JSON, RequestError, move_data

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


def backend_for(variant: str) -> str:
    """The search backend for ``variant``: the C kernel when it plays it, else Python."""
    try:
        kernel = importlib.import_module("emergo.kernel")
    except ImportError:
        return "python"
    return "auto" if kernel.supports(variant) else "python"


def limit_from(
    request: JSON,
    *,
    allow_infinite: bool,
    max_time: float = MAX_TIME,
    max_multipv: int = MAX_MULTIPV,
) -> tuple[Limit, int]:
    """The search limit and multi-PV count a request asks for, checked."""
    multipv = request.get("multipv", 1)
    if isinstance(multipv, bool) or not isinstance(multipv, int) or not 1 <= multipv <= max_multipv:
        raise RequestError(f"multipv must be an integer from 1 to {max_multipv}")
    seconds = request.get("time")
    depth = request.get("depth")
    infinite = bool(request.get("infinite", False)) and allow_infinite
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or not 0 < seconds <= max_time
    ):
        raise RequestError(f"time must be a number of seconds in (0, {max_time:g}]")
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH
    ):
        raise RequestError(f"depth must be an integer from 1 to {MAX_DEPTH}")
    if seconds is None and depth is None and not infinite:
        seconds = min(1.0, max_time)
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


class Analysis:
    """The engine's analysis of one server process: its threads and its limits.

    The searches run on a bounded pool of their own (``threads``): a long search (a review, an
    infinite analysis) never takes the event loop's default pool, which runs every move and
    request, and a search beyond ``threads`` waits for one to end.  Each search costs a core
    for its time: ``max_seconds`` bounds one search, ``infinite`` allows searches until stopped
    (local mode), ``engine`` false turns the engine off (a public site's choice).
    """

    def __init__(
        self,
        *,
        engine: bool = True,
        threads: int = 2,
        max_seconds: float = MAX_TIME,
        max_multipv: int = MAX_MULTIPV,
        infinite: bool = True,
    ) -> None:
        self.engine = engine
        self.threads = threads
        self.max_seconds = max_seconds
        self.max_multipv = max_multipv
        self.infinite = infinite
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def check(self) -> None:
        """A :class:`RequestError` (403) when this site runs no engine analysis."""
        if not self.engine:
            raise RequestError("this site runs no engine analysis (its [analysis] engine)", 403)

    def limit(self, request: JSON, *, stream: bool) -> tuple[Limit, int]:
        """The search limit and multi-PV count a request asks for, checked against this
        site's bounds (``stream``: a socket's search may be infinite when the site allows)."""
        self.check()
        return limit_from(
            request,
            allow_infinite=stream and self.infinite,
            max_time=self.max_seconds,
            max_multipv=self.max_multipv,
        )

    async def run(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn(*args, **kwargs)`` on the searches' pool of threads."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="emergo-search")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


class Analyst:
    """Runs one search at a time for one client, off the event loop; stoppable."""

    def __init__(
        self, analysis: Analysis, searcher_factory: Callable[[], Searcher] = new_searcher
    ) -> None:
        self._analysis = analysis
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

        self._task = asyncio.ensure_future(self._analysis.run(work))
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
