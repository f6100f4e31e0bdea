"""Play the computer (issue 20) in real headless Chromium: a person signs up, picks 7x7, a live
clock, Rated and level 1 on the lobby page, presses "Play the computer", and plays the whole
game by clicks against the house bot, which the server runs as an ``emergo bot`` process."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo import Board  # noqa: E402
from emergo.server.core.config import Bots  # noqa: E402
from tests.plugins.site_pages import DESKTOP, Online, Person, shot  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture
def online(tmp_path: Any) -> Iterator[Online]:
    server = Online(tmp_path / "site.sqlite3")
    server.config = dataclasses.replace(
        server.config, bots=Bots(house_bots=True, levels=(1, 2), concurrency=2, url=server.url)
    )
    server.start()
    yield server
    server.stop()  # the site's stop stops the house bots' processes


def test_a_person_plays_a_rated_game_against_the_computer_from_the_lobby(
    browser: Any, online: Online
) -> None:
    ann = Person(browser, online, "ann", DESKTOP)
    try:
        ann.signup()
        page = ann.page
        assert page.locator("#ai-level option").all_inner_texts() == ["level 1", "level 2"]
        page.select_option("#variant", "7x7")
        page.click("#presets .preset[data-limit='60'][data-increment='0']")
        page.fill("#increment", "2")
        page.select_option("#rated", "true")
        page.select_option("#color", "white")
        page.select_option("#ai-level", "1")
        deadline = time.monotonic() + 40
        while "/game/" not in page.url:  # the house bot's process may still be starting
            assert time.monotonic() < deadline, page.locator("#message").inner_text()
            page.click("#play-ai")
            with contextlib.suppress(sync_api.TimeoutError):
                page.wait_for_url(f"{online.url}/game/*", timeout=12_000)
        game_id = page.url.rsplit("/", 1)[1]
        ann.game_page(game_id)
        game = online.live.rounds.get(game_id)
        assert game is not None and game.rated and game.variant == "7x7"
        assert game.seats.black == "emergo-1" and game.seats.white == "ann"
        expect(page.locator(".title", has_text="BOT").first).to_be_visible()
        rng = random.Random(5)
        # the clock bounds the game (ann's minute plus 2 s a move, and the bot's): under a loaded
        # machine ann's clicks take their time, so the deadline is the clock's, not a guess
        deadline = time.monotonic() + 150
        while True:
            assert time.monotonic() < deadline, "the game did not end in time"
            state = online.live.rounds.get(game_id).state
            if state.outcome is not None:
                break
            moves = list(state.moves)
            if len(moves) % 2 == 1:
                time.sleep(0.05)
                continue
            expect(page.locator("#moves button")).to_have_count(len(moves))
            board = Board(variant="7x7")
            for text in moves:
                board.push(board.parse_move(text))
            text = str(rng.choice(list(board.legal_moves)))
            ann.play(text, "7x7", before=moves)
            while len(online.live.rounds.get(game_id).state.moves) == len(moves):
                assert time.monotonic() < deadline, "the move was not played"
                time.sleep(0.05)
        final = online.live.rounds.get(game_id)
        assert final is not None and final.state.outcome is not None
        expect(page.locator("#status")).not_to_contain_text("Your turn")
        shot(page, "play-the-computer-desktop.png")
        # a rematch against the bot: the same terms, the colours swapped; the bot accepts
        expect(page.locator("#rematch")).to_be_visible()
        page.click("#rematch")
        page.wait_for_url(lambda url: "/game/" in url and not url.endswith(game_id), timeout=20_000)
        again = online.live.rounds.get(page.url.rsplit("/", 1)[1])
        assert again is not None and again.rated and again.variant == "7x7"
        assert again.seats.white == "emergo-1" and again.seats.black == "ann"
    finally:
        ann.close()
