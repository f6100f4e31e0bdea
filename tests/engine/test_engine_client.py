"""The engine client :mod:`emergo.engine` against the real engine and against misbehaving fakes."""

from __future__ import annotations

import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from emergo import Board
from emergo.engine import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    Score,
    SimpleEngine,
)
from tests.plugins.common import WAIT, finishes

ENGINE = [sys.executable, "-m", "emergo.cli.engine"]

# A scripted engine: it does the handshake, answers ping, and then behaves as argv[1] says.
FAKE = textwrap.dedent(
    """
    import sys
    mode = sys.argv[1]
    def say(line):
        sys.stdout.write(line + "\\n")
        sys.stdout.flush()
    if mode == "silent":
        sys.stdin.read()
        sys.exit(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "emergo":
            say("some junk the client must ignore")
            say("id name=Fake version=0 colour=blue")
            say("option name=Style type=combo default=calm vars=\\"calm wild\\"")
            say("option name=Fast type=check default=false")
            say("wait")
        elif cmd == "init":
            say("ready")
        elif cmd == "ping":
            say("pong " + " ".join(words[1:]))
        elif cmd == "set-option" and "name=Style" in line and "value=wild" in line:
            say("error message=\\"wild is not allowed today\\"")
        elif cmd == "go":
            if mode == "mute":
                continue
            if mode == "crash":
                sys.stderr.write("boom: out of cheese\\n")
                sys.exit(3)
            if mode == "illegal":
                say("info depth=1 score=cp7 pv=\\"e5 d4\\" frobs=9")
                say("done move=e5")
            if mode == "nomove":
                say("error message=\\"no idea\\"")
                say("done")
        elif cmd == "quit":
            break
    """
)


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    path.write_text(FAKE, encoding="utf-8")
    return path


def fake_engine(path: Path, mode: str, timeout: float = WAIT) -> SimpleEngine:
    return SimpleEngine.popen([sys.executable, str(path), mode], timeout=timeout)


@pytest.fixture(scope="module")
def engine() -> Iterator[SimpleEngine]:
    with SimpleEngine.popen(ENGINE, timeout=WAIT) as eng:
        yield eng


def opening() -> Board:
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    return board


def test_popen_reads_id_and_options(engine: SimpleEngine) -> None:
    assert engine.id["name"] == "Emergo"
    assert engine.options["Hash"].type == "spin"
    assert engine.options["Level"].max == 11


def test_play_returns_a_legal_move_and_its_info(engine: SimpleEngine) -> None:
    board = opening()
    result = engine.play(board, Limit(depth=2))
    assert result.move in board.legal_moves
    assert result.info["depth"] == 2
    assert isinstance(result.info["score"], Score)
    assert result.info["pv"][0] == result.move
    assert board.position() == opening().position()  # the caller's board is untouched


def test_play_sends_the_history_so_repetition_is_known_R19b(engine: SimpleEngine) -> None:
    board = Board("w 0/0 a5:w i5:b")
    for text in ("a5-b5 i5-h5 b5-a5 h5-i5 " * 2).split():
        board.push_move(text)
    assert board.outcome() is not None
    assert engine.play(board, Limit(depth=1)).move is None


def test_play_with_a_clock_answers(engine: SimpleEngine) -> None:
    # The clock alone bounds the search (time_budget, tests/test_search.py): an engine that
    # ignored it would deepen for ever and the client's wait beyond the clock would run out.
    result = engine.play(opening(), Limit(wtime=1.0, btime=1.0), timeout=WAIT)
    assert result.move in opening().legal_moves


