"""The site's pages over HTTP (the browser tests are tests/web/test_online_pages.py): the frame
every page shares, the lobby's and game page's shells and their data, the board's data for the
pages (``/api/geometry``, ``/api/position``), the Referrer-Policy that lets the pages post."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from emergo.server.site import Site
from tests.plugins.game_helpers import new_game
from tests.plugins.site import account


def _login(client: Any, site: Site, name: str) -> str:
    """Sign ``name`` in on ``client`` (its session cookie); the session's CSRF token."""
    cookie, csrf = site.users.open_session(site.users.by_name(name).id)
    client.cookies.set("emergo_session", cookie)
    return str(csrf)


def test_the_lobby_shell_signed_out_and_in(client: Any, site: Site) -> None:
    page = client.get("/")
    assert page.status_code == 200
    text = page.text
    assert '<header class="site-top">' in text and 'href="/signup"' in text
    assert (
        '<script type="module" src="/static/built/emergo.js">' in text
        and 'data-page="lobby"' in text
    )
    assert 'id="seeks"' in text and 'id="terms"' not in text  # signed out: no form
    assert page.headers["cache-control"] == "no-store"
    account(site, "ann")
    csrf = _login(client, site, "ann")
    text = client.get("/").text
    assert 'data-me="ann"' in text and f'data-csrf="{csrf}"' in text
    assert 'id="terms"' in text and 'id="your-turn"' in text
    assert 'action="/logout"' in text
    assert 'id="play-ai"' not in text  # no house bots on this site: no "Play the computer"
    site.bots.ensure_house((2, 5))  # issue 20: the house bots' accounts (emergo admin house-bots)
    text = client.get("/").text
    assert 'id="play-ai"' in text
    assert ">level 2</option>" in text and ">level 5</option>" in text and ">level 1<" not in text


def test_the_game_shell_for_players_spectators_and_no_game(
    client: Any, site: Site, players: Any
) -> None:
    ann, bob = players
    game = new_game(ann, bob)
    text = client.get(f"/game/{game}").text
    assert f'data-game="{game}"' in text and 'data-you=""' in text
    assert (
        '<script type="module" src="/static/built/emergo.js">' in text
        and 'data-page="game"' in text
    )
    assert "<title>ann – bob · Emergo</title>" in text
    _login(client, site, "bob")
    assert 'data-you="black"' in client.get(f"/game/{game}").text
    missing = client.get("/game/nosuchgame")
    assert missing.status_code == 404 and "No such game" in missing.text
    assert '<header class="site-top">' in missing.text


def test_the_forms_share_the_frame(client: Any, site: Site) -> None:
    for path in ("/login", "/signup"):
        text = client.get(path).text
        assert (
            '<header class="site-top">' in text
            and 'src="/static/built/emergo.js"' in text
            and 'data-page="forms"' in text
        )
        assert '<main class="forms">' in text
    account(site, "ann")
    _login(client, site, "ann")
    text = client.get("/account").text
    assert '<a href="/account" aria-current=page>Account</a>' in text
    assert '<a class="me" href="/@/ann">ann</a>' in text  # the profile (issue 21)
    assert 'href="/notifications" id="notifications-link"' in text


def test_the_site_sends_its_origin_with_posts(client: Any) -> None:
    """Under ``Referrer-Policy: no-referrer`` a browser posts forms and fetches with ``Origin:
    null``, which the site refuses: no page could post (tests/web/test_online_pages.py signs up
    in Chromium)."""
    for path in ("/", "/login", "/api/lobby/seeks"):
        assert client.get(path).headers["referrer-policy"] == "same-origin"


def test_positions_for_the_board(client: Any) -> None:
    geometry = client.get("/api/geometry", params={"variant": "7x7"})
    assert geometry.status_code == 200 and geometry.json()["size"] == 7
    assert "max-age" in geometry.headers["cache-control"]
    assert client.get("/api/geometry", params={"variant": "10x10"}).status_code == 400
    start = client.get("/api/position", params={"pos": "7x7 w 8/8"}).json()
    assert start["turn"] == "white" and len(start["moves"]) == 24 and start["line"]["moves"] == []
    after = client.get("/api/position", params={"pos": "7x7 w 8/8", "moves": "c3 f5"}).json()
    assert after["turn"] == "white" and set(after["pieces"]) == {"c3", "f5"}
    assert [m["text"] for m in after["line"]["moves"]] == ["c3", "f5"]
    assert after["lastMove"]["path"] == ["f5"]
    # one ply from the position before: what the game page asks for after a move
    step = client.get("/api/position", params={"pos": after["position"], "moves": "d6"}).json()
    assert step["line"]["start"] == after["position"] and set(step["pieces"]) == {"c3", "f5", "d6"}
    bad = client.get("/api/position", params={"pos": "7x7 w 8/8", "moves": "c3 zz"})
    assert bad.status_code == 400 and "move 2" in bad.json()["error"]
    assert client.get("/api/position", params={"pos": "<script>"}).status_code == 400


