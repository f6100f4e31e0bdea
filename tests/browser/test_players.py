"""What a newcomer met and a lichess player looks for (issue 31), in real headless Chromium on
the site of tests/plugins/site_pages.py: a click during the opponent's capture animation plays;
one seek for a double click; the names' rules in words; quick pairing; follow, block and report;
TV; the appearance kept across a reload; the screenshots of docs/web/."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from tests.plugins.browser import centre  # noqa: E402
from tests.plugins.game_helpers import wait_for  # noqa: E402
from tests.plugins.site_pages import (  # noqa: E402
    DESKTOP,
    PHONE,
    SHORT_7X7,
    Online,
    Person,
    shot,
    wait_moves,
)

pytestmark = pytest.mark.slow


def test_a_click_during_the_opponents_capture_animation_plays(browser: Any, online: Online) -> None:
    """Defect 1: Black's e4xc4xc2 glides over two legs; White's click on f4 while it does is
    played (the animation ends at once), never dropped."""
    online.account("anim_w")
    online.account("anim_b")
    game_id = online.game("anim_w", "anim_b", variant="7x7", clock_limit=600)
    users = online.live.users
    w, b = users.by_name("anim_w"), users.by_name("anim_b")
    for i, text in enumerate(SHORT_7X7[:7]):
        online.live.play(game_id, w if i % 2 == 0 else b, "move", text=text)
    white = Person(browser, online, "anim_w", DESKTOP)
    black = Person(browser, online, "anim_b", DESKTOP)
    try:
        white.login()
        black.login()
        white.go(f"/game/{game_id}?animation=1")
        black.go(f"/game/{game_id}")
        wait_moves([white, black], 7)
        white.page.evaluate(
            "() => { window.__ghosts = 0; new MutationObserver(() => {"
            " if (document.querySelector('#board .ghost')) window.__ghosts++; })"
            ".observe(document.getElementById('board'), {childList: true, subtree: true}); }"
        )
        black.play(SHORT_7X7[7], "7x7", SHORT_7X7[:7])
        white.page.wait_for_selector("#board .ghost", state="attached")
        white.page.mouse.click(*centre(white.page.locator("#board .cells [data-square='f4']")))
        wait_moves([white, black], 9)
        assert white.page.evaluate("() => window.__ghosts") > 0
    finally:
        white.close()
        black.close()


def test_a_phone_new_game_shows_the_whole_board_and_the_hot_seat_names_each_side_once(
    browser: Any, online: Online
) -> None:
    """Defect 4: after New game at the foot of a finished hot-seat game on a phone, the new
    game's board is in view from its top; defect 6: the hot-seat bars and status name the side
    to move once ("White to move", never "White (White) to move"), and disabled buttons look
    disabled."""
    online.account("phone_ann")
    user = online.live.users.by_name("phone_ann")
    ended = online.live.hotseat(user, {"variant": "9x9", "clock.limit": 300})
    online.live.play(ended, user, "move", text="d4")
    online.live.play(ended, user, "move", text="e6")
    online.live.play(ended, user, "resign")
    ann = Person(browser, online, "phone_ann", PHONE)
    try:
        ann.login()
        ann.go(f"/game/{ended}")
        new_game = ann.page.locator("#rematch")
        expect(new_game).to_have_text("New game")
        ann.page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
        assert ann.page.evaluate("() => window.scrollY") > 100  # the foot of the game page
        new_game.click()
        ann.page.wait_for_function(f"() => !location.pathname.endsWith('{ended}')")
        ann.page.wait_for_selector("html[data-ready='1']")
        ann.page.wait_for_selector("#board .cell")
        ann.page.wait_for_timeout(300)  # whatever the page does once drawn
        box = ann.page.locator("#board").bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            ann.page.evaluate("() => window.scrollY"),
            box,
        )
        shot(ann.page, "players-hotseat-phone.png")
        status = ann.page.locator("#status").inner_text()
        bars = ann.page.locator(".player").all_inner_texts()
        for text in [status, *bars]:
            assert "(White)" not in text and "(Black)" not in text, text
            assert text.count("White") <= 1 and text.count("Black") <= 1, text
        assert status.startswith("White to ")
        takeback = ann.page.locator("#takeback")
        assert takeback.is_disabled()
        look = takeback.evaluate("b => [getComputedStyle(b).opacity, getComputedStyle(b).cursor]")
        assert float(look[0]) < 0.6 and look[1] == "not-allowed", look
    finally:
        ann.close()


def test_a_phone_has_no_inner_scroll_boxes_and_challenges_to_you_come_first(
    browser: Any, online: Online
) -> None:
    """Defect 7: the archive's results are in the page's flow (no box that scrolls by itself);
    the lobby shows "Challenges to you" above the create form, and the header counts them."""
    online.account("box_a")
    online.account("box_b")
    for _ in range(3):
        game_id = online.game("box_a", "box_b", clock_limit=300)
        online.live.play(game_id, online.live.users.by_name("box_a"), "move", text="d4")
        online.live.play(game_id, online.live.users.by_name("box_b"), "resign")
    online.challenge("box_a", "box_b", variant="7x7", clock_limit=600)
    b = Person(browser, online, "box_b", PHONE)
    try:
        b.login()
        first = b.page.locator("#incoming-panel")
        expect(first).to_be_visible()
        form = b.page.locator("#terms").bounding_box()
        incoming = first.bounding_box()
        assert incoming and form and incoming["y"] < form["y"]
        badge = b.page.locator("#challenges-link")
        expect(badge).to_be_visible()
        expect(badge.locator("[data-challenges]")).to_have_text("1")
        shot(b.page, "players-lobby-phone-challenge.png")
        b.go("/games?user=box_b")
        boxes = b.page.evaluate(
            "() => [...document.querySelectorAll('main *')].filter(e => {"
            " const s = getComputedStyle(e); return /(auto|scroll)/.test(s.overflowY + s.overflowX)"
            " && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1); })"
            ".map(e => e.tagName + '.' + e.className)"
        )
        assert boxes == [], boxes
        assert b.page.locator("table.games tr").count() >= 4
        shot(b.page, "players-archive-phone.png")
    finally:
        b.close()


def test_a_phone_in_local_mode_new_game_opens_at_the_board(browser: Any, server: str) -> None:
    """Defect 4 in local mode (the site of ``emergo serve``): a hot-seat game made from the foot
    of the lobby on a phone opens with the whole board in view."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("html[data-ready='1']")
        page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")
        page.click("#play-hotseat")
        page.wait_for_url(f"{server}/game/*")
        page.wait_for_selector("html[data-ready='1']")
        page.wait_for_selector("#board .cell")
        page.wait_for_timeout(300)
        box = page.locator("#board").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    finally:
        context.close()