def test_analyse_single_and_multipv(engine: SimpleEngine) -> None:
    board = opening()
    info = engine.analyse(board, Limit(depth=2))
    assert isinstance(info, dict) and info["depth"] == 2
    lines = engine.analyse(board, Limit(depth=2), multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    scores = [line["score"] for line in lines]
    assert scores[0] >= scores[1] >= scores[2]
    firsts = {line["pv"][0] for line in lines}
    assert len(firsts) == 3 and firsts <= set(board.legal_moves)


def test_configure_checks_names_and_values(engine: SimpleEngine) -> None:
    engine.configure({"hash": 8, "Level": 11})
    with pytest.raises(EngineError, match="no option 'Colour'"):
        engine.configure({"Colour": 1})
    with pytest.raises(EngineError, match=r"Hash must be in 1\.\.4096, not 0"):
        engine.configure({"Hash": 0})
    with pytest.raises(EngineError, match="whole number"):
        engine.configure({"Hash": "big"})


def test_infinite_limits_are_refused(engine: SimpleEngine) -> None:
    with pytest.raises(ValueError, match="finite limit"):
        engine.play(Board(), Limit(infinite=True))


def test_handshake_timeout(fake: Path) -> None:
    # The fake never answers: without the timeout the client would wait for ever.
    with pytest.raises(EngineTimeoutError, match=r"handshake.*within 0\.5 s"):
        finishes(lambda: fake_engine(fake, "silent", timeout=0.5))


def test_go_timeout(fake: Path) -> None:
    with fake_engine(fake, "mute") as eng:
        start = time.monotonic()
        with pytest.raises(EngineTimeoutError, match=r"did not answer go \(move-time=0.1\)"):
            finishes(lambda: eng.play(Board(), Limit(time=0.1), timeout=0.3))
        assert time.monotonic() - start >= 0.35  # it waited the move time and the timeout
        # It did not even answer stop: its next answers could belong to the old search.
        with pytest.raises(EngineError, match="out of step after a timeout"):
            eng.play(Board(), Limit(depth=1))


def test_timeout_then_stop_recovers(engine: SimpleEngine) -> None:
    # A search longer than the wait: stop brings its done, and the engine stays usable.
    with pytest.raises(EngineTimeoutError):
        engine.play(opening(), Limit(depth=30), timeout=0.2)
    assert engine.play(opening(), Limit(depth=1)).move in opening().legal_moves


def test_engine_crash_is_reported_with_its_error_output(fake: Path) -> None:
    eng = fake_engine(fake, "crash")
    with pytest.raises(EngineTerminatedError, match=r"(?s)exit code 3.*out of cheese"):
        eng.play(Board(), Limit(depth=1))
    with pytest.raises(EngineTerminatedError):
        eng.play(Board(), Limit(depth=1))  # and it stays dead
    eng.quit()


def test_illegal_move_is_an_engine_error_R16(fake: Path) -> None:
    with (
        fake_engine(fake, "illegal") as eng,
        pytest.raises(EngineError, match=r"illegal move 'e5'.*R16"),
    ):
        eng.play(Board(), Limit(depth=1))


def test_no_move_reports_the_engine_error(fake: Path) -> None:
    with (
        fake_engine(fake, "nomove") as eng,
        pytest.raises(EngineError, match=r"did not move.*no idea"),
    ):
        eng.play(Board(), Limit(depth=1))


def test_fake_options_and_engine_side_rejection(fake: Path) -> None:
    with fake_engine(fake, "mute") as eng:
        assert eng.id == {"name": "Fake", "version": "0", "colour": "blue"}
        assert eng.options["Style"].vars == ("calm", "wild")
        with pytest.raises(EngineError, match="one of calm, wild"):
            eng.configure({"Style": "angry"})
        with pytest.raises(EngineError, match="rejected an option: wild is not allowed"):
            eng.configure({"Style": "wild"})
        eng.configure({"Fast": True})


def test_unstartable_command() -> None:
    with pytest.raises(EngineError, match="cannot start engine"):
        SimpleEngine.popen(["/nonexistent/engine"])


def test_context_manager_quits_the_engine() -> None:
    # a command line string works too
    with SimpleEngine.popen(" ".join(ENGINE), timeout=WAIT) as eng:
        process = eng.process
    assert process.returncode == 0
