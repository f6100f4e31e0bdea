"""Issue 27: lichess's user endpoints a client calls: ``POST /api/users`` (many public users),
``GET /api/users/status``, ``GET /api/account/email`` (scope email:read), ``GET
/api/bot/online``, and ``GET /game/export/{id}`` as JSON.  Who may call each, and bad input as
a 400 naming the field."""

from __future__ import annotations

import pytest

from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import account, bearer

BAD = bearer("emo_not-a-token")


def test_many_users_as_one_user_is(site, client):
    account(site, "ann")
    account(site, "bob")
    one = client.get("/api/user/ann").json()
    r = client.post("/api/users", content="bob, ANN,nobody,ann")
    assert r.status_code == 200
    got = r.json()
    assert [u["id"] for u in got] == ["bob", "ann"]  # in order, unknown and repeats left out
    assert got[1] == one


@pytest.mark.parametrize(
    "body",
    ["", " ", ",", "ann,,bob", "a b", "ann,bob c", "x" * 25, ",".join(f"u{i}" for i in range(301))],
)
def test_many_users_bad_input_names_ids(site, client, body):
    account(site, "ann")
    r = client.post("/api/users", content=body)
    assert r.status_code == 400
    assert r.json()["error"].startswith("ids:")


def test_many_users_not_utf8(client):
    r = client.post("/api/users", content=b"\xff\xfe")
    assert r.status_code == 400 and "ids" in r.json()["error"]


def two_at_a_game(site, client):
    """ann and bob, and a game of theirs begun."""
    _ann, ann_token = account(site, "ann")
    _bob, bob_token = account(site, "bob")
    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    return ann, bob, new_game(ann, bob)


def test_statuses(site, client):
    _ann, _bob, game = two_at_a_game(site, client)
    site.people.seen(site.users.by_name("ann").id)
    r = client.get("/api/users/status", params={"ids": "ann,bob,nobody"})
    assert r.status_code == 200
    assert r.json() == [
        {"id": "ann", "name": "ann", "online": True, "playing": True},
        {"id": "bob", "name": "bob", "playing": True},
    ]
    r = client.get("/api/users/status", params={"ids": "bob", "withGameIds": "true"})
    assert r.json() == [{"id": "bob", "name": "bob", "playing": True, "playingId": game}]


@pytest.mark.parametrize(
    "params", [{}, {"ids": ""}, {"ids": "a b"}, {"ids": ",".join(f"u{i}" for i in range(101))}]
)
def test_statuses_bad_ids(client, params):
    r = client.get("/api/users/status", params=params)
    assert r.status_code == 400 and r.json()["error"].startswith("ids:")


def test_statuses_bad_flag(client):
    r = client.get("/api/users/status", params={"ids": "ann", "withGameIds": "yes"})
    assert r.status_code == 400 and "withGameIds" in r.json()["error"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("POST", "/api/users", "ann"), ("GET", "/api/users/status?ids=ann", None),
     ("GET", "/api/bot/online", None), ("GET", "/api/games/user/ann", None)],
)  # fmt: skip
def test_the_public_ones_need_no_token_and_refuse_a_bad_one(site, client, method, path, body):
    _ann, token = account(site, "ann")
    assert client.request(method, path, content=body).status_code == 200
    assert client.request(method, path, content=body, headers=bearer(token)).status_code == 200
    assert client.request(method, path, content=body, headers=BAD).status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "body", "limit"),
    [("POST", "/api/users", "ann,bob", "LOOKUPS_PER_MINUTE"),
     ("GET", "/api/users/status?ids=ann,bob", None, "STATUS_PER_MINUTE"),
     ("GET", "/api/bot/online", None, "LOOKUPS_PER_MINUTE"),
     ("GET", "/api/games/user/ann", None, "EXPORTS_PER_MINUTE")],
)  # fmt: skip
def test_the_costly_public_ones_are_limited_per_client(
    site, client, steady_limits, method, path, body, limit
):
    """Each asks the database a few times a name (300 names: ~0.4 s of a core) or streams up
    to 100,000 games: one client may not ask without end (the OpenAPI said 429; none came)."""
    from emergo.server.user import http as user_http

    _ann, ann = account(site, "ann")
    account(site, "bob")
    most = getattr(user_http, limit)
    for _ in range(most):
        assert client.request(method, path, content=body).status_code == 200
    r = client.request(method, path, content=body)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
    assert "try again" in r.json()["error"]
    # counted per client: a signed-in player is his own, not the address's
    assert client.request(method, path, content=body, headers=bearer(ann)).status_code == 200


def test_email_needs_email_read(site, client):
    ann, ann_token = account(site, "ann")
    bob, _bob_token = account(site, "bob")
    site.notices.set_settings(ann.id, "ann@example.org", "off")
    site.notices.set_settings(bob.id, "bob@example.org", "off")
    reader = bearer(site.tokens.create(ann.id, ("email:read",)))
    assert client.get("/api/account/email", headers=reader).json() == {"email": "ann@example.org"}
    assert client.get("/api/account/email").status_code == 401
    assert client.get("/api/account/email", headers=BAD).status_code == 401
    r = client.get("/api/account/email", headers=bearer(ann_token))  # the default scopes
    assert r.status_code == 403 and "email:read" in r.json()["error"]
    bob_reader = bearer(site.tokens.create(bob.id, ("email:read",)))  # another player's token
    assert client.get("/api/account/email", headers=bob_reader).json() == {
        "email": "bob@example.org"
    }
    carl = site.users.create("carl", "a good password")
    none = bearer(site.tokens.create(carl.id, ("email:read",)))
    assert client.get("/api/account/email", headers=none).json() == {"email": None}


def test_online_bots(site, client):
    bot = site.users.create("robo", None, bot=True)
    account(site, "ann")
    site.people.seen(site.users.by_name("ann").id)  # a person online is no bot
    assert client.get("/api/bot/online").content == b""
    site.people.seen(bot.id)
    r = client.get("/api/bot/online", params={"nb": "1"})
    assert r.headers["content-type"].startswith("application/x-ndjson")
    (line,) = r.text.splitlines()
    assert '"title":"BOT"' in line and '"id":"robo"' in line


@pytest.mark.parametrize("nb", ["0", "101", "x", "²", "-1"])
def test_online_bots_bad_nb(client, nb):
    r = client.get("/api/bot/online", params={"nb": nb})
    assert r.status_code == 400 and "nb" in r.json()["error"]


def test_export_as_json_in_play_and_finished(site, client):
    ann, bob, game = two_at_a_game(site, client)
    ann.play(game, "d4")
    as_json = {"Accept": "application/json"}
    playing = client.get(f"/game/export/{game}", headers=as_json).json()
    assert playing["status"] == "started" and playing["moves"] == "d4"
    assert playing["players"]["white"]["user"] == {"name": "ann", "id": "ann"}
    assert playing["players"]["white"]["rating"] == 1500  # her rating now for the game's kind
    assert playing["players"]["white"]["provisional"] is True
    assert "winner" not in playing
    bob.post(f"/api/board/game/{game}/resign")
    done = client.get(f"/game/export/{game}", headers=as_json).json()
    assert done["status"] == "resign" and done["winner"] == "white"
    assert done["id"] == game and done["moves"] == "d4"
    record = client.get(f"/game/export/{game}")  # no Accept: the record, as before
    assert record.headers["content-type"].startswith("application/x-emergo-record")
