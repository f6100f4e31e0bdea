"""An event's page in a real browser (headless Chromium), one browser context per person, on a
real server (frontend/src/page/event.js): the countdown, join, the start, "your game is ready"
when the pairing is made, berserk, the standings changing live as the game ends, the chat;
screenshots docs/web/event-desktop.png and docs/web/event-phone.png."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from emergo.server.core import models as m
from emergo.server.tournament.spec import arena_spec, swiss_spec
from tests.plugins.events import play_out, playing

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 390, "height": 844}
NAMES = ("ann", "bob", "dan", "eve")


@pytest.fixture
def db_url(tmp_path: Path) -> str:  # SQLite: the browser sees the same pages on both
    return f"sqlite:///{tmp_path / 'online.sqlite3'}"


def sign_up(browser: Any, live: str, name: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: pytest.fail(f"a script ran: {d.message}"))
    page.goto(f"{live}/signup")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "a good password")
    page.fill("input[name=password2]", "a good password")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live}/")
    page.errors = errors
    return page


def _wait(check: Any, what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.2)


def test_an_arena_on_its_page_from_the_countdown_to_the_standings(browser, site, live):
    ann = sign_up(browser, live, "ann", DESKTOP)
    bob = sign_up(browser, live, "bob", PHONE)
    carl = sign_up(browser, live, "carl", DESKTOP)
    spec = arena_spec(
        {"name": "Evening", "clockTime": 3, "clockIncrement": 2, "minutes": 30, "waitMinutes": 10}
    )
    event = site.tournaments.create(spec, site.users.by_name("ann"))
    for page in (ann, bob, carl):
        page.goto(f"{live}{event.path()}")
        page.wait_for_selector("html[data-ready='1']")
    # the countdown ticks in the page
    first = ann.locator("#event-clock .countdown").inner_text()
    _wait(lambda: ann.locator("#event-clock .countdown").inner_text() != first, "the countdown")
    # Ann and Bob join with the page's button; Carl watches
    for page in (ann, bob):
        page.click("button.join")
        page.wait_for_selector("button.withdraw")
    standings = carl.locator("#standings")
    _wait(lambda: "ann" in standings.inner_text() and "bob" in standings.inner_text(), "joiners")
    # the event starts: each page reloads by itself, and the pairing is a game for Ann and Bob
    with site.db.write() as tx:
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(starts_at=time.time() - 1, ends_at=time.time() + 1800)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event.id)
            .values(due=time.time() - 1)
        )
    games = _wait(lambda: site.director.sweep() * 0 or playing(site, event.id), "the pairing")
    assert len(games) == 1
    for page in (ann, bob):
        # the site-wide channel takes a player to the game when it is paired (as lichess)
        page.wait_for_url(f"{live}/game/{games[0]}", timeout=30_000)
        # back on the event's page, the link to the game in play
        page.goto(f"{live}{event.path()}")
        link = page.locator("#my-game a")
        link.wait_for(timeout=30_000)
        assert "Your game is ready" in link.inner_text()
        assert link.get_attribute("href") == f"/game/{games[0]}"
    assert carl.locator("#my-game").count() == 0
    _wait(lambda: "Ends in" in carl.locator("#event-clock").inner_text(), "the arena's clock")
    ann.screenshot(path=str(ROOT / "docs" / "web" / "event-desktop.png"), full_page=True)
    bob.screenshot(path=str(ROOT / "docs" / "web" / "event-phone.png"), full_page=True)
    # Ann goes berserk from the event's page: half her clock, marked on the pairing
    ann.click("#my-game button.berserk")
    ann.locator("#berserk-note", has_text="half your clock").wait_for(timeout=30_000)
    with site.db.read() as c:
        pairing = c.execute(
            select(m.tournament_games).where(m.tournament_games.c.game_id == games[0])
        ).one()
    ann_id = site.users.by_name("ann").id
    assert (pairing.berserk_white, pairing.berserk_black) == (
        pairing.white_id == ann_id,
        pairing.black_id == ann_id,
    )
    # the game is played to its end: the winner's score changes on every page, no reload
    before = standings.inner_text()
    result = play_out(site, games[0], random.Random(7), plies=40)
    assert result in ("1-0", "0-1", "1/2-1/2")
    _wait(lambda: standings.inner_text() != before, "the standings to change")
    rows = [r.inner_text() for r in standings.locator("tr").all()]
    scores = sorted(int(r.split()[-1]) for r in rows)
    # a win 2, and 3 for Ann's berserk win when it had its movement plies (the sheet's rule)
    assert scores == [1, 1] if result == "1/2-1/2" else scores in ([0, 2], [0, 3]), rows
    _wait(lambda: ann.locator("#my-game").count() == 0, "the finished game's link to go")
    for page in (ann, bob, carl):
        assert not page.errors, page.errors


def test_the_swap_rule_on_the_game_page_of_an_events_game(browser, site, live):
    """A 7x7 arena with the board's fair start (``swap-1``): after White's first entry Black's
    game page offers the swap; taking it exchanges the seats (the page again with them) and the
    event's pairing follows."""
    ann = sign_up(browser, live, "ann", DESKTOP)
    bob = sign_up(browser, live, "bob", DESKTOP)
    for page in (ann, bob):  # their lobbies hear their events: a started game opens in them
        page.wait_for_selector("html[data-live='1']")
    spec = arena_spec(
        {
            "name": "Fair",
            "variant": "7x7",
            "start": "recommended",
            "clockTime": 3,
            "clockIncrement": 2,
            "minutes": 30,
            "waitMinutes": 10,
        }
    )
    event = site.tournaments.create(spec, site.users.by_name("ann"))
    for name in ("ann", "bob"):
        site.tournaments.join(event.id, site.users.by_name(name))
    with site.db.write() as tx:
        t = time.time()
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(starts_at=t - 1, ends_at=t + 1800)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event.id)
            .values(due=t - 1)
        )
    (game,) = _wait(lambda: site.director.sweep() * 0 or playing(site, event.id), "the pairing")
    view = site.rounds.get(game)
    pages = {"ann": ann, "bob": bob}
    white, black = view.seats.white, view.seats.black
    for page in pages.values():  # each player's lobby goes to the game (a goto of the test's
        # own raced that navigation and could wait for ever)
        page.wait_for_url(f"{live}/game/{game}", wait_until="domcontentloaded")
        page.wait_for_selector("html[data-ready='1']")
    offer = pages[black].locator("#swap-offer")
    assert offer.is_hidden()  # not before White's entry
    entry = str(next(iter(view.state.board().moves())))
    site.play(game, site.users.by_name(white), "move", text=entry)
    offer.wait_for(state="visible", timeout=30_000)
    assert pages[white].locator("#swap-offer").is_hidden()  # Black's choice only
    pages[black].click("#swap-yes")
    # the page comes again with the seats exchanged: the chooser is White now
    _wait(lambda: site.rounds.get(game).seats.white == black, "the swap")
    pages[black].wait_for_selector("html[data-ready='1']")
    pages[black].locator(".fair-start", has_text="taken").wait_for(timeout=30_000)
    assert pages[black].locator("#swap-offer").count() == 0
    with site.db.read() as c:
        pairing = c.execute(
            select(m.tournament_games).where(m.tournament_games.c.game_id == game)
        ).one()
    assert pairing.white_id == site.users.by_name(black).id
    for page in pages.values():
        assert not page.errors, page.errors


