"""What the sdist and the wheel hold (issue 10): the sdist is built, its files checked, the
wheel built from it and smoke-tested in a fresh virtual environment (real processes: build,
venv, pip)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from emergo import Board
from tests.plugins.common import ROOT

SDIST_MUST_HOLD = [
    "setup.py",
    "pyproject.toml",
    "MANIFEST.in",
    "README.md",
    "src/emergo/__init__.py",
    "src/emergo/_kernel.pyi",
    "src/emergo/py.typed",
    "src/emergo/data/eval_weights.txt",
    "src/emergo/data/ballots.txt",
    "src/emergo/cli/__init__.py",
]


def kernel_sources() -> list[str]:
    """Every C source and header of the kernel (setup.py's SOURCES and HEADERS use them)."""
    folder = ROOT / "src" / "emergo" / "_kernel"
    return sorted(
        f"src/emergo/_kernel/{p.name}" for p in folder.iterdir() if p.suffix in (".c", ".h")
    )


@pytest.mark.slow
def test_the_sdist_holds_what_a_build_needs_and_its_wheel_works(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "LDSHARED")}
    env["EMERGO_REQUIRE_KERNEL"] = "1"  # the wheel must hold the kernel: fail loudly if not

    def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
        # From tmp_path: a build/ folder in the current directory would shadow `build`.
        args = [str(word) for word in command]
        return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True)

    if run(sys.executable, "-m", "build", "--version").returncode != 0:
        pytest.skip("the test extra's build package is not installed")
    dist = tmp_path / "dist"
    proc = run(sys.executable, "-m", "build", "--sdist", "--outdir", dist, ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (sdist,) = dist.glob("emergo-*.tar.gz")
    with tarfile.open(sdist) as tar:
        top = sdist.name.removesuffix(".tar.gz")
        names = {name.removeprefix(f"{top}/") for name in tar.getnames()}
        tar.extractall(tmp_path / "unpacked", filter="data")
    missing = [name for name in [*SDIST_MUST_HOLD, *kernel_sources()] if name not in names]
    assert not missing, f"the sdist lacks {missing}"
    assert not [name for name in names if name.startswith(("tests/", "build/"))]
    assert not [name for name in names if name.endswith((".so", ".pyd", ".o"))]

    # The wheel from the sdist (what pip does with an sdist), the C kernel in it.
    proc = run(
        sys.executable, "-m", "build", "--wheel", "--outdir", dist, tmp_path / "unpacked" / top
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = dist.glob("emergo-*.whl")
    with zipfile.ZipFile(wheel) as whl:
        files = set(whl.namelist())
    for name in ("emergo/py.typed", "emergo/_kernel.pyi", "emergo/data/eval_weights.txt"):
        assert name in files, f"the wheel lacks {name}"
    assert any(n.startswith("emergo/_kernel.") and n.endswith((".so", ".pyd")) for n in files)
    assert not [n for n in files if n.endswith((".c", ".h"))], "C sources in the wheel"
    # every file of the web page, its subfolders too (board/, page/, sounds/)
    static = ROOT / "src" / "emergo" / "server" / "static"
    for path in static.rglob("*"):
        if path.is_file():
            name = f"emergo/server/static/{path.relative_to(static).as_posix()}"
            assert name in files, f"the wheel lacks {name}"

    # Installed in a fresh virtual environment, away from this source tree.
    venv = tmp_path / "venv"
    assert run(sys.executable, "-m", "venv", "--without-pip", venv).returncode == 0
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    proc = run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    assert proc.returncode == 0, proc.stderr[-2000:]
    smoke = "import emergo, emergo.kernel; print(emergo.kernel.perft('w 12/12', 3))"
    proc = run(python, "-c", smoke)
    assert proc.stdout == "55172\n", proc.stderr[-2000:]
    emergo_cmd = shutil.which("emergo", path=str(python.parent))
    assert emergo_cmd is not None
    moves = subprocess.run(
        [emergo_cmd, "moves"], cwd=tmp_path, input="w 12/12\n", capture_output=True, text=True
    )
    assert sorted(moves.stdout.split()) == sorted(str(m) for m in Board().moves()), moves.stderr
