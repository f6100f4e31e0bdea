"""Every command and option behaves like a well-made tool (issue 10).

Numbers are range-checked when parsed (a test generated from the parsers, so that a new
option cannot escape), Ctrl-C stops long work with what it had (exit 130), files are
checked before the work and bad ones named, output files are not overwritten silently,
and the engine range-checks its fields and leaves quietly when its reader goes away.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from emergo import Board
from emergo.cli import build_parser
from emergo.cli import engine as engine_cli
from emergo.cli import main as cli_main
from emergo.cli.common import Bounded
from emergo.players import backend, count_divide, count_perft
from emergo.protocol import EngineSession
from emergo.wire import HASH, ProtocolError, int_field, limit_from_args
from tests.plugins.common import finishes

# --- numbers: one test per numeric option of every parser -----------------------------------------


def _subparsers(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    yield [], parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # an alias (analyze)
                    continue
                seen.add(id(sub))
                for words, inner in _subparsers(sub):
                    yield [name, *words], inner


def _numeric_actions() -> list[tuple[str, list[str], argparse.Action]]:
    """``(program, argv prefix, action)`` of every option or argument that takes a number."""
    found = []
    for program, parser in (
        ("emergo", build_parser()),
        ("emergo-engine", engine_cli.build_parser()),
    ):
        for words, sub in _subparsers(parser):
            for action in sub._actions:
                if action.type is not None and (
                    action.type in (int, float) or isinstance(action.type, Bounded)
                ):
                    found.append((program, words, action))
    return found


NUMERIC = _numeric_actions()


BAD_VALUES = ("-1", "0", "99999999999999999999999", "1" + "0" * 5000, "nan", "inf", "-inf", "x")


def test_every_numeric_option_is_bounded() -> None:
    assert len(NUMERIC) >= 20
    raw = [(p, w, a.dest) for p, w, a in NUMERIC if not isinstance(a.type, Bounded)]
    assert raw == [], "numeric options parsed without bounds (use cli.common.int_range/seconds)"


def _label(item: tuple[str, list[str], argparse.Action]) -> str:
    program, words, action = item
    return " ".join(
        [program, *words, action.option_strings[0] if action.option_strings else action.dest]
    )


@pytest.mark.parametrize("item", NUMERIC, ids=_label)
def test_numeric_option_out_of_range_is_a_usage_error_naming_it(
    item: tuple[str, list[str], argparse.Action], capsys: pytest.CaptureFixture[str]
) -> None:
    program, words, action = item
    assert isinstance(action.type, Bounded)
    low, high = action.type.bounds
    for value in BAD_VALUES:
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if low <= number <= high and (action.type.kind == "seconds" or number == int(number)):
            continue  # a good value: nothing to check here
        if action.option_strings:
            option = action.option_strings[-1]
            argv = [*words, f"{option}={value}"]
            name = "/".join(action.option_strings)
        else:
            argv = [*words, "--", value]  # "--": "-inf" is a value, not an option
            name = action.metavar if isinstance(action.metavar, str) else action.dest
        main = cli_main if program == "emergo" else engine_cli.main
        assert main(argv) == 2, (argv, value)
        err = capsys.readouterr().err
        last = err.splitlines()[-1]
        assert f"argument {name}" in last, (value, err)
        assert "Traceback" not in err
        assert len(last) < 300, "a huge value is quoted cut short"


def test_the_hash_bounds_are_the_engine_options() -> None:
    parser = next(p for w, p in _subparsers(build_parser()) if w == ["analyse"])
    hash_action = next(a for a in parser._actions if "--hash" in a.option_strings)
    assert isinstance(hash_action.type, Bounded)
    assert hash_action.type.bounds == (HASH.min, HASH.max)
    assert f"{HASH.min}..{HASH.max}" in (hash_action.help or "")


def test_protocol_numbers_are_range_checked_naming_the_key() -> None:
    with pytest.raises(ProtocolError, match="nodes=18446744073709551617 must be in"):
        limit_from_args({"nodes": "18446744073709551617"}, True)
    with pytest.raises(ProtocolError, match="depth=101"):
        limit_from_args({"depth": "101"}, True)
    with pytest.raises(ProtocolError, match="move-time='nan'"):
        limit_from_args({"move-time": "nan"}, True)
    with pytest.raises(ProtocolError, match="multipv"):
        int_field({"multipv": "1" * 5000}, "multipv")
    lines: list[str] = []
    session = EngineSession(lines.append, lambda mb: backend("python", hash_mb=mb))
    session.handle("set-option name=Hash value=4097")
    session.handle("set-option name=Hash value=99999999999999999999999")
    session.handle("go nodes=18446744073709551617")
    assert lines[0].startswith("error") and "4096" in lines[0]
    assert lines[1].startswith("error") and "Hash" in lines[1]
    assert lines[2] == 'error message="nodes=18446744073709551617 must be in 1..1000000000000000"'
    assert lines[3] == "done"


def test_api_numbers_raise_value_errors_not_overflow() -> None:
    board = Board()
    for bad in (2**31, 2**64 + 1, -1):
        with pytest.raises(ValueError, match="depth"):
            count_perft(board, bad)
        with pytest.raises(ValueError, match="depth"):
            count_divide(board, bad)
    with pytest.raises(ValueError, match="hash_mb"):
        backend(hash_mb=10**20)
    with pytest.raises(ValueError, match="hash_mb"):
        backend("python", hash_mb=0)
    from emergo.search import Limit

    for field, bad in (("nodes", 2**64 + 1), ("depth", 2**31), ("time", 1e300), ("wtime", 10**20)):
        with pytest.raises(ValueError, match=field):
            Limit(**{field: bad})


def test_the_search_bounds_are_the_kernels() -> None:
    kernel = pytest.importorskip("emergo.kernel", exc_type=ImportError)
    from emergo.search import DEPTH_MAX, MULTIPV_MAX

    assert (kernel._kernel.MAX_DEPTH, kernel._kernel.MAX_MULTIPV) == (DEPTH_MAX, MULTIPV_MAX)


# --- the commands as a user runs them ----------------------------------------------------------


def run(
    *args: str, stdin: str | bytes = "", timeout: float = 120, module: str = "emergo"
) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, "-m", module, *args], input=data, capture_output=True, timeout=timeout
    )
    return subprocess.CompletedProcess(
        proc.args,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def _default_sigint() -> None:
    # A shell starts background jobs with SIGINT ignored; a user's Ctrl-C is not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(args: list[str], after: float, bound: float = 10.0) -> tuple[int, str, str, float]:
    """Start ``emergo ARGS``, send SIGINT after ``after`` s; status, output and seconds to stop."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "emergo", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=bound)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return -1, out, err, math.inf
    return proc.returncode, out, err, time.monotonic() - sent


