"""Ratings, profiles, the leaderboard, the archive and the record in a real browser (headless
Chromium), one browser context per person, on a real server.

The site's game pages with the board come later (docs/online.md): the game itself is played
here over the Board API; everything a player then looks at is clicked in the browser.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from emergo.server.core import models as m


@pytest.fixture
def db_url(tmp_path: Path) -> str:  # SQLite: the browser sees the same pages on both
    return f"sqlite:///{tmp_path / 'online.sqlite3'}"


def sign_up(browser: Any, live: str, name: str) -> Any:
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda d: pytest.fail(f"a script ran: {d.message}"))
    page.goto(f"{live}/signup")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "a good password")
    page.fill("input[name=password2]", "a good password")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live}/")
    return page


def test_two_players_finish_a_rated_game_and_find_it_everywhere(browser, site, live):
    httpx = pytest.importorskip("httpx2")

    ann_page = sign_up(browser, live, "ann")
    bob_page = sign_up(browser, live, "bob")
    ann, bob = site.users.by_name("ann"), site.users.by_name("bob")
    # both settled players already (so the leaderboard lists them): 1800 and 1700, RD 60
    with site.db.write() as tx:
        for user, rating in ((ann, 1800.0), (bob, 1700.0)):
            tx.execute(
                insert(m.perfs).values(
                    user_id=user.id,
                    perf="9x9-live",
                    rating=rating,
                    rd=60.0,
                    volatility=0.06,
                    games=40,
                    latest=time.time(),
                )
            )
    tokens = {u.name: site.tokens.create(u.id) for u in (ann, bob)}
    with httpx.Client(base_url=live, timeout=10) as http:

        def post(name: str, path: str, **kw: Any) -> dict[str, Any]:
            r = http.post(path, headers={"Authorization": f"Bearer {tokens[name]}"}, **kw)
            assert r.status_code == 200, r.text
            data: dict[str, Any] = r.json()
            return data

        challenge = post(
            "ann",
            "/api/challenge/bob",
            data={"clock.limit": 300, "rated": "true", "color": "white"},
        )
        game = post("bob", f"/api/challenge/{challenge['id']}/accept")["gameId"]
        post("ann", f"/api/board/game/{game}/move/d4")
        post("bob", f"/api/board/game/{game}/move/e6")
        post("bob", f"/api/board/game/{game}/resign")  # Ann wins
    # both profiles show the new ratings (Glicko-2: 1807.18 and 1692.82) and the chart
    ann_page.click("a[href='/@/ann']")
    ratings = ann_page.locator("section.ratings table")
    assert ann_page.locator("td.rating").first.inner_text() == "1807"
    assert "9x9 live" in ratings.inner_text()
    chart = ann_page.locator("svg.rating-chart")
    assert chart.is_visible() and chart.locator("circle").count() == 1
    assert chart.bounding_box()["width"] > 300
    bob_page.goto(f"{live}/@/bob")
    assert bob_page.locator("td.rating").first.inner_text() == "1692"
    # the leaderboard finds them, Ann first
    bob_page.click("a[href='/leaderboard']")
    bob_page.click("a[href='/leaderboard/9x9-live']")
    rows = bob_page.locator("table tr")
    assert "ann" in rows.nth(1).inner_text() and "1807" in rows.nth(1).inner_text()
    assert "bob" in rows.nth(2).inner_text()
    # the archive's search finds the game
    ann_page.click("a[href='/games']")
    ann_page.fill("input[name=player]", "bob")
    ann_page.select_option("select[name=result]", "white")
    ann_page.click("form.search button[type=submit]")
    link = ann_page.locator(f"a[href='/game/{game}']")
    assert link.count() == 1 and link.inner_text() == "1-0"
    # the record downloads from the game's page
    link.click()
    assert ann_page.locator("#replay").get_attribute("data-moves") == "d4 e6"
    with ann_page.expect_download() as info:
        ann_page.click(f"a[href='/game/export/{game}']")
    record = Path(info.value.path()).read_text()
    assert '[Result "1-0"]' in record and "d4" in record and '[White "ann"]' in record
    # lichess's tags (the player's review, item 14): the date, the game's address, the ratings
    # before the game and their change, the clock
    day = time.strftime("%Y.%m.%d", time.gmtime())
    for tag in (
        '[Event "Rated 9x9 live game"]',
        f'[Site "{live}/game/{game}"]',
        f'[Date "{day}"]',
        '[WhiteElo "1800"]',
        '[BlackElo "1700"]',
        '[WhiteRatingDiff "+7"]',
        '[BlackRatingDiff "-8"]',  # 1692.82 is shown 1692
        '[TimeControl "300+0"]',
    ):
        assert tag in record, (tag, record)
    # what a page is given is shown, never run
    ann_page.goto(f"{live}/games?player=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    ann_page.goto(f"{live}/@/ann?vs=%3Cscript%3Ealert(2)%3C%2Fscript%3E")
    error = ann_page.locator(".error").inner_text()
    assert "vs is a user name" in error and "<script>alert(2)" in error  # as text
