"""``emergo admin import-local`` and the first start of ``emergo serve`` bring the old local
app's store (tests/data/local/emergo-0002.sqlite3, issue 26) into the site: real processes (the
import itself is tested in process by tests/site/core/test_local_import.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from tests.plugins.common import DATA
from tests.plugins.postgres import free_port

STORE = DATA / "local" / "emergo-0002.sqlite3"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the old store (SQLite in WAL mode writes its -shm file beside a file it reads)."""
    copy = tmp_path / "old" / "emergo.sqlite3"
    copy.parent.mkdir()
    copy.write_bytes(STORE.read_bytes())
    return copy


def test_admin_imports_a_store_and_the_first_start_of_serve_imports_the_old_one(
    old: Path, tmp_path: Path
) -> None:
    emergo = [sys.executable, "-m", "emergo"]
    db = tmp_path / "site.sqlite3"
    done = subprocess.run(
        [*emergo, "admin", "--db", str(db), "import-local", str(old), "--player", "ann"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "4 games (2 finished)" in done.stdout and "as ann" in done.stdout
    again = subprocess.run(
        [*emergo, "admin", "--db", str(db), "import-local", str(old)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 1 and "imported already" in again.stderr
    assert "Traceback" not in again.stderr
    # the first start in the default place: the data directory's old emergo.sqlite3, once
    data = tmp_path / "xdg"
    (data / "emergo").mkdir(parents=True)
    (data / "emergo" / "emergo.sqlite3").write_bytes(STORE.read_bytes())
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    port = free_port()
    serve = subprocess.Popen(
        [*emergo, "serve", "--no-browser", "--no-house-bots", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert serve.stdout is not None
        first = serve.stdout.readline()
        assert "imported" in first and "4 games (2 finished)" in first, first
    finally:
        serve.terminate()
        serve.communicate(timeout=60)
    assert (data / "emergo" / "emergo-site.sqlite3").exists()
