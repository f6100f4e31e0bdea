"""XSS against the online site in real headless Chromium: an attacker's text stored (a token's
description, a chat line, a decline reason) or reflected (query parameters, paths) comes back
as text on every page, never as markup or script; the CSP forbids inline script even if it
did not.  The signed-in pages' sockets carry their CSRF token in a subprotocol, not the URL.
One signed-in browser context, a handful of page loads (the chat in the game page is covered at
length by test_online_pages.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("argon2")
pytest.importorskip("playwright.sync_api")

from emergo.server.challenge.service import Terms
from emergo.server.site import Site
from tests.plugins.browser import ThreadServer, public_site

pytestmark = pytest.mark.slow

PASSWORD = "a good password"
PAYLOADS = (
    '"><img src=x onerror="window.__xss=1">',
    "</script><script>window.__xss=2</script>",
    "javascript:window.__xss=3",
)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, str]]:
    server = ThreadServer(
        lambda _url: public_site(tmp_path_factory.mktemp("xss") / "site.sqlite3"),
        ws="websockets-sansio",
        timeout_graceful_shutdown=1,
    )
    yield server.site, server.url
    server.stop()


def test_stored_and_reflected_text_is_never_markup(browser: Any, site_url: Any, tmp_path: Path):
    site, url = site_url
    ann = site.users.create("ann", PASSWORD)
    bob = site.users.create("bob", PASSWORD)
    for text in PAYLOADS:  # stored: a chat line of each
        challenge = site.challenges.create(ann, Terms(color="white"), dest=bob)
        game = site.challenges.accept(challenge.id, bob)
        site.chat.post(game, ann, "player", text)
    declined = site.challenges.create(ann, Terms(), dest=bob)
    site.challenges.decline(declined.id, bob, PAYLOADS[0])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(f"{url}/login")
        page.fill("input[name=username]", "ann")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{url}/")
        for text in PAYLOADS:  # stored: a token's description, on the account page
            page.goto(f"{url}/account")
            page.fill("input[name=description]", text[:100])
            page.click("form[action='/account/token'] button[type=submit]")
            page.wait_for_selector("p.token")
        page.goto(f"{url}/account")
        cells = page.locator("table td:nth-child(3)").all_text_contents()
        assert sorted(cells) == sorted(t[:100] for t in PAYLOADS)
        shown = []
        for text in PAYLOADS:  # reflected: query parameters and paths
            q = quote(text, safe="")
            for path in (
                f"/games?player={q}&vs={q}",
                f"/@/ann?vs={q}",
                f"/@/{q}",
                f"/leaderboard/{q}",
                f"/challenge/{q}",
                f"/game/{q}",
                f"/login?next={q}",
            ):
                page.goto(url + path)
                shown.append(page.content())
                assert page.evaluate("() => window.__xss") is None, path
                assert page.locator("img[src=x]").count() == 0, path
        page.goto(f"{url}/game/{game}")
        page.wait_for_selector("html[data-ready='1']")
        page.wait_for_function("() => document.querySelectorAll('#chat-lines .text').length > 0")
        assert page.locator("#chat-lines .text").all_text_contents() == [PAYLOADS[-1]]
        shown_reason = site.challenges.get(declined.id)
        assert shown_reason is not None and shown_reason.decline_reason == "generic"
        assert page.evaluate("() => window.__xss") is None
        assert dialogs == []
        # the signed-in pages' sockets worked (the chat came by the game's) with the session's
        # CSRF token as a subprotocol: never in a URL, which access logs write
        assert any("/ws/game/" in u for u in sockets), sockets
        assert not any("csrf" in u for u in sockets), sockets
        assert not any("onerror=" in html and "<img src=" in html for html in shown)
    finally:
        context.close()


def test_an_event_s_name_and_description_are_never_markup(browser: Any, site_url: Any):
    """An arena's and a Swiss event's name and description are an attacker's text: the events'
    list, each event's page (its standing polled again by the page's script) and the profile
    of a player in it show them as text."""
    pytest.importorskip("py4swiss")
    from emergo.server.tournament.spec import arena_spec, swiss_spec

    site, url = site_url
    cy = site.users.create("cy", PASSWORD)
    dee = site.users.create("dee", PASSWORD)
    events = []
    for text in PAYLOADS:
        fields = {"name": text[:60], "description": text, "minutes": 60, "nbRounds": 3}
        for spec in (arena_spec(fields), swiss_spec(fields)):
            event = site.tournaments.create(spec, cy)
            site.tournaments.join(event.id, dee)
            events.append(event)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(f"{url}/tournament")
        listed = page.locator("main a[href^='/tournament/'], main a[href^='/swiss/']")
        shown = set(listed.all_text_contents())
        assert {e.full_name for e in events} <= shown, shown
        for event in events:
            page.goto(url + event.path())
            page.wait_for_selector("html[data-ready='1']")
            page.wait_for_function(
                "() => document.querySelectorAll('#standings tr').length > 0", timeout=10_000
            )
            assert page.locator("main h1").text_content() == event.full_name
            assert page.locator("p.description").text_content() == event.settings.description
            assert page.title().startswith(event.full_name)
            assert page.evaluate("() => window.__xss") is None, event.path()
            assert page.locator("img[src=x]").count() == 0, event.path()
        page.goto(f"{url}/@/dee")
        names = page.locator("section.events a").all_text_contents()
        assert sorted(names) == sorted(e.full_name for e in events)
        assert page.evaluate("() => window.__xss") is None
        assert page.locator("img[src=x]").count() == 0
        assert dialogs == []
    finally:
        context.close()
