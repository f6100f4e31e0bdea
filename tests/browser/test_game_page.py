"""The online pages as a lichess player expects them (the player's review of 2026-11-26), in real
headless Chromium on the site of tests/web/test_online_pages.py: every page fits a phone's width
signed in and out; results in words; the premove's message goes; offers in sight; the replay
client side; rematch, new opponent and analysis after a game; ratings during play.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo.server.challenge.service import Terms  # noqa: E402
from tests.plugins.browser import centre  # noqa: E402
from tests.plugins.site_pages import PHONE, Online, Person, shot, wait_moves  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Online]:
    server = Online(tmp_path_factory.mktemp("online") / "site.sqlite3")
    server.start()
    yield server
    server.stop()


LAPTOP = {"width": 1280, "height": 800}

OVERFLOW = "() => document.scrollingElement.scrollWidth - window.innerWidth"


def overflow(page: Any) -> int:
    return int(page.evaluate(OVERFLOW))


def test_every_online_page_fits_a_phone_signed_in_and_out(browser: Any, online: Online) -> None:
    """Item 1: no page is wider than a 390 px phone, signed in (a long name) or out."""
    online.account("maximilian_long20")
    online.account("opponent_name_xx")
    game_id = online.game("maximilian_long20", "opponent_name_xx", clock_limit=300)
    online.challenge("opponent_name_xx", "maximilian_long20", variant="7x7", clock_limit=600)
    users = online.live.users
    link = online.live.challenges.create(users.by_name("opponent_name_xx"), Terms(), kind="link")
    me, them = users.by_name("maximilian_long20"), users.by_name("opponent_name_xx")
    # a finished rated game (its page has the ratings' line and the replay's data) and a
    # correspondence game where the long name waits (its page has the conditional moves' box)
    ended = online.game("maximilian_long20", "opponent_name_xx", clock_limit=300, rated=True)
    online.live.play(ended, me, "move", text="d4")
    online.live.play(ended, them, "move", text="e6")
    online.live.play(ended, them, "resign")
    waiting = online.game("maximilian_long20", "opponent_name_xx", days=3)
    online.live.play(waiting, me, "move", text="d4")
    paths = [
        "/",
        f"/game/{game_id}",
        f"/game/{ended}",
        f"/game/{waiting}",
        f"/challenge/{link.id}",
        "/@/maximilian_long20",
        "/leaderboard",
        "/leaderboard/9x9-live",
        "/games",
        "/login",
        "/signup",
    ]
    signed_in = ["/account", "/notifications", "/account/notifications"]
    out = Person(browser, online, "visitor", PHONE)
    me = Person(browser, online, "maximilian_long20", PHONE)
    try:
        me.login()
        wide: list[str] = []
        for who, extra in ((out, []), (me, signed_in)):
            for path in paths + extra:
                who.page.goto(online.url + path)
                who.page.wait_for_load_state("load")
                if path == "/" or path.startswith("/game/"):
                    who.page.wait_for_selector("html[data-ready='1']")
                if overflow(who.page) > 0:
                    name = re.sub(r"\W", "_", path)
                    shot(who.page, f"overflow-{who.name}{name}.png")
                    wide.append(f"{who.name} {path}: {overflow(who.page)} px too wide")
        assert not wide, wide
        me.go(f"/game/{waiting}")  # the pages above had what they are checked for
        assert me.page.locator("textarea[name=lines]").count() == 1
        me.go(f"/game/{ended}")
        expect(me.page.locator("#after")).to_be_visible()
    finally:
        out.close()
        me.close()


def test_a_tap_on_the_shared_capture_landing_is_no_error_on_a_phone(
    browser: Any, server: str
) -> None:
    """Item 8: on a phone (touch), tapping the landing every tied route shares (R11) keeps the
    choice with a hint: no red message, no tooltip of a refusal over the board."""
    from tests.plugins.browser import TIED, centre, open_page

    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_page(page, server, TIED)

        def tap(name: str) -> None:
            page.touchscreen.tap(*centre(page.locator(f"#board .cell[data-square='{name}']")))

        tap("e5")  # e7 is on both routes: taken at once
        page.wait_for_selector("#board .input .partial", state="attached")
        tap("e7")  # the landing the player meant: the choice stays, with a hint
        expect(page.locator("#board .input .dest")).to_have_count(2)
        message = page.locator("#message")
        expect(message).to_contain_text("choose c7 or g7")
        assert "info" in (message.get_attribute("class") or ""), "the hint is shown as an error"
        page.wait_for_timeout(300)
        tip = page.locator("#board .eg-tip")
        assert tip.is_hidden() or tip.locator(".eg-tip-reason").count() == 0, tip.inner_text()
        shot(page, "shared-landing-phone.png")
        tap("g7")
        expect(page.locator("#moves button.current")).to_have_text("e5xe7xg7")
        expect(message).to_have_text("")
    finally:
        context.close()
    assert not errors, errors


def in_sight(page: Any, selector: str) -> bool:
    """Is the element wholly inside the window, the page not scrolled?"""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        bool(box)
        and page.evaluate("() => window.scrollY") == 0
        and (box["y"] >= 0 and box["y"] + box["height"] <= size["height"])
    )


def test_premove_message_offers_in_sight_and_a_replay_that_loses_no_press(
    browser: Any, online: Online
) -> None:
    """Items 9, 10, 6: the premove's message goes once it is played; a draw offer is seen
    without scrolling on a laptop and on a phone; arrow keys step back as fast as they are
    pressed, without asking the server."""
    online.account("pia")
    online.account("quin")
    pia = Person(browser, online, "pia", LAPTOP)
    quin = Person(browser, online, "quin", PHONE)
    try:
        pia.login()
        quin.login()
        game_id = online.game("pia", "quin", clock_limit=600, clock_increment=5)
        for p in (pia, quin):
            p.game_page(game_id, taken=True)
        a, b = pia.page, quin.page
        line = ["d4", "e6", "c5", "f6", "c4", "g5"]
        pia.play("d4")
        wait_moves([pia, quin], 1)
        # a premove while quin thinks: said, then played at once, and its message goes
        queued = a.locator("#board .premove[data-square='c5']")
        for _ in range(50):
            a.mouse.click(*centre(a.locator("#board .cells [data-square='c5']")))
            if queued.count():
                break
            a.wait_for_timeout(100)
        expect(a.locator("#message")).to_contain_text("premove c5")
        quin.play("e6", before=["d4"])
        wait_moves([pia, quin], 3)
        expect(a.locator("#message")).to_have_text("")
        for ply in range(3, len(line)):
            (pia if ply % 2 == 0 else quin).play(line[ply], before=line[:ply])
            wait_moves([pia, quin], ply + 1)
        # quin offers a draw: pia sees it beside the board, no scrolling
        b.click("#draw")
        b.click("#confirm-yes")
        expect(a.locator("#offer")).to_be_visible()
        assert in_sight(a, "#offer"), a.locator("#offer").bounding_box()
        shot(a, "offer-laptop.png")
        a.click("#offer-no")
        # and pia's on quin's phone
        a.click("#draw")
        assert in_sight(a, "#confirm"), "the confirmation is out of sight"
        a.click("#confirm-yes")
        expect(b.locator("#offer")).to_be_visible()
        assert in_sight(b, "#offer"), b.locator("#offer").bounding_box()
        shot(b, "offer-phone.png")
        b.click("#offer-no")
        # five presses at once: five plies back, and no request to the server
        a.keyboard.press("ArrowLeft")
        expect(a.locator("#moves button.current")).to_have_text(line[-2])
        # the earlier positions come in the background
        expect(a.locator("html")).to_have_attribute("data-positions", str(len(line) + 1))
        asked: list[str] = []
        a.on("request", lambda r: asked.append(r.url) if "/api/position" in r.url else None)
        for _ in range(4):
            a.keyboard.press("ArrowLeft")
        expect(a.locator("#moves button.current")).to_have_text(line[0])
        expect(a.locator("#status")).to_contain_text("Move 1 of 6")
        a.keyboard.press("Home")
        expect(a.locator("#moves button.current")).to_have_count(0)
        for _ in range(3):
            a.keyboard.press("ArrowRight")
        expect(a.locator("#moves button.current")).to_have_text(line[2])
        assert asked == [], asked
    finally:
        pia.close()
        quin.close()


def test_the_conditional_moves_box_keeps_every_line(browser: Any, online: Online) -> None:
    """Item 20: a refused save gives the lines back as typed, with the reason; a save keeps
    every line (the first one too)."""
    online.account("rae")
    online.account("sol")
    game_id = online.game("rae", "sol", days=3)
    rae = Person(browser, online, "rae", PHONE)
    try:
        rae.login()
        rae.go(f"/game/{game_id}")
        rae.play("d4")
        wait_moves([rae], 1)
        rae.go(f"/game/{game_id}")
        page = rae.page
        box = page.locator("textarea[name=lines]")
        typed = "e6 f4 c6 c4\nc6 b4\nf6 zz9"
        box.fill(typed)
        page.click(".conditional button[type=submit]")
        expect(page.locator(".conditional .error")).to_contain_text("line 3")
        assert page.locator("textarea[name=lines]").input_value() == typed
        assert overflow(page) <= 0
        page.locator("textarea[name=lines]").fill("e6 f4 c6 c4\nc6 b4\nf6 c5")
        page.click(".conditional button[type=submit]")
        page.wait_for_url(f"{online.url}/game/{game_id}")
        page.wait_for_selector("html[data-ready='1']")
        kept = page.locator("textarea[name=lines]").input_value().split("\n")
        assert sorted(kept) == ["c6 b4", "e6 f4 c6 c4", "f6 c5"], kept
    finally:
        rae.close()


def settle(
    online: Online, name: str, rating: float, perf: str = "9x9-live", rd: float = 60.0
) -> None:
    """A settled rating (deviation 60, 40 games) for ``name`` (or with deviation ``rd``)."""
    import time

    from sqlalchemy import insert

    from emergo.server.core import models as m

    user = online.live.users.by_name(name)
    with online.live.db.write() as tx:
        tx.execute(
            insert(m.perfs).values(
                user_id=user.id,
                perf=perf,
                rating=rating,
                rd=rd,
                volatility=0.06,
                games=40 if rd < 110 else 3,
                latest=time.time(),
            )
        )


def test_ratings_in_the_lobby_beside_the_names_and_the_change_live(
    browser: Any, online: Online
) -> None:
    """Item 5: a seek shows its player's rating ("?" when provisional), the game page shows
    both beside the names, and when a rated game ends both pages show the change at once."""
    online.account("tess")
    online.account("uma")
    settle(online, "tess", 1800.0)
    tess = Person(browser, online, "tess", LAPTOP)
    uma = Person(browser, online, "uma", PHONE)
    try:
        tess.login()
        uma.login()
        t, u = tess.page, uma.page
        t.click("#presets .preset:text('5+3')")
        t.select_option("#rated", "true")
        t.click("#post-seek")
        seek = u.locator("#seeks tr.seek")
        expect(seek.locator(".rating")).to_have_text(" 1800")
        u.locator("#seeks tr.seek button:text('Accept')").click()
        u.wait_for_url(re.compile(r"/game/\w+"))
        t.wait_for_url(re.compile(r"/game/\w+"))
        for p in (tess, uma):
            p.page.wait_for_selector("html[data-ready='1']")
            bars = p.page.locator(".player .person")
            expect(bars.filter(has_text="tess").locator(".rating")).to_have_text(" 1800")
            expect(bars.filter(has_text="uma").locator(".rating")).to_have_text(" 1500?")
        white = "tess" if "White against" in t.locator("#game-title").inner_text() else "uma"
        first = tess if white == "tess" else uma
        second = uma if white == "tess" else tess
        first.play("d4")
        wait_moves([tess, uma], 1)
        second.play("e6", before=["d4"])
        wait_moves([tess, uma], 2)
        u.click("#resign")
        u.click("#confirm-yes")
        for p in (tess, uma):
            diffs = p.page.locator(".player .person .rating-diff")
            expect(diffs).to_have_count(2)
            expect(
                p.page.locator(".player .person", has_text="tess").locator(".rating-diff")
            ).to_contain_text("+")
            expect(
                p.page.locator(".player .person", has_text="uma").locator(".rating-diff")
            ).to_contain_text("−")
        shot(u, "rating-change-phone.png")
    finally:
        tess.close()
        uma.close()


def test_rematch_new_opponent_and_analyse_after_a_game(browser: Any, online: Online) -> None:
    """Item 3: after a game, a rematch offered by one is seen and accepted by the other on the
    game page and both land in the new game with the colours swapped; "New opponent" goes to
    the lobby with the same seek filled in; the record is there to analyse."""
    online.account("vic")
    online.account("wes")
    vic = Person(browser, online, "vic", LAPTOP)
    wes = Person(browser, online, "wes", PHONE)
    try:
        vic.login()
        wes.login()
        old = online.game("vic", "wes", clock_limit=300, clock_increment=3, rated=True)
        for p in (vic, wes):
            p.game_page(old, taken=True)
        v, w = vic.page, wes.page
        vic.play("d4")
        wait_moves([vic, wes], 1)
        wes.play("e6", before=["d4"])
        wait_moves([vic, wes], 2)
        w.click("#resign")
        w.click("#confirm-yes")
        for p in (vic, wes):
            expect(p.page.locator("#after")).to_be_visible()
            expect(p.page.locator("#download")).to_be_visible()  # the record, and Analyse
            analyse = p.page.locator("#analyse-game")
            expect(analyse).to_contain_text("Analyse")
            expect(analyse).to_have_attribute("href", re.compile(r"^/game/\w{8}/analysis$"))
        v.click("#rematch")
        expect(v.locator("#rematch")).to_have_text("Rematch offered")
        expect(w.locator("#rematch-text")).to_contain_text("vic offers a rematch")
        shot(w, "rematch-offer-phone.png")
        assert in_sight(w, "#rematch-offer"), w.locator("#rematch-offer").bounding_box()
        # the new game is announced to each page three ways (the accept's answer, the game's
        # and the site's channels): one navigation each, none aborting another
        gone: dict[str, list[str]] = {"vic": [], "wes": []}
        for name, page in (("vic", v), ("wes", w)):
            page.on(
                "request",
                lambda r, name=name: r.is_navigation_request() and gone[name].append(r.url),
            )
        w.click("#rematch-yes")
        w.wait_for_url(re.compile(r"/game/(?!" + old + r")\w+$"))
        v.wait_for_url(w.url)
        for p in (vic, wes):
            p.page.wait_for_selector("html[data-ready='1']")
        assert gone == {"vic": [w.url], "wes": [w.url]}
        expect(v.locator("#game-title")).to_have_text("You play Black against wes")
        expect(w.locator("#game-title")).to_have_text("You play White against vic")
        expect(v.locator("#game-info")).to_contain_text("5+3 · Rated")
        # the old game's "New opponent": the lobby with the same seek filled in
        vic.go(f"/game/{old}")
        v.click("#new-opponent")
        v.wait_for_selector("html[data-ready='1']")
        assert v.locator("#rated").input_value() == "true"
        assert v.locator("#variant").input_value() == "9x9"
        expect(v.locator("#presets .preset[aria-pressed='true']")).to_have_text("5+3")
    finally:
        vic.close()
        wes.close()


def test_a_move_made_while_disconnected_is_sent_on_reconnection(
    browser: Any, online: Online
) -> None:
    """Item 15: the server goes away; the player's move is kept (and said so) and played once
    the page is connected again, never dropped silently."""
    online.account("xena")
    online.account("yan")
    xena = Person(browser, online, "xena", LAPTOP)
    yan = Person(browser, online, "yan", LAPTOP)
    try:
        xena.login()
        yan.login()
        game_id = online.game("xena", "yan", days=3)
        for p in (xena, yan):
            p.game_page(game_id, taken=True)
        x = xena.page
        x.wait_for_selector("#board .dest")
        online.stop()
        expect(x.locator("#message")).to_contain_text("reconnecting", timeout=10000)
        x.mouse.click(*centre(x.locator("#board .cells [data-square='d4']")))
        x.click("#confirm-yes")  # a correspondence move is confirmed first (issue 31, lichess)
        expect(x.locator("#message")).to_contain_text("your move d4 is sent once the connection")
        online.start()
        wait_moves([xena, yan], 1)
        expect(x.locator("#message")).to_have_text("", timeout=10000)
        assert online.live.rounds.get(game_id).state.moves[:1] == ("d4",)
    finally:
        xena.close()
        yan.close()


def test_a_profile_says_member_since_games_and_last_seen_and_the_leaderboard_why(
    browser: Any, online: Online
) -> None:
    """Items 21, 23: a profile's facts under the name; a leaderboard says why a player with a
    provisional rating is not on it (and how many wait), at a phone's width."""
    online.account("zoe")
    settle(online, "zoe", 1650.0, perf="hex-correspondence", rd=200.0)
    zoe = Person(browser, online, "zoe", PHONE)
    try:
        zoe.login()
        page = zoe.page
        page.goto(f"{online.url}/@/zoe")
        facts = page.locator("p.facts")
        expect(facts).to_contain_text("Member since 20")
        expect(facts).to_contain_text("0 games")
        expect(facts).to_contain_text("last seen just now")
        page.goto(f"{online.url}/leaderboard/hex-correspondence")
        expect(page.locator("main .note")).to_contain_text("provisional")
        expect(page.locator("main .empty")).to_contain_text(
            "1 player has a provisional rating here so far"
        )
        assert overflow(page) <= 0
        page.goto(f"{online.url}/leaderboard")
        expect(page.locator("main .note").first).to_contain_text("settled")
        shot(page, "leaderboards-phone.png")
    finally:
        zoe.close()
