"""Monte-Carlo tree search: a baseline player built on the C kernel's random playouts (UCT).

No evaluation and no Emergo knowledge beyond the rules: the tree is grown over
the reference :class:`~emergo.board.Board` (so repetition, R19b, is judged with
the game's history) and every new node is valued by a batch of uniformly random
games played to the end by :func:`emergo.kernel.playouts` (R18, R19a, R19b),
which runs in C without the interpreter lock.

* *Selection* follows UCT: the child maximising ``q + c * sqrt(ln N / n)``, with
  ``q`` the share of points of the player who made the move, ``n`` its playouts
  and ``N`` its parent's.
* *Expansion* creates all children of a leaf at once and plays ``playouts``
  random games from each (leaf parallelism: a batch counts as that many visits).
  A move that ends the game is scored exactly instead (reported ``win1``; a draw by
  the rules ``cp 0``, since ``draw`` means the position is proven drawn: only when
  every move ends the game and none wins).
* The move played is the most visited child; a move that wins at once (R18) is
  played without search.  The tree is kept between moves of the same game and
  reused when the new position lies below the old root.

It is the strongest opponent without search knowledge, and so the yardstick the
engine is measured against (docs/engine.md); ``emergo-engine --player mcts``
offers it over the engine protocol.
"""

from __future__ import annotations

import math
import threading
import time

from emergo import kernel
from emergo.board import Board, Move
from emergo.search import (
    GuardedSearcher,
    InfoCallback,
    Limit,
    Score,
    SearchInfo,
    SearchResult,
    time_budget,
)

DEFAULT_EXPLORATION = 0.35
"""UCT constant ``c`` for points in 0..1 (tuned in self-play, docs/engine.md)."""
DEFAULT_PLAYOUTS = 8
"""Random games per new node."""
DEFAULT_BUDGET = 200_000
"""Playouts of a search that has no time or node limit (and is not ``infinite``)."""
SCORE_CLIP = 1500
"""Largest centi-men a win rate is reported as."""
_REPORT_EVERY = 0.5  # seconds between progress reports


class _Node:
    """A position in the tree, reached by ``move``; points are for the player who made it."""

    __slots__ = ("children", "move", "points", "result", "visits")

    def __init__(self, move: Move | None) -> None:
        self.move = move
        self.children: list[_Node] | None = None  # None: not expanded yet
        self.visits = 0
        self.points = 0.0
        self.result: float | None = None
        """Exact points of a move that ends the game (1 win, 0.5 draw, 0 loss), else None."""


def win_rate_score(points: float, visits: int) -> Score:
    """A share of points ``q`` (0..1) as centi-men: ``100 * ln(q / (1 - q))``, clipped."""
    if visits <= 0:
        return Score.cp(0)
    q = min(max(points / visits, 1e-9), 1 - 1e-9)
    cp = 100.0 * math.log(q / (1.0 - q))
    return Score.cp(round(max(-SCORE_CLIP, min(SCORE_CLIP, cp))))


