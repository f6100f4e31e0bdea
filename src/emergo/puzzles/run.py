"""A generation run: games handed to a runner, their puzzles written to a file as they come,
resumable from that file (``emergo puzzles generate`` is this module and a progress bar).

The file (docs/puzzles.md) starts with ``# emergo puzzles 1`` and the settings; each game
examined adds its puzzles and one note, ``# game N SOURCE positions=.. candidates=.. kept=..
rejected=..``, in the order of the games (results that finish early wait for those before
them), so the same settings give the same file whatever the runner and the number of workers,
and a run stopped anywhere goes on from the game after the last note.  A puzzle whose
position is already in the file is left out (the note counts it as ``duplicate``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from emergo.parallel import Runner, ThreadRunner
from emergo.puzzles.generate import Settings, SourceGame, Yield, puzzles_of_game, selfplay_game
from emergo.puzzles.model import FORMAT, Puzzle, format_line, parse_line

__all__ = ["GAMES_MAX", "Interrupted", "Summary", "read_state", "run"]

GAMES_MAX = 10_000_000
"""Self-play games a run may go through."""


@dataclass
class Summary:
    """What a run did (this run only, not the part of the file a resumed run found)."""

    games: int = 0
    positions: int = 0
    candidates: int = 0
    kept: int = 0
    duplicates: int = 0
    seconds: float = 0.0
    """The games' own time (each game's wall time, summed over the workers)."""
    total: int = 0
    """Puzzles in the file at the end, the ones found before a resume included."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run`; ``summary`` says what was written (the file is kept)."""

    def __init__(self, summary: Summary) -> None:
        super().__init__("puzzle generation interrupted")
        self.summary = summary


@dataclass(frozen=True)
class State:
    """What a puzzle file holds already: the settings line, the games done, the positions."""

    settings: str
    games: int
    """The number of the next game (one more than the last note's)."""
    positions: frozenset[str]
    puzzles: int


def read_state(path: str | Path) -> State | None:
    """The state of a puzzle file, ``None`` when there is none.  A block cut short (a puzzle
    line after the last note, from a run killed in the middle of a write) is dropped from the
    file.  ValueError when the file is not a puzzle file."""
    target = Path(path)
    if not target.exists():
        return None
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
    if not lines or lines[0].strip() != f"# {FORMAT}":
        raise ValueError(f"{path}: not a puzzle file (its first line is not '# {FORMAT}')")
    if len(lines) < 2 or not lines[1].startswith("# settings "):
        raise ValueError(f"{path}: line 2: the settings line is missing")
    keep = 2
    games = 0
    positions: set[str] = set()
    count = 0
    pending: list[str] = []
    for number, line in enumerate(lines[2:], 3):
        if line.startswith("# game "):
            try:
                games = int(line.split()[2]) + 1
            except (IndexError, ValueError):
                raise ValueError(f"{path}: line {number}: a broken note") from None
            for text in pending:
                positions.add(parse_line(text).position)
            count += len(pending)
            pending = []
            keep = number
        elif line.strip() and not line.startswith("#"):
            if not line.endswith("\n"):
                break
            pending.append(line)
    if keep < len(lines):
        with open(target, "w", encoding="utf-8") as out:
            out.writelines(lines[:keep])
    return State(lines[1][2:].strip(), games, frozenset(positions), count)


def _selfplay_job(settings: Settings, number: int) -> Yield:
    return puzzles_of_game(settings, selfplay_game(settings, number))


def _record_job(settings: Settings, game: SourceGame) -> Yield:
    return puzzles_of_game(settings, game)


def run(
    settings: Settings,
    output: str | Path,
    count: int,
    *,
    records: Sequence[SourceGame] | None = None,
    source: str = "selfplay",
    runner: Runner | None = None,
    on_game: Callable[[Yield, Summary], None] | None = None,
) -> Summary:
    """Generate into ``output`` until it holds ``count`` puzzles (or the records are done),
    going on from what it holds.  ``records``: the games of a records file (``source`` names
    it in the settings line, e.g. ``records:games.egn``); default self-play.  ``on_game``
    hears of each game as it is written.  Ctrl-C raises :class:`Interrupted`; ValueError when
    the file was made with other settings."""
    if str(output).endswith(".gz"):
        raise ValueError(f"{output}: a run writes plain text (compress the file once it is done)")
    header = settings.header(source)
    state = read_state(output)
    if state is not None and state.settings != header:
        raise ValueError(
            f"{output} was made with other settings ({state.settings}); these are ({header}): "
            "use another file, or --force to start it again"
        )
    if state is None:
        with open(output, "w", encoding="utf-8") as out:
            out.write(f"# {FORMAT}\n# {header}\n")
        state = State(header, 0, frozenset(), 0)
    summary = Summary(total=state.puzzles)
    seen = set(state.positions)
    first = state.games
    if summary.total >= count:
        return summary
    if records is None:
        fn: Callable[[Any], Yield] = partial(_selfplay_job, settings)
        jobs: Sequence[Any] = range(first, GAMES_MAX)
    else:
        fn = partial(_record_job, settings)
        jobs = [g for g in records if g.number >= first]
    runner = runner or ThreadRunner(1)
    results: Iterator[tuple[int, Yield]] = runner.run(fn, jobs)
    waiting: dict[int, Yield] = {}
    following = 0
    try:
        with open(output, "a", encoding="utf-8") as out:
            for index, found in results:
                waiting[index] = found
                while following in waiting:
                    game = waiting.pop(following)
                    following += 1
                    _write(out, game, seen, summary)
                    if on_game is not None:
                        on_game(game, summary)
                    if summary.total >= count:
                        return summary
    except KeyboardInterrupt:
        raise Interrupted(summary) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return summary


def _write(out: TextIO, game: Yield, seen: set[str], summary: Summary) -> None:
    fresh: list[Puzzle] = []
    for puzzle in game.puzzles:
        if puzzle.position in seen:
            summary.duplicates += 1
            continue
        seen.add(puzzle.position)
        fresh.append(puzzle)
    duplicates = len(game.puzzles) - len(fresh)
    note = replace(game, puzzles=tuple(fresh)).note()
    if duplicates:
        note += f" duplicate={duplicates}"
    block = "".join(format_line(p) + "\n" for p in fresh) + f"# {note}\n"
    out.write(block)
    out.flush()
    os.fsync(out.fileno())
    summary.games += 1
    summary.positions += game.positions
    summary.candidates += game.candidates
    summary.kept += len(fresh)
    summary.total += len(fresh)
    summary.seconds += game.seconds
