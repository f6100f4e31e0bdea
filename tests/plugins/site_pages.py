"""The site's pages in real Chromium, one browser context per person: the site on an SQLite
file served by uvicorn in a thread (it can be restarted), people who sign up and play by clicks,
and the screenshots."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from emergo import Board
from emergo.server.challenge.service import Terms
from emergo.server.core.config import Bots, Config, Limits
from emergo.server.site import Site
from tests.plugins.browser import SHOTS, centre, free_port

PASSWORD = "a good password"


DESKTOP = {"width": 1280, "height": 860}


PHONE = {"width": 390, "height": 844}


SHORT_7X7 = "c3 f5 d6 e4 b4 c6 d4 e4xc4xc2 f4 f5xf3 e3 f3xd3 c3 d3xb3xb5 e5 c6xe6xe4".split()  # noqa: SIM905


class Online:
    """The site on an SQLite file, served by uvicorn in a thread; it can be restarted."""

    def __init__(self, db: Path) -> None:
        self.config = Config(
            db=f"sqlite:///{db}",
            argon2_time_cost=1,
            argon2_memory_kib=64,
            limits=Limits(
                signup_per_hour=1000,
                login_per_minute=1000,
                challenges_per_minute=10_000,
                chat_per_minute=1000,
                moves_per_second=10_000,
            ),
            bots=Bots(house_bots=False),
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.site: Site | None = None
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        from emergo.server.app import create_app

        self.site = Site.open(self.config, migrate=True)
        config = uvicorn.Config(
            create_app(self.site),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="websockets-sansio",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(10)
        if self.site is not None:
            self.site.close()
        self.server = self.thread = self.site = None

    @property
    def live(self) -> Site:
        assert self.site is not None
        return self.site

    def account(self, name: str) -> Any:
        return self.live.users.create(name, PASSWORD)

    def seek(self, name: str, **terms: Any) -> None:
        self.live.challenges.create(self.live.users.by_name(name), Terms(**terms), kind="seek")

    def challenge(self, name: str, dest: str, **terms: Any) -> None:
        users = self.live.users
        self.live.challenges.create(users.by_name(name), Terms(**terms), dest=users.by_name(dest))

    def game(self, white: str, black: str, **terms: Any) -> str:
        """A game made on the server (a challenge accepted), ``white`` playing White."""
        users = self.live.users
        w, b = users.by_name(white), users.by_name(black)
        challenge = self.live.challenges.create(w, Terms(color="white", **terms), dest=b)
        return str(self.live.challenges.accept(challenge.id, b))


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Online]:
    server = Online(tmp_path_factory.mktemp("online") / "site.sqlite3")
    server.start()
    yield server
    server.stop()


class Person:
    """Someone at the site in a browser context of their own."""

    def __init__(self, browser: Any, online: Online, name: str, viewport: dict[str, int]) -> None:
        self.online = online
        self.name = name
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.set_default_timeout(8000)
        # no animation: a move is drawn at once (the settings are kept in the browser)
        self.context.add_init_script(
            "localStorage.setItem('emergo-settings', JSON.stringify({animation: false}))"
        )

    def _console(self, message: Any) -> None:
        # a refused request is a 4xx answer the page shows: expected, not an error of the page
        text = message.text
        if message.type == "error" and "status of 4" not in text and "WebSocket" not in text:
            self.errors.append(text)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def go(self, path: str) -> None:
        self.page.goto(self.online.url + path)
        self.page.wait_for_selector("html[data-ready='1']")

    def signup(self) -> None:
        self.page.goto(f"{self.online.url}/signup")
        self.page.fill("input[name=username]", self.name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.fill("input[name=password2]", PASSWORD)
        self.page.click("form button[type=submit]")
        self.page.wait_for_url(f"{self.online.url}/")
        self.page.wait_for_selector("html[data-ready='1']")
        # the lobby's socket open: a game that starts from now on is opened by the lobby
        # (``game_page(taken=True)``); one that started before shows in its lists only
        self.page.wait_for_selector("html[data-live='1']")

    def login(self) -> None:
        self.page.goto(f"{self.online.url}/login")
        self.page.fill("input[name=username]", self.name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("main form button[type=submit]")
        self.page.wait_for_url(f"{self.online.url}/")
        self.page.wait_for_selector("html[data-ready='1']")
        # the lobby's socket open: a game that starts from now on is opened by the lobby
        # (``game_page(taken=True)``); one that started before shows in its lists only
        self.page.wait_for_selector("html[data-live='1']")

    def game_page(self, game_id: str, *, taken: bool = False) -> None:
        """The game's page: opened, or loaded where the lobby took us (``taken``: a game of
        ours started while the lobby was open)."""
        if taken:
            self.page.wait_for_url(f"{self.online.url}/game/{game_id}")
        if self.page.url.endswith(f"/game/{game_id}"):
            self.page.wait_for_selector("html[data-ready='1']")
        else:
            self.go(f"/game/{game_id}")

    def moves(self) -> int:
        return int(self.page.locator("#moves button").count())

    def play(self, text: str, variant: str = "9x9", before: list[str] | None = None) -> None:
        """Play a move by clicks: the squares of its route in turn, until the page sends it."""
        board = Board(variant=variant)
        for t in before if before is not None else []:
            board.push(board.parse_move(t))
        move = board.parse_move(text)
        path = [board.geometry.square_name(sq) for sq in move.path]
        page = self.page
        page.wait_for_selector("#board .dest, #board .movable")
        sent = page.evaluate("() => Number(document.documentElement.dataset.sent || 0)")
        for square in path:
            page.mouse.click(*centre(page.locator(f"#board .cells [data-square='{square}']")))
            confirm = page.locator("#confirm")
            if confirm.count() and confirm.is_visible() and "Play" in confirm.inner_text():
                page.click("#confirm-yes")  # a correspondence move is confirmed (issue 31)
            now = page.evaluate("() => Number(document.documentElement.dataset.sent || 0)")
            if now > sent:
                return
        shot(page, f"failed-{self.name}.png")
        raise AssertionError(f"{self.name}: clicking {path} did not play {text}")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, (self.name, self.errors)
        assert not self.dialogs, (self.name, self.dialogs)


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def wait_moves(people: list[Person], count: int) -> None:
    for p in people:
        _expect()(p.page.locator("#moves button")).to_have_count(count)


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))
