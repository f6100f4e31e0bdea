"""The course of /learn (issue 28, docs/learn.md): its data holds together and its checker judges.

The course validates as shipped; every solution reaches its goal through the checker with three
stars; where a level says "the one right move", every other legal move (the C kernel's list)
fails the goal, and in a line of several moves no other first move forces the goal while the
solution's does; each rule a level claims to teach is in play in it; the rule table of
docs/learn.md is the data's.  The lines against the endgame tables are test_learn_tables.py's.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from emergo import Board, Move, MoveKind, Termination
from emergo.notation import format_position
from emergo.server.learn import (
    GOAL_KINDS,
    RULES,
    Attempt,
    AttemptError,
    Catalogue,
    Course,
    CourseError,
    Level,
    load_course,
    rule_table,
    stars,
)
from emergo.server.learn.catalogue import catalogue_path
from emergo.server.learn.goals import Before, check
from emergo.server.learn.levels import stages_dir
from tests.plugins.common import ROOT


@pytest.fixture(scope="module")
def course() -> Course:
    return load_course()


def move_levels(course: Course, *, tables: bool = False) -> Iterator[Level]:
    """The levels judged on moves (against the tables only when asked)."""
    for level in course.levels.values():
        if not level.is_question and (tables or level.opponent != "tables"):
            yield level


def line(level: Level) -> list[str]:
    """The level's whole line after its prelude: the solution and the replies in turn."""
    out = []
    for i, move in enumerate(level.solution):
        out.append(move)
        if i < len(level.replies):
            out.append(level.replies[i])
    return out


# --- the course as shipped ----------------------------------------------------------------------


def test_the_course_validates_and_is_big_enough(course: Course) -> None:
    assert course.problems() == []
    assert len(course.stages) >= 15
    assert len(course.levels) >= 80
    practice = [lv for lv in course.levels.values() if lv.opponent in ("tables", "bot")]
    assert len(practice) >= 10
    assert {lv.goal.kind for lv in course.levels.values()} == set(GOAL_KINDS)


def test_every_rule_is_taught_by_a_level(course: Course) -> None:
    index = course.rules_index()
    assert list(index) == list(RULES)
    assert [rule for rule, levels in index.items() if not levels] == []


def test_the_rule_table_of_docs_learn_md_is_the_data_s(course: Course) -> None:
    text = (ROOT / "docs" / "learn.md").read_text(encoding="utf-8")
    table = rule_table(course.rules_index())
    assert table in text, f"docs/learn.md: put this table under 'Rules and levels':\n{table}"


def test_the_stage_map_of_docs_learn_md_is_the_data_s(course: Course) -> None:
    text = (ROOT / "docs" / "learn.md").read_text(encoding="utf-8")
    for stage in course.stages:
        title = course.catalogue.text(f"{stage.id}.title")
        levels = ", ".join(f"`{lv.id.split('/')[1]}`" for lv in stage.levels)
        row = f"| {stage.number} | `{stage.id}` | {title} | {len(stage.levels)} | {levels} |"
        assert row in text, f"docs/learn.md lacks the course map's row {row}"


def test_every_level_text_is_short_and_plain(course: Course) -> None:
    # one idea a level, for a reader who has never seen the game: goals stay short
    for level in course.levels.values():
        goal = course.catalogue.text(f"{level.key}.goal")
        assert len(goal) <= 330, f"{level.id}: the goal is {len(goal)} characters"
        assert not re.search(r"\b[Rr]\d", goal), f"{level.id}: no rule numbers in a goal"


@pytest.mark.parametrize(
    "level_id", [lv.id for lv in load_course().levels.values() if not lv.is_question]
)
def test_every_solution_is_legal_and_canonical(course: Course, level_id: str) -> None:
    level = course.levels[level_id]
    board = course.start_board(level)
    for text in line(level):
        move = board.parse_move(text)
        assert board.move_text(move) == text
        board.push(move)


