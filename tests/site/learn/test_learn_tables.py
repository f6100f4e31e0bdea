"""The course's endings against the endgame tables (docs/learn.md, docs/tablebase.md).

Every ``tables`` level's solution is the tables' fastest line and its replies their best; the
checker stops a move that lets the win (or the draw) slip, and says at the end where a win took
longer than it had to.  The 3-column levels are on 7x7, whose table is built here (2 s).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugins.common import requires_kernel

requires_kernel()

from emergo.server.learn import Course, load_course  # noqa: E402
from emergo.tablebase import Tablebase, build  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Course]:
    folder: Path = tmp_path_factory.mktemp("tables")
    build("7x7", 3, folder)
    with Tablebase([folder]) as tables:
        yield load_course(tables=tables)


def test_the_endings_are_the_tables_lines(course: Course) -> None:
    assert course.table_problems() == []
    levels = [lv for lv in course.levels.values() if lv.opponent == "tables"]
    assert {lv.variant for lv in levels} == {"9x9", "7x7", "hex"}
    assert {lv.goal.kind for lv in levels} == {"win", "hold"}


def test_levels_whose_table_is_missing_are_named(course: Course, tmp_path: Path) -> None:
    assert course.unavailable() == []
    with Tablebase([tmp_path]) as empty:  # the 2-column tables only, built in memory
        missing = Course(course.stages, course.catalogue, tables=empty).unavailable()
    three = [lv.id for lv in course.levels.values() if course.tables_needed(lv) == 3]
    assert missing == three and len(three) == 5


def test_the_fastest_win_gets_three_stars_and_says_so(course: Course) -> None:
    for level in course.levels.values():
        if level.opponent != "tables":
            continue
        attempt = course.start(level.id)
        for i, move in enumerate(level.solution):
            verdict = course.judge(attempt, move)
            if i < len(level.solution) - 1:
                assert verdict.status == "right", (level.id, move, verdict.text)
                assert verdict.reply == level.replies[i]
            attempt = verdict.attempt
        assert (verdict.status, verdict.stars) == ("done", 3), level.id
        if level.goal.kind == "win":
            assert verdict.notes == (course.catalogue.text("verdict.fastest"),)


def test_a_move_that_lets_the_win_slip_is_stopped(course: Course) -> None:
    attempt = course.start("endings/hex-two")
    verdict = course.judge(attempt, "e3-e4")
    assert verdict.status == "wrong"
    assert verdict.text == course.catalogue.text("verdict.slip-draw", move="e3-e4")
    assert verdict.attempt.mistakes == 1 and verdict.attempt.moves == ()
    right = course.judge(verdict.attempt, "e3-d3")
    assert (right.status, right.reply) == ("right", "a3-b4")
    assert right.text == "Good. You still win, in 7 more moves with best play."


def test_a_move_that_loses_the_draw_is_stopped(course: Course) -> None:
    level = course.levels["endings/hold"]
    board = course.start_board(level)
    values = course.tables().probe_moves(board)
    losing = [board.move_text(v.move) for v in values if v.wdl < 0]
    assert losing, "the hold level has moves that lose"
    verdict = course.judge(course.start(level.id), losing[0])
    assert verdict.status == "wrong"
    assert verdict.text == course.catalogue.text("verdict.slip-loss", move=losing[0])
    held = course.judge(course.start(level.id), level.solution[0])
    assert held.text == course.catalogue.text("verdict.value-draw")


def test_a_slower_win_is_named_and_costs_stars(course: Course) -> None:
    level = course.levels["endings/big-cap"]
    attempt = course.start(level.id)
    slow = 0
    while True:
        board = course.board(attempt)
        wins = [v for v in course.tables().probe_moves(board) if v.wdl > 0]
        pick = wins[-1] if slow < 2 and wins[-1].dtm > wins[0].dtm else wins[0]
        slow += pick is wins[-1] and pick.dtm > wins[0].dtm
        verdict = course.judge(attempt, board.move_text(pick.move))
        attempt = verdict.attempt
        if verdict.status != "right":
            break
    assert verdict.status == "done"
    assert slow == 2
    assert len(verdict.notes) == 2
    assert all("won more slowly than it had to" in note for note in verdict.notes)
    assert verdict.stars is not None and verdict.stars < 3
