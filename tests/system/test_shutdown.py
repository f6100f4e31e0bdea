"""Ctrl-C or SIGTERM with sockets and streams open: the server stops cleanly, with no traceback
in its log (the player's review, item 16), and its sockets close with 1012 (restarting: the
pages come back by themselves)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from emergo.server.challenge.service import Terms
from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import free_port
from tests.plugins.site import FAST

httpx = pytest.importorskip("httpx2")
ws_client = pytest.importorskip("websockets.sync.client")
pytestmark = pytest.mark.slow
_SERVE = (sys.executable, "-m", "emergo", "serve", "--online", "--no-house-bots")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stopping_with_open_sockets_and_streams_logs_no_traceback(
    tmp_path: Path, sig: signal.Signals
) -> None:
    db = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    site = Site.open(Config(db=db, **FAST), migrate=True)
    ann = site.users.create("ann", "a good password")
    bob = site.users.create("bob", "a good password")
    token = site.tokens.create(ann.id)
    challenge = site.challenges.create(ann, Terms(clock_limit=300, color="white"), dest=bob)
    game = site.challenges.accept(challenge.id, bob)
    site.close()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [*_SERVE, "--db", db, "--port", str(port), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    sockets: list[Any] = []
    try:

        def up() -> bool:
            assert proc.poll() is None, "the server exited"
            try:
                return bool(httpx.get(f"{base}/api/health", timeout=1).status_code == 200)
            except httpx.HTTPError:
                return False

        wait_for(up, 30, "the server")
        headers = {"Authorization": f"Bearer {token}"}
        for path in (f"/ws/game/{game}", "/ws/lobby", "/ws/site"):
            ws = ws_client.connect(f"ws://127.0.0.1:{port}{path}", additional_headers=headers)
            sockets.append(ws)
            ws.recv(timeout=5)
        opened: list[str] = []

        def stream(path: str) -> None:
            try:
                with httpx.stream("GET", base + path, headers=headers, timeout=None) as r:
                    opened.append(path)
                    for _line in r.iter_lines():
                        pass
            except httpx.HTTPError:
                pass

        paths = ("/api/stream/event", f"/api/board/game/stream/{game}", f"/api/stream/game/{game}")
        threads = [threading.Thread(target=stream, args=(p,), daemon=True) for p in paths]
        for t in threads:
            t.start()
        wait_for(lambda: len(opened) == len(paths), 10, "the streams")
        time.sleep(0.3)
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=30)
        for t in threads:
            t.join(5)
            assert not t.is_alive()  # every stream ended
        codes = []
        for ws in sockets:
            with pytest.raises(Exception) as closed:
                while True:
                    ws.recv(timeout=5)
            codes.append(getattr(getattr(closed.value, "rcvd", None), "code", None))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for ws in sockets:
            ws.close()
    log = err.decode()
    assert "Traceback" not in log and "ERROR" not in log, log
    # the streams ended at once, not cancelled when the graceful shutdown's time was up
    assert "timeout graceful shutdown" not in log and "Cancel" not in log, log
    assert codes == [1012, 1012, 1012]