def test_every_solution_reaches_its_goal_with_three_stars(course: Course) -> None:
    for level in move_levels(course):
        attempt = course.start(level.id)
        for i, move in enumerate(level.solution):
            verdict = course.judge(attempt, move)
            last = i == len(level.solution) - 1
            if level.opponent == "bot" and not last:
                assert verdict.status == "right", (level.id, move, verdict.text)
                verdict = course.opponent_move(verdict.attempt, level.replies[i])
            assert verdict.status == ("done" if last else "right"), (level.id, move, verdict.text)
            attempt = verdict.attempt
        assert verdict.stars == 3, level.id
        assert verdict.text == course.catalogue.text(f"{level.key}.done")


def test_every_question_has_its_answer(course: Course) -> None:
    for level in course.levels.values():
        if level.is_question:
            assert level.answer is not None
            verdict = course.answer(course.start(level.id), level.answer)
            assert (verdict.status, verdict.stars) == ("done", 3), level.id


# --- the one right move, checked with the kernel ------------------------------------------------


@pytest.mark.requires_kernel
def test_the_one_right_move_is_the_only_one_that_meets_the_goal(course: Course) -> None:
    from emergo import kernel

    checked = 0
    for level in move_levels(course):
        if not level.only:
            continue
        board = course.start_board(level)
        for text in line(level)[:-1]:
            board.push_move(text)
        texts = kernel.legal_moves(board.position())  # the C kernel's list, not the board's
        assert sorted(texts) == sorted(board.move_text(m) for m in board.moves()), level.id
        meeting = []
        for text in texts:
            move = board.parse_move(text)
            before = Before.of(board)
            board.push(move)
            if check(level.goal, before, move, board) is None:
                meeting.append(text)
            board.pop()
        assert meeting == [level.solution[-1]], f"{level.id}: {meeting} meet the goal"
        checked += 1
    assert checked >= 40


def _forces(board: Board, level: Level, moves_left: int) -> bool:
    """Can the player to move meet the goal within ``moves_left`` moves, whatever the replies?"""
    return any(_forces_after(board, m, level, moves_left) for m in board.moves())


def _forces_after(board: Board, move: Move, level: Level, moves_left: int) -> bool:
    before = Before.of(board)
    board.push(move)
    try:
        if check(level.goal, before, move, board) is None:
            return True
        if moves_left <= 1 or board.is_game_over():
            return False
        for reply in board.moves():
            board.push(reply)
            try:
                if board.is_game_over() or not _forces(board, level, moves_left - 1):
                    return False
            finally:
                board.pop()
        return True
    finally:
        board.pop()


def test_a_line_of_several_moves_is_forced_and_its_first_move_the_only_one(
    course: Course,
) -> None:
    # A scripted reply is never a weak reply that the level needs: the solution reaches the goal
    # against every reply, and no other move of the player does so in as many moves.
    checked = 0
    for level in move_levels(course):
        if not level.only or len(level.solution) < 2:
            continue
        board = course.start_board(level)
        n = len(level.solution)
        forcing = [board.move_text(m) for m in board.moves() if _forces_after(board, m, level, n)]
        assert forcing == [level.solution[0]], f"{level.id}: {forcing} force the goal"
        checked += 1
    assert checked >= 8


# --- each rule a level claims to teach is in play ------------------------------------------------


def _feeding_squares(board: Board) -> set[str]:
    """Vacant squares where a man entered would give the opponent a capture (R15's test)."""
    out = set()
    geo = board.geometry
    stacks = {sq: (st.owner, st.caps, st.prisoners) for sq, st in board.stacks().items()}
    hands = [board.hand(False), board.hand(True)]
    hands[board.turn] -= 1
    for sq in geo.squares:
        if sq not in stacks:
            after = {**stacks, sq: (board.turn, 1, 0)}
            if Board(format_position(geo, not board.turn, hands, after)).is_capturing():
                out.add(geo.square_name(sq))
    return out


def _can_jump(board: Board, sq: int) -> bool:
    for _, over, land in board.geometry.jumps[sq]:
        target = board.stack(over)
        if target is not None and target.owner != board.turn and board.stack(land) is None:
            return True
    return False


def _could_step(board: Board) -> bool:
    return any(
        board.stack(n) is None
        for sq in board.pieces(board.turn)
        for n in board.geometry.neighbours[sq]
    )


