"""The online site's pages in real headless Chromium, one browser context per person (issue 19).

One server (``emergo serve --online``'s app on SQLite, uvicorn in a thread) serves the whole
module; a few long scenarios rather than many short tests:

* two people sign up, one challenges the other from the lobby, the other accepts, and they play
  a whole live 7x7 game by clicks with the clocks running while a third, signed in, watches
  every move; the chat in both rooms, with HTML in the messages shown as text; the record;
* a seek, a takeback accepted, a draw offered and accepted; an invitation link and an abort;
* a game lost on time; a win claimed after the opponent left; a correspondence game that goes on
  after the server restarts (the pages reconnect by themselves);
* the screenshots of the lobby and the game page at desktop and phone size (docs/online.md;
  written to docs/web/ with EMERGO_SCREENSHOTS=1).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from tests.plugins.browser import centre  # noqa: E402
from tests.plugins.site_pages import (  # noqa: E402
    DESKTOP,
    PASSWORD,
    PHONE,
    SHORT_7X7,
    Online,
    Person,
    shot,
    wait_moves,
)

pytestmark = pytest.mark.slow

XSS_IMG = '<img src=x onerror="window.__xss=1">'
XSS_SCRIPT = "<script>window.__xss=2</script>"


def test_two_people_sign_up_challenge_and_play_a_whole_live_game_watched(
    browser: Any, online: Online
) -> None:
    ann = Person(browser, online, "ann", DESKTOP)
    bob = Person(browser, online, "bob", PHONE)  # on a phone: the page never scrolls by itself
    online.account("carl")
    carl = Person(browser, online, "carl", DESKTOP)
    try:
        ann.signup()
        bob.signup()
        carl.login()
        # ann challenges bob from the lobby: 7x7, 5+3, she plays White
        a = ann.page
        a.select_option("#variant", "7x7")
        a.click("#presets .preset:text('5+3')")
        a.select_option("#color", "white")
        a.fill("#opponent", "bob")
        a.click("#challenge")
        expect(a.locator("#outgoing li")).to_have_count(1)
        expect(a.locator("#outgoing li")).to_contain_text("bob")
        # bob sees it come in, live, and accepts: both are taken to the game
        b = bob.page
        expect(b.locator("#incoming li")).to_contain_text("ann")
        b.locator("#incoming li button:text('Accept')").click()
        b.wait_for_url(re.compile(r"/game/\w+"))
        a.wait_for_url(re.compile(r"/game/\w+"))
        game_id = b.url.rsplit("/", 1)[1]
        assert a.url.endswith(f"/game/{game_id}")
        for p in (ann, bob):
            p.game_page(game_id)
        carl.game_page(game_id)
        expect(a.locator("#game-title")).to_have_text("You play White against bob")
        expect(b.locator("#game-title")).to_have_text("You play Black against ann")
        expect(carl.page.locator("#game-title")).to_have_text("Watching ann – bob")
        expect(a.locator("#game-info")).to_contain_text("1 watching", timeout=10000)
        assert carl.page.locator("#game-controls").is_hidden()
        # the chat: the players' room, then the spectators'; HTML in a message is text
        a.fill("#chat-text", XSS_IMG)
        a.press("#chat-text", "Enter")
        expect(b.locator("#chat-lines .text")).to_have_text([XSS_IMG])
        carl.page.fill("#chat-text", XSS_SCRIPT)
        carl.page.press("#chat-text", "Enter")
        expect(carl.page.locator("#chat-lines .text")).to_have_text([XSS_SCRIPT])
        assert carl.page.locator("#chat-lines .line.player").count() == 0  # not the players'
        # the whole game by clicks, every move seen by all three
        people = [ann, bob, carl]
        seen: list[str] = []
        for ply, text in enumerate(SHORT_7X7):
            mover = ann if ply % 2 == 0 else bob
            mover.play(text, "7x7", SHORT_7X7[:ply])
            wait_moves(people, ply + 1)
            assert b.evaluate("() => window.scrollY") == 0, "the phone's page scrolled"
            # the spectator reads the position's facts, never a player's instruction
            watched = carl.page.locator("#status").inner_text()
            assert not re.search(r"must|chosen|choose", watched), watched
            seen.append(watched)
            if ply + 1 < len(SHORT_7X7):  # a sound a move (the last one's is the end's)
                sound = f"{'capture' if 'x' in text else 'move'} {ply + 1}"
                expect(carl.page.locator("html")).to_have_attribute("data-sound", sound)
            if ply == 4:
                # both have moved: the clock of the side to move (Black) runs down
                clock = b.locator(".player .clock.running")
                expect(clock).to_have_count(1)
                first = clock.inner_text()
                b.wait_for_timeout(1200)
                assert clock.inner_text() != first
                shot(a, "online-game.png")
                shot(b, "online-game-phone.png")
        assert any(" to capture " in text for text in seen), seen
        result = "0-1 · Black wins: White has no pieces left and no men in hand"
        for p in people:
            expect(p.page.locator("#result")).to_have_text(result)
        expect(carl.page.locator("html")).to_have_attribute("data-sound", f"end {ply + 2}")
        # after the game the players read the spectators' room too
        expect(a.locator("#chat-lines .text")).to_have_text([XSS_IMG, XSS_SCRIPT])
        for p in people:
            assert p.page.evaluate("() => window.__xss") is None
            assert p.page.locator("#chat-lines img, #chat-lines script").count() == 0
        href = a.locator("#download").get_attribute("href") or ""
        record = a.request.get(online.url + href).text()
        assert 'Result "0-1"' in record and "c6xe6xe4" in record
    finally:
        for p in (ann, bob, carl):
            p.close()


def test_a_seek_a_takeback_a_draw_an_invitation_link_and_an_abort(
    browser: Any, online: Online
) -> None:
    online.account("dora")
    online.account("emil")
    dora = Person(browser, online, "dora", DESKTOP)
    emil = Person(browser, online, "emil", PHONE)
    try:
        dora.login()
        emil.login()
        d, e = dora.page, emil.page
        # dora's seek appears in emil's lobby as it is posted; he takes it
        d.click("#presets .preset:text('10+5')")
        d.select_option("#color", "white")
        d.click("#post-seek")
        seek = e.locator("#seeks tr.seek")
        expect(seek).to_contain_text("dora")
        expect(seek).to_contain_text("10+5")
        # rated or casual is read on a phone before Accept (the review: the Mode column was dropped)
        expect(seek.locator("td").nth(3)).to_be_visible()
        expect(seek.locator("td").nth(3)).to_have_text(re.compile("Rated|Casual"))
        assert int(e.evaluate("document.documentElement.scrollWidth - innerWidth")) <= 0
        shot(e, "online-lobby-phone.png")
        seek.locator("button:text('Accept')").click()
        e.wait_for_url(re.compile(r"/game/\w+"))
        d.wait_for_url(re.compile(r"/game/\w+"))
        game_id = e.url.rsplit("/", 1)[1]
        for p in (dora, emil):
            p.game_page(game_id)
        dora.play("d4")
        wait_moves([dora, emil], 1)
        # emil (Black) has no move to take back yet: his Takeback waits for one; dora's does not
        expect(e.locator("#takeback")).to_be_disabled()
        expect(d.locator("#takeback")).to_be_enabled()
        # dora premoves c5 while emil thinks: it is played the moment his e6 comes
        queued = d.locator("#board .premove[data-square='c5']")
        for _ in range(50):  # the candidates come a moment after the position
            d.mouse.click(*centre(d.locator("#board .cells [data-square='c5']")))
            if queued.count():
                break
            d.wait_for_timeout(100)
        expect(queued).to_have_count(1)
        emil.play("e6", before=["d4"])
        wait_moves([dora, emil], 3)
        assert [b.inner_text() for b in e.locator("#moves button").all()] == ["d4", "e6", "c5"]
        # emil turns the players' chat off: neither may write there
        e.uncheck("#chat-open")
        expect(d.locator("#chat-note")).to_have_text("The players' chat is off.")
        assert d.locator("#chat-form").is_hidden() and e.locator("#chat-form").is_hidden()
        e.check("#chat-open")
        expect(d.locator("#chat-form")).to_be_visible()
        # a takeback asked by dora, accepted by emil: her c5 goes back
        d.click("#takeback")
        expect(e.locator("#offer-text")).to_have_text("White asks to take back a move")
        expect(d.locator("#takeback")).to_have_text("Takeback asked")
        e.click("#offer-yes")
        wait_moves([dora, emil], 2)
        assert e.locator("#offer").is_hidden()
        # dora offers a draw, emil declines: "Black declined the draw" goes with her next move
        d.click("#draw")
        d.click("#confirm-yes")
        expect(e.locator("#offer-text")).to_have_text("White offers a draw")
        e.click("#offer-no")
        expect(d.locator("#message")).to_have_text("Black declined the draw")
        dora.play("c5", before=["d4", "e6"])
        wait_moves([dora, emil], 3)
        expect(d.locator("#message")).to_have_text("")
        # a draw offered by emil (asked first), accepted by dora
        e.click("#draw")
        expect(e.locator("#confirm-text")).to_have_text("Offer a draw?")
        e.click("#confirm-yes")
        expect(d.locator("#offer-text")).to_have_text("Black offers a draw")
        d.click("#offer-yes")
        for p in (dora, emil):
            expect(p.page.locator("#result")).to_have_text("½-½ · Draw by agreement")
            # the rule is a tooltip, not the text (the player's review, item 7)
            expect(p.page.locator("#result")).to_have_attribute("title", "Rule R19c of Emergo")
            assert p.page.locator("#game-controls").is_hidden()
        # an invitation link: emil opens it and accepts; dora, in the lobby, is taken there
        dora.go("/")
        d.click("#make-link")
        link = d.locator("#outgoing input.link")
        expect(link).to_have_count(1)
        url = link.input_value()
        assert url.startswith(online.url + "/challenge/")
        e.goto(url)
        e.click("main form button[type=submit]")
        e.wait_for_url(re.compile(r"/game/\w+"))
        d.wait_for_url(re.compile(r"/game/\w+"))
        assert d.url == e.url
        for p in (dora, emil):
            p.page.wait_for_selector("html[data-ready='1']")
        # dora aborts (asked first): no result, on both pages
        d.click("#abort")
        expect(d.locator("#confirm-text")).to_contain_text("Abort the game?")
        d.click("#confirm-yes")
        for p in (dora, emil):
            expect(p.page.locator("#result")).to_contain_text("Aborted")
            # an aborted game has no record to analyse
            expect(p.page.locator("#download")).to_be_hidden()
    finally:
        dora.close()
        emil.close()


def test_lost_on_time_and_a_win_claimed_after_the_opponent_left(
    browser: Any, online: Online
) -> None:
    from sqlalchemy import update

    from emergo.server.core import models as m

    online.account("fay")
    gus_user = online.account("gus")
    fay = Person(browser, online, "fay", DESKTOP)
    gus = Person(browser, online, "gus", DESKTOP)
    try:
        fay.login()
        gus.login()
        # 3 seconds each: once both have moved, White's clock runs out
        timed = online.game("fay", "gus", variant="7x7", clock_limit=3, clock_increment=0)
        for p in (fay, gus):
            p.game_page(timed, taken=True)  # the lobby opens a game that starts
        fay.play("c3", "7x7")
        gus.play("f5", "7x7", ["c3"])
        wait_moves([fay, gus], 2)
        expect(fay.page.locator(".player.white .clock.running")).to_have_count(1)
        for p in (fay, gus):
            expect(p.page.locator("#result")).to_have_text(
                "0-1 · Black wins: White ran out of time", timeout=15000
            )
        expect(fay.page.locator(".player.white .clock")).to_have_text("0:00.0")
        # a game gus leaves while he is to move: fay claims the win
        left = online.game("fay", "gus", clock_limit=300, clock_increment=3)
        for p in (fay, gus):
            p.game_page(left)
        played = ["d4", "e6", "c5"]
        for ply, text in enumerate(played):
            (fay if ply % 2 == 0 else gus).play(text, before=played[:ply])
            wait_moves([fay, gus], ply + 1)
        assert fay.page.locator("#claim").is_hidden()
        gus.context.close()
        # once the server saw his page close and wrote its last heartbeat of him (his move's,
        # else it undoes this): his last heartbeat, 100 s ago, as if the grace period (40 s
        # live) had passed
        presence = online.live.presence
        for _ in range(400):
            if (left, gus_user.id) not in presence.local:
                break
            time.sleep(0.05)
        closed = time.time()
        for _ in range(400):
            if presence.read_at > closed:
                break
            time.sleep(0.05)
        with online.live.db.write() as tx:
            tx.execute(
                update(m.presence)
                .where(m.presence.c.user_id == gus_user.id)
                .values(seen=time.time() - 100)
            )
        f = fay.page
        expect(f.locator("#claim-text")).to_contain_text("left the game", timeout=10000)
        f.click("#claim-victory")
        expect(f.locator("#result")).to_contain_text("1-0")
        assert f.locator("#claim").is_hidden()
    finally:
        fay.close()
        gus.errors.clear()
        gus.close()


def test_a_correspondence_game_goes_on_after_the_server_restarts(
    browser: Any, online: Online
) -> None:
    online.account("hal")
    online.account("ida")
    hal = Person(browser, online, "hal", DESKTOP)
    ida = Person(browser, online, "ida", DESKTOP)
    try:
        hal.login()
        ida.login()
        h, i = hal.page, ida.page
        h.select_option("#speed", "correspondence")
        h.select_option("#days", "3")
        h.select_option("#color", "white")
        h.fill("#opponent", "ida")
        h.click("#challenge")
        expect(i.locator("#incoming li")).to_contain_text("3 days a move")
        i.locator("#incoming li button:text('Accept')").click()
        i.wait_for_url(re.compile(r"/game/\w+"))
        h.wait_for_url(re.compile(r"/game/\w+"))
        game_id = i.url.rsplit("/", 1)[1]
        for p in (hal, ida):
            p.game_page(game_id)
        hal.play("d4")
        wait_moves([hal, ida], 1)
        # ida's turn: the lobby's "your turn" list has the game (and there is more to see)
        for name in ("jo", "kim"):
            online.account(name)
        online.seek("jo", variant="hex", clock_limit=180, clock_increment=2)
        online.seek("kim", days=2, rated=True, color="black")
        online.challenge("kim", "ida", variant="7x7", clock_limit=600, clock_increment=5)
        ida.go("/")
        expect(i.locator("#your-turn li.game")).to_have_count(1)
        expect(i.locator("#seeks tr.seek")).to_have_count(2)
        expect(i.locator("#incoming li")).to_contain_text("kim")
        shot(i, "online-lobby.png")
        i.locator("#your-turn a.open").click()
        i.wait_for_selector("html[data-ready='1']")
        ida.play("e6", before=["d4"])
        wait_moves([hal, ida], 2)
        online.stop()
        expect(h.locator("#message")).to_contain_text("reconnecting", timeout=10000)
        online.start()
        # the pages come back by themselves and the game goes on
        expect(h.locator("#message")).to_have_text("", timeout=15000)
        hal.play("c5", before=["d4", "e6"])
        wait_moves([hal, ida], 3)
        assert "Your turn" in i.locator("#status").inner_text()
        # ida resigns (asked first)
        i.click("#resign")
        expect(i.locator("#confirm-text")).to_have_text("Resign the game?")
        i.click("#confirm-yes")
        for p in (hal, ida):
            expect(p.page.locator("#result")).to_have_text("1-0 · White wins: Black resigned")
    finally:
        hal.close()
        ida.close()


def test_names_and_messages_are_text_never_html(browser: Any, online: Online) -> None:
    """A name with HTML is refused by the name rules (and the page shows the refusal as text);
    chat lines with HTML are shown as text (the whole game above)."""
    eve = Person(browser, online, "eve", DESKTOP)
    try:
        page = eve.page
        page.goto(f"{online.url}/signup")
        # a browser would not send it (the field's pattern); an attacker's would
        page.evaluate("() => document.querySelector('[name=username]').removeAttribute('pattern')")
        page.fill("input[name=username]", XSS_IMG[:20])
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("main form button[type=submit]")
        expect(page.locator(".error")).to_be_visible()
        assert page.locator("main img").count() == 0
        assert page.evaluate("() => window.__xss") is None
    finally:
        eve.close()
