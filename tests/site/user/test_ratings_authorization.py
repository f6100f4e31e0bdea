"""Who may do what with issue 21's endpoints: an account's notices, mail settings, vacation and
conditional moves are its own; the ratings, profiles, leaderboards and the archive are public;
a cookie's posts (API and page forms) need the site's Origin and the CSRF token."""

from __future__ import annotations

import pytest

from tests.plugins.game_helpers import Player
from tests.plugins.site import HOST, account, bearer
from tests.plugins.site import session_of as _session

PRIVATE_GETS = [
    "/api/account/notifications",
    "/api/account/preferences",
    "/api/account/vacation",
]
PRIVATE_POSTS = [
    "/api/account/notifications/read",
    "/api/account/preferences",
    "/api/account/vacation/start",
    "/api/account/vacation/stop",
]
PUBLIC = [
    "/api/user/ann",
    "/api/user/ann/rating-history",
    "/api/player/top/10/9x9-live",
    "/api/games/search",
    "/api/games/user/ann",
    "/@/ann",
    "/leaderboard",
    "/leaderboard/hex-correspondence",
    "/games",
]
FORMS = [
    "/notifications/read",
    "/account/notifications/mail",
    "/account/notifications/vacation-start",
    "/account/notifications/vacation-stop",
]


@pytest.fixture
def corr(site, client):
    """Ann (White) and Bob in a correspondence game after d4: Bob to move."""
    people = {}
    for name in ("ann", "bob", "carl"):
        _user, token = account(site, name)
        people[name] = Player(client, name, token)
    challenge = people["ann"].challenge("bob", days=3, color="white")
    game = people["bob"].accept(challenge)
    people["ann"].play(game, "d4")
    return people, game


def test_public_pages_and_endpoints_need_no_one(site, client, corr):
    for path in PUBLIC:
        assert client.get(path).status_code == 200, path


def test_an_accounts_own_things_need_its_credentials(site, client, corr):
    people, _game = corr
    for path in PRIVATE_GETS:
        assert client.get(path).status_code == 401, path
    for path in PRIVATE_POSTS:
        assert client.post(path).status_code == 401, path
    for path in ("/notifications", "/account/notifications"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/login?next={path}", path
    for path in FORMS:
        assert client.post(path).status_code == 401, path
    # each sees his own: Bob's feed holds his your-turn notice, Ann's nothing of it
    assert people["bob"].get("/api/account/notifications").json()["unread"] == 1
    assert people["ann"].get("/api/account/notifications").json()["unread"] == 0
    people["ann"].ok("/api/account/notifications/read")
    assert people["bob"].get("/api/account/notifications").json()["unread"] == 1


def test_conditional_moves_belong_to_their_player(site, client, corr):
    people, game = corr
    ann, bob, carl = people["ann"], people["bob"], people["carl"]
    path = f"/api/board/game/{game}/conditional"
    assert client.get(path).status_code == 401
    assert client.post(path, json={"lines": []}).status_code == 401
    assert carl.get(path).status_code == 403
    assert carl.post(path, json={"lines": ["e6 f4"]}).status_code == 403
    assert (
        client.get("/api/board/game/NoSuchGm/conditional", headers=ann.headers).status_code == 404
    )
    # a token without board:play cannot read or set them
    reader = site.tokens.create(site.users.by_name("ann").id, ("challenge:read",))
    assert client.get(path, headers=bearer(reader)).status_code == 403
    assert client.post(path, headers=bearer(reader), json={"lines": []}).status_code == 403
    # the page's form, with the cookie of someone else's session, is refused
    csrf = _session(client, "erin")
    r = client.post(
        f"/game/{game}/conditional",
        data={"csrf": csrf, "lines": "e6 f4"},
        headers={"Origin": HOST},
        follow_redirects=False,
    )
    assert r.status_code == 403
    assert ann.get(path).json() == {"lines": []} and bob.get(path).json() == {"lines": []}


def test_cookie_posts_need_the_origin_and_the_csrf_token(site, client, corr):
    csrf = _session(client, "erin")
    for path in PRIVATE_POSTS[:2]:
        assert client.post(path).status_code == 403, path  # no Origin, no token
        assert client.post(path, headers={"Origin": HOST}).status_code == 403, path
        wrong = {"Origin": HOST, "X-CSRF-Token": csrf + "x"}
        assert client.post(path, headers=wrong).status_code == 403, path
    for path in FORMS:
        assert client.post(path, data={"csrf": csrf}).status_code == 403, path  # no Origin
        assert client.post(path, data={}, headers={"Origin": HOST}).status_code == 403, path
    good = {"Origin": HOST}
    r = client.post(
        "/account/notifications/mail",
        data={"csrf": csrf, "email": "erin@example.org", "mail": "digest"},
        headers=good,
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert client.get("/api/account/preferences").json() == {
        "email": "erin@example.org",
        "mail": "digest",
    }
    page = client.get("/account/notifications").text
    assert 'value="erin@example.org"' in page and 'value="digest" checked' in page
    r = client.post(
        "/account/notifications/vacation-start",
        data={"csrf": csrf},
        headers=good,
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert client.get("/api/account/vacation").json()["onVacation"] is True
    assert "End the vacation" in client.get("/account/notifications").text


def test_marking_read_takes_an_id(site, client, corr):
    people, _game = corr
    bob = people["bob"]
    for bad in (2**64, -1, "x", 1.5):
        r = bob.post("/api/account/notifications/read", json={"upTo": bad})
        assert r.status_code == 400 and "upTo" in r.json()["error"], (bad, r.text)
    assert bob.get("/api/account/notifications").json()["unread"] == 1
    first = bob.get("/api/account/notifications").json()["notifications"][0]["id"]
    bob.ok("/api/account/notifications/read", json={"upTo": first})
    assert bob.get("/api/account/notifications").json()["unread"] == 0