def _in_play(level: Level, course: Course) -> set[str]:
    """The rules in play in a move level's line (the player's moves and the replies)."""
    board = course.start_board(level)
    player = board.turn
    seen: set[str] = set()
    if level.variant != "9x9":
        seen.add("R4")
    if level.names == "checker":
        seen.add("R3")
    for text in line(level):
        mine = board.turn == player
        move = board.parse_move(text)
        legal = board.moves()
        if move.kind is MoveKind.CAPTURE:
            seen.add("R9")
            if move.captured >= 2:
                seen.update(("R10", "R12"))
            starters = {m.path[0] for m in legal}
            jumpers = {sq for sq in board.pieces(board.turn) if _can_jump(board, sq)}
            if len(legal) > 1 or move.captured > 1 or jumpers != starters:
                seen.add("R11")  # a choice of routes, or a shorter capture refused
            if mine and (board.hand(player) or _could_step(board)):
                seen.add("R8")  # the capture comes before an entry or a step
        if mine and move.kind is MoveKind.ENTER:
            seen.add("R13" if move.entered == 1 else "R14")
            if _feeding_squares(board):
                seen.add("R15")  # a square forbidden, or allowed because attacked
            if board.hand(True) == board.hand(False) == board.geometry.men and player:
                seen.update(("R7", "R16"))
            if move.path[0] == board.geometry.centre:
                seen.add("R16")  # the centre entered: the ban is White's first move only
        if mine and move.kind is MoveKind.STEP:
            seen.add("R17")
        board.push(move)
    outcome = board.outcome()
    ends = {
        Termination.NO_PIECES: "R18",
        Termination.BLOCKED: "R19a",
        Termination.REPETITION: "R19b",
    }
    if outcome is not None:
        seen.add(ends[outcome.termination])
    if level.opponent in ("tables", "bot") and level.goal.kind == "win":
        seen.add("R18")  # the line played to its end is a sample; the goal is the win
    return seen


CHECKED_RULES = (
    "R3", "R4", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15", "R16", "R17", "R18",
    "R19a", "R19b",
)  # fmt: skip
"""The rules whose use a move level's line shows; the others are about the board, the pieces,
notation or the interface, and are taught by levels that read the position or answer."""


def test_a_move_level_uses_every_rule_it_claims_to_teach(course: Course) -> None:
    missing = []
    for level in move_levels(course, tables=True):
        for rule in level.rules:
            if rule in CHECKED_RULES and rule not in _in_play(level, course):
                missing.append(f"{level.id}: {rule}")
    assert missing == []


def test_each_checked_rule_is_used_by_a_move_level(course: Course) -> None:
    for rule in CHECKED_RULES:
        used = [
            lv.id
            for lv in move_levels(course, tables=True)
            if rule in lv.rules and rule in _in_play(lv, course)
        ]
        assert used, f"no move level uses {rule}"


# --- stars ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("par", "used", "expected"),
    [(1, 1, 3), (1, 2, 2), (1, 3, 1), (4, 3, 3), (4, 5, 2), (4, 6, 1), (16, 18, 2), (16, 19, 1)],
)
def test_stars_as_lichess_learn_gives_them(par: int, used: int, expected: int) -> None:
    # lichess: late = moves - par; 3 stars if late <= 0, 2 if late <= max(1, par / 8), else 1
    assert stars(par, used) == expected


def test_a_mistake_costs_a_star_and_two_cost_two(course: Course) -> None:
    level = course.levels["feeding/no-feed"]
    attempt = course.start(level.id)
    for wrong in ("c7", "a5"):
        verdict = course.judge(attempt, wrong)
        assert verdict.status == "wrong"
        attempt = verdict.attempt
        done = course.judge(attempt, "d5")
        assert done.status == "done"
        assert done.stars == (2 if attempt.mistakes == 1 else 1)


def test_a_question_answered_wrong_first_gives_two_stars(course: Course) -> None:
    wrong = course.answer(course.start("board/corner-neighbours"), "2")
    assert (wrong.status, wrong.attempt.mistakes) == ("wrong", 1)
    assert wrong.text == course.catalogue.text("verdict.answer")
    right = course.answer(wrong.attempt, " 1 ")
    assert (right.status, right.stars) == ("done", 2)


# --- the checker's verdicts ----------------------------------------------------------------------


