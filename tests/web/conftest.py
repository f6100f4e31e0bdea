"""Fixtures of the web app's tests: a live server on a free port and headless Chromium."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")


from emergo.web.app import create_app
from emergo.web.store import Store

# The screenshots of docs/web.md are retaken with EMERGO_SCREENSHOTS=1; an ordinary run writes
# them to a temporary folder, so running the tests does not change the repository.
SHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "web"
    if os.environ.get("EMERGO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "emergo-screenshots"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 with a fresh SQLite store; yields its base URL."""
    import uvicorn

    db = tmp_path_factory.mktemp("web") / "emergo.sqlite3"
    store = Store.open(f"sqlite:///{db}")
    port = free_port()
    config = uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(5)
    store.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh page (desktop size) that fails the test on any JavaScript error."""
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: Any) -> None:
        # a refused move is a 4xx answer the page shows: expected, not an error of the page
        if message.type == "error" and "status of 4" not in message.text:
            errors.append(message.text)

    pg.on("console", console)
    yield pg
    context.close()
    assert not errors, errors


def centre(locator: Any, timeout: float = 5.0) -> tuple[float, float]:
    """The centre of an element on the page, waiting while the board is redrawn under it.

    The tests click the centre with the mouse (the topmost thing there, a piece or a dot, takes
    the click, as for a person); a redraw between finding the element and measuring it detaches
    it, so measure again until it is laid out.
    """
    deadline = time.monotonic() + timeout
    while True:
        locator.wait_for(state="attached", timeout=timeout * 1000)
        box = locator.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if time.monotonic() > deadline:
            raise AssertionError(f"{locator} is never laid out on the page")
        time.sleep(0.02)


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[Any, Store]]:
    """The app in process on a fresh store: (a TestClient, the store), for API tests."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient  # needs httpx2: the extra webtest

    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(store), base_url="http://127.0.0.1:8765") as c:
        yield c, store
    store.close()
