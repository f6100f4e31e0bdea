"""A client that sends a request's headers slowly (slowloris) has its connection closed after
``[server] header_timeout`` (uvicorn bounds only the idle time between requests: such a
connection was held forever by a process reached directly)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plugins.postgres import free_port
from tests.plugins.servers import Server

pytestmark = pytest.mark.system

CAP = 30.0
"""How long a test waits for the close at most (the timeout is 1 s)."""


def _closed(sock: socket.socket) -> bool:
    """Whether the server closes the connection (reading until it does, or :data:`CAP`)."""
    sock.settimeout(CAP)
    try:
        while sock.recv(4096):
            pass  # an answer (a 400, a 408) before the close is allowed
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def _partial(port: int, *, first: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=CAP)
    if first:  # a whole request first: its answer read, then the next one's start
        sock.sendall(first)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


WHOLE = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("headers")
    config = tmp / "emergo.toml"
    config.write_text("[server]\nheader_timeout = 1\n[database]\nrequest_timeout = 1\n")
    running = Server(f"sqlite:///{tmp / 'site.sqlite3'}", tmp / "server.log", config)
    yield running
    running.stop()
    assert "Traceback" not in running.log.read_text()


def test_a_request_whose_headers_do_not_end_is_closed(server: Server) -> None:
    with _partial(server.port) as sock:
        assert _closed(sock)


def test_a_connection_that_sends_nothing_is_closed(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=CAP) as sock:
        assert _closed(sock)


def test_the_next_request_of_a_kept_connection_is_bounded_too(server: Server) -> None:
    with _partial(server.port, first=WHOLE) as sock:
        assert _closed(sock)


def _trickled(sock: socket.socket) -> bool:
    """Whether the server closes the connection while the client sends a byte of the body
    every 0.2 s (each of which put off uvicorn's idle bound), waiting :data:`CAP` at most
    (the body's length is past what it sends: no byte of it can read as a next request)."""
    sock.settimeout(0.2)
    for _ in range(int(CAP / 0.2)):
        try:
            if not sock.recv(4096):
                return True
        except TimeoutError:
            try:
                sock.sendall(b"a")
            except OSError:  # closed, and said so by the write
                return True
        except ConnectionResetError:
            return True
    return False


@pytest.mark.parametrize("length", [60_000, 10**6], ids=["at-its-deadline", "too-large"])
def test_a_body_sent_a_byte_at_a_time_is_not_held(server: Server, length: int) -> None:
    """Its request answered before the body came in whole (503 at ``request_timeout``, or 413
    too large), the connection is closed; before, uvicorn kept it for the next request and
    read the body's bytes as they came, holding it as long as they did."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=CAP) as sock:
        sock.sendall(
            b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: %d\r\n\r\nusername=" % length
        )
        assert _trickled(sock)


def test_headers_sent_in_pieces_in_time_are_answered(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=CAP) as sock:
        for piece in (WHOLE[:10], WHOLE[10:30], WHOLE[30:]):
            sock.sendall(piece)
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")


async def _ok(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


@pytest.mark.parametrize("protocol", ["h11", "httptools"])
def test_both_protocols_close_slow_headers(protocol: str) -> None:
    """The bound on each HTTP protocol ``emergo serve`` may run (httptools when installed, else
    h11), in a uvicorn server of this process."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from emergo.server.serve import bounded_headers

    base = H11Protocol if protocol == "h11" else HttpToolsProtocol
    port = free_port()
    config = uvicorn.Config(
        _ok, host="127.0.0.1", port=port, http=bounded_headers(1.0, base), log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    try:
        while not server.started:
            threading.Event().wait(0.02)
            assert thread.is_alive()
        with _partial(port) as sock:
            assert _closed(sock)
        with _partial(port, first=WHOLE) as sock:
            assert _closed(sock)
        with socket.create_connection(("127.0.0.1", port), timeout=CAP) as sock:
            sock.sendall(WHOLE)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        with socket.create_connection(("127.0.0.1", port), timeout=CAP) as sock:
            # answered (the app reads no body) before the body came: closed, not kept
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 60000\r\n\r\nx")
            assert _trickled(sock)
    finally:
        server.should_exit = True
        thread.join(30)


def test_the_header_timeout_setting_is_checked() -> None:
    from emergo.server.core.config import ConfigError, from_mapping

    assert from_mapping({}).header_timeout == 10.0
    assert from_mapping({"server": {"header_timeout": 2.5}}).header_timeout == 2.5
    for bad in (0, -1, 5000, "10", True):
        with pytest.raises(ConfigError, match="header_timeout"):
            from_mapping({"server": {"header_timeout": bad}})


def test_a_bad_header_timeout_is_a_clear_start_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    config = tmp_path / "emergo.toml"
    config.write_text("[server]\nheader_timeout = 0\n")
    done = subprocess.run(
        [
            *(sys.executable, "-m", "emergo", "serve", "--online", "--no-browser"),
            *("--db", f"sqlite:///{tmp_path / 's.sqlite3'}", "--config", str(config)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "header_timeout" in done.stderr and "Traceback" not in done.stderr
