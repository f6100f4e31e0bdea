"""Checking an attempt at a puzzle, move by move, as the training page plays it.

:func:`check` takes the moves played from the puzzle's position so far -- the solver's and the
opponent's scripted replies in turn, ending with the solver's latest move -- and says whether
that move is ``right`` (then the reply to play), ``wrong`` (then the opponent's best reply to
it, the *refutation*, and the solution's move) or ``solved`` (the puzzle is done).

A move is right when it is the solution's move or leads to the same position (two capture
routes that end alike, R11).  Any move that wins the game at once (R18) solves the puzzle,
wherever it comes (lichess accepts any mate).  At the solution's last move, a move the endgame
tables prove to win exactly as fast as the solution's also solves it; the generator keeps no
puzzle where a slower win or another move would be as good (docs/puzzles.md).  Move texts are
read by :meth:`emergo.Board.parse_move` (any form it takes, ``names`` for the checkerboard
names of R3) and compared as moves, never as texts; the answers are canonical R21 texts.

>>> from emergo.puzzles.model import Puzzle
>>> p = Puzzle("x", "9x9", "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b", ("e4xc4xc6xe6xe4xc4",),
...            ("win",), 1500, 5, "engine", "record:x", 0)
>>> check(p, ["e4-c4-c6-e6-e4-c4"]).status   # the ArenA's way of writing it
'solved'
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from emergo.board import Board, Move
from emergo.geometry import Names
from emergo.puzzles.line import result, wins_now
from emergo.puzzles.model import Puzzle

if TYPE_CHECKING:  # the judge needs the C kernel: imported when a refutation is searched
    from emergo.puzzles.judge import Judge

__all__ = ["REFUTATION_NODES", "Verdict", "accepted", "check"]

REFUTATION_NODES = 100_000
"""Nodes the engine searches for the refutation of a wrong move (the generator's budget)."""

Status = Literal["right", "wrong", "solved"]


@dataclass(frozen=True)
class Verdict:
    """What the solver's latest move was (see the module)."""

    status: Status
    move: str
    """The solver's move, canonical."""
    ply: int
    """Its index in the solution (0 for the first move)."""
    reply: str | None = None
    """``right``: the opponent's scripted reply, to be played now."""
    refutation: str | None = None
    """``wrong``: the opponent's best reply to the move (``None`` when it ended the game)."""
    solution: str | None = None
    """``wrong``: the move the solution plays there."""


_JUDGES: dict[int, Judge] = {}


def _judge() -> Judge | None:
    """The thread's judge on the default tables (made when first needed); ``None`` without
    the C kernel (no refutation then, nor the tables)."""
    key = threading.get_ident()
    judge = _JUDGES.get(key)
    if judge is None:
        try:
            from emergo import tablebase
            from emergo.puzzles.judge import Judge
        except ImportError:
            return None
        judge = _JUDGES[key] = Judge(tablebase.default())
    return judge


def _equal_table_win(board: Board, move: Move, solution: Move, judge: Judge | None) -> bool:
    """The tables say ``move`` wins as fast as ``solution`` (the last move of a puzzle)."""
    if judge is None:
        return False
    from emergo.tablebase import TablebaseError

    try:
        if not judge.in_tables(board):
            return False
    except TablebaseError:
        return False
    assert judge.tables is not None
    values = {str(v.move): v for v in judge.tables.probe_moves(board)}
    mine, theirs = values[str(move)], values[str(solution)]
    return mine.wdl > 0 and mine.dtm == theirs.dtm


def _judged(
    board: Board, played: Move, expected: Move, final: bool, judge: Judge | None
) -> Literal["right", "solved"] | None:
    """The one rule for a solver's move (the module's): ``solved``, ``right`` or wrong
    (``None``), ``expected`` being the solution's move there and ``final`` its last."""
    same = played == expected or result(board, played) == result(board, expected)
    if wins_now(board, played) or (
        final and (same or _equal_table_win(board, played, expected, judge or _judge()))
    ):
        return "solved"
    return "right" if same else None


@functools.lru_cache(maxsize=4096)
def accepted(puzzle: Puzzle) -> tuple[dict[str, Literal["right", "solved"]], ...]:
    """For each of the solver's moves of the solution, every legal move :func:`check`
    takes there (canonical text: ``right`` or ``solved``), the opponent's replies being the
    solution's: a page judging moves as they come (the timed run) judges by this, with
    :func:`check`'s rule, and never by the text of the solution's move alone."""
    board = puzzle.board()
    final = len(puzzle.solution) - 1
    out: list[dict[str, Literal["right", "solved"]]] = []
    for i, text in enumerate(puzzle.solution):
        expected = board.parse_move(text)
        if i % 2 == 0:
            takes: dict[str, Literal["right", "solved"]] = {}
            for move in board.moves():
                verdict = _judged(board, move, expected, i == final, None)
                if verdict is not None:
                    takes[str(move)] = verdict
            out.append(takes)
        board.push(expected)
    return tuple(out)


def check(
    puzzle: Puzzle,
    moves: Sequence[str],
    *,
    names: Names = "oblique",
    judge: Judge | None = None,
) -> Verdict:
    """The verdict on the last of ``moves`` (see the module).  ``judge``: an
    :class:`emergo.puzzles.judge.Judge` for the refutation and the tables (default: one per
    thread, on :func:`emergo.tablebase.default`'s tables; without the C kernel there is none,
    and a wrong move's refutation is ``None``).

    ValueError (the move parser's errors among them: :class:`~emergo.errors.IllegalMoveError`
    and the like) when the moves are not an attempt at this puzzle: an even number of them,
    a reply that is not the puzzle's, a move after a wrong one or after the end.
    """
    if isinstance(moves, str):
        raise TypeError("moves must be a sequence of move texts, not one string")
    if len(moves) % 2 != 1:
        raise ValueError(
            f"{len(moves)} moves: an attempt ends with the solver's move (an odd number)"
        )
    if len(moves) > len(puzzle.solution):
        raise ValueError(f"{len(moves)} moves, but the solution has {len(puzzle.solution)}")
    board = puzzle.board()
    last = len(moves) - 1
    final = len(puzzle.solution) - 1
    for i, text in enumerate(moves):
        played = board.parse_move(text, names)
        expected = board.parse_move(puzzle.solution[i])
        if i % 2:
            if played != expected and result(board, played) != result(board, expected):
                raise ValueError(f"move {i + 1} {text!r} is not the puzzle's reply {expected}")
            board.push(expected)
            continue
        verdict = _judged(board, played, expected, i == final, judge)
        if verdict == "solved":
            if i != last:
                raise ValueError(f"move {i + 1} {text!r} ended the puzzle already")
            return Verdict("solved", str(played), i)
        if verdict is None:
            if i != last:
                raise ValueError(f"move {i + 1} {text!r} was wrong: the attempt ended there")
            board.push(played)
            refutation = None
            used = judge or _judge()
            if board.outcome() is None and used is not None:
                refutation = str(used.reply(Board(board.position()), REFUTATION_NODES))
            return Verdict("wrong", str(played), i, solution=str(expected), refutation=refutation)
        if i == last:
            return Verdict("right", str(played), i, reply=puzzle.solution[i + 1])
        board.push(played)
    raise AssertionError("unreachable: the last move returns")  # pragma: no cover