def test_an_illegal_move_is_refused_with_the_board_s_reason(course: Course) -> None:
    attempt = course.start("feeding/no-feed")
    verdict = course.judge(attempt, "e4")
    assert verdict.status == "refused"
    assert verdict.text == (
        "illegal move e4: e4 would let Black capture and you are not under attack (R15)"
    )
    assert verdict.attempt == attempt  # a refusal is not a mistake
    centre = course.judge(course.start("entering/first-move"), "e5")
    assert centre.text == "illegal move e5: White may not enter on e5 on the first move (R16)"
    majority = course.judge(course.start("majority/most"), "b4xd4")
    assert "(R11)" in majority.text and majority.status == "refused"
    back = course.judge(course.start("majority/no-turning-back"), "c5xe5xc5")
    assert back.text.endswith("turns straight back, which a capture may not do (R10)")
    assert course.judge(attempt, "z9").status == "refused"
    assert course.judge(attempt, "x" * 200).status == "refused"


def test_a_move_that_fails_the_goal_says_why_in_the_catalogue_s_words(course: Course) -> None:
    cat = course.catalogue
    reach = course.judge(course.start("feeding/no-feed"), "c7")
    assert (reach.status, reach.move) == ("wrong", "c7")
    assert reach.text == cat.text("verdict.reach", square="c7")
    assert reach.position == course.start_board(course.levels["feeding/no-feed"]).position()
    liberate = course.judge(course.start("prisoners/free"), "d5xd3")
    assert liberate.text == cat.text("verdict.liberate-none")
    few = course.judge(course.start("prisoners/free-most"), "e3xe5xc5")
    assert few.text == "That frees 1 man. You can free 3 men."
    land = course.judge(course.start("majority/choose"), "e3xe5xc5")
    assert land.text == cat.text("verdict.land", square="c5")
    feed = course.judge(course.start("feeding/black-free"), "a5")
    assert feed.text == "White must capture now, but only 1 man. Feed 2 men."
    thick = course.judge(course.start("bury/thick-cap"), "e4xe6")
    assert thick.text == cat.text("verdict.land", square="e6")
    blocked = course.judge(course.start("ending/blocked"), "c5-c6")
    assert blocked.text == "Black can still move after that."
    line_miss = course.judge(course.start("feed/weak-piece"), "f4-e4")
    assert line_miss.text == cat.text("verdict.line")
    win = course.judge(course.start("feeder/inventor"), "f4-f5")
    assert (win.status, win.text) == ("wrong", cat.text("verdict.line"))


def test_a_level_s_own_word_on_a_mistake_comes_as_a_note(tmp_path: Path) -> None:
    stages, texts = _copy_course(tmp_path)
    path = stages / "06-feeding.toml"
    path.write_text(path.read_text().replace('id = "no-feed"\n', 'id = "no-feed"\nwrong = true\n'))
    _edit(
        texts,
        'done = "On d5 your man is safe',
        'wrong = "Stay next to e5."\ndone = "On d5 your man is safe',
    )
    course = load_course(stages, texts)
    verdict = course.judge(course.start("feeding/no-feed"), "c7")
    assert verdict.notes == ("Stay next to e5.",)


def test_right_moves_bring_the_scripted_reply_and_the_attempt_carries_the_line(
    course: Course,
) -> None:
    attempt = course.start("feed/feed-two")
    verdict = course.judge(attempt, "e3e4")  # any notation the board reads
    assert (verdict.status, verdict.move, verdict.reply) == ("right", "e3-e4", "d4xf4xf6")
    assert verdict.attempt.moves == ("e3-e4", "d4xf4xf6")
    assert verdict.text == course.catalogue.text("verdict.right")
    assert course.board(verdict.attempt).position() == verdict.position
    done = course.judge(verdict.attempt, "g6xe6")
    assert (done.status, done.stars, done.reply) == ("done", 3, None)
    with pytest.raises(AttemptError, match="over"):
        course.judge(done.attempt, "e6-e7")


