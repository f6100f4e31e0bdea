"""The Bot API (issue 20): who may use it (every route, parametrised over the route table so a
new route cannot escape), bot accounts and their upgrade, bots and the lobby, a person who
declines bots, and a bot's game played through it."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from starlette.routing import Route

from emergo.server.app import ROUTES
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import bearer

ID = "abcdefgh"


def _concrete(route: Route) -> list[tuple[str, str]]:
    """Every (method, path) a route serves, its word parameters expanded, ids filled in."""
    from emergo.server import app as online_app

    words: dict[str, set[str]] = {}
    endpoint = route.endpoint
    closure = getattr(endpoint, "__closure__", None) or ()
    for cell in closure:
        value = cell.cell_contents
        if isinstance(value, dict) and all(isinstance(v, set) for v in value.values()):
            words = value
    assert online_app
    keys = sorted(words)
    out = []
    for combo in itertools.product(*(sorted(words[k]) for k in keys)):
        path = route.path
        for key, word in zip(keys, combo, strict=True):
            path = path.replace("{" + key + "}", word)
        path = path.replace("{id}", ID).replace("{move}", "d4")
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                out.append((method, path))
    return out


def _routes(prefix: str) -> list[tuple[str, str]]:
    found = []
    for route in ROUTES:
        if isinstance(route, Route) and route.path.startswith(prefix):
            found += _concrete(route)
    return found


BOT_ROUTES = [r for r in _routes("/api/bot/") if r[1] != "/api/bot/online"]
"""Every Bot API route but the list of online bots: public, as lichess's (issue 27, its
callers in tests/site/user/test_lichess_users.py)."""
BOT_GAME_ROUTES = [r for r in BOT_ROUTES if "/api/bot/game/" in r[1]]
BOARD_ROUTES = [r for r in _routes("/api/board/") if not r[1].endswith("/conditional")]


def test_the_route_lists_are_whole():
    paths = {p for _m, p in BOT_ROUTES}
    for needed in (
        "/api/bot/account/upgrade",
        f"/api/bot/game/stream/{ID}",
        f"/api/bot/game/{ID}/move/d4",
        f"/api/bot/game/{ID}/chat",
        f"/api/bot/game/{ID}/abort",
        f"/api/bot/game/{ID}/resign",
        f"/api/bot/game/{ID}/claim-victory",
        f"/api/bot/game/{ID}/draw/yes",
        f"/api/bot/game/{ID}/draw/no",
        f"/api/bot/game/{ID}/takeback/yes",
        f"/api/bot/game/{ID}/takeback/no",
    ):
        assert needed in paths, needed
    assert ("GET", f"/api/bot/game/{ID}/chat") in BOT_ROUTES
    # every Bot API game route has its Board API twin: one implementation, two prefixes
    board = {(m, p.replace("/api/board/", "/api/bot/")) for m, p in BOARD_ROUTES}
    assert set(BOT_GAME_ROUTES) <= board


@pytest.fixture
def accounts(site: Any, client: Any) -> dict[str, Any]:
    """A bot (token with bot:play), a person (board:play and, oddly, bot:play), a revoked bot
    token, a bot token without bot:play, and a game between the bot and the person."""
    bot = site.users.create("robo", None, bot=True)
    person = site.users.create("ann", "a good password")
    good = site.tokens.create(bot.id, ("bot:play",))
    revoked = site.tokens.create(bot.id, ("bot:play",))
    for info in site.tokens.list(bot.id):
        if info.hint == revoked[:8]:
            site.tokens.revoke(info.id)
    no_scope = site.tokens.create(bot.id, ("challenge:read", "challenge:write", "board:play"))
    person_token = site.tokens.create(person.id, ("board:play", "challenge:write", "bot:play"))
    ann = Player(client, "ann", person_token)
    robo = Player(client, "robo", good)
    game = ann.challenge("robo", color="white", **{"clock.limit": 300, "clock.increment": 2})
    game_id = robo.accept(game)
    return {
        "bot": good,
        "revoked": revoked,
        "no_scope": no_scope,
        "person": person_token,
        "game": game_id,
        "ann": ann,
        "robo": robo,
    }


def _call(client: Any, method: str, path: str, token: str | None, game: str) -> Any:
    path = path.replace(ID, game)
    headers = bearer(token) if token is not None else {"Authorization": "Bearer emo_nonsense"}
    if method == "GET":
        with client.stream("GET", path, headers=headers) as r:
            return r.status_code, r.headers, (r.read() if r.status_code != 200 else b"")
    r = client.post(path, headers=headers, data={"room": "player", "text": "hi"})
    return r.status_code, r.headers, r.content


@pytest.mark.parametrize("method,path", BOT_ROUTES)
def test_the_bot_api_refuses_wrong_tokens(client, accounts, method, path):
    game = accounts["game"]
    for token, status in (
        (None, 401),  # a token the server never made
        (accounts["revoked"], 401),
        (accounts["no_scope"], 403),
        # a person's account, even with bot:play (the upgrade is a person's: refused here
        # because she has played)
        (accounts["person"], 400 if path.endswith("/upgrade") else 403),
    ):
        code, _headers, body = _call(client, method, path, token, game)
        assert code == status, (path, token and token[:8], code, body)
        assert b"error" in body


@pytest.mark.parametrize("method,path", BOARD_ROUTES)
def test_a_bot_may_not_use_the_board_api(client, accounts, method, path):
    code, _headers, body = _call(client, method, path, accounts["bot"], accounts["game"])
    assert code == 403, (path, code, body)
    assert b"/api/bot/" in body


def test_a_bot_plays_its_game_on_the_bot_api(client, accounts):
    robo: Player = accounts["robo"]
    ann: Player = accounts["ann"]
    game = accounts["game"]
    with client.stream("GET", f"/api/bot/game/stream/{game}", headers=robo.headers) as r:
        assert r.status_code == 200
        first = next(line for line in r.iter_lines() if line.strip())
    import json

    full = json.loads(first)
    assert full["type"] == "gameFull"
    assert full["black"] == {"id": "robo", "name": "robo", "title": "BOT"}
    assert full["white"]["title"] is None
    ann.play(game, "d4")
    r = robo.post(f"/api/bot/game/{game}/move/e6", params={"offeringDraw": "true"})
    assert r.status_code == 200, r.text
    assert ann.state(game)["moves"] == "d4 e6"
    assert ann.state(game).get("bdraw") is True
    assert robo.post(f"/api/bot/game/{game}/chat", data={"text": "good luck"}).status_code == 200
    lines = robo.get(f"/api/bot/game/{game}/chat").json()
    assert [x["text"] for x in lines] == ["good luck"]
    assert robo.post(f"/api/bot/game/{game}/resign").status_code == 200
    assert client.get(f"/api/game/{game}").json()["state"]["status"] == "resign"


def test_upgrade_is_one_way_and_only_before_any_game(site, client):
    eve = site.users.create("eve", "a good password")
    token = site.tokens.create(eve.id, ("bot:play",))
    plain = site.tokens.create(eve.id, ("board:play", "challenge:write"))
    r = client.post("/api/bot/account/upgrade", headers=bearer(plain))
    assert r.status_code == 403 and "bot:play" in r.json()["error"]
    r = client.post("/api/bot/account/upgrade", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert client.get("/api/account", headers=bearer(token)).json()["title"] == "BOT"
    r = client.post("/api/bot/account/upgrade", headers=bearer(token))
    assert r.status_code == 400 and "already" in r.json()["error"]
    # an account that has played cannot become a bot
    ann = Player(client, "ann", site.tokens.create(site.users.create("ann", "pw-pw-pw-pw").id))
    bob_user = site.users.create("bob", "pw-pw-pw-pw")
    bob = Player(client, "bob", site.tokens.create(bob_user.id))
    new_game(ann, bob)
    bob_bot = site.tokens.create(bob_user.id, ("bot:play",))
    r = client.post("/api/bot/account/upgrade", headers=bearer(bob_bot))
    assert r.status_code == 400 and "played" in r.json()["error"]
    assert client.get("/api/account", headers=bearer(bob_bot)).json()["title"] is None


def test_bots_play_by_challenge_not_in_the_lobby(site, client):
    bot = site.users.create("robo", None, bot=True)
    robo = Player(client, "robo", site.tokens.create(bot.id, ("bot:play",)))
    ann = Player(client, "ann", site.tokens.create(site.users.create("ann", "pw-pw-pw-pw").id))
    r = robo.post("/api/lobby/seek", data={"clock.limit": 300})
    assert r.status_code == 403 and "lobby" in r.json()["error"]
    seek = ann.ok("/api/lobby/seek", data={"clock.limit": 300})["id"]
    r = robo.post(f"/api/challenge/{seek}/accept")
    assert r.status_code == 403 and "lobby" in r.json()["error"]
    # the seek is still open for persons, and the bot's challenges show its title
    seeks = client.get("/api/lobby/seeks").json()["seeks"]
    assert [s["id"] for s in seeks] == [seek]
    c = robo.ok("/api/challenge/ann", data={"clock.limit": 300})
    assert c["challenger"]["title"] == "BOT" and c["destUser"]["title"] is None


def test_a_person_may_decline_bots(site, client):
    bot = site.users.create("robo", None, bot=True)
    robo = Player(client, "robo", site.tokens.create(bot.id, ("bot:play",)))
    ann = Player(client, "ann", site.tokens.create(site.users.create("ann", "pw-pw-pw-pw").id))
    assert ann.get("/api/account/preferences/bots").json() == {"accept": True}
    assert ann.post("/api/account/preferences/bots", data={"accept": "maybe"}).status_code == 400
    assert ann.ok("/api/account/preferences/bots", data={"accept": "false"}) == {"accept": False}
    r = robo.post("/api/challenge/ann", data={"clock.limit": 300})
    assert r.status_code == 403 and "does not play bots" in r.json()["error"]
    link = ann.ok("/api/challenge/open", data={"clock.limit": 300})["id"]
    r = robo.post(f"/api/challenge/{link}/accept")
    assert r.status_code == 403 and "does not play bots" in r.json()["error"]
    # she may still challenge a bot herself, and change her mind
    game = robo.accept(ann.challenge("robo", **{"clock.limit": 300}))
    assert game
    ann.ok("/api/account/preferences/bots", data={"accept": "true"})
    assert robo.post("/api/challenge/ann", data={"clock.limit": 300}).status_code == 200