def test_positions_are_rate_limited(client: Any, monkeypatch: Any) -> None:
    from emergo.server.board import http as online_board

    # 3 a second: 10 requests put at least 5 in one second, whichever seconds they fall in
    monkeypatch.setattr(online_board, "POSITIONS_PER_SECOND", 3)
    statuses = [
        client.get("/api/position", params={"pos": "hex w 12/12"}).status_code for _ in range(10)
    ]
    assert statuses[0] == 200 and 429 in statuses


def _line(plies: int) -> list[str]:
    """The first random 7x7 game (by seed) that lasts ``plies`` plies: its moves."""
    from emergo import Board

    for seed in range(100):
        rng, line, texts = random.Random(seed), Board(variant="7x7"), []
        while len(texts) < plies and not line.is_game_over():
            move = rng.choice(sorted(line.legal_moves, key=str))
            texts.append(str(move))
            line.push(move)
        if len(texts) == plies:
            return texts
    raise AssertionError(f"no random game of {plies} plies")


def test_a_long_line_counts_as_the_requests_it_costs(client: Any, monkeypatch: Any) -> None:
    """A position after 60 plies costs the server as much as three one-move requests (issue 27,
    finding 6): it counts so against the address's limit; a bad ``moves`` is still a 400."""
    from emergo.server.board import http as online_board
    from emergo.server.core import limits

    texts = _line(2 * online_board.PLIES_A_REQUEST)  # 1 + 2: three requests' worth
    monkeypatch.setattr(online_board, "POSITIONS_PER_SECOND", 8)
    monkeypatch.setattr(limits, "now", lambda: 1_800_000_000.5)  # every request in one second
    long = {"pos": "7x7 w 8/8", "moves": " ".join(texts)}
    statuses = [client.get("/api/position", params=long).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]  # 3 + 3, then 9 of 8
    monkeypatch.setattr(limits, "now", lambda: 1_800_000_001.5)  # the next second
    assert (
        client.get("/api/position", params={"pos": "7x7 w 8/8", "moves": "c3"}).status_code == 200
    )
    bad = client.post("/api/position", json={"pos": "7x7 w 8/8", "moves": 5})
    assert bad.status_code == 400 and "moves must be" in bad.json()["error"]


@pytest.mark.parametrize(
    "path", ["/api/move", "/api/tablebase", "/api/record/export", "/api/position"]
)
def test_every_request_that_replays_a_line_counts_against_one_limit(
    client: Any, monkeypatch: Any, path: str
) -> None:
    """The analysis board's moves, tables and records replay the line they are sent as a
    position request does (a 333-ply line is 17 ms of CPU): one limit of the address counts
    them all by their plies, so no endpoint is a way round it."""
    from emergo.server.board import http as online_board
    from emergo.server.core import limits

    texts = _line(2 * online_board.PLIES_A_REQUEST + 1)  # 3 requests' worth, then a move
    monkeypatch.setattr(online_board, "POSITIONS_PER_SECOND", 8)
    monkeypatch.setattr(limits, "now", lambda: 1_800_000_000.5)  # every request in one second
    line = {"pos": "7x7 w 8/8", "moves": texts[:-1]}
    position = client.post("/api/position", json=line)
    assert position.status_code == 200
    last = {**line, "text": texts[-1]}  # /api/move plays a move after the line
    assert client.post(path, json=last).status_code == 200  # 3 + 3 of 8
    refused = client.post(path, json=last)
    assert refused.status_code == 429 and "too many positions" in refused.json()["error"]
    assert refused.headers["retry-after"] == "1"


def test_names_in_the_frame_are_escaped(site: Site) -> None:
    from emergo.server.core.auth import Actor
    from emergo.server.core.frame import header

    class Evil:
        name = "<script>x</script>"
        bot = True

    actor = Actor(user=Evil(), via="session", scopes=frozenset(), csrf='"><img src=x>')  # type: ignore[arg-type]
    text = header(actor)
    assert "<script>" not in text and "<img" not in text
    assert "&lt;script&gt;x&lt;/script&gt;" in text and '<span class="title">BOT</span>' in text
    assert re.search(r'value="&quot;&gt;&lt;img src=x&gt;"', text)