def test_an_attempt_that_is_not_the_level_s_is_refused(course: Course) -> None:
    with pytest.raises(AttemptError, match="no level"):
        course.start("nowhere/nothing")
    with pytest.raises(AttemptError, match="must capture"):
        course.board(Attempt("feed/feed-two", ("e3-e4", "b6-b5")))
    with pytest.raises(AttemptError, match="not the reply"):
        course.board(Attempt("majority/choose", ("e3xe5xg5", "h6-h5")))
    with pytest.raises(AttemptError, match="fails the goal"):
        course.board(Attempt("feed/feed-two", ("e3-d3",)))
    with pytest.raises(AttemptError, match="move 1"):
        course.board(Attempt("feed/feed-two", ("e5-e6",)))
    with pytest.raises(AttemptError, match="question"):
        course.judge(course.start("board/corner-neighbours"), "a5")
    with pytest.raises(AttemptError, match="no question"):
        course.answer(course.start("board/centre"), "1")
    with pytest.raises(AttemptError, match="replies are the level's"):
        course.opponent_move(course.start("board/centre"), "e5")


def test_answers_by_choice_id_or_text_and_what_is_no_answer(course: Course) -> None:
    level = "prisoners/owner"
    assert course.answer(course.start(level), "Black").status == "done"
    assert course.answer(course.start(level), "black").status == "done"
    assert course.answer(course.start(level), "white").status == "wrong"
    refused = course.answer(course.start(level), "purple")
    assert (refused.status, refused.text) == (
        "refused",
        course.catalogue.text("verdict.not-choice"),
    )
    number = course.answer(course.start("board/corner-neighbours"), "٣")
    assert number.status == "refused"


def test_a_shadowpiece_level_enters_the_whole_hand(course: Course) -> None:
    verdict = course.judge(course.start("shadowpiece/enter"), "d6")
    assert verdict.status == "done"
    assert course.board(verdict.attempt).stack("d6") == (False, 3, 0)


def test_a_draw_by_repetition_counts_the_prelude(course: Course) -> None:
    level = course.levels["ending/repetition"]
    assert len(level.prelude) == 7
    verdict = course.judge(course.start(level.id), "e6-e5")
    assert verdict.status == "done"
    assert course.board(verdict.attempt).outcome().termination is Termination.REPETITION  # type: ignore[union-attr]
    elsewhere = course.judge(course.start(level.id), "e6-e7")
    assert elsewhere.text == course.catalogue.text("verdict.draw-repetition")


def test_a_bot_level_takes_the_bot_s_moves_and_ends_with_the_game(course: Course) -> None:
    level = course.levels["middlegames/defend"]
    attempt = course.start(level.id)
    verdict = course.judge(attempt, level.solution[0])
    assert (verdict.status, verdict.reply) == ("right", None)
    with pytest.raises(AttemptError, match="bot's reply comes first"):
        course.judge(verdict.attempt, level.solution[1])
    with pytest.raises(AttemptError, match="the bot's move"):
        course.opponent_move(verdict.attempt, "a5")
    reply = course.opponent_move(verdict.attempt, level.replies[0])
    assert (reply.status, reply.reply) == ("right", level.replies[0])
    with pytest.raises(AttemptError, match="not the bot's turn"):
        course.opponent_move(reply.attempt, "e9-e8")


def test_a_hold_level_is_done_after_par_moves(course: Course) -> None:
    level = course.levels["middlegames/defend-white"]
    attempt = course.start(level.id)
    for i, move in enumerate(level.solution):
        verdict = course.judge(attempt, move)
        if i < len(level.solution) - 1:
            attempt = course.opponent_move(verdict.attempt, level.replies[i]).attempt
    assert (verdict.status, verdict.stars) == ("done", 3)
    assert len(level.solution) == level.par == 12


def test_a_lost_bot_game_fails_the_level(course: Course) -> None:
    # a made-up bot level: Black captures White's last man with the bot's move
    stages = [*course.stages]
    level = course.levels["middlegames/convert"]
    from dataclasses import replace

    from emergo.server.learn.goals import Goal

    trap = replace(
        level,
        position="w 0/0 c5:w e5:b g7:b",
        solution=("c5-d5", "d5-d6"),
        replies=("e5-e4",),
        goal=Goal("win"),
    )
    trial = Course([replace(stages[-1], levels=(trap,))], course.catalogue)
    verdict = trial.judge(trial.start(trap.id), "c5-d5")
    assert verdict.status == "right"
    failed = trial.opponent_move(verdict.attempt, "e5xc5")
    assert failed.status == "failed"
    assert failed.text == course.catalogue.text("verdict.lost", opponent="Black")
    with pytest.raises(AttemptError, match="over"):
        trial.judge(failed.attempt, "d5-d6")


