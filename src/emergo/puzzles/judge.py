"""The judge of a puzzle's moves: the engine at a stated budget, or the endgame tables, exactly.

:meth:`Judge.choice` values a position for the player to move: his best move, its score, the
score of the best move that leads to *another* position (two routes of a capture that end in
the same position are one choice, R11), and whether the best move is an *only move*:

* **by the tables** (a position of two or three columns, no men in hand: :mod:`emergo.tablebase`):
  the best move wins and no move to another position wins; at the line's last move, other wins
  as fast are accepted too (as lichess accepts any mate in one);
* **by the engine** (the C kernel's search, ``nodes`` nodes from empty tables, so the same on
  every machine): the best move's win chance exceeds the second's by :data:`MARGIN` (lichess's
  criterion and curve, a man counted as a pawn: :func:`win_chance`); at the line's last move a
  move that wins the game at once (R18) is always an only move, and any other that does is
  accepted.

A position where every legal move leads to the same position is *forced*: its move is an only
move, but a line may not end on one (the solver has nothing to find there).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from emergo import kernel
from emergo.board import Board, Move
from emergo.puzzles.line import groups, wins_now
from emergo.search import Limit, Score, SearchInfo
from emergo.tablebase import MissingTableError, MoveValue, Tablebase, columns_of

__all__ = ["MARGIN", "Choice", "Judge", "clearly_better", "win_chance"]

WIN_CHANCE_K = 0.00368208
"""lichess's constant: ``win_chance(cp) = 2 / (1 + exp(-K cp)) - 1`` (one man = one pawn)."""
MARGIN = 0.42
"""Win chance by which an only move must beat the second best (lichess's value)."""


def win_chance(score: Score) -> float:
    """A score's win chance for the player to move, -1..1 (a proven win 1, loss -1, draw 0).

    >>> round(win_chance(Score.cp(300)), 3), win_chance(Score.win(5)), win_chance(Score.draw())
    (0.502, 1.0, 0.0)
    """
    if score.kind == "win":
        return 1.0
    if score.kind == "loss":
        return -1.0
    if score.kind == "draw":
        return 0.0
    return 2 / (1 + math.exp(-WIN_CHANCE_K * score.value)) - 1


def clearly_better(best: Score, second: Score) -> bool:
    """``best`` beats ``second`` by :data:`MARGIN` in win chance.

    >>> clearly_better(Score.cp(400), Score.cp(0)), clearly_better(Score.win(9), Score.win(3))
    (True, False)
    """
    return win_chance(best) - win_chance(second) >= MARGIN


@dataclass(frozen=True)
class Choice:
    """A position judged for the player to move (see the module)."""

    best: Move
    score: Score
    second: Score | None
    """The best score of a move to another position; ``None`` when the position is forced."""
    choices: int
    """The positions the legal moves lead to."""
    exact: bool
    """Valued by the endgame tables."""
    only: bool
    """The best move is an only move anywhere in a line."""
    only_last: bool
    """The best move is an only move as the line's last move."""
    equal: tuple[str, ...]
    """Moves (canonical texts) that lead to the same position as the best."""
    last_equal: tuple[str, ...]
    """Moves also accepted as the line's last move: other wins as fast (see the module)."""
    depth: int = 0
    """The engine's search depth from which its choice stayed ``best`` (0: tables, forced)."""
    reached: int = 0
    """The depth of the engine's last finished iteration (0: tables)."""

    @property
    def forced(self) -> bool:
        return self.choices == 1


def _table_score(value: MoveValue) -> Score:
    if value.wdl > 0:
        return Score.win(value.dtm)
    return Score.loss(-value.dtm) if value.wdl < 0 else Score.draw()


