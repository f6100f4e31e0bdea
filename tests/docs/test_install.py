"""Installing without a C compiler (issue 10).

Without the extension ``emergo._kernel`` the package still works on its pure-Python
reference: the tests here take the kernel away in-process (the ``without_kernel``
fixture) and check the fallbacks and the one-line notices.  tools/no_compiler.sh
installs the package with no compiler for real and runs the whole suite there.
What the sdist and the wheel hold: tests/system/test_sdist.py.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import pytest

import emergo
from emergo import Board, players
from emergo.cli import common, main
from emergo.cli import engine as engine_cli
from emergo.pysearch import PythonSearcher
from emergo.search import Limit
from tests.plugins.common import ROOT


@pytest.fixture
def without_kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package as installed without a C compiler: ``emergo._kernel`` cannot be imported.

    ``emergo.kernel`` and ``emergo.mcts`` are imported anew (and fail) while the test
    runs; the real modules are put back afterwards.
    """
    monkeypatch.setitem(sys.modules, "emergo._kernel", None)  # type: ignore[arg-type]
    for name in ("kernel", "mcts"):
        monkeypatch.delitem(sys.modules, f"emergo.{name}", raising=False)
    for name in ("_kernel", "kernel", "mcts"):
        monkeypatch.delattr(emergo, name, raising=False)
    monkeypatch.setattr(common, "_noticed", set())
    yield


def notices(err: str) -> list[str]:
    return [line for line in err.splitlines() if "C kernel is not built" in line]


def test_the_kernel_module_says_why_it_cannot_be_imported(without_kernel: None) -> None:
    with pytest.raises(ImportError, match=r"not built \(no C compiler") as caught:
        from emergo import kernel  # noqa: F401
    assert caught.value.name == "emergo._kernel"
    assert "is not built" in (players.kernel_missing() or "")


def test_rules_and_search_fall_back_to_python(without_kernel: None) -> None:
    assert isinstance(players.backend("auto"), PythonSearcher)
    with pytest.raises(ValueError, match="the C kernel is not available"):
        players.backend("kernel")
    assert players.count_perft(Board(), 3) == 55172  # emergo.perft
    assert players.count_divide(Board(), 1) == {str(m): 1 for m in Board().moves()}
    with pytest.raises(ValueError, match="mcts needs the C kernel"):
        players.searcher("mcts")
    assert players.searcher("engine", level=1).search(Board(), Limit(depth=1)).move


def test_bench_measures_the_reference_alone_with_a_notice(
    without_kernel: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--seconds", "0.05", "--games", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert notices(err) == [
        "emergo: note: the C kernel is not built (no C compiler at install time?): "
        "measuring the reference only"
    ]
    assert '"reference"' in out and '"kernel"' not in out
    for only in ("--kernel-only", "--search", "--check"):
        assert main(["bench", only]) == 1
        err = capsys.readouterr().err
        assert "--reference-only measures the reference alone" in err
        assert "Traceback" not in err


def test_play_and_analyse_say_so_once(
    without_kernel: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n"))
    args = ["play", "--opponent", "engine", "--level", "1", "--movetime", "0.05", "--no-board"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert notices(captured.err) == [
        "emergo: note: the C kernel is not built (no C compiler at install time?): "
        "the engine searches in pure Python, slower"
    ]
    assert "hint: " in captured.out
    assert main(["play", "--opponent", "mcts"]) == 1
    assert "mcts needs the C kernel: the C kernel is not built" in capsys.readouterr().err
    common._noticed.clear()  # a new run of the command
    assert main(["analyse", "--movetime", "0.05"]) == 0
    assert len(notices(capsys.readouterr().err)) == 1


def test_the_engine_command_says_so_on_stderr(
    without_kernel: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("init\nquit\n"))
    assert engine_cli.main([]) == 0
    captured = capsys.readouterr()
    assert "ready" in captured.out
    assert notices(captured.err) == [
        "emergo-engine: note: the C kernel is not built (no C compiler at install time?): "
        "the engine searches in pure Python, slower"
    ]
    assert engine_cli.main(["--player", "mcts"]) == 1
    assert engine_cli.main(["--backend", "kernel"]) == 1
    assert engine_cli.main(["--backend", "python"]) == 0  # asked for: no notice
    assert not notices(capsys.readouterr().err.replace("needs the C kernel: the C kernel", ""))


def test_every_testclient_import_skips_without_the_webtest_extra() -> None:
    # starlette.testclient raises RuntimeError (not ImportError) without httpx2, so a test that
    # imports it unguarded errors in tools/no_compiler.sh's install (the test extra alone)
    # instead of skipping: each import must follow pytest.importorskip("httpx2", ...).
    unguarded = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "data" in path.relative_to(ROOT / "tests").parts:  # a script of the old code's day
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if line.strip().startswith("from starlette.testclient import"):
                before = "\n".join(lines[max(0, number - 12) : number])
                if 'importorskip("httpx2"' not in before:
                    unguarded.append(f"{path.name}:{number + 1}")
    assert not unguarded, unguarded