def _start_now(site: Any, event_id: str) -> None:
    with site.db.write() as tx:
        t = time.time()
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event_id)
            .values(starts_at=t - 1, ends_at=t + 1800)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event_id)
            .values(due=t - 1)
        )


def test_the_games_table_shows_a_new_pairing_and_a_result_without_a_reload(browser, site, live):
    """A spectator's page of a running arena: a pairing made after the page was loaded appears
    in the games table, and a game that ends shows its result there, the page never reloaded."""
    carl = sign_up(browser, live, "carl", PHONE)
    spec = arena_spec(
        {"name": "Live", "clockTime": 3, "clockIncrement": 2, "minutes": 30, "waitMinutes": 10}
    )
    users = {name: site.users.create(name, "a good password") for name in NAMES}
    event = site.tournaments.create(spec, users["ann"])
    for name in ("ann", "bob"):
        site.tournaments.join(event.id, users[name])
    _start_now(site, event.id)
    (first,) = _wait(lambda: site.director.sweep() * 0 or playing(site, event.id), "the pairing")
    carl.goto(f"{live}{event.path()}")
    carl.wait_for_selector("html[data-ready='1']")
    carl.evaluate("window.sameDocument = true")  # gone if the page reloads
    table = carl.locator("#pairings")
    assert table.locator("tr").count() == 1
    assert table.locator(f"a[href='/game/{first}']").inner_text() == "*"
    # Dan and Eve join the running arena and are paired: a new row, the newest first
    for name in ("dan", "eve"):
        site.tournaments.join(event.id, users[name])
    games = _wait(lambda: site.director.sweep() * 0 or len(playing(site, event.id)) == 2, "Dan-Eve")
    games = playing(site, event.id)
    second = next(g for g in games if g != first)
    table.locator(f"a[href='/game/{second}']").wait_for(timeout=30_000)
    rows = table.locator("tr")
    assert rows.count() == 2
    assert f"/game/{second}" in (rows.nth(0).locator("a").last.get_attribute("href") or "")
    assert {"dan", "eve"} <= set(rows.nth(0).inner_text().split())
    # the first game ends: its result in its row
    result = play_out(site, first, random.Random(3), plies=30)
    link = table.locator(f"a[href='/game/{first}']")
    _wait(lambda: link.inner_text() == result, f"the result {result}")
    row = table.locator("tr", has=carl.locator(f"a[href='/game/{first}']"))
    assert row.get_attribute("class") == "over"
    assert carl.evaluate("window.sameDocument") is True
    carl.screenshot(path=str(ROOT / "docs" / "web" / "event-games-phone.png"), full_page=True)
    assert not carl.errors, carl.errors