@pytest.mark.slow
def test_ctrl_c_stops_perft_with_the_count_so_far() -> None:
    status, _, err, _took = interrupt(["perft", "8", "--divide"], after=3.0)
    assert status == 130, err
    assert "Traceback" not in err
    assert "emergo perft: interrupted" in err and "first moves counted" in err


@pytest.mark.slow
def test_ctrl_c_stops_infinite_analysis_with_the_best_line() -> None:
    status, out, err, _took = interrupt(["analyse", "--infinite"], after=3.0)
    assert status == 130, err
    assert "Traceback" not in err
    assert out.splitlines()[0].startswith("depth 1 ")  # each iteration as it completed
    assert "evaluation:" in out and " 1. " in out  # then the best line so far


@pytest.mark.slow
def test_ctrl_c_stops_a_match_with_the_summary_of_its_games() -> None:
    args = ["match", "-e", "random", "-e", "greedy", "-n", "400", "--no-records", "-q"]
    status, out, err, _took = interrupt(args, after=4.0)
    assert status == 130, err
    assert "Traceback" not in err
    assert out.startswith(("2 games", "4 games", "6 games", "8 games")) or " games in " in out
    assert err.splitlines()[-1].startswith("emergo match: match interrupted after ")


def test_analyse_infinite_goes_alone() -> None:
    proc = run("analyse", "--infinite", "--depth", "3")
    assert proc.returncode == 2 and "--infinite" in proc.stderr


# --- files ---------------------------------------------------------------------------------------


