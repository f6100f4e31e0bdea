"""Every example in docs/ and the README is checked against the program.

The ```pycon blocks run as doctests (pyproject: ``--doctest-glob=*.md``).  Here: the
sample session of docs/engine-protocol.md is replayed against the real engine, and every
``emergo`` command line shown in the docs is parsed by the real parser (its engine specs
and options too), so an option that was renamed or a value out of range fails here.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from emergo.cli import build_parser
from emergo.match import parse_engine_spec
from emergo.players import PLAYERS
from emergo.protocol import EXPLORATION, LEVEL, PLAYOUTS
from emergo.wire import HASH, SEED, parse_line
from tests.plugins.common import ROOT

DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
TIMING = ("nps", "time")
"""Fields of ``info`` that depend on the machine: left out of the comparison."""


# --- the sample session of docs/engine-protocol.md ----------------------------------------------


def _session() -> list[tuple[str, list[str]]]:
    """``(line sent, lines the engine answers)`` of the sample session."""
    text = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    block = text.split("## A sample session", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("    > "):
            steps.append((line[6:], []))
        elif line.startswith("    < "):
            steps[-1][1].append(line[6:])
    return steps


def _masked(line: str) -> tuple[str, dict[str, str]]:
    command, args = parse_line(line)
    return command, {k: v for k, v in args.items() if k not in TIMING}


def _shape(line: str) -> tuple[str, tuple[str, ...]]:
    command, args = parse_line(line)
    return command, tuple(sorted(args))


def test_the_sample_session_is_what_the_engine_says() -> None:
    pytest.importorskip(
        "emergo.kernel", exc_type=ImportError, reason="the session shows the C kernel's search"
    )
    engine = subprocess.Popen(
        [sys.executable, "-m", "emergo.cli.engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert engine.stdin is not None and engine.stdout is not None
    stdin, stdout = engine.stdin, engine.stdout

    def send(line: str) -> None:
        stdin.write(line + "\n")
        stdin.flush()

    def read_until(command: str, value: str | None = None) -> list[str]:
        lines = []
        while True:
            line = stdout.readline().rstrip("\n")
            assert line, "the engine stopped talking"
            lines.append(line)
            name, args = parse_line(line)
            if name == command and (value is None or args.get("id") == value):
                return lines

    infinite = False
    try:
        for number, (sent, expected) in enumerate(_session()):
            command, args = parse_line(sent)
            send(sent)
            if command == "quit":
                assert engine.wait(timeout=10) == 0
                assert stdout.read() == "" and expected == []
                continue
            if command == "go" and "infinite" in args:
                infinite = True
                got = [stdout.readline().rstrip("\n")]  # it is searching: go on at once
                expected = expected[:1]
            elif command == "go" or command == "stop":
                got = read_until("done")
            elif command == "ping":
                got = read_until("pong", args.get("id"))
            else:  # commands answered at once, or not at all: a ping marks the end
                send(f"ping id=sync{number}")
                got = read_until("pong", f"sync{number}")[:-1]
            if infinite and command in ("go", "ping", "stop"):
                # How far the search got depends on the machine: only the kinds of line count.
                info = _shape(next(x for _, lines in _session() for x in lines if x[:4] == "info"))
                assert {_shape(x) for x in got} <= {_shape(x) for x in expected} | {info}, got
                assert _shape(got[-1]) == _shape(expected[-1]), (sent, got)
                infinite = command != "stop"
                continue
            assert [_masked(x) for x in got] == [_masked(x) for x in expected], (sent, got)
    finally:
        if engine.poll() is None:
            engine.kill()
            engine.wait()


# --- the command lines shown in the docs --------------------------------------------------------

OPTIONS = {o.name.lower(): o for o in (HASH, LEVEL, SEED, EXPLORATION, PLAYOUTS)}


def _command_lines() -> list[tuple[str, str]]:
    """``(file, command line)`` of every ``emergo ...`` line of an indented example."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\\\n\s*", " ", text)  # continued lines
        for line in text.splitlines():
            match = re.match(r"^\s{4,}(?:\$ )?(?:\S*/)?(emergo .*)$", line)
            if match:
                words = match.group(1).split(" #")[0]  # a comment after the command
                found.append((path.name, words.split(" && ")[0]))
    return found


COMMAND_LINES = _command_lines()


def test_the_docs_show_command_lines() -> None:
    assert len(COMMAND_LINES) >= 10


@pytest.mark.parametrize(("page", "line"), COMMAND_LINES, ids=lambda x: str(x)[:60])
def test_each_command_line_of_the_docs_parses(page: str, line: str) -> None:
    argv = shlex.split(line)[1:]
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as e:
        pytest.fail(f"{page}: {line!r} does not parse (exit {e.code})")
    assert not [w for w in extra if w.startswith("-")], (page, line, extra)
    for spec_text in getattr(args, "engine", None) or []:
        spec = parse_engine_spec(spec_text, args.each)
        builtin = next((w for w in shlex.split(spec_text) if w in PLAYERS), None)
        for name, value in spec.options.items():
            if builtin is not None:  # the built-in engine's options and their bounds
                assert name.lower() in OPTIONS, (page, line, name)
                OPTIONS[name.lower()].text(value)


def _shown_outputs() -> list[tuple[str, str, list[str]]]:
    """``(file, command line, output lines)`` of each ``$ emergo`` example followed by output."""
    found = []
    for path in DOCS:
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("    $ emergo "):
                continue
            out = []
            for following in lines[i + 1 :]:
                if not following.startswith("    ") or following.startswith("    $ "):
                    break
                out.append(following[4:])
            found.append((path.name, line[6:], out))
    return found


RUNNABLE = {"analyse": "--depth"}
"""Commands whose shown output the program gives again: a depth-bound analysis (fresh tables,
one thread) is the same on every machine but for the time it takes."""


@pytest.mark.parametrize(("page", "line", "shown"), _shown_outputs(), ids=lambda x: str(x)[:50])
def test_each_shown_output_is_what_the_command_prints(
    page: str, line: str, shown: list[str]
) -> None:
    argv = shlex.split(line)[1:]
    if not (argv[0] in RUNNABLE and RUNNABLE[argv[0]] in argv and "--record" not in argv):
        pytest.skip("timed, or it needs a file the docs only describe: parsed above")
    pytest.importorskip(
        "emergo.kernel", exc_type=ImportError, reason="the docs show the C kernel's search"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "emergo", *argv, "-q"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr

    def masked(lines: list[str]) -> list[str]:
        return [re.sub(r"time [0-9.]+ s", "time T s", x) for x in lines]

    assert masked(proc.stdout.splitlines()) == masked(shown), (page, line)