# --- what a lichess player looks for -----------------------------------------------------------


def _rate(online: Online, name: str, rating: float) -> None:
    from sqlalchemy import insert

    from emergo.server.core import models as m
    from emergo.server.core.db import now

    with online.live.db.write() as tx:
        tx.execute(
            insert(m.perfs).values(
                user_id=online.live.users.by_name(name).id,
                perf="9x9-live",
                rating=rating,
                rd=60.0,
                volatility=0.06,
                games=40,
                latest=now(),
            )
        )


def test_quick_pairing_between_two_players(browser: Any, online: Online) -> None:
    """One click on 3+2 posts a seek; the other player's click on 3+2 starts the game for
    both at once."""
    online.account("quick_a")
    online.account("quick_b")
    a = Person(browser, online, "quick_a", DESKTOP)
    b = Person(browser, online, "quick_b", PHONE)
    try:
        a.login()
        b.login()
        grid = a.page.locator("#quick .quick")
        assert grid.count() == 12
        a.page.click("#quick .quick[data-limit='180'][data-increment='2']")
        expect(a.page.locator("#quick-message")).to_contain_text("seek waits")
        expect(a.page.locator("#quick .quick[aria-pressed='true']")).to_have_count(1)
        shot(a.page, "players-quick-pairing.png")
        shot(b.page, "players-quick-pairing-phone.png")
        b.page.click("#quick .quick[data-limit='180'][data-increment='2']")
        b.page.wait_for_url(f"{online.url}/game/*")
        game_id = b.page.url.rsplit("/", 1)[1]
        a.game_page(game_id, taken=True)
        b.game_page(game_id)
        expect(a.page.locator("#game-info")).to_contain_text("3+2")
        assert online.live.challenges.seeks() == []
    finally:
        a.close()
        b.close()


