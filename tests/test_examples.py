"""The worked example examples/value_network.py runs end to end on a tiny budget."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the example needs the rl extra")
pytest.importorskip(
    "torch", reason="the example needs PyTorch: pip install -e '.[examples]' (torch==2.13.0)"
)
pytest.importorskip("emergo.kernel", exc_type=ImportError)

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "value_network.py"


@pytest.mark.slow
def test_value_network_example_runs_the_whole_loop(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("value_network", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["--games", "4", "--nodes", "100", "--epochs", "1", "--match-games", "2"]
    report = module.main([*argv, "--max-plies", "30", "--out", str(tmp_path)])
    assert (tmp_path / "selfplay.npz").is_file() and (tmp_path / "value.pt").is_file()
    assert report["train_positions"] > 0 and report["games"] == 2
    assert 0.0 <= report["score"] <= 1.0
    assert json.loads((tmp_path / "report.json").read_text())["games"] == 2
