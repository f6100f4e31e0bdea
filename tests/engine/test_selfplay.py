"""emergo selfplay and emergo.selfplay: the training data of tools/tune.py and value networks."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("emergo.kernel", exc_type=ImportError)

from emergo.board import Board
from emergo.cli import main as cli_main
from emergo.parallel import ThreadRunner, check_ray_address
from emergo.search import Score
from emergo.selfplay import (
    COLUMNS,
    SelfplayConfig,
    play_game,
    read_npz,
    run_selfplay,
    write_npz,
)
from tests.plugins.common import WAIT

CONFIG = SelfplayConfig(nodes=200, seed=7)


def test_a_game_is_its_seed_and_number() -> None:
    game = play_game(CONFIG, 3)
    assert game == play_game(CONFIG, 3)
    assert game != play_game(CONFIG, 4)
    assert game != play_game(SelfplayConfig(nodes=200, seed=8), 3)
    board = Board(game.rows[0].position)
    for row in game.rows:  # every row's move is legal there, and leads to the next row
        assert Board(row.position).position() == board.position()
        assert row.turn == (1 if board.turn else 0)
        assert row.capturing == board.is_capturing()
        board.push_move(row.move)
        # the result is the game's, for the side to move
        assert row.result == (game.result if row.turn else -game.result)
    outcome = board.outcome()
    assert game.result == (
        0 if outcome is None or outcome.winner is None else 1 if outcome.winner else -1
    )
    assert game.plies == game.rows[-1].ply + 1
    # the score is the kernel's value for the side to move: Score.from_value reads it
    assert Score.from_value(game.rows[-1].score).kind in ("win", "cp")


def test_runs_are_the_same_with_any_number_of_threads(tmp_path: Path) -> None:
    one = run_selfplay(CONFIG, 6)
    two = run_selfplay(CONFIG, 6, runner=ThreadRunner(3))
    assert [g.number for g in one] == list(range(6))
    assert one == two
    write_npz(tmp_path / "a.npz", one, CONFIG)
    write_npz(tmp_path / "b.npz", two, CONFIG)
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()


def test_the_file_reads_back_with_and_without_numpy(tmp_path: Path) -> None:
    games = run_selfplay(CONFIG, 3)
    path = tmp_path / "games.npz"
    count = write_npz(path, games, CONFIG)
    assert count == sum(len(g.rows) for g in games)
    columns, meta = read_npz(path)
    assert set(columns) == set(COLUMNS)
    assert columns["position"] == [r.position for g in games for r in g.rows]
    assert columns["score"] == [r.score for g in games for r in g.rows]
    assert meta["games"] == 3 and meta["nodes"] == 200 and meta["seed"] == 7
    np = pytest.importorskip("numpy")
    data = np.load(path)
    assert set(data.files) == {*COLUMNS, "meta"}
    assert data["game"].dtype == np.int32 and data["capturing"].dtype == np.bool_
    for name in COLUMNS:
        assert data[name].tolist() == columns[name], name
    assert str(data["meta"]).startswith("{")


def test_levels_and_variants() -> None:
    game = play_game(SelfplayConfig(nodes=None, level=2, seed=1, variant="7x7"), 0)
    assert game.rows[0].position.startswith("7x7 ")
    with pytest.raises(ValueError, match="node count"):
        SelfplayConfig(nodes=None)
    with pytest.raises(ValueError, match="random_plies"):
        SelfplayConfig(random_plies=(5, 2))


def test_ray_addresses_are_checked_without_ray() -> None:
    for good in ("auto", "local:3", "127.0.0.1:6379", "ray://head:10001"):
        assert check_ray_address(good) == good
    for bad in ("", "local:0", "local:65", "bogus", "http://x"):
        with pytest.raises(ValueError, match="Ray address"):
            check_ray_address(bad)


def test_cli_writes_and_does_not_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sp.npz"
    argv = ["selfplay", "-n", "3", "--nodes", "100", "--seed", "7", "-o", str(out), "-q"]
    assert cli_main(argv) == 0
    assert "3 games" in capsys.readouterr().out
    first = out.read_bytes()
    assert cli_main(argv) == 2
    assert "--force" in capsys.readouterr().err
    assert cli_main([*argv, "--force", "-c", "2"]) == 0
    assert out.read_bytes() == first  # the same seed, the same bytes, with 2 threads too
    assert cli_main([*argv, "--random-min", "9", "--force"]) == 2
    assert cli_main(["selfplay", "--ray", "nowhere", "-o", str(out)]) == 2


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_writes_the_games_finished(tmp_path: Path) -> None:
    out = tmp_path / "sp.npz"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "emergo",
            "selfplay",
            "-n",
            "100000",
            "--nodes",
            "300",
            "-o",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )
    # Ctrl-C once a game is done (its progress line says so), however long that took: the
    # games finished before it are written, whole.
    assert proc.stderr is not None
    first = proc.stderr.readline()
    assert re.match(r"selfplay: [1-9]\d*/100000 games", first), first
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=WAIT)
    err = first + rest
    assert proc.returncode == 130, err
    assert "interrupted:" in err and str(out) in err
    columns, meta = read_npz(out)
    assert isinstance(meta["games"], int) and 0 < meta["games"] < 99999
    assert sorted(set(columns["game"])) == list(range(meta["games"]))  # whole games, in order
    assert os.path.getsize(out) > 0
