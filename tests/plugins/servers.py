"""Real processes of the system tests: ``emergo serve`` on a database; each one stopped
whatever happens (a server that fails to start is killed before the error).  ``emergo admin``:
tests/plugins/commands.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import free_port

httpx = pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")


class Server:
    """One ``emergo serve --online`` process, its output in a file."""

    def __init__(self, url: str, log: Path, config: Path | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.handle = open(log, "a")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "emergo",
                "serve",
                "--online",
                "--no-house-bots",
                "--db",
                url,
                "--port",
                str(self.port),
                "--no-browser",
                *(["--config", str(config)] if config is not None else []),
            ],
            stdout=self.handle,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            wait_for(self._up, 60, f"the server on port {self.port}")
        except BaseException:  # never left running by a test that failed to start it
            self.kill()
            raise

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server exited: {self.log.read_text()}")
        try:
            return httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.handle.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.handle.close()