def test_follow_block_and_report_across_two_accounts(browser: Any, online: Online) -> None:
    """Carl follows Dana (her next game is a notice in his feed), reports her chat line and
    her, and Dana blocks Carl: his challenge is refused in words."""
    for name in ("carl_f", "dana_f", "eve_f"):
        online.account(name)
    carl = Person(browser, online, "carl_f", DESKTOP)
    dana = Person(browser, online, "dana_f", DESKTOP)
    try:
        carl.login()
        dana.login()
        carl.go("/@/dana_f")
        follow = carl.page.locator("#follow")
        expect(follow).to_have_text("Follow")
        follow.click()
        expect(follow).to_have_text("Unfollow")
        expect(carl.page.locator("#rel-message")).to_contain_text("you follow dana_f")
        game_id = online.game("dana_f", "eve_f", clock_limit=600)
        carl.go("/notifications")
        expect(carl.page.locator("ul.notifications")).to_contain_text("dana_f started a game")
        # a game between the two: Dana's rude line reported by its flag
        together = online.game("carl_f", "dana_f", clock_limit=600)
        dana.go(f"/game/{together}")
        dana.page.fill("#chat-text", "you are a fool")
        dana.page.press("#chat-text", "Enter")
        carl.go(f"/game/{together}")
        line = carl.page.locator("#chat-lines li", has_text="you are a fool")
        line.locator(".report-line").click()
        expect(carl.page.locator("#message")).to_contain_text("reported")
        # and Dana herself, from her page
        carl.go("/@/dana_f")
        carl.page.click("#report summary")
        carl.page.select_option("#report-form select[name=reason]", "abuse")
        carl.page.fill("#report-form textarea", "insults in the chat")
        shot(carl.page, "players-profile-follow-report.png")
        carl.page.click("#report-form button[type=submit]")
        expect(carl.page.locator("#rel-message")).to_contain_text("reported")
        queue = online.live.reports.queue()
        assert {(r.target, r.line_text) for r in queue} == {
            ("dana_f", "you are a fool"),
            ("dana_f", None),
        }
        # Dana blocks Carl: his follow goes, his challenge is refused in words
        dana.go("/@/carl_f")
        dana.page.click("#block")
        expect(dana.page.locator("#block")).to_have_text("Unblock")
        carl.go("/")
        carl.page.fill("#opponent", "dana_f")
        carl.page.click("#challenge")
        expect(carl.page.locator("#message")).to_contain_text("one of you blocks the other")
        carl.go("/@/dana_f")
        expect(carl.page.locator("#follow")).to_have_text("Follow")
        carl.go("/leaderboard")
        expect(carl.page.locator("ul.people")).to_contain_text("dana_f")  # online now
        shot(carl.page, "players-online.png")
        assert game_id
    finally:
        carl.close()
        dana.close()


def test_tv_switches_when_its_game_ends(browser: Any, online: Online) -> None:
    """The home page's TV shows the best-rated live game and the next one once it ends."""
    for name, rating in (("tv_strong_w", 2100), ("tv_strong_b", 2050)):
        online.account(name)
        _rate(online, name, rating)
    online.account("tv_weak_w")
    online.account("tv_weak_b")
    weak = online.game("tv_weak_w", "tv_weak_b", clock_limit=600)
    strong = online.game("tv_strong_w", "tv_strong_b", clock_limit=600)
    w = online.live.users.by_name("tv_strong_w")
    online.live.play(strong, w, "move", text="d4")
    visitor = Person(browser, online, "visitor_tv", DESKTOP)
    try:
        visitor.go("/")
        panel = visitor.page.locator("#tv-panel")
        expect(panel).to_have_attribute("data-game", strong, timeout=15000)
        expect(visitor.page.locator("#tv-players")).to_contain_text("tv_strong_w (2100)")
        expect(panel.locator("#tv-board .piece")).to_have_count(1)
        shot(visitor.page, "players-tv.png")
        online.live.play(strong, online.live.users.by_name("tv_strong_b"), "resign")
        expect(panel).to_have_attribute("data-game", weak, timeout=15000)
        expect(visitor.page.locator("#tv-watch")).to_have_attribute("href", f"/game/{weak}")
    finally:
        visitor.close()