class Judge:
    """Values positions with one kernel searcher (``hash_mb`` megabytes, emptied before every
    search) and ``tables`` (``None``: no tables; the 2-column ones are built in memory when
    the :class:`~emergo.tablebase.Tablebase` is asked).  One judge per thread."""

    def __init__(
        self,
        tables: Tablebase | None = None,
        *,
        hash_mb: int = 4,
        weights: Mapping[str, int] | None = None,
    ) -> None:
        self.tables = tables
        self.searcher = kernel.Searcher(hash_mb=hash_mb, weights=weights, tablebase=tables)

    # --- the tables ---------------------------------------------------------------------------

    def in_tables(self, board: Board) -> bool:
        """The position belongs to a table (two or three columns, no men in hand).  Raises
        :class:`~emergo.tablebase.MissingTableError` when it does but the table is not built
        or there are no tables: such a position can be judged only exactly."""
        columns = columns_of(board)
        if columns is None:
            return False
        if self.tables is None or not self.tables.has(board.variant, columns):
            raise MissingTableError(
                f"{board.position()} needs the {columns}-column table of {board.variant}: run "
                f"'emergo tablebase build --variant {board.variant} --columns {columns}'"
            )
        return True

    def _table_choice(self, board: Board) -> Choice:
        assert self.tables is not None
        values = self.tables.probe_moves(board)  # best first
        by_result = groups(board)
        group_of = {str(m): key for key, ms in by_result.items() for m in ms}
        best = values[0]
        mine = group_of[str(best.move)]
        others = [v for v in values if group_of[str(v.move)] != mine]
        winning_others = [v for v in others if v.wdl > 0]
        wins = best.wdl > 0
        return Choice(
            best=best.move,
            score=_table_score(best),
            second=_table_score(others[0]) if others else None,
            choices=len(by_result),
            exact=True,
            only=wins and not winning_others,
            only_last=wins and all(v.dtm == best.dtm for v in winning_others),
            equal=tuple(str(m) for m in by_result[mine]),
            last_equal=tuple(str(v.move) for v in winning_others if v.dtm == best.dtm),
        )

    # --- the engine -----------------------------------------------------------------------

    def _search(self, board: Board, nodes: int, lines: int) -> tuple[tuple[SearchInfo, ...], int]:
        """The search's lines, best first, and the depth from which its first move held."""
        picks: dict[int, Move] = {}

        def hear(info: SearchInfo) -> None:
            if info.multipv == 1 and info.pv:
                picks[info.depth] = info.pv[0]

        self.searcher.clear()
        result = self.searcher.search(board, Limit(nodes=nodes), multipv=lines, on_info=hear)
        infos = tuple(sorted(result.infos, key=lambda info: info.multipv))
        if not infos or not infos[0].pv:
            raise RuntimeError(f"the search found no move in {board.position()}")
        best = infos[0].pv[0]
        depth = 0
        for d in sorted(picks, reverse=True):
            if picks[d] != best:
                break
            depth = d
        return infos, depth or infos[0].depth

    def choice(self, board: Board, nodes: int) -> Choice:
        """The position judged for the player to move (the tables' value where they hold it,
        else the engine's at ``nodes``); the game must not be over."""
        if self.in_tables(board):
            return self._table_choice(board)
        by_result = groups(board)
        if not by_result:
            raise ValueError(f"{board.position()}: the game is over")
        group_of = {str(m): key for key, ms in by_result.items() for m in ms}
        biggest = max(len(ms) for ms in by_result.values())
        lines = min(len(group_of), biggest + 1)
        if len(by_result) == 1:
            (only,) = by_result.values()
            infos, depth = self._search(board, nodes, 1)
            best = infos[0].pv[0]
            texts = tuple(str(m) for m in only)
            return Choice(
                best, infos[0].score, None, 1, False, True, True, texts, (), 0, infos[0].depth
            )
        infos, depth = self._search(board, nodes, lines)
        best, score = infos[0].pv[0], infos[0].score
        mine = group_of[str(best)]
        second = next((i.score for i in infos if group_of[str(i.pv[0])] != mine), None)
        if second is None:  # pragma: no cover - the lines reach another group by construction
            raise RuntimeError(f"no second choice among {len(infos)} lines")
        now = wins_now(board, best)
        winners = tuple(
            str(m)
            for key, ms in by_result.items()
            if now and key != mine
            for m in ms
            if wins_now(board, m)
        )
        strict = clearly_better(score, second)
        return Choice(
            best=best,
            score=score,
            second=second,
            choices=len(by_result),
            exact=False,
            only=strict,
            only_last=strict or now,
            equal=tuple(str(m) for m in by_result[mine]),
            last_equal=winners,
            depth=depth,
            reached=infos[0].depth,
        )

    def value(self, board: Board, nodes: int) -> Score:
        """The position's score for the player to move (exact in the tables)."""
        if self.in_tables(board):
            assert self.tables is not None
            dtm = self.tables.probe_dtm(board)
            return Score.win(dtm) if dtm > 0 else Score.loss(-dtm) if dtm < 0 else Score.draw()
        infos, _ = self._search(board, nodes, 1)
        return infos[0].score

    def reply(self, board: Board, nodes: int) -> Move:
        """The best move for the player to move: the tables' (the longest defence of a lost
        position), else the engine's at ``nodes``."""
        if self.in_tables(board):
            assert self.tables is not None
            move = self.tables.best_move(board)
            assert move is not None
            return move
        moves = board.moves()
        if len(moves) == 1:
            return moves[0]
        infos, _ = self._search(board, nodes, 1)
        return infos[0].pv[0]
