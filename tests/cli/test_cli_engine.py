"""The engine's commands for people: play against it (with hints), analyse, match."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from emergo import Board
from emergo.ballots import BALLOTS_FILE, BALLOTS_FILES
from emergo.record import read_games
from tests.plugins.commands import assert_clean_error, run
from tests.plugins.common import ROOT

# --- play against the engine --------------------------------------------------------------------


def test_play_against_the_engine_with_a_hint_through_a_pipe() -> None:
    args = ("play", "--opponent", "engine", "--level", "1", "--movetime", "0.1", "--seed", "4")
    first = run(*args, "--no-board", stdin="hint\n")
    assert first.returncode == 0, first.stderr
    hint = re.search(
        r"hint: (\S+)  \(score (\S+) for White, depth (\d+); line (\S.*)\)", first.stdout
    )
    assert hint is not None, first.stdout
    move = hint.group(1)
    assert move in [str(m) for m in Board().moves()]
    assert hint.group(4).split()[0] == move
    second = run(*args, "--no-board", stdin=f"hint\n{move}\n")
    assert f"1. White (you) plays {move}" in second.stdout
    reply = re.search(r"1\.\.\. Black \(emergo engine, level 1\) plays (\S+)", second.stdout)
    assert reply is not None, second.stdout
    board = Board()
    board.push_move(move)
    assert board.parse_move(reply.group(1)) in board.legal_moves
    # Level 1 is capped at depth 1: with the seed, its draw repeats.  Compared between two games
    # without a hint (a timed hint fills the engine's tables to a depth the machine's load
    # decides, which may order equal moves differently), and with a move time the depth cap
    # always ends first (a short one could cut the search where the load decides).
    untimed = ("play", "--opponent", "engine", "--level", "1", "--movetime", "3600", "--seed", "4")
    once, again = (run(*untimed, "--no-board", stdin=f"{move}\n") for _ in range(2))
    replies = [
        re.findall(r"1\.\.\. Black \(emergo engine, level 1\) plays (\S+)", p.stdout)
        for p in (once, again)
    ]
    assert replies[0] and replies[0] == replies[1], (once.stdout, again.stdout)


@pytest.mark.requires_kernel
def test_engine_against_mcts_plays_to_the_end_and_saves(tmp_path: Path) -> None:
    record = tmp_path / "game.egn"
    proc = run(
        "play", "--white", "engine", "--black", "mcts", "--movetime", "0.02", "--seed", "1",
        "--variant", "7x7", "--no-board", "--save", str(record),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^(.* wins \((1-0|0-1)\)|Draw \(1/2-1/2\)): ", proc.stdout, re.M)
    (game,) = read_games(record.open(encoding="utf-8"))
    assert game.headers["White"] == "emergo engine, level 11" and game.headers["Black"] == "mcts"
    assert game.outcome() is not None


def test_play_level_and_movetime_are_checked() -> None:
    assert_clean_error(run("play", "--opponent", "engine", "--level", "0"), 2)
    assert_clean_error(run("play", "--opponent", "engine", "--level", "12"), 2)
    assert_clean_error(run("play", "--opponent", "engine", "--movetime", "0"), 2)


def test_play_draw_offer_to_the_engine_is_answered_from_its_evaluation() -> None:
    # Level 1 stops at depth 1 long before an hour: its reply (b5) is the same on any machine,
    # where 0.05 s could cut its search where the load decides (a5, a man down: accepted).
    proc = run("play", "--opponent", "engine", "--level", "1", "--movetime", "3600", "--seed", "1",
               "--no-board", stdin="d4\ndraw\n")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # In the opening the score is level: the engine plays on (emergo.game.accepts_draw).
    assert "2. White> draw\nWhite (you) offers a draw\nBlack (emergo engine, level 1) declines" in (
        proc.stdout
    )


# --- analyse ------------------------------------------------------------------------------------


def test_analyse_a_position_prints_the_evaluation_and_lines() -> None:
    proc = run("analyse", "--moves", "d4 e5 f6 c5", "--depth", "2", "--multipv", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "position: w 10/10 c5:b d4:w e5:b f6:w (White to move)"
    assert lines[1].startswith("evaluation: ") and "(White's view)" in lines[1]
    assert re.fullmatch(r" 1\. +\S+/2  \S.*", lines[2]) and lines[3].startswith(" 2. ")
    over = run("analyse", "w 0/0 c4:w8b4 f6:w4b2 g5:b6")
    assert "game over: 0-1 (White has no pieces and no men in hand (R18))" in over.stdout


def test_analyse_a_record_annotates_and_summarises(tmp_path: Path) -> None:
    source = tmp_path / "games.egn"
    source.write_text(
        '[White "Ann"]\n[Black "Bob"]\n\n1. d4 e5 {hm} 2. f6 c5 3. d5 *\n\n'
        '[White "Cy"]\n[Black "Di"]\n\n1. d7 e1 *\n',
        encoding="utf-8",
    )
    out = tmp_path / "annotated.egn"
    proc = run("analyse", "--record", str(source), "--annotate", str(out), "--depth", "1")
    assert proc.returncode == 0, proc.stderr
    assert "game 1: Ann (White) vs Bob (Black): *, 5 plies" in proc.stdout
    assert "game 2: Cy (White) vs Di (Black)" in proc.stdout
    assert "  White: " in proc.stdout and "mean loss" in proc.stdout
    games = list(read_games(out.open(encoding="utf-8")))
    assert [len(g.mainline_moves()) for g in games] == [5, 2]
    nodes = [node for g in games for node in g.mainline()]
    assert all(node.eval is not None and node.eval.depth == 1 for node in nodes)
    assert [node.comment for node in games[0].mainline()] == ["", "hm", "", "", ""]
    assert games[0].headers["Annotator"] == "emergo analyse"
    text = out.read_text(encoding="utf-8")
    head = '[White "Ann"]\n[Black "Bob"]\n[Annotator "emergo analyse"]\n\n1. d4 {[%eval '
    assert text.startswith(head)
    marked = [n for n in nodes if n.nags]  # a move that lost has its mark and the better line
    assert all(len(n.parent.variations) == 2 for n in marked)
    only = run("analyse", "--record", str(source), "--game", "2", "--depth", "1")
    assert "game 2:" in only.stdout and "game 1:" not in only.stdout


def test_analyse_usage_errors() -> None:
    assert_clean_error(run("analyse", "--annotate", "x.egn"), 2)
    assert_clean_error(run("analyse", "--record", "/no/such/file.egn"), 2)
    assert_clean_error(run("analyse", "w 12/13"), 2)
    assert_clean_error(run("analyse", "--depth", "0"), 2)
    assert_clean_error(run("analyse", "--moves", "e5"), 2)  # R16


# --- match --------------------------------------------------------------------------------------


def test_match_help_and_a_tiny_match_through_the_cli(tmp_path: Path) -> None:
    help_text = run("match", "--help")
    assert help_text.returncode == 0 and "usage: emergo match" in help_text.stdout
    assert "mcts" in help_text.stdout and "engine" in help_text.stdout
    records = tmp_path / "games.egn"
    proc = run("match", "-e", "random", "-e", "greedy", "-n", "2", "-c", "2", "--records",
               str(records), "-q")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"random vs greedy: [\d.]+/2 \(", proc.stdout)
    assert "Elo" in proc.stdout and "pentanomial" in proc.stdout
    assert len(list(read_games(records.open(encoding="utf-8")))) == 2
    bad = run("match", "-e", "random")
    assert bad.returncode == 2 and "at least two engines" in bad.stderr


def test_match_on_the_hex_board_through_the_cli_R4(tmp_path: Path) -> None:
    assert "--variant {9x9,7x7,hex}" in run("match", "--help").stdout
    records = tmp_path / "hex.egn"
    proc = run("match", "--variant", "hex", "-e", "random", "-e", "greedy", "-n", "2",
               "--records", str(records), "-q")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"random vs greedy: [\d.]+/2 \(", proc.stdout)
    games = list(read_games(records.open(encoding="utf-8")))
    assert len(games) == 2 and all(g.headers["Variant"] == "hex" for g in games)
    hex_suite = str(BALLOTS_FILES["hex"])
    for args, message in (
        (["--variant", "9x9", "--openings", hex_suite], "a hex opening, not 9x9"),
        (["--variant", "hex", "--openings", str(BALLOTS_FILE)], "moves of a 9x9 opening?"),
    ):
        bad = run("match", *args, "-e", "random", "-e", "greedy", "--no-records")
        assert_clean_error(bad, 2)
        assert message in bad.stderr


@pytest.mark.slow
@pytest.mark.requires_kernel
def test_match_example_of_the_docs_runs(tmp_path: Path) -> None:
    # docs/engine.md: the engine against the MCTS baseline (here two games, short times).
    records = str(tmp_path / "m.egn")
    proc = run("match", "-e", "engine move-time=0.02", "-e", "mcts move-time=0.05", "-n", "2",
               "-c", "2", "--max-plies", "200", "--records", records, "-q")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"engine vs mcts: [\d.]+/2 ", proc.stdout), proc.stdout


# --- the proof script ---------------------------------------------------------------------------


def load_tool(name: str) -> ModuleType:
    path = ROOT / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up
    spec.loader.exec_module(module)
    return module


def test_proof_script_reads_the_match_summary(tmp_path: Path) -> None:
    proof = load_tool("proof_matches")
    figures = proof.Figures("c. engine vs mcts", ["emergo", "match"])
    proof.parse_summary(
        "200 games in 600.0 s\n"
        "engine vs mcts: 190.5/200 (95.2%)  W 188  D 5  L 7\n"
        "  pentanomial: LL 0 LD 1 DD/WL 8 WD 3 WW 88\n"
        "  Elo +520.3 +/- 80.1 (95%) [+450.0, +inf]  LOS 100.0%\n",
        figures,
    )
    assert (figures.points, figures.games, figures.wins, figures.draws, figures.losses) == (
        190.5, 200, 188, 5, 7,
    )  # fmt: skip
    assert figures.elo == "+520.3 [+450.0, +inf]" and figures.los == "100.0%"
    assert figures.penta == "0 1 8 3 88"
    assert "| c. engine vs mcts | 200 | 190.5 (95.2%) | 188/5/7 |" in figures.row()
    records = tmp_path / "games.egn"
    records.write_text(
        "".join(
            f'[White "a"]\n[Black "b"]\n[Result "{r}"]\n\n{r}\n\n' for r in ("1-0", "0-1", "1-0")
        ),
        encoding="utf-8",
    )
    assert proof.colour_count(records) == "2/1"
