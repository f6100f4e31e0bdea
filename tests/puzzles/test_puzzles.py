"""emergo.puzzles: the file, attempts, the judge, and the generator on small seeded runs."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("emergo.kernel", exc_type=ImportError)

from emergo import record
from emergo.board import Board
from emergo.parallel import ThreadRunner
from emergo.puzzles import (
    THEMES,
    Puzzle,
    accepted,
    check,
    format_line,
    load,
    parse_line,
    read_puzzles,
)
from emergo.puzzles.generate import (
    BUDGET,
    LEVELS,
    SCREEN,
    Settings,
    puzzles_of_game,
    record_game,
    selfplay_game,
)
from emergo.puzzles.judge import Judge, clearly_better, win_chance
from emergo.puzzles.model import PuzzleFileError, puzzle_id
from emergo.puzzles.run import Interrupted, read_state, run
from emergo.puzzles.verify import check_puzzle, parse_settings
from emergo.search import Score
from emergo.tablebase import MissingTableError, Tablebase

SMALL = Settings(variant="7x7", budget=20_000, screen=2_000, levels=(1,), seed=2)
"""A small seeded run: seven 7x7 games of level 1 give three puzzles in about a second."""


def _puzzle(position: str, solution: tuple[str, ...], **fields: object) -> Puzzle:
    base: dict[str, object] = {
        "id": puzzle_id(Board(position).variant, position, solution),
        "variant": Board(position).variant,
        "position": position,
        "solution": solution,
        "themes": (),
        "rating": 1500,
        "gain": 0,
        "proof": "engine",
        "source": "record:test",
        "initial_ply": 0,
    }
    return Puzzle(**(base | fields))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("small") / "puzzles.txt"
    run(SMALL, out, 3)
    return out


# --- the file -------------------------------------------------------------------------------


def test_the_defaults_are_those_the_command_states() -> None:
    from emergo.cli import puzzles as cli

    assert (cli.BUDGET, cli.SCREEN) == (BUDGET, SCREEN)
    assert ",".join(map(str, LEVELS)) == cli.LEVELS


def test_a_line_reads_back_to_the_same_puzzle(small: Path) -> None:
    puzzles = list(read_puzzles(small))
    assert len(puzzles) == 3
    for puzzle in puzzles:
        assert parse_line(format_line(puzzle)) == puzzle
        assert puzzle.id == puzzle_id(puzzle.variant, puzzle.position, puzzle.solution)
        assert puzzle.game_board().position() == puzzle.position
        assert puzzle.last_move == puzzle.game[-1] and puzzle.initial_ply == len(puzzle.game)
        assert set(puzzle.themes) <= set(THEMES) and puzzle.moves == (len(puzzle.solution) + 1) // 2
        assert puzzle.source.startswith("selfplay:7x7:1:2:")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f[:-1], "11 tab-separated fields"),
        (lambda f: [f[0], "8x8", *f[2:]], "unknown variant"),
        (lambda f: [*f[:2], "hard", *f[3:]], "rating"),
        (lambda f: [*f[:3], "feed,fork", *f[4:]], "unknown theme 'fork'"),
        (lambda f: [*f[:5], "luck", *f[6:]], "proof 'luck'"),
        (lambda f: [*f[:9], "a1 a2", *f[10:]], "an odd number"),
        (lambda f: [*f[:7], "99", *f[8:]], "initial_ply 99"),
    ],
)
def test_a_broken_line_says_what_is_wrong(small: Path, change: object, message: str) -> None:
    line = format_line(next(read_puzzles(small)))
    fields = change(line.split("\t"))  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        parse_line("\t".join(fields))


def test_a_broken_file_names_the_file_and_line(tmp_path: Path, small: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")
    with pytest.raises(PuzzleFileError, match=r"bad\.txt: line 1: not a puzzle file"):
        list(read_puzzles(bad))
    lines = small.read_text().splitlines()
    puzzle_line = next(i for i, text in enumerate(lines) if not text.startswith("#"))
    lines[puzzle_line] = lines[puzzle_line].replace("\t7x7\t", "\t8x8\t")
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(PuzzleFileError, match=f"line {puzzle_line + 1}: unknown variant"):
        list(read_puzzles(bad))


def test_the_shipped_set_loads_by_board_and_theme() -> None:
    every = load()
    assert len(every) >= 3000
    counts = {v: len(load(v)) for v in ("9x9", "7x7", "hex")}
    assert sum(counts.values()) == len(every)
    assert counts["9x9"] > counts["7x7"] >= 500 and counts["hex"] >= 500
    feeds = load(theme="feed")
    assert feeds and all("feed" in p.themes for p in feeds)
    assert {p.variant for p in load("hex", "liberation")} == {"hex"}
    assert len({p.id for p in every}) == len(every)  # ids are unique
    with pytest.raises(ValueError, match="unknown theme"):
        load(theme="fork")
    with pytest.raises(ValueError, match="unknown variant"):
        load("8x8")


# --- attempts ---------------------------------------------------------------------------------

MINDSPORTS = "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b"
LOOP = "7x7 w 0/0 b4:w c2:w c3:bw c5:b c6:w d1:b d4:b d6:b d7:b e2:w e5:wb f3:w f4:w f5:b"
"""Two routes around d5, one each way: the same five men, the same end (R11)."""


def test_an_attempt_move_by_move(small: Path) -> None:
    puzzle = next(p for p in read_puzzles(small) if len(p.solution) >= 3)
    first = check(puzzle, [puzzle.solution[0]])
    assert (first.status, first.move, first.ply) == ("right", puzzle.solution[0], 0)
    assert first.reply == puzzle.solution[1]
    done = check(puzzle, list(puzzle.solution))
    assert done.status == "solved" and done.ply == len(puzzle.solution) - 1
    # a wrong first move: the engine's reply to it, and the move that was right
    board = puzzle.board()
    wrong = next(m for m in board.moves() if str(m) != puzzle.solution[0])
    verdict = check(puzzle, [str(wrong)])
    assert verdict.status == "wrong" and verdict.solution == puzzle.solution[0]
    after = puzzle.board()
    after.push(wrong)
    if after.outcome() is None:
        assert verdict.refutation in [str(m) for m in after.moves()]
    # the moves are checked as an attempt
    with pytest.raises(ValueError, match="odd number"):
        check(puzzle, puzzle.solution[:2])
    others = [str(m) for m in _after(puzzle, 1).moves() if str(m) != puzzle.solution[1]]
    if others:  # (the reply may be a forced capture)
        with pytest.raises(ValueError, match="not the puzzle's reply"):
            check(puzzle, [puzzle.solution[0], others[0], puzzle.solution[2]])
    with pytest.raises(ValueError, match="was wrong"):
        check(puzzle, [str(wrong), "x", "y"])
    with pytest.raises(TypeError):
        check(puzzle, puzzle.solution[0])


def _after(puzzle: Puzzle, plies: int) -> Board:
    board = puzzle.board()
    for text in puzzle.solution[:plies]:
        board.push_move(text)
    return board


def test_any_move_text_the_parser_takes_and_the_same_position_by_another_route() -> None:
    puzzle = _puzzle(MINDSPORTS, ("e4xc4xc6xe6xe4xc4",))
    assert check(puzzle, ["e4-c4-c6-e6-e4-c4"]).status == "solved"  # the ArenA's form (R21)
    assert check(puzzle, ["E4XC4XC6XE6XE4XC4"]).move == "e4xc4xc6xe6xe4xc4"
    loop = _puzzle(LOOP, ("c6xc4xe4xe6xc6",))
    assert check(loop, ["c6xe6xe4xc4xc6"]).status == "solved"  # the other way round
    with pytest.raises(ValueError, match="is not a move"):
        check(puzzle, ["z9"])
    with pytest.raises(ValueError, match="illegal move"):
        check(puzzle, ["e4-e3"])
    # the checkerboard names of R3: MindSports e4 is AbstractPlay's d5 (f = u+v-5, r = v-u+5)
    checker = Board(MINDSPORTS).move_text(Board(MINDSPORTS).moves()[0], "checker")
    assert check(puzzle, [checker], names="checker").status == "solved"


def test_a_shipped_puzzle_with_a_transposing_capture_route() -> None:
    # 621zgx's second solver move goes round a loop (R10); the other way round ends in the
    # same position (R11): both are right, by check and by accepted (the timed run's judge)
    puzzle = next(p for p in load("9x9") if p.id == "621zgx")
    assert puzzle.solution[2] == "f6xf8xd8xd6xf6"
    other = "f6xd6xd8xf8xf6"
    verdict = check(puzzle, [*puzzle.solution[:2], other])
    assert verdict.status == "right" and verdict.reply == puzzle.solution[3]
    assert check(puzzle, [*puzzle.solution[:2], other, *puzzle.solution[3:]]).status == "solved"
    assert accepted(puzzle) == (
        {"g6xe6": "right"},
        {"f6xf8xd8xd6xf6": "right", other: "right"},
        {"c5xe5xe3xg3xg5": "solved"},
    )


def test_accepted_is_what_check_takes_on_every_shipped_puzzle_with_an_alternative() -> None:
    # every move accepted() offers at a solver's turn, check() says the same of; and the
    # solution's own move is always among them
    alternatives = 0
    for puzzle in load():
        takes = accepted(puzzle)
        assert len(takes) == (len(puzzle.solution) + 1) // 2
        for k, moves in enumerate(takes):
            assert puzzle.solution[2 * k] in moves
            if len(moves) == 1:
                continue
            alternatives += 1
            for move, status in moves.items():
                assert check(puzzle, [*puzzle.solution[: 2 * k], move]).status == status
    assert alternatives >= 40  # 40 solver's turns of the shipped set have another route


def test_any_move_that_wins_at_once_solves_it() -> None:
    # the last black man can be taken two ways: either ends the game (R18)
    puzzle = _puzzle("w 0/0 d5:w e4:w e5:b", ("d5xf5",))
    assert check(puzzle, ["e4xe6"]).status == "solved"


def test_at_the_last_move_an_equally_fast_win_of_the_tables_is_right() -> None:
    # White wins in 3 plies by b4-b3, b4-b5 or b4-c4 (the tables); all three solve it
    puzzle = _puzzle("7x7 w 0/0 a4:b b4:b7w8", ("b4-b3",), proof="tables")
    for move in ("b4-b3", "b4-b5", "b4-c4"):
        assert check(puzzle, [move]).status == "solved"
    # e4-d4 and e4-e5 win in 5; e4-e3 wins too, but in 9: it is not the puzzle's move
    slower = _puzzle("7x7 w 0/0 d6:w5b e4:b7w3", ("e4-d4",), proof="tables")
    assert check(slower, ["e4-e5"]).status == "solved"
    verdict = check(slower, ["e4-e3"])
    assert verdict.status == "wrong" and verdict.refutation is not None


# --- the judge --------------------------------------------------------------------------------


def test_win_chances_and_the_margin_of_an_only_move() -> None:
    assert win_chance(Score.cp(0)) == 0 and win_chance(Score.loss(3)) == -1
    assert 0.18 < win_chance(Score.cp(100)) < 0.19  # lichess's curve: a man as a pawn
    assert clearly_better(Score.win(5), Score.cp(300))
    assert not clearly_better(Score.cp(900), Score.cp(500))  # both win


def test_the_judge_uses_the_tables_and_says_when_one_is_missing(tmp_path: Path) -> None:
    judge = Judge(Tablebase(tmp_path))  # no 3-column table there
    # 2 columns (built in memory): White wins in 3 by three moves, so none is the only one
    choice = judge.choice(Board("7x7 w 0/0 a4:b b4:b7w8"), 1)
    assert choice.exact and choice.score == Score.win(3) and not choice.only
    assert choice.only_last and len(choice.last_equal) == 2
    with pytest.raises(MissingTableError, match="emergo tablebase build --variant 7x7"):
        judge.choice(Board("7x7 w 0/0 b4:b3 c2:b4w g4:bw7"), 1)
    with pytest.raises(MissingTableError):
        Judge(None).value(Board("7x7 w 0/0 a4:b b4:b7w8"), 1)
    # a capture that is the only legal move: forced
    forced = judge.choice(Board(MINDSPORTS), 1000)
    assert forced.forced and forced.only and str(forced.best) == "e4xc4xc6xe6xe4xc4"


# --- generation -------------------------------------------------------------------------------


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="budget"):
        Settings(budget=0)
    with pytest.raises(ValueError, match="levels"):
        Settings(levels=(11,))
    with pytest.raises(ValueError):
        Settings(variant="8x8")
    header = SMALL.header("selfplay")
    assert parse_settings(header) == Settings(
        variant="7x7", budget=20_000, screen=2_000, levels=(1,), seed=2
    )


def test_a_seeded_run_is_the_same_run_whatever_runs_it(small: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.txt"
    run(SMALL, again, 3)
    assert again.read_bytes() == small.read_bytes()
    threads = tmp_path / "threads.txt"
    run(SMALL, threads, 3, runner=ThreadRunner(3))
    assert threads.read_bytes() == small.read_bytes()  # results wait for the games before them
    lines = small.read_text().splitlines()
    assert lines[:2] == ["# emergo puzzles 1", "# " + SMALL.header("selfplay")]
    notes = [line for line in lines if line.startswith("# game ")]
    assert [int(n.split()[2]) for n in notes] == list(range(len(notes)))


def test_every_puzzle_of_the_run_holds(small: Path) -> None:
    judge = Judge(Tablebase())
    for puzzle in read_puzzles(small):
        checked = check_puzzle(puzzle, SMALL, judge)
        assert checked.problems == () and not checked.skipped
        # a changed claim is caught
        wrong = check_puzzle(Puzzle(**(vars(puzzle) | {"gain": 99})), SMALL, judge, engine=False)
        assert any("gain 99" in p for p in wrong.problems)


def test_a_run_goes_on_from_its_file(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "resumed.txt"
    first = run(SMALL, out, 1)
    assert first.total == 1
    second = run(SMALL, out, 3)
    assert second.total == 3 and second.kept == 2
    assert out.read_bytes() == small.read_bytes()
    assert run(SMALL, out, 3).games == 0  # nothing left to do
    with pytest.raises(ValueError, match="other settings"):
        run(Settings(variant="7x7", budget=30_000), out, 5)


def test_a_block_cut_short_is_dropped(small: Path, tmp_path: Path) -> None:
    # a run killed while writing its last game: that game's note is missing, a line cut short
    lines = small.read_text().splitlines(keepends=True)
    notes = [i for i, line in enumerate(lines) if line.startswith("# game ")]
    out = tmp_path / "cut.txt"
    out.write_text("".join(lines[: notes[-1]]) + "half a puz")
    state = read_state(out)
    kept = "".join(lines[: notes[-2] + 1])
    assert out.read_text() == kept  # back to the last whole game
    assert state is not None and state.games == len(notes) - 1
    assert state.puzzles == sum(1 for line in kept.splitlines() if not line.startswith("#"))
    run(SMALL, out, 3)
    assert out.read_bytes() == small.read_bytes()


def test_ctrl_c_keeps_the_games_written(tmp_path: Path) -> None:
    out = tmp_path / "stopped.txt"
    seen = []

    def stop(game: object, summary: object) -> None:
        seen.append(game)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as info:
        run(SMALL, out, 3, on_game=stop)  # type: ignore[arg-type]
    assert info.value.summary.games == 2
    notes = [line for line in out.read_text().splitlines() if line.startswith("# game ")]
    assert len(notes) == 2


def test_a_records_file_gives_the_puzzles_of_its_games(small: Path, tmp_path: Path) -> None:
    # the self-play games written as records: the same positions, named by the records
    games = []
    for number in range(8):
        source = selfplay_game(SMALL, number)
        game = record.Game(Site=f"https://example.org/game/g{number}", Variant="7x7")
        game.add_line(source.moves)
        games.append(record_game(number, game))
    assert games[3].source == "record:g3" and games[3].start is None
    found = [p for g in games for p in puzzles_of_game(SMALL, g).puzzles]
    expected = list(read_puzzles(small))
    assert [p.position for p in found] == [p.position for p in expected]
    assert [p.solution for p in found] == [p.solution for p in expected]
    assert all(p.source.startswith("record:g") for p in found)
    untagged = record_game(5, record.Game())
    assert untagged.source == "record:5"


@pytest.mark.slow
def test_a_ray_cluster_makes_the_same_file(small: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from emergo.ray_runner import RayRunner

    out = tmp_path / "ray.txt"
    with RayRunner("local:2") as runner:
        run(SMALL, out, 3, runner=runner)
    assert out.read_bytes() == small.read_bytes()