# --- the JSON of GET /api/learn ------------------------------------------------------------------


def test_the_course_as_json(course: Course) -> None:
    data = json.loads(json.dumps(course.data()))
    assert [s["id"] for s in data["stages"]] == [s.id for s in course.stages]
    stage = data["stages"][0]
    assert stage["title"] == "The board" and stage["intro"]
    levels = [lv for s in data["stages"] for lv in s["levels"]]
    assert len(levels) == len(course.levels)
    keys = {
        "id", "goal", "kind", "variant", "position", "prelude", "side", "solution", "replies",
        "opponent", "bot", "tables", "only", "par", "targets", "men", "by", "question", "hints",
        "done", "rules", "view", "names",
    }  # fmt: skip
    for level in levels:
        assert set(level) == keys
        Board(level["position"])  # the library reads it
        assert level["hints"] and level["goal"] and level["done"]
        if level["kind"] == "question":
            assert level["question"]["answer"] and not level["solution"]
        else:
            assert level["solution"] and level["question"] is None
    jump = next(lv for lv in levels if lv["id"] == "capture/jump")
    assert (jump["position"], jump["solution"], jump["side"]) == (
        "w 0/0 d5:w e5:b g7:b",
        ["d5xf5"],
        "white",
    )
    game = next(lv for lv in levels if lv["id"] == "game/g6")
    assert game["prelude"]["position"] == "w 12/12" and len(game["prelude"]["moves"]) == 19
    board = Board(game["prelude"]["position"])
    for text in game["prelude"]["moves"]:
        board.push_move(text)
    assert board.position() == game["position"]
    tables = {lv["id"]: lv["tables"] for lv in levels if lv["opponent"] == "tables"}
    assert tables["endings/hex-two"] == 2 and tables["endings/three-columns"] == 3
    assert {lv["tables"] for lv in levels if lv["opponent"] != "tables"} == {None}
    hexagon = next(lv for lv in levels if lv["id"] == "capture/hex-jump")
    assert (hexagon["variant"], hexagon["targets"]) == ("hex", ["e5"])
    owner = next(lv for lv in levels if lv["id"] == "prisoners/owner")
    assert owner["question"]["choices"] == [
        {"id": "white", "text": "White"},
        {"id": "black", "text": "Black"},
    ]


# --- the check finds what is wrong ---------------------------------------------------------------


def _copy_course(tmp_path: Path) -> tuple[Path, Path]:
    stages = tmp_path / "stages"
    shutil.copytree(stages_dir(), stages)
    texts = tmp_path / "en.toml"
    shutil.copy(catalogue_path(), texts)
    return stages, texts


