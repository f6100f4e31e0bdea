"""The browser tests' plugin: the system's headless Chromium, the site in local mode served on a
free port (its one player signed in by itself), a page that fails its test on any error of the
page's script, and the analysis board's helpers (a position opened, a square clicked)."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.plugins.common import ROOT

pytest.importorskip("starlette")


from emergo.server.app import create_app
from emergo.server.core.config import Bots, Config, Limits
from emergo.server.site import Site

# The screenshots of docs/web.md are retaken with EMERGO_SCREENSHOTS=1; an ordinary run writes
# them to a temporary folder, so running the tests does not change the repository.
SHOTS = (
    ROOT / "docs" / "web"
    if os.environ.get("EMERGO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "emergo-screenshots"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def local_site(db: Path, **more: Any) -> Site:
    """The site in local mode on ``db`` (its player ``ann``, cheap hashes, no house bots unless
    asked)."""
    options: dict[str, Any] = {"bots": Bots(house_bots=False), **more}
    config = Config(
        db=str(db), mode="local", player="ann", argon2_time_cost=1, argon2_memory_kib=64, **options
    )
    return Site.open(config, migrate=True)


def public_site(db: Path, **more: Any) -> Site:
    """The site in public mode on ``db`` (cheap hashes, sign-up and log-in limits a test does
    not reach, no house bots unless asked)."""
    options: dict[str, Any] = {
        "bots": Bots(house_bots=False),
        "limits": Limits(signup_per_hour=1000, login_per_minute=1000),
        **more,
    }
    config = Config(db=f"sqlite:///{db}", argon2_time_cost=1, argon2_memory_kib=64, **options)
    return Site.open(config, migrate=True)


class ThreadServer:
    """A site served by a real uvicorn on 127.0.0.1 (a thread of this process): its URL and its
    :class:`Site` (a test makes accounts, games and studies on it).  ``site`` is made for the
    port (``make(url)``), so that its house bots know where to connect."""

    def __init__(self, make: Any, **uvicorn_options: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.site: Site = make(self.url)
        config = uvicorn.Config(
            create_app(self.site),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            **{"timeout_graceful_shutdown": 3, **uvicorn_options},
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                self.stop()
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        # as emergo serve's stop (serve.stopping_server): streams and sockets end now and the
        # house bots leave, else the server waits for their connections and the bots for it
        self.site.begin_stop()
        self.server.should_exit = True
        self.thread.join(30)
        self.site.close()


class LocalServer(ThreadServer):
    """The site in local mode (:func:`local_site`) served on a free port."""

    def __init__(self, db: Path, **more: Any) -> None:
        def make(url: str) -> Site:
            if more.get("bots") is not None and more["bots"].url is None:
                more["bots"] = dataclasses.replace(more["bots"], url=url)
            return local_site(db, **more)

        super().__init__(make)


@pytest.fixture(scope="session")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """The site in local mode on a fresh SQLite file, for the session (its player ``ann``)."""
    served = LocalServer(tmp_path_factory.mktemp("web") / "site.sqlite3")
    yield served
    served.stop()


@pytest.fixture(scope="session")
def server(local: LocalServer) -> str:
    """The base URL of :func:`local`."""
    return local.url


@pytest.fixture(scope="session")
def computer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """The site in local mode with the computer to play: the house bot of level 1, a thread of
    the server (as ``emergo serve`` runs it), for the session."""
    served = LocalServer(
        tmp_path_factory.mktemp("computer") / "site.sqlite3",
        bots=Bots(house_bots=True, levels=(1,), concurrency=4),
    )
    deadline = time.monotonic() + 60
    while 1 not in served.site.bots.house():  # the supervisor makes its account at start
        if time.monotonic() > deadline:
            served.stop()
            raise RuntimeError("the house bot of level 1 never came")
        time.sleep(0.05)
    yield served
    served.stop()


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
    it, so measure again until it is laid out and still.
    """
    deadline = time.monotonic() + timeout
    last = None
    while True:
        locator.wait_for(state="attached", timeout=timeout * 1000)
        box = locator.bounding_box()
        # the same box after a frame: the page has stopped moving it (a line shown or hidden
        # above the board moves the board)
        if box is not None and box == last:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if time.monotonic() > deadline:
            raise AssertionError(f"{locator} is never laid out still on the page")
        last = box
        locator.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r(0)))")


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[Any, Site]]:
    """The site in local mode in process on a fresh database: (a TestClient, the site)."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient  # needs httpx2: the extra webtest

    site = local_site(tmp_path / "site.sqlite3")
    with TestClient(create_app(site), base_url="http://127.0.0.1:8765") as c:
        yield c, site
    site.close()


# The system's Chromium for the browser tests (tests/web, tests/online): one per test process, as
# playwright's sync API runs one event loop a process and two launches in one pytest worker clash.
CHROMIUM = os.environ.get("EMERGO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (the system's) through playwright; skipped when either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (tools/test.sh installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# --- the analysis board --------------------------------------------------------------------

INVENTOR = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"


TIED = "w 0/0 e5:w2 e6:b d7:b f7:b b5:b"


def open_page(page: Any, server: str, pos: str, moves: str = "", **params: str) -> None:
    query = f"?pos={quote(pos)}"
    if moves:
        query += f"&moves={quote(moves)}"
    # settings persist in the server's store: each test says the ones it starts from
    defaults = {"view": "diamond", "names": "oblique", "theme": "light", "flip": "0"}
    params = {**defaults, "animation": "0", **params}
    for key, value in params.items():
        query += f"&{key}={quote(value)}"
    page.goto(server + "/analysis" + query)
    page.wait_for_selector("html[data-ready='1']")


def square(page: Any, name: str) -> Any:
    return page.locator(f"#board .cell[data-square='{name}']")


def click(page: Any, name: str) -> None:
    """Click the centre of a square (where its piece is, if any)."""
    page.mouse.click(*centre(square(page, name)))


def hover(page: Any, name: str) -> None:
    page.mouse.move(*centre(square(page, name)))


def enter(page: Any, name: str) -> None:
    """Enter a man by a click on the square's dot (the analysis board's or a game's)."""
    page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{name}']")))


def game_from_board(
    page: Any,
    fresh: bool = False,
    *,
    computer: bool = False,
    color: str = "white",
    minutes: str = "",
    increment: str = "0",
) -> str:
    """A game from the analysis board shown (its position, or ``fresh``: the variant's start):
    hot-seat, or against the ``computer`` (level 1, the player's ``color``), with a clock of
    ``minutes`` and ``increment`` if given; on the site's game page, its id."""
    import re

    if computer:
        page.select_option("#opponent", "computer")
        page.select_option("#level", "1")
        page.select_option("#color", color)
    else:
        page.select_option("#opponent", "hotseat")
    if minutes:
        page.select_option("#clock", "fischer")
        page.fill("#clock-base", minutes)
        page.fill("#clock-inc", increment)
    page.click("#start-new" if fresh else "#start-game")
    page.wait_for_url(re.compile(r"/game/\w{8}$"), timeout=30000)
    page.wait_for_selector("html[data-ready='1']")
    return str(page.url.rsplit("/", 1)[1])
