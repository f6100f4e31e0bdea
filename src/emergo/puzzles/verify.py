"""Re-checking puzzles: everything the generator claimed, again (``emergo puzzles verify``).

:func:`check_puzzle` returns the problems of one puzzle (none: it holds).  Without the engine
(``engine=False``) it checks what needs no search: the fields (the id, an odd solution, the
game's moves leading to the position), the line (legal, no repetition in it or with the game
before it, ending on the solver's move and never on a forced entry or step), the gain (the
material won once the forced captures are made, :func:`emergo.puzzles.line.settle`), the
themes (the taggers' reading of the line) and, exactly, every position of the line the endgame
tables hold (the solver's move the only winning one, the replies the tables' best).  With the
engine it adds the search's checks at the file's budget and at twice it: each solver move the
engine's best (or a move to the same position) and an only move, each reply the engine's best,
the candidate's condition on the position before it, and the rating estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from emergo.board import Board, MoveKind
from emergo.puzzles.generate import (
    Rejected,
    Settings,
    endings_won,
    estimate_rating,
    is_candidate,
    recheck,
)
from emergo.puzzles.judge import Choice, Judge
from emergo.puzzles.line import balance, groups, result, settle
from emergo.puzzles.model import Puzzle, puzzle_id
from emergo.puzzles.themes import Line, tag
from emergo.tablebase import MissingTableError, columns_of

__all__ = ["Checked", "check_puzzle", "parse_settings", "table_columns"]


@dataclass(frozen=True)
class Checked:
    """A puzzle's problems (empty: it holds) and whether the tables proved part of it."""

    puzzle: Puzzle
    problems: tuple[str, ...]
    exact: bool
    """A position of its line is in the tables, and the tables checked it."""
    skipped: str = ""
    """Why a part was not checked (a table not built), if one was not."""


def table_columns(line: str) -> int:
    """The largest tables the generator had, by a file's settings line (``tables=3``)."""
    words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
    return int(words.get("tables", "2"))


def parse_settings(line: str) -> Settings:
    """The :class:`Settings` of a file's settings line (``settings variant=9x9 budget=...``)."""
    words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
    try:
        return Settings(
            variant=words["variant"],
            budget=int(words["budget"]),
            screen=int(words["screen"]),
            seed=int(words["seed"]),
            levels=tuple(int(x) for x in words["levels"].split(",")),
            max_moves=int(words["moves"]),
            min_gain=int(words["gain"]),
        )
    except (KeyError, ValueError) as e:
        raise ValueError(f"not a settings line ({e}): {line[:80]!r}") from None


def check_puzzle(
    puzzle: Puzzle, settings: Settings, judge: Judge, *, engine: bool = True
) -> Checked:
    """The problems of ``puzzle`` against ``settings`` (see the module)."""
    problems: list[str] = []
    try:
        line = Line.play(puzzle.position, puzzle.solution)
    except ValueError as e:
        return Checked(puzzle, (f"the solution is not legal: {e}",), False)
    if puzzle.id != puzzle_id(puzzle.variant, puzzle.position, puzzle.solution):
        problems.append(f"id {puzzle.id}: the puzzle's hash is another")
    if Board(puzzle.position).variant != puzzle.variant:
        problems.append(f"the position is not a {puzzle.variant} position")
    if puzzle.variant != settings.variant:
        problems.append(f"a {puzzle.variant} puzzle in a file of {settings.variant} puzzles")
    history: list[str] = []
    if puzzle.game:
        try:
            board = puzzle.game_board()
        except ValueError as e:
            problems.append(f"the game's moves are not legal: {e}")
        else:
            if board.position() != puzzle.position:
                problems.append("the game's moves do not lead to the position")
            replay = board.root()
            history.append(replay.position())
            for move in board.move_stack[:-1]:
                replay.push(move)
                history.append(replay.position())
    seen = set(history)
    for b in line.boards:
        if b.position() in seen:
            problems.append(f"{b.position()} repeats a position")
        seen.add(b.position())
    problems += _structure(puzzle, line, settings)
    skipped = ""
    exact = False
    try:
        exact, table_problems = _tables(puzzle, line, judge)
        problems += table_problems
    except MissingTableError as e:
        skipped = str(e)
    if exact != (puzzle.proof == "tables") and not skipped:
        problems.append(
            f"proof {puzzle.proof}, but the tables hold {'a' if exact else 'no'} position"
        )
    if engine and not skipped:
        problems += _engine(puzzle, line, settings, judge)
    return Checked(puzzle, tuple(problems), exact, skipped)


