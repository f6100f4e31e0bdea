"""The examples in examples/ run end to end: the value-network loop on a tiny budget, the random
bot against the fake server of tests/botserver.py."""

from __future__ import annotations

import importlib.util
import json
import threading
from pathlib import Path
from types import ModuleType

import pytest

from tests.plugins.botserver import FakeServer
from tests.plugins.common import ROOT

EXAMPLES = ROOT / "examples"
EXAMPLE = EXAMPLES / "value_network.py"


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_value_network_example_runs_the_whole_loop(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the example needs the rl extra")
    pytest.importorskip(
        "torch", reason="the example needs PyTorch: pip install -e '.[examples]' (torch==2.13.0)"
    )
    pytest.importorskip("emergo.kernel", exc_type=ImportError)
    module = load(EXAMPLE)
    argv = ["--games", "4", "--nodes", "100", "--epochs", "1", "--match-games", "2"]
    report = module.main([*argv, "--max-plies", "30", "--out", str(tmp_path)])
    assert (tmp_path / "selfplay.npz").is_file() and (tmp_path / "value.pt").is_file()
    assert report["train_positions"] > 0 and report["games"] == 2
    assert 0.0 <= report["score"] <= 1.0
    assert json.loads((tmp_path / "report.json").read_text())["games"] == 2


def test_random_bot_example_plays_games_to_their_end() -> None:
    module = load(EXAMPLES / "random_bot.py")
    with FakeServer() as server:
        done = threading.Thread(target=module.main, args=(server.url, server.token, 2))
        done.start()
        server.wait(lambda: server.subscribers.get("botty"))
        first = server.challenge(color="black")  # the example plays white ...
        second = server.challenge(color="white", variant="hex")  # ... and black, on the hexagon
        done.join(60)
        assert not done.is_alive()
    games = [server.games[first], server.games[second]]
    assert all(g.board.outcome() is not None for g in games)
    assert server.games[second].variant == "hex"
