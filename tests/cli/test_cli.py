"""The installed ``emergo`` command, run as a user would: through pipes, with exit statuses."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from emergo import Board, geometry
from tests.plugins.commands import assert_clean_error, command, run
from tests.plugins.common import oracle_games, oracle_perft, oracle_positions, requires_kernel

# --- moves --------------------------------------------------------------------------------------


def test_moves_batch_matches_every_oracle_position() -> None:
    vectors = oracle_positions()
    stdin = "".join(v["position"] + "\n" for v in vectors)
    proc = run("moves", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")
    assert lines[-1] == ""  # every answer ends with a newline
    assert len(lines) - 1 == len(vectors)
    for vector, line in zip(vectors, lines, strict=False):
        assert line == " ".join(vector["legal"]), vector["id"]


def test_moves_batch_matches_every_ply_of_the_oracle_games() -> None:
    plies = [ply for game in oracle_games() for ply in game["plies"]]
    proc = run("moves", stdin="".join(p["position"] + "\n" for p in plies))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [" ".join(p["legal"]) for p in plies]


def test_moves_of_one_position_one_per_line_sorted() -> None:
    proc = run("moves", "b 11/12 d4:w")
    assert proc.returncode == 0
    texts = proc.stdout.split()
    assert texts == sorted(texts) and len(texts) == 36  # R15
    assert proc.stdout == "".join(t + "\n" for t in texts)


def test_moves_position_may_be_split_over_words() -> None:
    assert run("moves", "b", "11/12", "d4:w").stdout == run("moves", "b 11/12 d4:w").stdout


def test_moves_checker_names_R3() -> None:
    proc = run("moves", "--names", "checker", "w 12/12")
    geo = geometry()
    expected = sorted(
        geo.square_name(geo.parse_square(m.split()[0]), "checker")
        for m in run("moves", "w 12/12").stdout.split()
    )
    assert proc.stdout.split() == expected
    assert "a1" in expected and "e5" not in expected  # R3: e1 is a1; R16: no centre


def test_moves_variant_option_applies_without_prefix_R4() -> None:
    assert len(run("moves", "--variant", "7x7", "w 8/8").stdout.split()) == 24
    # a prefix in the position wins over the option
    assert len(run("moves", "--variant", "7x7", "9x9 w 12/12").stdout.split()) == 40


def test_moves_game_over_prints_an_empty_line_in_batch_R18() -> None:
    proc = run("moves", stdin="w 0/0 c4:w8b4 f6:w4b2 g5:b6\nw 12/12\n")
    assert proc.returncode == 0
    first, second = proc.stdout.split("\n")[:2]
    assert first == "" and len(second.split()) == 40


def test_moves_bad_line_in_batch_exit_2_names_the_line() -> None:
    proc = run("moves", stdin="w 12/12\nb 11/12 d4:w\nw 12/12 z9:w\nw 12/12\n")
    assert_clean_error(proc, 2)
    assert "line 3" in proc.stderr and "z9" in proc.stderr
    assert len(proc.stdout.splitlines()) == 2  # the good lines before it were answered


def test_moves_bad_position_argument_exit_2() -> None:
    assert_clean_error(run("moves", "w 13/12"), 2)  # more than 12 men (R4)
    assert_clean_error(run("moves", "w 0/0 d4:bwb"), 2)  # not k over p (R6)


def test_moves_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    source = tmp_path / "many.txt"
    source.write_text("w 12/12\n" * 20000)
    with (
        source.open() as stdin,
        subprocess.Popen(
            [*command(), "moves"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ) as proc,
    ):
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("a5 b4")
        proc.stdout.close()  # like `emergo moves | head -1`
        err = proc.stderr.read()
        proc.wait(timeout=60)
    assert "Traceback" not in err and "Broken pipe" not in err


# --- perft --------------------------------------------------------------------------------------

PERFT = [
    (position, depth, count)
    for position, counts in oracle_perft()
    for depth, count in counts
    if depth <= 3
]


@pytest.mark.parametrize(("position", "depth", "count"), PERFT)
def test_perft_small_depths(position: str, depth: int, count: int) -> None:
    proc = run("perft", str(depth), position)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{count}\n"


@pytest.mark.parametrize(("position", "depth", "count"), [p for p in PERFT if p[1] <= 2])
def test_perft_reference_small_depths(position: str, depth: int, count: int) -> None:
    assert run("perft", "--reference", str(depth), position).stdout == f"{count}\n"


@pytest.mark.parametrize("flag", ["--reference", None])
def test_perft_divide_sums_to_the_total(flag: str | None) -> None:
    position, counts = oracle_perft()[2]
    args = ["perft", "--divide", "3", position] + ([flag] if flag else [])
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    *rows, total = proc.stdout.splitlines()
    moves = [r.split()[0] for r in rows]
    assert moves == sorted(moves) == sorted(str(m) for m in Board(position).moves())
    assert sum(int(r.split()[1]) for r in rows) == int(total) == dict(counts)[3]


def test_perft_default_position_is_the_start_of_the_variant_R4() -> None:
    assert run("perft", "1").stdout == "40\n"  # R16
    assert run("perft", "1", "--variant", "7x7").stdout == "24\n"


def test_perft_finished_game_has_no_moves_R18_R19a() -> None:
    assert run("perft", "1", "w 0/0 c4:w8b4 f6:w4b2 g5:b6").stdout == "0\n"  # R18
    assert run("perft", "2", "w 0/0 a5:w b5:b c5:b e5:w11b10").stdout == "0\n"  # R19a


def test_perft_usage_errors_exit_2() -> None:
    assert_clean_error(run("perft", "-1"), 2)
    assert "must be in 0..64, not '-1'" in run("perft", "-1").stderr
    assert run("perft", "x").returncode == 2
    assert_clean_error(run("perft", "2", "w 12"), 2)


@pytest.mark.parametrize("depth", ["65", "99", "1000"])
def test_perft_depth_beyond_the_kernel_is_refused_at_once(depth: str) -> None:
    # the range the command states is the one it can count: 99 used to fail inside the kernel
    # with "depth must be 0..64, not 98" (the first ply counted apart), 65 to run for ever
    proc = run("perft", depth, timeout=30)
    assert_clean_error(proc, 2)
    assert proc.stderr.splitlines()[-1] == (
        f"emergo perft: argument DEPTH: must be in 0..64, not '{depth}'"
    )


def test_perft_depth_limit_is_the_kernels() -> None:
    from emergo.cli.perft import PERFT_DEPTH_MAX

    kernel = requires_kernel("emergo._kernel")
    assert kernel.MAX_PERFT_DEPTH == PERFT_DEPTH_MAX


# --- show ---------------------------------------------------------------------------------------


def test_show_prints_coordinates_hands_and_side_to_move() -> None:
    proc = run("show", "b 10/11 c4:b d4:w e4:w")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(r"a +b +c +d +e +f +g +h +i", out)  # the lines of R1
    assert all(re.search(rf"^ *{digit} .* {digit}$", out, re.M) for digit in "123456789")
    assert "11 in hand" in out and "10 in hand" in out  # the hands (R5)
    assert "Black to move" in out


def test_show_checker_view_and_ascii_R3() -> None:
    proc = run("show", "--view", "checker", "--ascii", "b 11/12 d4:w")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.isascii()
    assert re.search(r"a +b +c +d +e +f +g +h +i", proc.stdout)  # checkerboard files (R3)


def test_show_after_moves_marks_the_last_move() -> None:
    proc = run("show", "--moves", "d4 e6", "w 12/12")
    assert proc.returncode == 0, proc.stderr
    assert "Last move: e6 (Black)" in proc.stdout
    checker = run("show", "--view", "checker", "--moves", "d4 a1")  # names follow the view
    assert "Last move: a1 (Black)" in checker.stdout
    bad = run("show", "--moves", "e5", "w 12/12")  # R16
    assert_clean_error(bad, 2)
    assert "R16" in bad.stderr


def test_show_svg_writes_the_picture(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    proc = run("show", "--svg", str(target), "b 11/12 d4:w")
    assert proc.returncode == 0, proc.stderr
    assert target.read_text(encoding="utf-8").startswith("<svg")
    assert run("show", "--svg", "-", "7x7 w 8/8").stdout.startswith("<svg")


def test_show_bad_position_exit_2() -> None:
    assert_clean_error(run("show", "x 12/12"), 2)
    assert_clean_error(run("show", "--svg", "/nonexistent/dir/b.svg"), 2)


# --- play ---------------------------------------------------------------------------------------


RESULT = re.compile(r"^(White|Black)\b.* wins \((1-0|0-1)\): .*\(R\d+\w?\)$|^Draw \(1/2-1/2\): .*")


def test_play_hot_seat_through_a_pipe_R16_R20(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    script = [
        "help",
        "e5",  # R16: illegal on the first move; the library says why
        "d4",
        "moves",
        "e6",
        "undo",  # takes back e6
        "c4",  # R15: forbidden, d4 could capture it
        "f6",
        "clear",  # not a command, not a move
        "d4xq3",  # looks like a move: the library's error
        "draw",
        "no",
        f"save {record}",
        "resign",  # White to move resigns (from a pipe without a question)
    ]
    proc = run("play", "--no-board", stdin="\n".join(script) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Emergo: two players at one keyboard")
    assert "help for the commands" in out.splitlines()[1]
    assert "R16" in out and "R15" in out
    assert "unknown command 'clear' (type help for the commands)" in out
    assert "q3 is not a square" in out
    assert "Black declines the draw" in out
    assert "taken back: e6" in out
    assert "Black wins (0-1): White resigned (R20)" in out
    # Move numbers as in records: 1. d4 f6, then 2. White.
    assert "1. White plays d4\n1... Black> moves\n" in out
    assert "1... Black plays f6\n2. White> clear\n" in out
    moves_line = out.split("1... Black> moves\n")[1].splitlines()[0]
    assert moves_line == " ".join(sorted(str(m) for m in Board("b 11/12 d4:w").moves()))
    saved = record.read_text(encoding="utf-8")
    assert '[White "Human"]' in saved and "1. d4 f6 *" in saved
    assert re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', saved)  # the real date


def test_play_draw_by_agreement_in_hot_seat_R19c() -> None:
    proc = run("play", "--no-board", "--variant", "7x7", stdin="c4\ndraw\ny\n")
    assert proc.returncode == 0
    assert "Draw (1/2-1/2): draw by agreement (R19c)" in proc.stdout


def test_play_end_of_input_ends_cleanly() -> None:
    proc = run("play", "--opponent", "random", "--seed", "1", stdin="d4\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Emergo: you play White, the computer plays Black (random).")
    assert "1. White (you) plays d4" in out
    assert re.search(r"^1\.\.\. Black \(random\) plays \S+$", out, re.M)
    assert "2. White> \nend of input" in out and "unfinished (*)" in out
    assert out.count("White to move") == 2  # the board once per turn: at the start, after 1...
    assert "Traceback" not in proc.stderr


def test_play_computer_against_computer_to_the_end() -> None:
    args = ("play", "--white", "random", "--black", "greedy", "--seed", "7")
    first, again = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout  # the seed fixes the game
    result = first.stdout.strip().splitlines()[-1]
    assert RESULT.match(result), result
    assert "(R18)" in result or "(R19" in result
    assert "\x1b[" not in first.stdout  # no colours into a pipe
    unseeded = run("play", "--white", "random", "--black", "random", "--variant", "7x7")
    assert re.search(r"^Seed (\d+): replay .* with --seed \1\.$", unseeded.stdout, re.M)


def test_play_computer_plays_first_when_human_is_black_and_undo_takes_back_both() -> None:
    proc = run(
        "play", "--opponent", "greedy", "--color", "black", "--seed", "2", "--variant", "7x7",
        "--no-board", stdin="moves\n",
    )  # fmt: skip
    assert proc.stdout.startswith("Emergo: you play Black, the computer plays White (greedy).")
    first = re.search(r"^1\. White \(greedy\) plays (\S+)$", proc.stdout, re.M)
    assert first is not None, proc.stdout
    legal = proc.stdout.split("1... Black> moves\n")[1].splitlines()[0].split()
    reply = legal[0]
    proc = run(
        "play", "--opponent", "greedy", "--color", "black", "--seed", "2", "--variant", "7x7",
        "--no-board", stdin=f"{reply}\nundo\nposition\n",
    )  # fmt: skip
    assert proc.returncode == 0
    assert "taken back: " in proc.stdout
    # after undo it is Black's turn again in the position after White's first move
    board = Board("7x7 w 8/8")
    board.push_move(first.group(1))
    assert board.position() in proc.stdout.split("taken back")[1]


def test_play_flipped_for_black_and_flip_toggles() -> None:
    proc = run("play", "--opponent", "random", "--color", "black", "--seed", "2", stdin="flip\n")
    assert proc.returncode == 0, proc.stderr
    pictures = proc.stdout.split("Black (B): ")
    # Black plays from the bottom: White's line comes first; after flip, Black's again.
    assert proc.stdout.index("White (W): 11 in hand") < proc.stdout.index("Black (B): 12 in hand")
    after = proc.stdout.split("> flip\n")[1]
    assert after.index("Black (B)") < after.index("White (W)")
    assert len(pictures) == 3


def test_play_usage_errors_exit_2(tmp_path: Path) -> None:
    assert_clean_error(run("play", "--opponent", "greedy", "--white", "random"), 2)
    assert run("play", "--white", "nobody").returncode == 2
    assert_clean_error(run("play", "--position", "w 12/13 e5:w"), 2)
    assert_clean_error(run("play", "--time-control", "3x"), 2)
    assert_clean_error(run("play", "--load", str(tmp_path / "none.egn")), 2)


def test_play_save_path_is_checked_before_the_game(tmp_path: Path) -> None:
    missing = run("play", "--save", str(tmp_path / "no" / "game.egn"), stdin="d4\n")
    assert_clean_error(missing, 2)
    assert "no such directory" in missing.stderr and "plays" not in missing.stdout
    existing = tmp_path / "game.egn"
    existing.write_text("keep me\n")
    proc = run("play", "--no-board", "--save", str(existing), stdin="d4\n")
    assert_clean_error(proc, 2)
    assert "--force" in proc.stderr and existing.read_text() == "keep me\n"
    proc = run("play", "--no-board", "--save", str(existing), "--force", stdin="d4\n")
    assert proc.returncode == 0, proc.stderr
    assert "1. d4 *" in existing.read_text()
    # save FILE in the game does not overwrite either, from a pipe, unless --force.
    proc = run("play", "--no-board", stdin=f"d4\nsave {existing}\n")
    assert "exists: not overwritten" in proc.stdout


def test_play_load_resumes_a_saved_game(tmp_path: Path) -> None:
    saved = tmp_path / "game.egn"
    run("play", "--no-board", "--save", str(saved), stdin="d4\ne6\n")
    proc = run("play", "--no-board", "--load", str(saved), stdin="position\nf4\n")
    assert proc.returncode == 0, proc.stderr
    assert "2. White> position\nw 11/11 d4:w e6:b\n" in proc.stdout
    assert "2. White plays f4" in proc.stdout
    again = run("play", "--no-board", stdin=f"load {saved}\nposition\n")
    assert "loaded " in again.stdout and "w 11/11 d4:w e6:b" in again.stdout


def test_play_time_control_shows_the_clocks_R20() -> None:
    proc = run("play", "--time-control", "300+2", "--opponent", "random", "--seed", "1",
               stdin="d4\n")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Clocks: 5:00 each, +2 s a move" in proc.stdout
    assert re.search(r"Clocks: White \d:\d\d  Black \d:\d\d", proc.stdout)
    assert re.search(r"^2\. White \d:\d\d> ", proc.stdout, re.M)


def test_play_correspondence_clock_says_days_a_move_R20() -> None:
    proc = run("play", "--time-control", "2d", "--opponent", "random", "--seed", "1", stdin="d4\n")
    assert proc.returncode == 0, proc.stderr
    assert "Clocks: 2 days a move" in proc.stdout


def test_play_from_a_finished_position_reports_the_result_R18() -> None:
    proc = run("play", "--no-board", "--position", "w 0/0 c4:w8b4 f6:w4b2 g5:b6")
    assert proc.returncode == 0
    assert "Black wins (0-1): White has no pieces and no men in hand (R18)" in proc.stdout


# --- replay -------------------------------------------------------------------------------------


def _records(tmp_path: Path) -> Path:
    """Two games saved by ``emergo play``: a resignation, and a computer game to the end."""
    first, second = tmp_path / "g1.txt", tmp_path / "g2.txt"
    proc = run("play", "--no-board", "--save", str(first), stdin="d4\nf6\nresign\n")
    assert proc.returncode == 0, proc.stderr
    proc = run(
        "play", "--white", "greedy", "--black", "random", "--seed", "3", "--variant", "7x7",
        "--no-board", "--save", str(second),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    both = tmp_path / "games.txt"
    both.write_text(first.read_text() + "\n" + second.read_text())
    return both


def test_replay_good_file_R18_R20(tmp_path: Path) -> None:
    proc = run("replay", str(_records(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert "game 1: 0-1 (White resigned (R20)), 3 plies" not in first  # resigning is no move
    assert "game 1: 0-1 (White resigned (R20)), 2 plies, final: w 11/11 d4:w f6:b" in first
    assert "game 2: " in second and "(R18)" in second and "final: 7x7 " in second


def test_replay_broken_file_names_line_and_move_exit_1(tmp_path: Path) -> None:
    path = _records(tmp_path)
    text = path.read_text()
    assert "1. d4 f6 " in text
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace("1. d4 f6 ", "1. d4 d5 ", 1))  # R15: d4 could capture d5
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("1. d4"))
    proc = run("replay", str(broken))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert f"line {line}" in proc.stderr and '"d5"' in proc.stderr and "R15" in proc.stderr
    assert "game 2: " in proc.stdout  # the next game is still read


def test_replay_missing_file_exit_2(tmp_path: Path) -> None:
    assert_clean_error(run("replay", str(tmp_path / "nowhere.txt")), 2)
    assert run("replay").returncode == 2


# --- the rest -----------------------------------------------------------------------------------


def test_bench_dispatches() -> None:
    proc = run("bench", "--help")
    assert proc.returncode == 0, proc.stderr


def test_python_dash_m_emergo() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "emergo", "moves", "--variant", "7x7", "w 8/8"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.split()) == 24


def test_no_command_and_unknown_command_exit_2() -> None:
    assert run().returncode == 2
    proc = run("frobnicate")
    assert proc.returncode == 2 and "emergo: " in proc.stderr


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("emergo ")


def test_perft_position_may_follow_the_options() -> None:
    proc = run("perft", "2", "--divide", "7x7 w 8/8")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "528"
    assert_clean_error(run("perft", "2", "--bogus"), 2)
