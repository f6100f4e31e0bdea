"""``emergo play`` at a terminal: sessions through a pseudo-terminal (pexpect), and its seats."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from emergo.board import BLACK, WHITE
from emergo.cli.common import CliError
from emergo.cli.play import Seats
from emergo.game import Computer, Human
from emergo.players import PLAYERS
from emergo.record import read_games
from tests.plugins.common import WAIT

pexpect = pytest.importorskip("pexpect")

PROMPT_WHITE_2 = r"2\. White> "


def spawn(*args: str, cwd: Path | None = None) -> pexpect.spawn:
    """``python -m emergo play ARGS`` at a 100x40 colour terminal."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm"
    return pexpect.spawn(
        sys.executable,
        ["-m", "emergo", "play", *args],
        encoding="utf-8",
        timeout=WAIT,
        env=env,
        cwd=str(cwd) if cwd else None,
        dimensions=(40, 100),
    )


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    status: int = child.exitstatus
    return status


def test_a_short_game_against_random() -> None:
    child = spawn("--opponent", "random", "--seed", "3")
    child.expect(r"Emergo: you play White, the computer plays Black \(random\)\.")
    child.expect("help for the commands")
    child.expect(r"1\. White> ")
    assert child.before.count("White to move") == 1  # the board, once
    child.sendline("clear")
    child.expect(r"unknown command 'clear' \(type help for the commands\)")
    child.expect(r"1\. White> ")
    child.sendline("d4")
    child.expect(r"1\. White \(you\) plays d4")
    child.expect(r"1\.\.\. Black \(random\) plays (\S+)")
    child.expect(PROMPT_WHITE_2)
    assert child.before.count("White to move") == 1  # once per turn, after the reply
    assert "\x1b[1;7mW" in child.before  # White's men in colour at a colour terminal
    lines = [line for line in child.before.splitlines() if "in hand" in line]
    assert lines[0].startswith("Black") and lines[1].startswith("White")
    child.sendline("flip")
    child.expect(PROMPT_WHITE_2)
    lines = [line for line in child.before.splitlines() if "in hand" in line]
    assert lines[0].startswith("White") and lines[1].startswith("Black")  # turned round
    child.sendline("resign")
    child.expect(r"White \(you\): resign this game\? \[y/N\] ")
    child.sendline("n")
    child.expect(PROMPT_WHITE_2)
    child.sendline("resign")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"Black \(random\) wins \(0-1\): White resigned \(R20\)")
    child.expect(r"Save the game\? File name \(Enter: no\): ")
    child.sendline("")
    child.expect(r"Play again\? \[y/N\] ")
    child.sendline("")
    assert finish(child) == 0


def test_ctrl_c_stops_the_engine_then_offers_to_save(tmp_path: Path) -> None:
    # An hour a move: only the Ctrl-C can bring the prompt back before pexpect gives up.
    child = spawn("--opponent", "engine", "--movetime", "3600", "--no-board", cwd=tmp_path)
    child.expect(r"1\. White> ")
    child.sendline("d4")
    child.expect(r"level 11\) thinks")
    time.sleep(0.3)  # well into its thought
    child.sendintr()
    child.expect(r"1\.\.\. Black \(stopped: go, undo\.\.\.\)> ")
    assert "Black (emergo engine, level 11) plays" not in child.before  # stopped, no move
    child.sendline("undo")
    child.expect("taken back: d4")
    child.expect(r"1\. White> ")
    child.sendline("f4")
    child.expect("thinks")
    child.sendintr()
    child.expect(r"1\.\.\. Black \(stopped: go, undo\.\.\.\)> ")  # the whole prompt: at it
    child.sendintr()  # at the prompt: leave, after an offer to save
    child.expect(r"Save the game before leaving\? File name \(Enter: leave without saving\): ")
    child.sendline("kept.egn")
    child.expect("game saved to kept.egn")
    assert finish(child) == 130
    saved = (tmp_path / "kept.egn").read_text(encoding="utf-8")
    assert "1. f4 *" in saved and '[Black "emergo engine, level 11"]' in saved


