"""The shipped puzzle set (src/emergo/data/puzzles-*.txt.gz): every puzzle played and checked.

Every puzzle's solution is played (legal, no repetition, the claimed gain, the themes the
taggers read) and every position of a line the endgame tables hold is checked exactly: the
2-column tables are built in memory, and the 3-column tables each board's puzzles need are
built here (2 s for 7x7; half a minute and 1.1 GB of memory for 9x9, as much time for the
hexagon) unless the folder ``$EMERGO_PUZZLE_TABLES`` holds them already.  A sample is checked
with the engine at the stated budget and at twice it.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("emergo.kernel", exc_type=ImportError)

from emergo import tablebase
from emergo.geometry import VARIANTS
from emergo.puzzles import THEMES, data_file, load, read_puzzles
from emergo.puzzles.generate import BUDGET, LEVELS, MAX_MOVES, MIN_GAIN, SCREEN, Settings
from emergo.puzzles.judge import Judge
from emergo.puzzles.model import settings_line
from emergo.puzzles.themes import Line
from emergo.puzzles.verify import check_puzzle, parse_settings
from emergo.tablebase import Tablebase, columns_of

SAMPLE = 150
"""Every SAMPLE-th puzzle of each board is checked with the engine (about 20 in all)."""


def _settings(variant: str) -> Settings:
    return parse_settings(settings_line(data_file(variant)))


def _needs_three_columns(variant: str) -> bool:
    for puzzle in read_puzzles(data_file(variant)):
        if puzzle.proof == "tables":
            line = Line.play(puzzle.position, puzzle.solution)
            if any(columns_of(board) == 3 for board in line.boards):
                return True
    return False


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    """A judge with every table the shipped puzzles meet."""
    given = os.environ.get("EMERGO_PUZZLE_TABLES")
    tables = Tablebase([Path(given)] if given else [])
    folder = tmp_path_factory.mktemp("tables")
    for variant in VARIANTS:
        if not tables.has(variant, 3) and _needs_three_columns(variant):
            tablebase.build(variant, 3, folder)
    tables.add_directory(folder)
    return Judge(tables)


def test_the_files_were_made_with_the_stated_settings() -> None:
    for variant in VARIANTS:
        line = settings_line(data_file(variant))
        assert _settings(variant) == Settings(variant=variant)
        defaults = (BUDGET, SCREEN, LEVELS, MAX_MOVES, MIN_GAIN)
        settings = _settings(variant)
        assert (
            settings.budget,
            settings.screen,
            settings.levels,
            settings.max_moves,
            settings.min_gain,
        ) == defaults
        assert line.endswith("tables=3 source=selfplay")  # made with every 3-column table


def test_the_set_is_big_enough_and_each_puzzle_once() -> None:
    every = load()
    counts = Counter(p.variant for p in every)
    assert sum(counts.values()) >= 3000
    assert counts["9x9"] > max(counts["7x7"], counts["hex"]) and min(counts.values()) >= 500
    assert len({p.id for p in every}) == len(every)
    assert len({(p.variant, p.position) for p in every}) == len(every)
    themes = Counter(t for p in every for t in p.themes)
    assert set(themes) <= set(THEMES)
    assert themes["feed"] and themes["liberation"] and themes["feederCombination"]
    sizes = sum(data_file(v).stat().st_size for v in VARIANTS)
    assert sizes < 4_000_000  # a few MB at most, to ship


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_puzzle_plays_and_holds(variant: str, judge: Judge) -> None:
    settings = _settings(variant)
    exact = 0
    for puzzle in read_puzzles(data_file(variant)):
        checked = check_puzzle(puzzle, settings, judge, engine=False)
        assert checked.problems == () and not checked.skipped, (puzzle.id, checked)
        exact += checked.exact
    assert exact == sum(p.proof == "tables" for p in read_puzzles(data_file(variant)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sample_holds_at_the_stated_budget(variant: str, judge: Judge) -> None:
    settings = _settings(variant)
    assert judge.tables is not None
    if not judge.tables.has(variant, 3):  # the generator's search had them (tables=3)
        tablebase.build(variant, 3, judge.tables.directories[-1])
    sample = list(read_puzzles(data_file(variant)))[::SAMPLE]
    assert len(sample) >= 3
    for puzzle in sample:
        checked = check_puzzle(puzzle, settings, judge)
        assert checked.problems == () and not checked.skipped, (puzzle.id, checked.problems)
