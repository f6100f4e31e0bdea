"""A practice level of /learn against the house bot, end to end in real headless Chromium
(issue 28): the learner signs in, starts the level's game from its page, plays his first move on
the game page, the house bot answers and then resigns (through the Bot API with its own token:
the bot at its level cannot be beaten reliably in a test), and the game page says the level's
stars and offers "Next level" (focused: Enter follows it), "Back to the lesson", "Try again" (a
new practice game of the level, no rematch) and a replay of the game, stoppable; the lesson and
the course map show the stars.  A hold level is done at its par, the game still going on.  No
house bot process runs: the test plays the bot's side itself.  Screenshots of the game page's
end at 1280x800 and 390x844 go to docs/learn/ with EMERGO_SCREENSHOTS=1."""

from __future__ import annotations

import os
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.plugins.common import ROOT

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo.server.learn import load_course  # noqa: E402
from emergo.server.round.starts import tags_of  # noqa: E402
from tests.plugins.browser import ThreadServer, public_site  # noqa: E402
from tests.plugins.game_helpers import wait_for  # noqa: E402

pytestmark = pytest.mark.slow

PASSWORD = "a good password"


@dataclass
class Practice:
    """A learner signed in on a practice level's game page, started from the level's page."""

    page: Any
    url: str
    site: Any
    token: str
    """The house bot's token: the test plays the bot's side."""
    id: str
    errors: list[str]


