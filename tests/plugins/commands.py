"""Running the ``emergo`` command as a user does: a fresh process, its output and its status;
``emergo admin`` also in this process (:func:`admin`)."""

from __future__ import annotations

import contextlib
import io
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


EMERGO = [sys.executable, "-m", "emergo"]


def admin(
    db: str, *args: str, stdin: str = "", process: bool = False
) -> subprocess.CompletedProcess[str]:
    """``emergo admin --db DB ARGS``: its exit status and output.

    In this process by default, through the command line's own ``main`` (its parser, its exit
    statuses, its messages): a new Python process a command spent about 1.5 s of CPU importing
    the site, 60 commands of the suite a minute and a half of a 2-core machine.
    ``process=True`` runs the real command (tests/system/test_admin.py does, for the commands
    a user types first).
    """
    argv = ["admin", "--db", db, *args]
    if process:
        return subprocess.run(
            [*EMERGO, *argv], input=stdin, capture_output=True, text=True, timeout=120
        )
    from emergo.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)  # not a terminal: the password is read as a line
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess([*EMERGO, *argv], status, out.getvalue(), err.getvalue())
