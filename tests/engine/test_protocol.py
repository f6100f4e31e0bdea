"""The engine protocol (docs/engine-protocol.md) spoken by a real ``emergo-engine`` process."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from emergo import Board
from emergo.search import GuardedSearcher, Limit, SearchResult
from emergo.wire import format_line, limit_fields, limit_from_args, parse_line, split_line
from tests.plugins.common import WAIT

ENGINE = [sys.executable, "-m", "emergo.cli.engine"]


class Session:
    """A raw protocol session with an engine subprocess; every read waits at most
    :data:`~conftest.WAIT` seconds (generous: a failure, not a budget)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [*ENGINE, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = WAIT) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the engine closed its output"
        return line

    def read_until(self, command: str, timeout: float = WAIT) -> list[str]:
        """Lines up to and including the first one starting with ``command``."""
        out = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(deadline - time.monotonic(), 0.01))
            out.append(line)
            if parse_line(line)[0] == command:
                return out

    def sync(self) -> list[str]:
        """Lines the engine sent before answering a ping (so: everything it had to say)."""
        self.send("ping id=sync")
        return self.read_until("pong")[:-1]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@pytest.fixture
def engine() -> Iterator[Session]:
    session = Session()
    session.send("emergo")
    session.read_until("wait")
    session.send("init")
    session.read_until("ready")
    yield session
    session.close()


def done_fields(lines: list[str]) -> dict[str, str]:
    command, args = parse_line(lines[-1])
    assert command == "done"
    return args


# --- line syntax ------------------------------------------------------------------------------


def test_split_line_quotes_and_escapes() -> None:
    assert split_line('pos pos="b 11/12 d4:w" moves="e5 f4"') == [
        "pos",
        "pos=b 11/12 d4:w",
        "moves=e5 f4",
    ]
    assert split_line(r'error message="say \"hi\" \\ ok"') == ["error", 'message=say "hi" \\ ok']
    assert split_line('x a="unterminated rest') == ["x", "a=unterminated rest"]
    assert split_line("   ") == []


def test_format_line_round_trips_through_parse_line() -> None:
    fields = [("message", 'a "quoted" = thing\\'), ("empty", ""), ("n", 3), ("flag", True)]
    line = format_line("error", fields)
    command, args = parse_line(line)
    assert command == "error"
    assert args == {"message": 'a "quoted" = thing\\', "empty": "", "n": "3", "flag": ""}


def test_limit_fields_round_trip() -> None:
    limit = Limit(depth=4, nodes=1000, time=0.5, wtime=10.0, btime=9.5, winc=0.1, binc=0.1)
    _, args = parse_line(format_line("go", limit_fields(limit)))
    assert limit_from_args(args, True) == limit
    assert limit_from_args({}, True) is None


def test_time_and_inc_are_the_clock_of_the_player_to_move() -> None:
    white = limit_from_args({"time": "5", "inc": "0.5"}, True)
    black = limit_from_args({"time": "5", "inc": "0.5"}, False)
    assert white == Limit(wtime=5.0, winc=0.5)
    assert black == Limit(btime=5.0, binc=0.5)


# --- a session --------------------------------------------------------------------------------


def test_handshake_declares_identity_and_options() -> None:
    session = Session()
    try:
        session.send("hub")  # Scan's greeting works too
        lines = session.read_until("wait")
        command, ident = parse_line(lines[0])
        assert command == "id"
        assert ident["name"] == "Emergo"
        assert ident["protocol"] == "1"
        assert "version" in ident and "author" in ident
        options = {parse_line(line)[1]["name"]: parse_line(line)[1] for line in lines[1:-1]}
        assert options["Hash"]["type"] == "spin"
        assert options["Level"] == {
            "name": "Level",
            "type": "spin",
            "min": "1",
            "max": "11",
            "default": "11",
        }
        session.send("init")
        assert session.read_until("ready") == ["ready"]
    finally:
        session.close()


def test_set_option_accepts_declared_values_and_rejects_others(engine: Session) -> None:
    engine.send("set-option name=hash value=32")  # names are case-insensitive
    assert engine.sync() == []
    engine.send("set-option name=Hash value=0")
    engine.send("set-option name=Colour value=red")
    engine.send("set-option name=Level value=high")
    errors = [parse_line(line)[1]["message"] for line in engine.sync()]
    assert len(errors) == 3
    assert "Hash" in errors[0] and "1..4096" in errors[0]
    assert "unknown option 'Colour'" in errors[1]
    assert "Level" in errors[2] and "whole number" in errors[2]