def test_ctrl_c_as_the_thinking_status_is_shown_stops_the_thought() -> None:
    # the race the pexpect test above can hit under load, made certain: the Ctrl-C arrives
    # while "thinks... (Ctrl-C stops it)" is being written
    import io

    from emergo.cli.play import Console, PlaySession
    from emergo.game import Game

    class InterruptedStatus(Console):
        interrupts = 1

        def status(self, text: str) -> None:
            if self.interrupts:
                self.interrupts -= 1
                raise KeyboardInterrupt
            super().status(text)

    out = io.StringIO()
    console = InterruptedStatus(io.StringIO("d4\nundo\n"), out)
    seats = Seats({WHITE: "human", BLACK: "engine"}, movetime=3600.0)
    session = PlaySession(
        seats, console, start=lambda s: Game(s.player(WHITE), s.player(BLACK)), show_board=False
    )
    assert session.run() == 0  # to the end of its input, not left at the Ctrl-C
    assert "stopped the computer's thought" in out.getvalue()
    assert "taken back: d4" in out.getvalue()


def test_load_resumes_at_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.egn"
    record.write_text('[White "Ann"]\n[Black "Bob"]\n\n1. d4 e6 *\n', encoding="utf-8")
    child = spawn("--load", str(record), "--opponent", "random", "--seed", "1")
    child.expect(PROMPT_WHITE_2)
    assert "Last move: e6 (Black)" in child.before
    child.sendline("f4")
    child.expect(r"2\. White \(you\) plays f4")
    child.expect(r"2\.\.\. Black \(random\) plays")
    child.expect(r"3\. White> ")
    child.sendline("quit")
    child.expect(r"Save the game\? File name \(Enter: no\): ")
    child.sendline("")
    assert finish(child) == 0


def test_play_again_keeps_both_games_in_the_save_file(tmp_path: Path) -> None:
    record = tmp_path / "games.egn"
    child = spawn("--no-board", "--variant", "7x7", "--save", str(record))
    child.expect(r"1\. White> ")
    child.sendline("c4")
    child.expect(r"1\.\.\. Black> ")
    child.sendline("resign")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"White wins \(1-0\): Black resigned \(R20\)")
    child.expect(f"game saved to {record}")
    child.expect(r"Play again\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"1\. White> ")
    child.sendline("e4")
    child.expect(r"1\.\.\. Black> ")
    child.sendeof()
    assert finish(child) == 0
    games = list(read_games(record.open(encoding="utf-8")))
    assert [[str(m) for m in g.mainline_moves()] for g in games] == [["c4"], ["e4"]]
    assert games[0].headers["Result"] == "1-0"


def test_ctrl_c_at_the_prompt_with_save_writes_the_file(tmp_path: Path) -> None:
    record = tmp_path / "game.egn"
    child = spawn("--no-board", "--save", str(record))
    child.expect(r"1\. White> ")
    child.sendline("d4")
    child.expect(r"1\.\.\. Black> ")
    child.sendintr()
    child.expect(f"game saved to {record}")
    assert finish(child) == 130
    assert "1. d4 *" in record.read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", list(PLAYERS))
def test_every_computer_of_the_registry_takes_a_seat(kind: str) -> None:
    seats = Seats({WHITE: "human", BLACK: kind}, level=2, movetime=0.5, seed=1)
    assert isinstance(seats.player(WHITE), Human)
    try:
        player = seats.player(BLACK)
    except CliError:  # mcts needs the C kernel
        pytest.skip("the C kernel is not built")
    assert isinstance(player, Computer)
    names = {"engine": "emergo engine, level 2", "python": "python search, level 2"}
    assert player.name == names.get(kind, kind)
    assert player.limit is not None and player.limit.time == 0.5
    player.close()
