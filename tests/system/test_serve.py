"""``emergo serve`` (:mod:`emergo.server.serve`): the site in local mode on this machine, its one
player signed in by itself; it prints its address, opens the browser (or says it found none),
refuses to serve its unlocked account beyond this machine, and rejects bad arguments."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from emergo.server.core.config import is_loopback
from emergo.server.serve import main, url_for
from tests.plugins.browser import free_port

WAIT = 60.0
"""Seconds a server may take to start on a busy machine."""


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "emergo", "serve", "--no-house-bots", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def lines_until(proc: subprocess.Popen[str], wanted: str) -> list[str]:
    """The lines the server prints until one holds ``wanted`` (an AssertionError if it ends)."""
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        seen.append(line)
        if wanted in line:
            return seen
    raise AssertionError(f"the server never printed {wanted!r}: {seen}")


def stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    _, err = proc.communicate(timeout=WAIT)
    return err


def test_serve_prints_its_address_and_signs_its_player_in(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "site.sqlite3"
    proc = serve("--port", str(port), "--db", str(db), "--no-browser")
    try:
        url = f"http://127.0.0.1:{port}/"
        lines_until(proc, url)
        with urllib.request.urlopen(url + "api/health", timeout=WAIT) as r:
            assert json.load(r) == {"ok": True, "db": True}
        with urllib.request.urlopen(url + "api/account", timeout=WAIT) as r:
            assert json.load(r)["username"]  # nobody signed up or logged in
        with urllib.request.urlopen(url + "analysis", timeout=WAIT) as r:
            page = r.read().decode()
            assert "/static/built/emergo.js" in page and 'data-page="analysis"' in page
            assert "default-src 'none'" in r.headers["content-security-policy"]
        assert db.exists()
    finally:
        stop(proc)


def test_local_mode_refuses_to_listen_beyond_this_machine(tmp_path: Path) -> None:
    proc = serve("--host", "0.0.0.0", "--port", str(free_port()), "--db", str(tmp_path / "db"))
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2
    assert "local mode listens on this machine only" in err and "--public" in err
    assert "Traceback" not in err


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--port", "70000", "--no-browser"]) == 2
    assert "must be in 1..65535" in capsys.readouterr().err
    assert main(["--nonsense"]) == 2
    assert main(["--port", "x"]) == 2


def test_local_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert is_loopback("127.0.0.2")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")
    assert url_for("0.0.0.0", 80) == "http://127.0.0.1:80/"
    assert url_for("::1", 81) == "http://[::1]:81/"


def test_the_engine_runs_off_the_event_loop(server: str) -> None:
    """While a search of three seconds runs, the server answers other requests: the health
    check's answer comes before the search's."""
    body = json.dumps({"pos": "w 12/12", "time": 3.0}).encode()
    request = urllib.request.Request(
        server + "/api/analyse", data=body, headers={"content-type": "application/json"}
    )
    order: list[str] = []
    search = threading.Thread(
        target=lambda: (
            urllib.request.urlopen(request, timeout=WAIT).read(),
            order.append("search"),
        )
    )
    search.start()
    time.sleep(0.3)
    with urllib.request.urlopen(server + "/api/health", timeout=WAIT) as r:
        assert json.load(r)["ok"] is True
    order.append("health")
    search.join(WAIT)
    assert order == ["health", "search"]


def test_serve_opens_the_browser_or_says_it_found_none(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    opened = tmp_path / "opened.txt"
    opener = f"import sys; open({str(opened)!r}, 'w').write(sys.argv[1])"
    env = {**os.environ, "BROWSER": f"{shlex.quote(sys.executable)} -c {shlex.quote(opener)} %s"}
    proc = serve("--port", str(port), "--db", str(tmp_path / "a.sqlite3"), env=env)
    try:
        lines_until(proc, url)
        deadline = time.monotonic() + WAIT
        # the opener's file exists from its open(): its text comes with the write after
        while not (opened.exists() and opened.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == url
    finally:
        stop(proc)
    # no browser at all: the address is printed and the player told to open it
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["BROWSER"] = "/nonexistent/browser"
    env["PATH"] = "/nonexistent"
    port = free_port()
    command = [sys.executable, "-m", "emergo", "serve", "--no-house-bots", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--db", str(tmp_path / "b.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        seen = lines_until(proc, "no web browser found")
        assert any(f"http://127.0.0.1:{port}/" in line for line in seen)
    finally:
        stop(proc)