def test_go_depth_answers_a_legal_move_for_the_position_and_moves(engine: Session) -> None:
    engine.send('pos pos="w 12/12" moves="d4 e5 f6 c5"')
    engine.send("go depth=2")
    lines = engine.read_until("done")
    infos = [parse_line(line)[1] for line in lines[:-1]]
    assert infos and all(parse_line(line)[0] == "info" for line in lines[:-1])
    assert infos[-1]["depth"] == "2"
    for key in ("score", "nodes", "nps", "time", "pv", "seldepth"):
        assert key in infos[-1]
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    move = board.parse_move(done_fields(lines)["move"])
    assert move in board.legal_moves
    assert infos[-1]["pv"].split()[0] == done_fields(lines)["move"]


def test_pos_moves_in_checker_names_R3(engine: Session) -> None:
    # R3: the same squares named on the upright checkerboard (MindSports e1 = a1).
    board = Board()
    first = board.moves()[0]
    text = board.move_text(first, "checker")
    assert text != str(first)
    engine.send(f'pos moves="{text}" names=checker')
    assert engine.sync() == []
    engine.send("go depth=1")
    board.push(first)
    move = board.parse_move(done_fields(engine.read_until("done"))["move"])
    assert move in board.legal_moves


def test_level_caps_the_search_depth(engine: Session) -> None:
    engine.send("set-option name=Level value=1")
    engine.send("go depth=5")
    lines = engine.read_until("done")
    infos = [parse_line(line)[1] for line in lines[:-1]]
    assert {info["depth"] for info in infos} == {"1"}
    # Level 1 draws among its lines; the last report is the line of the move played.
    assert infos[-1]["multipv"] == "1"
    assert infos[-1]["pv"].split()[0] == parse_line(lines[-1])[1]["move"]


def test_level_draw_follows_the_seed_option(engine: Session) -> None:
    def moves(seed: int) -> list[str]:
        engine.send("set-option name=Level value=1")
        engine.send(f"set-option name=Seed value={seed}")
        out = []
        for _ in range(2):
            engine.send('pos moves="d4 e5 f6 c5"')
            engine.send("go move-time=1")
            out.append(parse_line(engine.read_until("done")[-1])[1]["move"])
        return out

    first = moves(11)
    assert first[0] == first[1]  # the same position and seed: the same draw
    assert moves(11) == first
    assert len({moves(seed)[0] for seed in range(8)}) > 1


def test_level_command_sets_the_default_limit(engine: Session) -> None:
    engine.send("level depth=2")
    engine.send("go")
    lines = engine.read_until("done")
    assert parse_line(lines[-2])[1]["depth"] == "2"


def test_go_without_limit_thinks_the_variants_default_time() -> None:
    from emergo.protocol import EngineSession

    limits: list[Limit] = []

    class Recorder(GuardedSearcher):
        def _search(self, board: Board, limit: Limit, *_: object) -> SearchResult:
            limits.append(limit)
            return SearchResult(board.moves()[0])

        def clear(self) -> None:
            pass

    lines: list[str] = []
    done = threading.Event()

    def send(line: str) -> None:
        lines.append(line)
        if line.startswith("done"):
            done.set()

    session = EngineSession(send, lambda mb: Recorder())
    for position in ("w 12/12", "hex w 12/12"):
        done.clear()
        session.handle(f'pos pos="{position}"')
        session.handle("go")
        assert done.wait(WAIT), lines
    assert limits == [Limit(time=1.0), Limit(time=4.0)]


def test_go_multipv_reports_ranked_lines(engine: Session) -> None:
    engine.send('pos moves="d4 e5 f6 c5"')
    engine.send("go depth=2 multipv=3")
    lines = engine.read_until("done")
    last = [parse_line(line)[1] for line in lines if line.startswith("info depth=2")]
    assert [info["multipv"] for info in last] == ["1", "2", "3"]
    scores = [int(info["score"]) for info in last]
    assert scores == sorted(scores, reverse=True)


def test_unknown_commands_and_fields_are_ignored(engine: Session) -> None:
    engine.send("frobnicate now please")
    engine.send("go depth=1 colour=blue")  # an unknown field on a known command
    lines = engine.read_until("done")
    assert "move" in done_fields(lines)
    assert not any(line.startswith("error") for line in lines)
    assert engine.sync() == []


