"""Emergo puzzles: positions where one line wins, mined from games and proven (docs/puzzles.md).

The shipped set and checking an attempt need no C kernel::

    >>> from emergo import puzzles
    >>> sets = {v: len(puzzles.load(v)) for v in ("9x9", "7x7", "hex")}
    >>> sum(sets.values()) >= 3000 and sets["9x9"] > sets["7x7"] > 0 and sets["hex"] > 0
    True
    >>> puzzle = puzzles.load("7x7", theme="feed")[0]
    >>> verdict = puzzles.check(puzzle, [puzzle.solution[0]])
    >>> verdict.status in ("right", "solved")
    True

The parts, by what they do:

* :mod:`emergo.puzzles.model`: :class:`Puzzle`, :data:`THEMES`, the file format, :func:`load`;
* :mod:`emergo.puzzles.attempt`: :func:`check` and its :class:`Verdict`, :func:`accepted` (the
  moves it takes at each of the solver's turns);
* :mod:`emergo.puzzles.line` and :mod:`emergo.puzzles.themes`: material and the taggers;
* :mod:`emergo.puzzles.judge` (the engine and the tables on a position),
  :mod:`emergo.puzzles.generate` (candidates, lines, ratings), :mod:`emergo.puzzles.run` (a
  whole run into a file, resumable) and :mod:`emergo.puzzles.verify`: these need the C kernel,
  and are imported by name.
"""

from __future__ import annotations

from emergo.puzzles.attempt import REFUTATION_NODES, Verdict, accepted, check
from emergo.puzzles.model import (
    FORMAT,
    PROOFS,
    THEMES,
    Puzzle,
    PuzzleFileError,
    data_file,
    format_line,
    load,
    parse_line,
    puzzle_id,
    read_puzzles,
)

__all__ = [
    "FORMAT",
    "PROOFS",
    "REFUTATION_NODES",
    "THEMES",
    "Puzzle",
    "PuzzleFileError",
    "Verdict",
    "accepted",
    "check",
    "data_file",
    "format_line",
    "load",
    "parse_line",
    "puzzle_id",
    "read_puzzles",
]
