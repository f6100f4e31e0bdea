"""The online site tells a signed-in player things on every page (the player's review, items 2,
4, 11, 12, 17, 19, 22), in real headless Chromium against a real server (uvicorn, SQLite).

* a seek accepted while its author reads his profile: his page goes to the game;
* a challenge made while the other reads the archive: a note in the corner, accepted from it;
* a challenge declined for a reason: the challenger reads the reason in words on any page;
* the header's unread count, filled and live;
* ``?next=`` kept through the log-in of an invitation; the invitation in sentences;
* sign-up's rules on the form; an unstarted game's countdown to its abort; the watch list.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo.server.challenge.service import Terms  # noqa: E402
from emergo.server.notify.letters import Notice  # noqa: E402
from tests.plugins.site_pages import DESKTOP, PHONE, Online, Person, shot  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Online]:
    server = Online(tmp_path_factory.mktemp("sitewide") / "site.sqlite3")
    server.start()
    yield server
    server.stop()


def signed_in(browser: Any, online: Online, name: str, viewport: dict[str, int]) -> Person:
    online.account(name)
    person = Person(browser, online, name, viewport)
    person.login()
    return person


def test_a_seek_accepted_while_its_author_reads_his_profile_opens_the_game(
    browser: Any, online: Online
) -> None:
    ann = signed_in(browser, online, "ann2", DESKTOP)
    online.account("bob2")
    live = online.live
    seek = live.challenges.create(
        live.users.by_name("ann2"), Terms(clock_limit=300, clock_increment=3), kind="seek"
    )
    ann.go("/@/ann2")
    # the page's site-wide socket is open before the seek is taken
    ann.page.wait_for_function("() => !!document.getElementById('toasts')")
    ann.page.wait_for_timeout(300)
    game_id = live.challenges.accept(seek.id, live.users.by_name("bob2"))
    ann.page.wait_for_url(f"{online.url}/game/{game_id}", timeout=5000)
    ann.close()


def test_a_challenge_reaches_the_archive_page_and_is_accepted_from_its_note(
    browser: Any, online: Online
) -> None:
    ann = signed_in(browser, online, "ann3", PHONE)
    bob = signed_in(browser, online, "bob3", DESKTOP)
    ann.go("/games")
    ann.page.wait_for_timeout(300)
    bob.page.fill("#opponent", "ann3")
    bob.page.click("#challenge")
    note = ann.page.locator(".toast.challenge-note")
    expect(note).to_be_visible(timeout=5000)
    expect(note).to_contain_text("bob3 challenges you")
    shot(ann.page, "online-sitewide-challenge-phone.png")
    note.get_by_role("button", name="Accept").click()
    ann.page.wait_for_url(f"{online.url}/game/*", timeout=5000)
    game_id = ann.page.url.rsplit("/", 1)[1]
    bob.page.wait_for_url(f"{online.url}/game/{game_id}", timeout=5000)  # the lobby opens it
    ann.close()
    bob.close()


def test_a_decline_reason_in_words_and_the_unread_count_live(browser: Any, online: Online) -> None:
    ann = signed_in(browser, online, "ann4", DESKTOP)
    bob = signed_in(browser, online, "bob4", DESKTOP)
    ann.go("/leaderboard")
    badge = ann.page.locator("#notifications-link [data-unread]")
    expect(badge).to_be_hidden()
    bob.go("/@/bob4")
    bob.page.wait_for_timeout(300)
    live = online.live
    users = live.users
    live.challenges.create(users.by_name("ann4"), Terms(clock_limit=60), dest=users.by_name("bob4"))
    note = bob.page.locator(".toast.challenge-note")
    expect(note).to_be_visible(timeout=5000)
    shot(bob.page, "online-sitewide-challenge-desktop.png")
    note.locator("select.reason").select_option("tooFast")
    note.get_by_role("button", name="Decline").click()
    expect(note).to_have_count(0)
    said = ann.page.locator(".toast", has_text="declined")
    expect(said).to_contain_text("bob4 declined your challenge", timeout=5000)
    expect(said).to_contain_text("too fast for me")
    # a notice written for ann shows in her header at once, and goes when read elsewhere
    with live.db.write() as tx:
        notice = Notice("game-over", "Zz99Zz99", "bob4", "9x9", "3 days a move", 0.0, None, "x")
        live.notices.add(tx, users.by_name("ann4").id, notice)
    expect(badge).to_have_text("1", timeout=5000)
    expect(badge).to_be_visible()
    live.notices.mark_read(users.by_name("ann4").id)
    expect(badge).to_be_hidden(timeout=5000)
    ann.close()
    bob.close()


def test_an_invitation_followed_by_a_log_in_comes_back_to_it(browser: Any, online: Online) -> None:
    online.account("ann5")
    online.account("carl5")
    live = online.live
    link = live.challenges.create(
        live.users.by_name("ann5"), Terms(clock_limit=300, clock_increment=3), kind="link"
    )
    carl = Person(browser, online, "carl5", PHONE)
    carl.go(f"/challenge/{link.id}")
    expect(carl.page.locator("main")).to_contain_text("ann5 invites you to a casual game")
    carl.page.get_by_role("link", name="Log in").last.click()
    carl.page.fill("input[name=username]", "carl5")
    carl.page.fill("input[name=password]", "a good password")
    carl.page.click("main form button[type=submit]")
    carl.page.wait_for_url(f"{online.url}/challenge/{link.id}")
    shot(carl.page, "online-invitation-phone.png")
    carl.page.get_by_role("button", name="Accept").click()
    carl.page.wait_for_url(f"{online.url}/game/*")
    carl.close()


def test_an_unstarted_game_counts_down_to_its_abort(browser: Any, online: Online) -> None:
    ann = signed_in(browser, online, "ann6", DESKTOP)
    online.account("bob6")
    game_id = online.game("ann6", "bob6", clock_limit=300, clock_increment=3)
    ann.game_page(game_id, taken=True)  # the lobby opens the game that started
    countdown = ann.page.locator("#expiration")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text("seconds for you to play the first move")
    first = int(countdown.inner_text().split()[0])
    ann.page.wait_for_timeout(1300)
    assert int(countdown.inner_text().split()[0]) < first  # it counts down
    shot(ann.page, "online-abort-countdown-desktop.png")
    ann.play("d4")
    expect(countdown).to_contain_text("for Black to play the first move")
    online.live.play(game_id, online.live.users.by_name("bob6"), "move", text="e6", version=None)
    expect(countdown).to_be_hidden()
    ann.close()


def test_the_watch_list_leads_a_spectator_to_a_game(browser: Any, online: Online) -> None:
    online.account("ann7")
    online.account("bob7")
    game_id = online.game("ann7", "bob7", clock_limit=600, clock_increment=5)
    eve = Person(browser, online, "eve7", PHONE)
    eve.go("/watch")
    row = eve.page.locator(f"tr[data-game='{game_id}']")
    expect(row).to_contain_text("ann7 – bob7")
    shot(eve.page, "online-watch-phone.png")
    row.get_by_role("link", name="Watch").click()
    eve.page.wait_for_url(f"{online.url}/game/{game_id}")
    eve.page.wait_for_selector("html[data-ready='1']")
    expect(eve.page.locator("#board .cells")).to_be_visible()
    eve.close()


def test_lobby_errors_are_in_a_players_words(browser: Any, online: Online) -> None:
    dan = signed_in(browser, online, "dan8", DESKTOP)
    dan.page.fill("#minutes", "0")
    dan.page.click("#post-seek")
    message = dan.page.locator("#message")
    expect(message).to_contain_text("the time is 1 second to 180 minutes a player")
    assert "clock.limit" not in message.inner_text()
    dan.page.fill("#minutes", "5")
    dan.page.fill("#opponent", "nobody8")
    dan.page.click("#challenge")
    expect(message).to_have_text("there is no player called nobody8")
    dan.close()


def test_a_challenge_note_on_a_phone_never_covers_the_games_result(
    browser: Any, online: Online
) -> None:
    """The review's 31-flag-bob.png: a challenge's note came over the game panel's result."""
    ann = signed_in(browser, online, "ann9", PHONE)
    online.account("bob9")
    users = online.live.users
    game_id = online.game("ann9", "bob9", clock_limit=300, clock_increment=3)
    ann.game_page(game_id, taken=True)  # the lobby opens the game that started
    online.live.play(game_id, users.by_name("ann9"), "move", text="d4", version=None)
    online.live.play(game_id, users.by_name("bob9"), "move", text="e6", version=None)
    online.live.play(game_id, users.by_name("ann9"), "resign", version=None)
    online.challenge("bob9", "ann9", clock_limit=300, clock_increment=3)
    note = ann.page.locator(".toast.challenge-note")
    expect(note).to_be_visible(timeout=5000)
    over = ann.page.locator("#game-over-text")
    expect(over).to_contain_text("Black wins")
    ann.page.locator("#game-panel").scroll_into_view_if_needed()
    shot(ann.page, "online-challenge-note-over-game-phone.png")
    boxes = ann.page.evaluate(
        """() => [...['#game-panel', '#result'].map((s) => document.querySelector(s)),
                  ...document.querySelectorAll('.toast')].map((e) => {
                    const r = e.getBoundingClientRect();
                    return [r.left, r.top, r.right, r.bottom];
                  })"""
    )
    panel, result, *toasts = boxes

    def meets(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    assert toasts and not any(meets(t, panel) or meets(t, result) for t in toasts), boxes
    note.get_by_role("button", name="Accept").click()  # still usable where it is
    ann.page.wait_for_url(lambda url: "/game/" in url and not url.endswith(game_id), timeout=30000)
    ann.close()
