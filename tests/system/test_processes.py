"""Every process a test starts is stopped whatever happens (issue 31, defect 11): a test that
fails while its server starts, one that never stops what it started, and a module's server
kept for its tests until the run ends (tests/plugins/processes.py), in a pytest run of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.plugins.common import ROOT

INNER = """
import os, subprocess, sys, pytest
from pathlib import Path

PIDS = Path(__file__).with_name("pids")
SLEEP = [sys.executable, "-c", "import time; time.sleep(600)"]


def started(name):
    proc = subprocess.Popen(SLEEP)
    with open(PIDS, "a") as f:
        f.write(f"{name} {proc.pid}\\n")
    return proc


@pytest.fixture(scope="module")
def server():
    return started("module")


def test_fails_while_its_server_starts():
    started("failed")
    raise TimeoutError("the server did not start")


def test_forgets_to_stop_it(server):
    started("forgotten")
    failed = int(dict(line.split() for line in PIDS.read_text().splitlines())["failed"])
    try:  # the failed test's process was stopped when that test ended
        os.kill(failed, 0)
        raise AssertionError("the failed test's process still runs")
    except ProcessLookupError:
        pass


def test_the_modules_server_still_runs(server):
    assert server.poll() is None
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent, which has exited) counts as gone
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


def test_no_process_outlives_its_test(tmp_path: Path) -> None:
    inner = tmp_path / "test_inner.py"
    inner.write_text(textwrap.dedent(INNER))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.plugins.processes",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            str(inner),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "1 failed, 2 passed" in done.stdout, done.stdout + done.stderr
    pids = dict(line.split() for line in (tmp_path / "pids").read_text().splitlines())
    assert set(pids) == {"module", "failed", "forgotten"}
    deadline = time.monotonic() + 30
    while any(_alive(int(p)) for p in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [name for name, p in pids.items() if _alive(int(p))]
