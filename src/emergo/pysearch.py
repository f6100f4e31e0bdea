"""The interim pure-Python searcher: iterative-deepening alpha-beta with a material evaluation.

The strong search lives in the C kernel (:class:`emergo.kernel.Searcher`);
:class:`PythonSearcher` is the fallback when the kernel is not built, and the
yardstick of the protocol and level tests: an iterative-deepening alpha-beta
over the pure-Python :class:`~emergo.board.Board` with a material evaluation
(:func:`material`, :func:`evaluate`).  It is correct and honours every limit,
but it is slow and weak.
"""

from __future__ import annotations

import threading
import time

from emergo.board import Board, Color, Move
from emergo.search import (
    MAX_PLIES,
    WIN_VALUE,
    GuardedSearcher,
    InfoCallback,
    Limit,
    Score,
    SearchInfo,
    SearchResult,
    time_budget,
)


def material(board: Board, color: Color) -> int:
    """Men ``color`` controls: in hand, plus every man of the stacks he owns (caps and prisoners).

    Men never leave the board (R5), so the two players' material always adds up to
    all the men of the variant; a capture moves a man from one side to the other (R9).
    """
    total = board.hand(color)
    for sq in board.pieces(color):
        stack = board.stack(sq)
        if stack is not None:
            total += stack.size
    return total


# --- the search -----------------------------------------------------------------------------------

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


class PythonSearcher(GuardedSearcher):
    """Iterative-deepening alpha-beta in pure Python: the fallback until the kernel searches.

    Negamax with a fail-hard window, forced captures (R8) followed up to
    :data:`QUIESCENCE_PLIES` past the depth, a table of best moves for move
    ordering, and exact game ends (R18 win, R19a/b draws).  Evaluation is material
    only (:func:`evaluate`).  ``hash_mb`` bounds the best-move table.
    """

    name = "emergo-python"

    def __init__(self, *, hash_mb: int = 16) -> None:
        super().__init__()
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {hash_mb}")
        self._capacity = hash_mb * 4096  # ~256 bytes per entry
        self._best: dict[int, Move] = {}

    def clear(self) -> None:
        self._best.clear()

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