class MCTSSearcher(GuardedSearcher):
    """UCT over the reference board with kernel playouts at the leaves (see the module doc).

    ``exploration`` is the UCT constant, ``playouts`` the random games per new
    node, ``seed`` makes a node-limited search repeatable.  Limits: ``time`` and
    clocks (the soft budget of :func:`~emergo.search.time_budget` is used
    whole), ``nodes`` counts playouts, ``depth`` caps the depth of the tree.
    """

    name = "emergo-mcts"

    def __init__(
        self,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        playouts: int = DEFAULT_PLAYOUTS,
        seed: int = 0,
    ) -> None:
        super().__init__()
        if not exploration >= 0 or not math.isfinite(exploration):
            raise ValueError(f"exploration must be a number >= 0, not {exploration!r}")
        if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
            raise ValueError(f"playouts must be a whole number >= 1, not {playouts!r}")
        self.exploration = float(exploration)
        self.playouts = playouts
        self.seed = seed
        self._games = 0  # playouts so far: each batch gets fresh seeds
        self._tree: tuple[_Node, str, int] | None = None  # root, its position, its ply

    def clear(self) -> None:
        self._tree = None
        self._games = 0

    # --- the tree ---------------------------------------------------------------------------

    def _reuse(self, board: Board) -> _Node:
        """The node of ``board`` in the last tree when it lies at most two moves below its root."""
        if self._tree is not None:
            root, position, plies = self._tree
            stack = board.move_stack
            behind = len(stack) - plies
            if 0 <= behind <= 2:
                scratch = board.copy()
                for _ in range(behind):
                    scratch.pop()
                if scratch.position() == position:
                    node: _Node | None = root
                    for move in stack[plies:]:
                        children = (node.children or []) if node is not None else []
                        node = next((c for c in children if c.move == move), None)
                    if node is not None and node.result is None:
                        return node
        return _Node(None)

    def _evaluate(self, board: Board, child: _Node) -> tuple[int, float]:
        """Visits and points for the player who just moved into ``board``."""
        outcome = board.outcome()
        if outcome is not None:
            mover = not board.turn
            child.result = 0.5 if outcome.winner is None else float(outcome.winner == mover)
            return self.playouts, child.result * self.playouts
        return self._playouts(board)

    def _playouts(self, board: Board) -> tuple[int, float]:
        """A batch of random games from ``board``: visits and points for the player who moved."""
        stats = kernel.playouts(board, self.playouts, self.seed + self._games)
        self._games += stats.games
        return stats.games, stats.losses + 0.5 * stats.draws  # losses of the player to move

    def _expand(self, board: Board, node: _Node, moves: list[Move] | None = None) -> None:
        """Create every child of ``node`` (its position is ``board``) and value each one."""
        children = []
        total_visits, total_points = 0, 0.0
        for move in board.moves() if moves is None else moves:
            child = _Node(move)
            board.push_unchecked(move)  # a move from moves()
            try:
                visits, points = self._evaluate(board, child)
            finally:
                board.pop()
            child.visits, child.points = visits, points
            children.append(child)
            total_visits += visits
            total_points += visits - points  # seen from the other side
        node.children = children
        node.visits += total_visits
        node.points += total_points

    def _select(self, node: _Node) -> _Node:
        assert node.children
        log_n = math.log(max(node.visits, 1))
        c = self.exploration
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            if child.result == 1.0:
                return child  # a winning move (R18) needs no comparison
            value = child.points / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def _iterate(self, board: Board, root: _Node, max_depth: int | None) -> int:
        """One selection, expansion and back-propagation; returns the depth of the tree reached."""
        path = [root]
        node = root
        try:
            while node.children and node.result is None:
                node = self._select(node)
                assert node.move is not None  # only the root has no move
                board.push_unchecked(node.move)
                path.append(node)
            depth = len(path)  # the depth of the children a leaf gets
            if node.result is not None:
                visits, points = self.playouts, node.result * self.playouts
                node.visits += visits
                node.points += points
            elif max_depth is not None and depth >= max_depth:
                visits, points = self._playouts(board)
                node.visits += visits
                node.points += points
            else:
                before = node.visits, node.points
                self._expand(board, node)
                visits, points = node.visits - before[0], node.points - before[1]
        finally:
            for _ in range(len(path) - 1):
                board.pop()
        # Back-propagate: each level's points are the other side of the level below.
        for above in reversed(path[:-1]):
            points = visits - points
            above.visits += visits
            above.points += points
        return depth

    # --- the search -------------------------------------------------------------------------

    def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: InfoCallback | None,
        stop: threading.Event | None,
    ) -> SearchResult:
        start = time.monotonic()
        board = board.copy()  # the caller's board stays untouched; history kept for R19b
        moves = board.moves() if board.outcome() is None else []
        if not moves:
            return SearchResult(None)
        soft, hard = time_budget(limit, board.turn)
        budget = None if limit.infinite else soft if soft is not None else hard
        deadline = None if budget is None else start + budget
        max_playouts = limit.nodes
        if max_playouts is None and deadline is None and not limit.infinite:
            max_playouts = DEFAULT_BUDGET
        root = self._reuse(board)
        used = root.visits  # nodes count the playouts of this search only
        if root.children is None:
            self._expand(board, root, moves)
        seldepth = 1
        infos: tuple[SearchInfo, ...] = ()
        next_report = start + _REPORT_EVERY

        def report() -> None:
            nonlocal infos
            elapsed = time.monotonic() - start
            infos = self._infos(root, multipv, root.visits - used, elapsed, seldepth)
            if on_info is not None:
                for info in infos:
                    on_info(info)

        winning = any(child.result == 1.0 for child in root.children or ())
        forced = len(moves) == 1 and limit.is_timed()
        while not (winning or forced):
            if stop is not None and stop.is_set():
                break
            if max_playouts is not None and root.visits - used >= max_playouts:
                break
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                break
            if now >= next_report:
                report()
                next_report = now + _REPORT_EVERY
            seldepth = max(seldepth, self._iterate(board, root, limit.depth))
        report()
        self._tree = (root, board.position(), len(board.move_stack))
        best = infos[0].pv
        return SearchResult(best[0], best[1] if len(best) > 1 else None, infos)

    def _infos(
        self, root: _Node, multipv: int, playouts: int, elapsed: float, seldepth: int
    ) -> tuple[SearchInfo, ...]:
        """The best ``multipv`` root moves by visits, each with its most visited line."""
        children = sorted(root.children or (), key=_rank, reverse=True)
        drawn = _proven_draw(children)
        infos = []
        for rank, child in enumerate(children[: max(1, multipv)], 1):
            pv = [child]
            while pv[-1].children and pv[-1].result is None:
                pv.append(max(pv[-1].children, key=_rank))
            if child.result == 1.0:
                score = Score.win(1)
            elif child.result == 0.0:
                score = Score.loss(2)
            elif child.result == 0.5:
                # A move the rules end in a draw (R19a, R19b) is a line's value, not the
                # position's: ``draw`` means the position is proven drawn (docs/kernel.md).
                score = Score.draw() if drawn else Score.cp(0)
            else:
                score = win_rate_score(child.points, child.visits)
            infos.append(
                SearchInfo(
                    depth=len(pv),
                    score=score,
                    pv=tuple(n.move for n in pv if n.move is not None),
                    nodes=playouts,
                    time=elapsed,
                    seldepth=max(seldepth, len(pv)),
                    multipv=rank,
                )
            )
        return tuple(infos)


def _proven_draw(children: list[_Node]) -> bool:
    """Is the position of these root moves a proven draw: every move ends the game by the
    rules (R18, R19), none of them in a win?"""
    return (
        bool(children)
        and all(c.result is not None and c.result <= 0.5 for c in children)
        and any(c.result == 0.5 for c in children)
    )


def _rank(node: _Node) -> tuple[bool, int, float]:
    """Most visited first; a winning move before everything (R18)."""
    return (node.result == 1.0, node.visits, node.points)