def test_appearance_kept_across_a_reload_signed_in_and_as_a_visitor(
    browser: Any, online: Online
) -> None:
    """Board colours, pieces, size and zen mode: kept with the account across a reload (and on
    another device), and in the browser for a visitor, on a phone too."""
    online.account("look_a")
    online.account("look_b")
    game_id = online.game("look_a", "look_b", clock_limit=600)
    a = Person(browser, online, "look_a", DESKTOP)
    # a visitor's own browser (a Person's init script would reset its stored settings)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        a.login()
        a.go(f"/game/{game_id}")
        a.page.click("#appearance summary")
        a.page.select_option("#appearance-board", "blue")
        a.page.select_option("#appearance-pieces", "flat")
        a.page.select_option("#appearance-size", "l")
        html = a.page.locator("html")
        expect(html).to_have_attribute("data-board", "blue")
        dark = a.page.locator("#board .cell.dark").first
        assert dark.evaluate("c => getComputedStyle(c).fill") == "rgb(140, 162, 173)"
        a.page.evaluate("() => window.scrollTo(0, 0)")
        shot(a.page, "players-appearance.png")
        a.page.keyboard.press("z")
        expect(html).to_have_attribute("data-zen", "1")
        expect(a.page.locator(".site-top")).to_be_hidden()
        expect(a.page.locator("#game-panel")).to_be_hidden()
        expect(a.page.locator(".player .clock").first).to_be_visible()
        a.page.evaluate("() => window.scrollTo(0, 0)")
        shot(a.page, "players-zen.png")
        a.page.reload()
        a.page.wait_for_selector("html[data-ready='1']")
        for key, value in (("board", "blue"), ("pieces", "flat"), ("size", "l"), ("zen", "1")):
            expect(html).to_have_attribute(f"data-{key}", value)
        a.page.click("#zen")
        expect(html).to_have_attribute("data-zen", "0")
        user_id = online.live.users.by_name("look_a").id
        wait_for(lambda: online.live.preferences.get(user_id).get("zen") is False, 10, "zen off")
        kept = online.live.preferences.get(user_id)
        assert kept["board"] == "blue" and kept["pieces"] == "flat" and kept["size"] == "l"
        page.goto(online.url + "/")
        page.wait_for_selector("html[data-ready='1']")
        page.click("#appearance summary")
        page.select_option("#appearance-board", "green")
        page.select_option("#appearance-pieces", "ring")
        page.reload()
        page.wait_for_selector("html[data-ready='1']")
        expect(page.locator("html")).to_have_attribute("data-board", "green")
        expect(page.locator("html")).to_have_attribute("data-pieces", "ring")
        page.click("#appearance summary")
        page.locator("#appearance").scroll_into_view_if_needed()
        shot(page, "players-appearance-phone.png")
    finally:
        a.close()
        context.close()


def test_the_move_box_plays_by_keyboard_and_a_correspondence_move_is_confirmed(
    browser: Any, online: Online
) -> None:
    """A move typed in the game page's box is played; in a correspondence game a move asks
    "Play ...?" first (lichess's default), a live one does not."""
    online.account("keys_w")
    online.account("keys_b")
    live = online.game("keys_w", "keys_b", clock_limit=600)
    slow = online.game("keys_w", "keys_b", days=3)
    w = Person(browser, online, "keys_w", DESKTOP)
    try:
        w.login()
        w.go(f"/game/{live}")
        box = w.page.locator("#move-text")
        expect(box).to_be_visible()
        w.page.keyboard.press("/")
        expect(box).to_be_focused()
        w.page.keyboard.type("z9")
        w.page.keyboard.press("Enter")
        expect(w.page.locator("#message")).to_contain_text("z9 is no legal move")
        box.fill("d4")
        box.press("Enter")
        expect(w.page.locator("#moves button")).to_have_count(1)
        expect(w.page.locator("#confirm")).to_be_hidden()
        w.go(f"/game/{slow}")
        w.page.fill("#move-text", "d4")
        w.page.press("#move-text", "Enter")
        expect(w.page.locator("#confirm-text")).to_have_text("Play d4?")
        w.page.click("#confirm-yes")
        expect(w.page.locator("#moves button")).to_have_count(1)
    finally:
        w.close()
