"""Running the ``emergo`` command as a user does: a fresh process, its output and its status."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


def command() -> list[str]:
    """The installed ``emergo`` command, else the same command line through ``python -m emergo``."""
    beside = Path(sys.executable).parent / "emergo"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("emergo")
    return [found] if found is not None else [sys.executable, "-m", "emergo"]


def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [*command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=env,
    )


def assert_clean_error(proc: subprocess.CompletedProcess[str], status: int) -> None:
    assert proc.returncode == status, proc.stderr
    assert "Traceback" not in proc.stderr
    assert re.match(r"emergo( \w+)?: ", proc.stderr.splitlines()[-1]), proc.stderr
