"""What counts as done in a level: the goal kinds and the test of a move against them.

A goal is judged on one move: what the position before it held (:class:`Before`), the move, and
the position after it (the board with its history, so that a repetition counts, R19b).
:func:`check` answers ``None`` when the move meets the goal, else a :class:`Miss`: the catalogue
key that says why, and its fields.
The rules themselves are the board's: a move reaches :func:`check` only when it is legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from emergo.board import Board, Color, Move, MoveKind, Stack, Termination
from emergo.geometry import Square

__all__ = [
    "GOAL_KINDS",
    "MOVE_GOALS",
    "Before",
    "Goal",
    "Miss",
    "check",
    "fed",
    "freed",
]

GOAL_KINDS = ("reach", "capture", "liberate", "feed", "win", "draw", "hold", "question")
"""Every goal kind (docs/learn.md has a paragraph on each)."""
MOVE_GOALS = GOAL_KINDS[:-1]
"""The kinds judged on moves; a ``question`` is answered in words or a number."""
DRAWS = {"blocked": Termination.BLOCKED, "repetition": Termination.REPETITION}
"""How a ``draw`` goal may ask the game to end (R19a, R19b)."""


@dataclass(frozen=True)
class Goal:
    """A level's goal: its kind and what it asks for.

    ``targets``: the squares a move must end on (``reach``; ``capture`` and ``liberate`` when
    given).  ``men``: at least this many men taken (``capture``), freed (``liberate``), or
    taken by the opponent's forced capture (``feed``).  ``by``: how a ``draw`` must come
    (``blocked`` or ``repetition``; any draw when ``None``).
    """

    kind: str
    targets: tuple[Square, ...] = ()
    men: int = 0
    by: str | None = None


@dataclass(frozen=True)
class Miss:
    """Why a move fails a goal: a catalogue key (``verdict.*``) and the fields of its text."""

    key: str
    fields: Mapping[str, int | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Before:
    """What a goal needs of the position before a move: who made it, and the pieces."""

    turn: Color
    stacks: Mapping[Square, Stack]

    @classmethod
    def of(cls, board: Board) -> Before:
        return cls(board.turn, board.stacks())


def freed(before: Before, after: Board) -> int:
    """Men of the mover's colour liberated by a move: their pieces changed hands (R9)."""
    me = before.turn
    count = 0
    for sq, stack in after.stacks().items():
        old = before.stacks.get(sq)
        if stack.owner == me and old is not None and old.owner != me:
            count += stack.caps
    return count


def fed(after: Board) -> int:
    """Men the player to move must capture now (0 when he has no capture, R8, R11)."""
    moves = after.generate()
    return moves.size if after.is_capturing() else 0


def check(goal: Goal, before: Before, move: Move, after: Board) -> Miss | None:
    """``None`` when ``move`` (legal before, giving ``after``) meets ``goal``, else why not.

    ``win`` and ``draw`` are about the game as a whole: a move meets ``win`` when it ends the
    game won (R18), ``draw`` when it ends the game drawn (R19a, R19b).  ``hold`` is met by
    making the number of moves a level asks for without losing the value of the position, which
    only the level and its opponent know: it is the course's to judge, not this function's.
    """
    kind = goal.kind
    me = before.turn
    names = after.geometry.square_name
    end = move.path[-1]
    if goal.targets and kind in ("reach", "capture", "liberate") and end not in goal.targets:
        key = "verdict.reach" if kind == "reach" else "verdict.land"
        return Miss(key, {"square": names(end)})
    if kind == "reach":
        return None
    if kind == "capture":
        if move.kind is not MoveKind.CAPTURE:
            return Miss("verdict.capture-none")
        if move.captured < goal.men:
            return Miss("verdict.capture-few", {"taken": move.captured, "men": goal.men})
        return None
    if kind == "liberate":
        n = freed(before, after)
        if n == 0:
            return Miss("verdict.liberate-none")
        if n < goal.men:
            return Miss("verdict.liberate-few", {"freed": n, "men": goal.men})
        return None
    if kind == "feed":
        n = fed(after)
        if n == 0:
            return Miss("verdict.feed-none")
        if n < goal.men:
            return Miss("verdict.feed-few", {"taken": n, "men": goal.men})
        return None
    outcome = after.outcome()
    if kind == "win":
        if outcome is not None and outcome.winner == me:
            return None
        return Miss("verdict.win")
    if kind == "draw":
        wanted = DRAWS.get(goal.by or "")  # None: any draw
        drawn = outcome.termination if outcome is not None and outcome.winner is None else None
        if drawn is not None and wanted in (None, drawn):
            return None
        return Miss(f"verdict.draw-{goal.by}" if goal.by else "verdict.draw")
    raise ValueError(f"{kind!r} is not a goal judged on moves")