def test_the_events_chat_live_between_two_players_and_a_line_shown_as_text(browser, site, live):
    """Ann (desktop) and Bob (phone) on a Swiss event's page: each sees the other's line as it is
    said, a line of HTML is text (no script ran), a reader signed out reads without a form; the
    chat is beside the standings on a desktop, below the games on a phone."""
    ann = sign_up(browser, live, "ann", DESKTOP)
    bob = sign_up(browser, live, "bob", PHONE)
    reader = browser.new_context(viewport=DESKTOP).new_page()
    spec = swiss_spec({"name": "Talk", "clockTime": 3, "clockIncrement": 2, "nbRounds": 3})
    event = site.tournaments.create(spec, site.users.by_name("ann"))
    for page in (ann, bob, reader):
        page.goto(f"{live}{event.path()}")
        page.wait_for_selector("html[data-ready='1']")
    ann.wait_for_selector("#chat-form:not([hidden])")
    assert reader.locator("#chat-form").is_hidden()
    assert "Log in to chat" in reader.locator("#chat-note").inner_text()
    chat = ann.locator("#chat-panel").bounding_box()
    table = ann.locator("table.standings").bounding_box()
    assert chat["x"] > table["x"] + table["width"] - 1  # beside
    phone_chat = bob.locator("#chat-panel").bounding_box()
    games = bob.locator("table.pairings").bounding_box()
    assert phone_chat["y"] >= games["y"] + games["height"] - 1  # below
    ann.fill("#chat-text", "good luck all")
    ann.press("#chat-text", "Enter")
    for page in (bob, reader):
        _wait(lambda p=page: "good luck all" in p.locator("#chat-lines").inner_text(), "ann's line")
    evil = "<img src=x onerror=window.__xss=1>"
    bob.fill("#chat-text", evil)
    bob.click("#chat-form button[type=submit]")
    line = ann.locator("#chat-lines .line .text", has_text="onerror")
    _wait(lambda: line.count() == 1, "bob's line")
    assert line.inner_text() == evil
    assert ann.locator("#chat-lines img").count() == 0
    for page in (ann, bob, reader):
        assert page.evaluate("window.__xss") is None
    # a moderator removes it: it goes from the pages
    (bob_line,) = [x for x in site.chat.event_lines(event.id) if x.user == "bob"]
    site.chat.remove(bob_line.id)
    _wait(lambda: line.count() == 0, "the removed line to go")
    assert ann.errors == [] and bob.errors == []


def test_the_events_chat_in_local_mode(browser, local):
    """``emergo serve``'s site: the local player (ann, signed in by being there) writes in an
    event's chat from its page, and the line comes back to the page."""
    site = local.site
    ann = site.users.by_name("ann")
    spec = arena_spec({"name": "Home", "clockTime": 3, "clockIncrement": 2, "minutes": 30})
    event = site.tournaments.create(spec, ann)
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{local.url}{event.path()}")
    page.wait_for_selector("html[data-ready='1']")
    page.wait_for_selector("#chat-form:not([hidden])")
    page.fill("#chat-text", "alone at home")
    page.press("#chat-text", "Enter")
    _wait(lambda: "alone at home" in page.locator("#chat-lines").inner_text(), "the line")
    assert [x.user for x in site.chat.event_lines(event.id)] == ["ann"]
    assert errors == []