def _structure(puzzle: Puzzle, line: Line, settings: Settings) -> list[str]:
    problems = []
    moves = len(line.moves)
    if moves % 2 == 0:
        problems.append(f"{moves} moves: a line ends on the solver's move")
    if (moves + 1) // 2 > settings.max_moves:
        problems.append(f"{(moves + 1) // 2} solver moves, more than {settings.max_moves}")
    first = line.boards[0]
    if len(groups(first)) < 2:
        problems.append("the first move is forced")
    last_before, last = line.boards[-2], line.moves[-1]
    if len(groups(last_before)) < 2 and last.kind is not MoveKind.CAPTURE:
        problems.append("the last move is a forced entry or step")
    for i, b in enumerate(line.boards[:-1]):
        if b.outcome() is not None:
            problems.append(f"the game is over before move {i + 1}")
    end = line.boards[-1]
    solver = line.solver
    outcome = end.outcome()
    won = outcome is not None and outcome.winner == solver
    total, _ = settle(end, solver)
    gain = total - balance(first, solver)
    if gain != puzzle.gain:
        problems.append(f"gain {puzzle.gain} claimed, {gain} found")
    if not won and gain < settings.min_gain:
        problems.append(f"gain {gain}, less than {settings.min_gain}, and the game goes on")
    themes = tag(line)
    if themes != puzzle.themes:
        problems.append(f"themes {','.join(puzzle.themes)}, the taggers say {','.join(themes)}")
    return problems


def _tables(puzzle: Puzzle, line: Line, judge: Judge) -> tuple[bool, list[str]]:
    """Every position of the line the tables hold, checked exactly."""
    problems: list[str] = []
    exact = False
    last = len(line.moves) - 1
    solver = line.solver
    for i, board in enumerate(line.boards):
        if columns_of(board) is None:
            continue
        exact = True
        judge.in_tables(board)  # raises MissingTableError for a table not built
        assert judge.tables is not None
        if i == len(line.moves):
            continue  # the end: checked with the settled position below
        move = str(line.moves[i])
        if i % 2 == 0:
            choice = judge.choice(board, 1)
            right = move in choice.equal or (i == last and move in choice.last_equal)
            if not right or not (choice.only or (i == last and choice.only_last)):
                problems.append(f"move {i + 1} {move}: not the only winning move by the tables")
        elif result(board, judge.reply(board, 1)) != result(board, line.moves[i]):
            problems.append(f"move {i + 1} {move}: not the tables' best defence")
    end = line.boards[-1]
    _, where = settle(end, solver)
    if not endings_won(judge, solver, end, where):
        problems.append("the line ends in an ending the solver does not win")
    return exact, problems


def _engine(puzzle: Puzzle, line: Line, settings: Settings, judge: Judge) -> list[str]:
    """The search's checks: at the budget (which also gives the rating) and at twice it."""
    problems = []
    steps: list[Choice] = []
    for nodes in (settings.budget, 2 * settings.budget):
        try:
            found = recheck(judge, puzzle.position, line.moves, nodes)
        except Rejected:
            problems.append(f"a move is not the judge's only move (or best reply) at {nodes} nodes")
            continue
        steps = steps or found
    if not steps:
        return problems
    if puzzle.game:
        game = puzzle.game_board()
        game.pop()
        before = Board(game.position())
        if len(groups(before)) < 2:
            problems.append("the opponent's move before it was forced: no mistake of his")
        elif not is_candidate(judge.value(before, settings.budget), steps[0].score):
            problems.append("the position before it was no candidate's (already won?)")
    rating = estimate_rating(line, steps)
    if rating != puzzle.rating:
        problems.append(f"rating {puzzle.rating}, the estimate is {rating}")
    return problems
