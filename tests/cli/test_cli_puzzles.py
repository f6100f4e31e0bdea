"""emergo puzzles generate and verify: options, errors, progress, Ctrl-C and resuming."""

from __future__ import annotations

import functools
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("emergo.kernel", exc_type=ImportError)

from emergo import record
from emergo.cli import main as cli_main
from emergo.cli.common import Progress
from emergo.puzzles import read_puzzles

SMALL = [
    "--variant",
    "7x7",
    "--budget",
    "20000",
    "--screen",
    "2000",
    "--levels",
    "1",
    "--seed",
    "2",
]
"""The library tests' small run (tests/puzzles/test_puzzles.py): three puzzles in seven games."""


def generate(out: Path, *more: str) -> int:
    return cli_main(["puzzles", "generate", *SMALL, "-o", str(out), "-q", *more])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--count", "0"], "argument -n/--count: must be in 1..10000000, not '0'"),
        (["--budget", "10"], "argument --budget: must be in 1000.."),
        (["--levels", "1,x"], "--levels '1,x': whole numbers separated by commas"),
        (["--levels", "11"], "--levels '11': each level in 1..10"),
        (["--variant", "8x8"], "argument --variant: invalid choice"),
        (["--ray", "nowhere"], "argument --ray: Ray address 'nowhere'"),
        (["--tables", "/nowhere"], "--tables /nowhere: no such folder"),
        (["-o", "/nowhere/p.txt"], "--output /nowhere/p.txt: no such folder /nowhere"),
        (["--records", "/nowhere.egn"], "/nowhere.egn: No such file"),
        (["--screen", "50"], "argument --screen: must be in 100.."),
        (["-o", "/tmp/p.txt.gz"], "a run writes plain text"),
    ],
)
def test_bad_options_say_what_is_wrong(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["puzzles", "generate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_records_file_that_is_not_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.egn"
    empty.write_text("")
    assert (
        cli_main(["puzzles", "generate", "--records", str(empty), "-o", str(tmp_path / "p")]) == 1
    )
    assert "no game in it" in capsys.readouterr().err
    broken = tmp_path / "broken.egn"
    broken.write_text("1. d4 d4 *\n")
    assert (
        cli_main(["puzzles", "generate", "--records", str(broken), "-o", str(tmp_path / "p")]) == 1
    )
    assert "broken.egn" in capsys.readouterr().err


def test_generate_resumes_and_verify_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, parts = tmp_path / "whole.txt", tmp_path / "parts.txt"
    assert generate(whole, "-n", "3") == 0
    assert "3 puzzles in" in capsys.readouterr().out
    assert generate(parts, "-n", "1") == 0
    assert generate(parts, "-n", "3") == 0  # goes on from the file
    assert parts.read_bytes() == whole.read_bytes()
    assert "3 puzzles in" in capsys.readouterr().out
    # other settings on the same file: refused, unless --force starts it again
    assert generate(parts, "-n", "3", "--seed", "3") == 2
    assert "other settings" in capsys.readouterr().err
    assert generate(parts, "-n", "1", "--force") == 0
    assert len(list(read_puzzles(parts))) == 1
    # verify: every check holds; a puzzle changed by hand fails, with its id
    assert cli_main(["puzzles", "verify", str(whole), "-q"]) == 0
    assert "3 of 3 puzzles hold" in capsys.readouterr().out
    lines = whole.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    fields = lines[index].split("\t")
    fields[4] = "9"  # the gain
    lines[index] = "\t".join(fields)
    whole.write_text("".join(lines))
    assert cli_main(["puzzles", "verify", str(whole), "-q", "--quick"]) == 1
    out = capsys.readouterr().out
    assert f"{fields[0]}: gain 9 claimed" in out and "2 of 3 puzzles hold" in out


def test_verify_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["puzzles", "verify", str(tmp_path / "none.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    other = tmp_path / "other.txt"
    other.write_text('[Event "?"]\n')
    assert cli_main(["puzzles", "verify", str(other)]) == 1
    assert "not a puzzle file" in capsys.readouterr().err
    # a file made with the 3-column tables, checked without them: the engine would differ
    made = tmp_path / "made.txt"
    assert generate(made, "-n", "1") == 0
    made.write_text(made.read_text().replace(" tables=2 ", " tables=3 "))
    capsys.readouterr()
    assert cli_main(["puzzles", "verify", str(made)]) == 2
    assert "was made with the 3-column tables of 7x7" in capsys.readouterr().err
    assert cli_main(["puzzles", "verify", str(made), "--quick", "-q"]) == 0


def test_progress_shows_on_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from emergo.cli import puzzles as command

    monkeypatch.setattr(command, "Progress", functools.partial(Progress, delay=0.0))
    out = tmp_path / "p.txt"
    assert cli_main(["puzzles", "generate", *SMALL, "-o", str(out), "-n", "3"]) == 0
    err = capsys.readouterr().err
    assert "puzzles: 3/3 puzzles" in err and "games" in err and "candidates" in err
    assert cli_main(["puzzles", "verify", str(out)]) == 0
    assert "verify: 3/3 puzzles" in capsys.readouterr().err
    assert generate(tmp_path / "q.txt", "-n", "3") == 0  # -q: nothing
    assert capsys.readouterr().err == ""


def test_records_by_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from emergo.puzzles.generate import Settings, selfplay_game

    settings = Settings(variant="7x7", budget=20_000, screen=2_000, levels=(1,), seed=2)
    games = []
    for number in range(8):
        game = record.Game(Variant="7x7", Site=f"emergo-{number}")
        game.add_line(selfplay_game(settings, number).moves)
        games.append(record.write_game(game))
    path = tmp_path / "games.egn"
    path.write_text("\n".join(games))
    out = tmp_path / "mine.txt"
    assert cli_main(
        ["puzzles", "generate", "--records", str(path), "-o", str(out), "-q", "-n", "100",
         "--budget", "20000", "--screen", "2000"]
    ) == 0  # fmt: skip
    puzzles = list(read_puzzles(out))
    assert len(puzzles) == 3 and {p.source for p in puzzles} <= {
        f"record:emergo-{n}" for n in range(8)
    }
    assert "source=records:games.egn" in out.read_text().splitlines()[1]
    assert "3 puzzles in" in capsys.readouterr().out  # the records ran out before 100


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_keeps_the_file_and_the_same_command_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "stopped.txt"
    command = [sys.executable, "-m", "emergo", "puzzles", "generate", *SMALL, "-o", str(out)]
    proc = subprocess.Popen(
        [*command, "-n", "1000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    for _ in range(600):  # until it has written a few games (at most a minute)
        time.sleep(0.1)
        if out.exists() and out.read_text().count("# game ") >= 3:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and str(out) in err and "Traceback" not in err
    text = out.read_text()
    notes = [line for line in text.splitlines() if line.startswith("# game ")]
    assert len(notes) >= 3 and [int(n.split()[2]) for n in notes] == list(range(len(notes)))
    # the same command goes on; its file is the one a run never stopped makes
    done = subprocess.run([*command, "-n", "4", "-q"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    fresh = tmp_path / "fresh.txt"
    once = subprocess.run(
        [*command[:-1], str(fresh), "-n", "4", "-q"], capture_output=True, text=True, timeout=300
    )
    assert once.returncode == 0, once.stderr
    total = len(list(read_puzzles(out)))
    if total == 4:  # (the stopped run may have written more than 4 already)
        assert out.read_bytes() == fresh.read_bytes()
    else:
        assert out.read_bytes().startswith(fresh.read_bytes())
