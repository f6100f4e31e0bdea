"""``emergo.web.main`` (``emergo serve``): it prints its URL, serves, warns when bound beyond
this machine, and rejects bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from tests.web.conftest import free_port

from emergo.web import main
from emergo.web.server import is_local, url_for

SERVE = "import sys, emergo.web; sys.exit(emergo.web.main(sys.argv[1:]))"


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def first_line(proc: subprocess.Popen[str], timeout: float = 20) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line:
            return line
    raise AssertionError("the server printed nothing")


def test_serve_prints_its_url_and_answers(tmp_path: Path) -> None:
    port = free_port()
    proc = serve("--port", str(port), "--db", str(tmp_path / "db.sqlite3"), "--no-browser")
    try:
        line = first_line(proc)
        url = f"http://127.0.0.1:{port}/"
        assert url in line
        with urllib.request.urlopen(url + "api/health", timeout=5) as r:
            assert json.load(r) == {"ok": True}
        with urllib.request.urlopen(url, timeout=5) as r:
            page = r.read().decode()
            assert "/static/built/main.js" in page
            assert "default-src 'none'" in r.headers["content-security-policy"]
        assert (tmp_path / "db.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_warns_when_bound_beyond_this_machine(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(
        "--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "db"), "--no-browser"
    )
    try:
        first_line(proc)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "warning: listening on 0.0.0.0" in err


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--port", "70000", "--no-browser"]) == 2
    assert "--port: must be in 1..65535" in capsys.readouterr().err
    assert main(["--nonsense"]) == 2
    assert main(["--port", "x"]) == 2


def test_local_addresses() -> None:
    assert is_local("127.0.0.1") and is_local("localhost") and is_local("::1")
    assert is_local("127.0.0.2")
    assert not is_local("0.0.0.0") and not is_local("192.168.1.2")
    assert url_for("0.0.0.0", 80) == "http://127.0.0.1:80/"
    assert url_for("::1", 81) == "http://[::1]:81/"


def test_the_engine_runs_off_the_event_loop(server: str) -> None:
    """While a search of one second runs, the server answers other requests at once."""
    import threading

    body = json.dumps({"pos": "w 12/12", "time": 1.0}).encode()
    request = urllib.request.Request(
        server + "/api/analyse", data=body, headers={"content-type": "application/json"}
    )
    answers: list[dict[str, object]] = []
    thread = threading.Thread(
        target=lambda: answers.append(json.load(urllib.request.urlopen(request, timeout=30)))
    )
    thread.start()
    time.sleep(0.2)
    start = time.monotonic()
    with urllib.request.urlopen(server + "/api/health", timeout=5) as r:
        assert json.load(r) == {"ok": True}
    assert time.monotonic() - start < 0.5
    thread.join(30)
    assert answers and answers[0]["lines"]


def test_emergo_serve_command_prints_the_url_and_opens_the_browser(tmp_path: Path) -> None:
    import os
    import shlex

    port = free_port()
    opened = tmp_path / "opened.txt"
    opener = f"import sys; open({str(opened)!r}, 'w').write(sys.argv[1])"
    env = {**os.environ, "BROWSER": f"{shlex.quote(sys.executable)} -c {shlex.quote(opener)} %s"}
    command = [sys.executable, "-m", "emergo", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--db", str(tmp_path / "db.sqlite3")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        assert url in first_line(proc)
        deadline = time.monotonic() + 10
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == url
    finally:
        proc.terminate()
        proc.wait(10)