def _problems(stages: Path, texts: Path) -> list[str]:
    with pytest.raises(CourseError) as caught:
        load_course(stages, texts)
    assert "problem(s)" in str(caught.value)
    return caught.value.problems


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "old", "new", "problem"),
    [
        ("03-capture.toml", 'solution = ["d5xf5"]', 'solution = ["d5-d6"]', "must capture"),
        ("03-capture.toml", 'solution = ["d5xf5"]', 'solution = ["D5XF5"]', "write the"),
        ("03-capture.toml", '"w 0/0 d5:w e5:b g7:b"', '"w 0/0 d5:w e5:bwb"', "R6"),
        ("01-board.toml", 'targets = ["a5"]', 'targets = ["a1"]', "targets"),
        ("01-board.toml", 'targets = ["c7"]', 'targets = ["c7", "d7"]', "only: d7"),
        ("01-board.toml", 'solution = ["c7"]', 'solution = ["d7"]', "does not meet"),
        ("01-board.toml", 'rules = ["R3"]', 'rules = ["R3", "R99"]', "R99"),
        ("01-board.toml", 'rules = ["R3"]', "rules = []", "rules must name"),
        ("01-board.toml", 'id = "corner"', 'id = "Corner!"', "id must be"),
        ("01-board.toml", 'id = "corner"', 'id = "centre"', "two levels"),
        ("01-board.toml", 'goal = "question"\nanswer = 1', 'goal = "question"', "answer"),
        ("01-board.toml", 'view = "checker"', 'view = "tilted"', "view"),
        ("01-board.toml", 'view = "checker"', 'colour = "red"', "unknown field"),
        ("04-majority.toml", 'men = 2\nonly = true\nsolution = ["c5xe5xe7"]',
         'men = 3\nonly = true\nsolution = ["c5xe5xe7"]', "does not meet"),
        ("11-feed.toml", 'replies = ["e5xg5"]', "replies = []", "1 replies"),
        ("11-feed.toml", 'replies = ["e5xg5"]', 'replies = ["c3-c4"]', "reply 1"),
        ("11-feed.toml", 'goal = "liberate"\nmen = 4', 'goal = "liberate"\nmen = 4\npar = 1',
         "par 1 is below"),
        ("17-endings.toml", 'goal = "hold"\nopponent = "tables"\npar = 6',
         'goal = "hold"\nopponent = "tables"\npar = 7', "hold for par"),
        ("17-endings.toml", '"7x7 w 0/0 c2:wb2 f3:b6w7"', '"7x7 w 0/1 c2:wb f3:b6w7"',
         "no endgame"),
        ("18-middlegames.toml", "bot = 4\nsolution = [\"g6", "solution = [\"g6", "bot opponent"),
        ("09-ending.toml", '"c5-b5"]\ngoal', '"c5-a5"]\ngoal', "prelude"),
    ],
)  # fmt: skip
def test_the_check_names_each_fault(
    tmp_path: Path, file: str, old: str, new: str, problem: str
) -> None:
    stages, texts = _copy_course(tmp_path)
    _edit(stages / file, old, new)
    problems = _problems(stages, texts)
    assert any(problem in p for p in problems), problems


def test_the_check_names_missing_unused_and_malformed_texts(tmp_path: Path) -> None:
    stages, texts = _copy_course(tmp_path)
    _edit(texts, 'done = "e5 is the centre.', 'gone = "e5 is the centre.')
    _edit(texts, 'capture-none = "That move captures nothing."', 'capture-none = "{nothing}"')
    _edit(texts, "[words]", '[extra]\nunused = "Nobody reads me."\n\n[words]')
    _edit(
        texts,
        'hint = ["The ban on the centre was for White\'s first move only.", "Click e5."]',
        'hint = ["Click e5."]',
    )
    problems = _problems(stages, texts)
    assert "catalogue en: no text board.centre.done" in problems
    assert "catalogue en: board.centre.gone is used by no stage or level" in problems
    assert "catalogue en: extra.unused is used by no stage or level" in problems
    assert "catalogue en: verdict.capture-none may not hold nothing" in problems
    assert any("two hints or more" in p and "black-turn" in p for p in problems)


def test_a_text_of_a_level_may_not_hold_braces(tmp_path: Path) -> None:
    stages, texts = _copy_course(tmp_path)
    _edit(texts, 'goal = "Capture the black man."', 'goal = "Capture {the} black man."')
    assert "catalogue en: capture.jump.goal may not hold the" in _problems(stages, texts)


def test_a_catalogue_that_does_not_read_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "xx.toml"
    bad.write_text("[board\n")
    with pytest.raises(ValueError, match=r"xx\.toml"):
        Catalogue.load(bad)
    with pytest.raises(ValueError, match="cannot read"):
        Catalogue.load(tmp_path / "none.toml")
    with pytest.raises(ValueError, match="no language tag"):
        catalogue_path("../en")
    assert catalogue_path("pt-br").name == "pt-br.toml"


def test_a_stage_file_must_be_named_for_its_stage(tmp_path: Path) -> None:
    stages, texts = _copy_course(tmp_path)
    (stages / "01-board.toml").rename(stages / "board.toml")
    assert any("NN-id.toml" in p for p in _problems(stages, texts))
    stages, texts = _copy_course(tmp_path / "again")
    (stages / "02-entering.toml").rename(stages / "01-entering.toml")
    problems = _problems(stages, texts)
    assert "two stage files are numbered 01" in problems