@contextmanager
def practice(
    browser: Any, tmp_path: Path, viewport: tuple[int, int], level_id: str
) -> Iterator[Practice]:
    server = ThreadServer(
        lambda _url: public_site(tmp_path / "site.sqlite3"),
        ws="websockets-sansio",
        timeout_graceful_shutdown=1,
    )
    url, site = server.url, server.site
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(
        "localStorage.setItem('emergo-settings', JSON.stringify({animation: false}))"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        bot = site.bots.ensure_house((4,))[4]
        token = site.tokens.create(bot.id, ("bot:play",))
        site.users.create("mira", PASSWORD)
        page.goto(f"{url}/login?next=/learn/{level_id}")
        page.fill("input[name=username]", "mira")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_selector("html[data-ready='1']")
        page.click("#practice-start")
        page.wait_for_url(f"{url}/game/*")
        page.wait_for_selector("html[data-ready='1']")
        yield Practice(page, url, site, token, page.url.rsplit("/", 1)[1], errors)
    finally:
        context.close()
        server.stop()


COURSE = load_course()
SHOTS = (
    ROOT / "docs" / "learn"
    if os.environ.get("EMERGO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "emergo-screenshots" / "learn"
)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_practice_game_won_gives_the_level_s_stars(
    browser: Any, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    with practice(browser, tmp_path, viewport, "middlegames/convert") as game:
        page, url, site, token, game_id = game.page, game.url, game.site, game.token, game.id
        level, width = COURSE.levels["middlegames/convert"], viewport[0]
        expect(page.locator("#learn-after .learn-game")).to_contain_text("practice level")
        expect(page.locator("#learn-links")).to_be_hidden()  # while the game goes on

        # the learner's first move, typed on the game page; the bot's reply and resignation
        play(page, level.solution[0])
        wait_for(lambda: moves(site, game_id) == 1, what="the learner's first move")
        bot_post(url, f"/api/bot/game/{game_id}/move/{level.replies[0]}", token)
        expect(page.locator("#moves")).to_contain_text(level.replies[0])
        play(page, level.solution[1])
        wait_for(lambda: moves(site, game_id) == 3, what="the learner's second move")
        bot_post(url, f"/api/bot/game/{game_id}/resign", token)

        expect(page.locator("#game-over")).to_be_visible()
        expect(page.locator("#learn-stars")).to_have_text("3 of 3 stars")
        expect(page.locator("#learn-back")).to_be_visible()
        expect(page.locator("#learn-next")).to_have_attribute(
            "href", "/learn/middlegames/convert-black"
        )
        expect(page.locator("#learn-next")).to_be_focused()  # one key press away
        expect(page.locator("#rematch")).to_be_hidden()  # another attempt, not a rematch
        expect(page.locator("#new-opponent")).to_be_hidden()
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = "practice-done.png" if width > 600 else "practice-done-phone.png"
        page.screenshot(path=str(SHOTS / name))

        # the replay: from the start, a move at a time, back to the end; a second press stops it
        page.click("#learn-replay")
        expect(page.locator("#learn-replay")).to_have_text("Stop the replay")
        expect(page.locator("#status")).to_have_text("Move 1 of 3: → or End for the latest")
        expect(page.locator("#status")).to_have_text("Move 2 of 3: → or End for the latest")
        expect(page.locator("#learn-replay")).to_have_text("Replay the game")
        expect(page.locator("#status")).to_have_text("Game over")
        page.click("#learn-replay")
        expect(page.locator("#status")).to_have_text("Move 0 of 3: → or End for the latest")
        page.click("#learn-replay")
        expect(page.locator("#learn-replay")).to_have_text("Replay the game")
        stopped = page.locator("#status").inner_text()
        page.wait_for_timeout(2500)  # stopped: it stays where it was, before the end
        assert page.locator("#status").inner_text() == stopped != "Game over"

        # try again: a new practice game of the same level
        page.click("#learn-again")
        page.wait_for_url(lambda u: "/game/" in u and not u.endswith(game_id))
        again = page.url.rsplit("/", 1)[1]
        assert tags_of(site.db, again) == {"Learn": level.id}
        page.wait_for_selector("html[data-ready='1']")
        expect(page.locator("#learn-links")).to_be_hidden()
        page.goto(f"{url}/game/{game_id}")
        page.wait_for_selector("html[data-ready='1']")
        expect(page.locator("#learn-next")).to_be_focused()
        page.keyboard.press("Enter")
        page.wait_for_url(f"{url}/learn/middlegames/convert-black")
        page.goto(f"{url}/learn/{level.id}")
        page.wait_for_url(f"{url}/learn/{level.id}")
        page.wait_for_selector("html[data-ready='1']")
        dot = page.locator(f"a.dot[data-level='{level.id}']")
        expect(dot).to_have_attribute("data-stars", "3")
        page.goto(f"{url}/learn")
        page.wait_for_selector("html[data-ready='1']")
        expect(page.locator(f"a.dot[data-level='{level.id}']")).to_have_attribute("data-stars", "3")
        assert game.errors == []


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_hold_level_is_done_at_its_par_the_game_going_on(
    browser: Any, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    with practice(browser, tmp_path, viewport, "middlegames/defend") as game:
        page, url, site, token, game_id = game.page, game.url, game.site, game.token, game.id
        level = COURSE.levels["middlegames/defend"]
        for i, text in enumerate(level.solution):
            expect(page.locator("#learn-links")).to_be_hidden()  # not yet: par is 12 moves
            play(page, text)
            wait_for(lambda i=i: moves(site, game_id) == 2 * i + 1, what=f"move {i + 1}")
            if i + 1 < len(level.solution):
                bot_post(url, f"/api/bot/game/{game_id}/move/{level.replies[i]}", token)
                wait_for(lambda i=i: moves(site, game_id) == 2 * i + 2, what="the reply")
        assert level.par == len(level.solution)
        expect(page.locator("#learn-links")).to_be_visible()
        expect(page.locator("#learn-stars")).to_have_text(
            "Level done: you held the position for 12 moves. Play on if you like, or go on."
            " 3 of 3 stars"
        )
        expect(page.locator("#game-over")).to_be_hidden()  # the game goes on
        expect(page.locator("#learn-next")).to_be_focused()
        expect(page.locator("#learn-again")).to_be_hidden()
        page.keyboard.press("Enter")
        page.wait_for_url(f"{url}/learn/middlegames/defend-white")
        assert game.errors == []


def play(page: Any, text: str) -> None:
    """Type a move on the game page: a lesson's exercise, played at once (no confirmation,
    though an unlimited game is correspondence, whose moves the default settings confirm)."""
    page.wait_for_selector("#board .movable, #board .dest")
    count = page.locator("#moves button").count()
    page.fill("#move-text", text)
    page.press("#move-text", "Enter")
    expect(page.locator("#moves button")).not_to_have_count(count)
    assert page.locator("#confirm").is_hidden()


def moves(site: Any, game_id: str) -> int:
    game = site.rounds.get(game_id)
    return len(game.state.moves) if game is not None else -1


def bot_post(url: str, path: str, token: str) -> None:
    """The house bot's command through the Bot API, with its token."""
    request = urllib.request.Request(
        url + path, method="POST", headers={"Authorization": f"Bearer {token}"}, data=b""
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200, answer.read()