def test_bad_position_is_an_error_and_keeps_the_old_position_R22(engine: Session) -> None:
    engine.send('pos moves="d4"')
    engine.send('pos pos="w 12/12 z9:w"')
    engine.send('pos moves="d4 d4"')
    errors = [parse_line(line)[1]["message"] for line in engine.sync()]
    assert len(errors) == 2
    assert "bad position" in errors[0] and "z9" in errors[0]
    assert errors[1].startswith("move 2 (d4)") and "occupied" in errors[1]
    engine.send("go depth=1")
    board = Board()
    board.push_move("d4")  # still the position after d4: Black to move
    assert board.parse_move(done_fields(engine.read_until("done"))["move"]) in board.legal_moves


def test_bad_go_is_an_error_then_done_without_move(engine: Session) -> None:
    engine.send("go depth=deep")
    lines = engine.read_until("done")
    assert parse_line(lines[0]) == ("error", {"message": "depth='deep' is not a whole number"})
    assert done_fields(lines) == {}


def test_go_on_a_repetition_knows_the_history_R19b(engine: Session) -> None:
    # R19b: the start counts, so after two round trips the position occurs a third time.
    moves = "a5-b5 i5-h5 b5-a5 h5-i5 " * 2
    engine.send(f'pos pos="w 0/0 a5:w i5:b" moves="{moves.strip()}"')
    engine.send("go depth=1")
    lines = engine.read_until("done")
    assert "occurred three times" in parse_line(lines[0])[1]["message"]
    assert "R19b" in parse_line(lines[0])[1]["message"]
    assert done_fields(lines) == {}


def test_stop_ends_infinite_analysis_with_a_move(engine: Session) -> None:
    engine.send('pos moves="d4 e5"')
    engine.send("go infinite")
    assert parse_line(engine.read())[0] == "info"  # it is searching
    time.sleep(0.2)
    engine.send("stop")
    lines = engine.read_until("done")
    board = Board()
    board.push_move("d4")
    board.push_move("e5")
    assert board.parse_move(done_fields(lines)["move"]) in board.legal_moves


def test_ping_and_errors_are_answered_during_a_search(engine: Session) -> None:
    engine.send("go infinite")
    engine.read()  # the first info: the search runs
    engine.send("ping id=42")
    engine.send("go depth=1")  # refused: one search at a time
    lines = engine.read_until("pong")
    assert parse_line(lines[-1]) == ("pong", {"id": "42"})
    assert not any(line.startswith("done") for line in lines)  # still searching
    assert any("already searching" in line for line in lines + engine.sync())
    engine.send("stop")
    assert "move" in done_fields(engine.read_until("done"))


def test_quit_during_a_search_exits_at_once(engine: Session) -> None:
    engine.send("go infinite")
    engine.read()
    engine.send("quit")
    assert engine.proc.wait(timeout=WAIT) == 0


def test_end_of_input_ends_the_engine() -> None:
    session = Session()
    assert session.proc.stdin is not None
    session.proc.stdin.close()
    assert session.proc.wait(timeout=WAIT) == 0


def test_player_engine_answers_with_the_builtin_player() -> None:
    session = Session("--player", "greedy", "--seed", "3")
    try:
        session.send("emergo")
        lines = session.read_until("wait")
        assert parse_line(lines[0])[1]["name"] == "Emergo greedy"
        assert any("name=Seed" in line for line in lines)
        session.send('pos moves="d4"')
        session.send("go depth=5")
        board = Board()
        board.push_move("d4")
        move = board.parse_move(done_fields(session.read_until("done"))["move"])
        assert move in board.legal_moves
    finally:
        session.close()


def test_bad_command_line_exits_with_usage() -> None:
    proc = subprocess.run(
        [*ENGINE, "--player", "clever"], capture_output=True, text=True, timeout=WAIT
    )
    assert proc.returncode == 2
    assert "unknown player 'clever'" in proc.stderr


def test_one_option_type_declares_reads_back_and_checks_values() -> None:
    from emergo.wire import Option, ProtocolError

    for option in (
        Option.spin("Hash", 16, 1, 4096),
        Option("Style", "combo", "calm", vars=("calm", "wild")),
        Option("Ponder", "check", "false"),
    ):
        command, fields = parse_line(option.declaration())
        assert command == "option" and Option.from_fields(fields) == option
    assert Option.spin("Hash", 16, 1, 4096).text(64) == "64"
    with pytest.raises(ProtocolError, match=r"Hash must be in 1\.\.4096, not 0"):
        Option.spin("Hash", 16, 1, 4096).text("0")
    with pytest.raises(ProtocolError, match="one of calm, wild"):
        Option("Style", "combo", "calm", vars=("calm", "wild")).text("mad")