def test_replay_reports_each_bad_file_and_reads_the_rest(tmp_path: Path) -> None:
    good = tmp_path / "g.egn"
    good.write_text("1. d4 e6 *\n", encoding="utf-8")
    utf16 = tmp_path / "u.egn"
    utf16.write_text("1. d4 e6 *\n", encoding="utf-16")
    latin = tmp_path / "l.egn"
    latin.write_bytes(b'[Event "caf\xe9"]\n\n1. d4 *\n')
    binary = tmp_path / "b.egn"
    binary.write_bytes(b"\x00\x01\x02")
    empty = tmp_path / "e.egn"
    empty.write_text("", encoding="utf-8")
    files = [good, utf16, latin, binary, empty, tmp_path / "missing.egn", tmp_path, good]
    proc = run("replay", *map(str, files))
    assert proc.returncode == 2  # a file that could not be read at all; 1 for bad content
    assert "Traceback" not in proc.stderr
    assert proc.stdout.count("g.egn: game 1: * (unfinished), 2 plies") == 2  # read after the rest
    errors = proc.stderr.splitlines()
    assert errors == [
        f"emergo replay: {utf16}: UTF-16 text; save it as UTF-8",
        f"emergo replay: {latin}: line 1: not UTF-8 text (byte 0xe9)",
        f"emergo replay: {binary}: a binary file, not text",
        f"emergo replay: no games in {empty}",
        f"emergo replay: {tmp_path / 'missing.egn'}: No such file or directory",
        f"emergo replay: {tmp_path}: Is a directory",
    ]


def test_replay_of_bad_content_exits_1(tmp_path: Path) -> None:
    broken = tmp_path / "x.egn"
    broken.write_text("1. d4 d4 *\n", encoding="utf-8")
    good = tmp_path / "g.egn"
    good.write_text("1. d4 e6 *\n", encoding="utf-8")
    proc = run("replay", str(broken), str(good))
    assert proc.returncode == 1
    assert "g.egn: game 1" in proc.stdout
    assert proc.stderr.startswith(f"emergo replay: {broken}: game 1: ")


def test_replay_and_analyse_agree_on_a_file_without_games() -> None:
    replay = run("replay", os.devnull)
    analyse = run("analyse", "--record", os.devnull)
    assert replay.returncode == analyse.returncode == 1
    assert replay.stderr == f"emergo replay: no games in {os.devnull}\n"
    assert analyse.stderr == f"emergo analyse: no games in {os.devnull}\n"


def test_replay_and_analyse_read_standard_input() -> None:
    proc = run("replay", "-", stdin="1. d4 e6 *\n")
    assert proc.returncode == 0
    assert proc.stdout.startswith("standard input: game 1: * (unfinished), 2 plies")
    proc = run("analyse", "--record", "-", "--depth", "2", stdin="1. d4 e6 *\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("game 1: ")


def test_output_files_are_not_overwritten_without_force(tmp_path: Path) -> None:
    picture = tmp_path / "p.svg"
    picture.write_text("keep", encoding="utf-8")
    proc = run("show", "--svg", str(picture))
    assert proc.returncode == 2
    assert proc.stderr == f"emergo show: --svg {picture}: the file exists (--force overwrites it)\n"
    assert picture.read_text(encoding="utf-8") == "keep"
    assert run("show", "--svg", str(picture), "--force").returncode == 0
    assert picture.read_text(encoding="utf-8").startswith("<svg")
    record = tmp_path / "r.egn"
    record.write_text("1. d4 e6 *\n", encoding="utf-8")
    proc = run("analyse", "--record", str(record), "--annotate", str(record), "--depth", "1")
    assert proc.returncode == 2 and "--annotate" in proc.stderr and "exists" in proc.stderr
    proc = run("bench", "--json", str(record), "--search", "--depth", "1")
    assert proc.returncode == 2 and "--json" in proc.stderr
    assert record.read_text(encoding="utf-8") == "1. d4 e6 *\n"


def test_output_paths_are_checked_before_the_work(tmp_path: Path) -> None:
    proc = run("match", "-e", "random", "-e", "greedy", "--records", "/nonexistent/x")
    assert proc.returncode == 2
    assert proc.stderr == "emergo match: --records /nonexistent/x: no such folder /nonexistent\n"
    assert not proc.stdout  # refused before any game was played
    proc = run("show", "--svg", str(tmp_path / "no" / "p.svg"))
    assert proc.returncode == 2 and "no such folder" in proc.stderr


# --- progress ------------------------------------------------------------------------------------


def test_match_reports_each_game_when_not_a_terminal(tmp_path: Path) -> None:
    records = tmp_path / "m.egn"
    proc = run("match", "-e", "random", "-e", "greedy", "-n", "4", "--records", str(records))
    assert proc.returncode == 0, proc.stderr
    assert [line.split("]")[0] for line in proc.stderr.splitlines()] == [
        "[1/4",
        "[2/4",
        "[3/4",
        "[4/4",
    ]


def test_bench_shows_each_part_as_it_is_done() -> None:
    pytest.importorskip("emergo.kernel", exc_type=ImportError, reason="bench measures the C kernel")
    proc = run("bench", "--seconds", "0.05", "--games", "2", "--depth", "2")
    assert proc.returncode == 0, proc.stderr
    from emergo.bench import SEARCH_POSITIONS

    n = len(SEARCH_POSITIONS)
    assert proc.stderr.splitlines() == [
        *(f"bench: {i}/{n + 2} parts  search: position {i} done" for i in range(1, n + 1)),
        f"bench: {n + 1}/{n + 2} parts  kernel done",
        f"bench: {n + 2}/{n + 2} parts  reference done",
    ]
    quiet = run("bench", "--seconds", "0.05", "--games", "2", "--depth", "2", "-q")
    assert quiet.stderr == ""


# --- the engine ----------------------------------------------------------------------------------


def test_engine_leaves_quietly_when_its_output_is_closed() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "emergo.cli.engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write("emergo\ngo infinite\n")
    proc.stdin.flush()
    assert proc.stdout.readline().startswith("id ")
    proc.stdout.close()
    time.sleep(1.0)
    try:
        proc.stdin.write("ping\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=20) == 0
    # nothing but the one-line notice of an install without the C kernel (no traceback)
    assert [line for line in proc.stderr.read().splitlines() if ": note: " not in line] == []


def test_engine_answers_ping_after_a_huge_pos_line() -> None:
    moves = " ".join(["d4"] * 300_000)
    proc = run(module="emergo.cli.engine", stdin=f'pos moves="{moves}"\nping id=7\nquit\n')
    assert proc.stdout.splitlines()[-1] == "pong id=7"


def test_engine_version_and_help() -> None:
    proc = run("--version", module="emergo.cli.engine")
    assert proc.returncode == 0 and proc.stdout.startswith("emergo-engine ")
    assert run("--help", module="emergo.cli.engine").returncode == 0


def test_simple_engine_starts_the_installed_engine_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from emergo.engine import SimpleEngine
    from emergo.search import Limit

    monkeypatch.setenv("PATH", "")  # emergo-engine is not on PATH: an unactivated venv
    with SimpleEngine.popen() as engine:
        move = engine.play(Board(), Limit(depth=1)).move
    assert move is not None and move in Board().legal_moves


# --- help ----------------------------------------------------------------------------------------


def test_help_of_every_command_and_emergo_help(capsys: pytest.CaptureFixture[str]) -> None:
    for words, _ in _subparsers(build_parser()):
        assert cli_main([*words, "--help"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("usage: emergo"), words
    assert cli_main(["help", "perft"]) == 0
    assert capsys.readouterr().out.startswith("usage: emergo perft")
    assert cli_main(["help"]) == 0
    assert "COMMAND" in capsys.readouterr().out


def test_a_line_of_megabytes_is_split_at_once() -> None:
    from emergo.wire import split_line

    # split in one pass (a quadratic split of a megabyte line would run for hours: finishes)
    for line in ('pos moves="' + "d4 " * 1_000_000 + '"', "x " * 1_000_000, '"\\"' * 1_000_000):
        finishes(lambda line=line: split_line(line))
    assert split_line('a "b c\\" d" e\\f "g\\\\" "open') == ["a", 'b c" d', "e\\f", "g\\", "open"]


@pytest.mark.parametrize(
    "words", ["elo0=nan elo1=5", "elo0=0 elo1=inf", "alpha=2", "elo0=x", "beta=nan", "elo1=1e400"]
)
def test_sprt_settings_are_range_checked(words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["match", "-e", "random", "-e", "greedy", "--sprt", words]) == 2
    err = capsys.readouterr().err
    assert "argument --sprt" in err.splitlines()[-1] and "Traceback" not in err
