"""Accounts through the pages: sign up, log in, log out, change the password, tokens, delete
(games stay, anonymised); cookies' flags; escaping; secrets stored hashed; rate limits across
two sites on one database."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from emergo.server.core import models as m
from emergo.server.core.config import Config, Limits
from emergo.server.core.limits import RateLimited
from emergo.server.learn.progress import Progress
from emergo.server.site import Site
from emergo.server.user.accounts import hash_secret
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import FAST, HOST, account

ORIGIN = {"Origin": HOST}


def form_token(client) -> str:
    client.get("/signup")
    token = client.cookies.get("emergo_csrf")
    assert token
    return token


def signup(client, name, password="pass word 1", **extra):
    data = {
        "username": name,
        "password": password,
        "password2": password,
        "csrf": form_token(client),
    }
    data.update(extra)
    return client.post("/signup", data=data, headers=ORIGIN, follow_redirects=False)


def session_csrf(client) -> str:
    return client.get("/api/account").json()["csrf"]


def test_sign_up_log_out_log_in(site, client):
    r = signup(client, "Ann_1")
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert "emergo_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here; test_https_cookies checks the other
    me = client.get("/api/account").json()
    assert me["username"] == "Ann_1" and me["id"] == "ann_1" and me["csrf"]
    page = client.get("/").text
    assert "Ann_1" in page
    r = client.post("/logout", data={"csrf": me["csrf"]}, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303
    assert client.get("/api/account").status_code == 401
    data = {"username": "ann_1", "password": "wrong one", "csrf": form_token(client)}
    assert client.post("/login", data=data, headers=ORIGIN).status_code == 401
    data["password"] = "pass word 1"
    r = client.post("/login", data=data, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303
    assert client.get("/api/account").json()["username"] == "Ann_1"


def test_sign_up_refusals(site, client):
    assert signup(client, "ann").status_code == 303
    client.cookies.clear()
    assert signup(client, "ANN").status_code == 409  # taken, whatever the case
    assert signup(client, "a").status_code == 400
    assert signup(client, "<script>").status_code == 400
    assert signup(client, "bob", password="short").status_code == 400
    r = signup(client, "bob", password2="different")
    assert r.status_code == 400 and "differ" in r.text
    # the form's CSRF token and the site's Origin are both needed
    data = {"username": "carl", "password": "pass word 1", "password2": "pass word 1"}
    assert client.post("/signup", data=data, headers=ORIGIN).status_code == 403
    data["csrf"] = form_token(client)
    assert client.post("/signup", data=data).status_code == 403
    bad = {"Origin": "http://evil.example"}
    assert client.post("/signup", data=data, headers=bad).status_code == 403
    assert site.users.by_name("carl") is None


def test_https_cookies(tmp_path):
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    config = Config(db=str(tmp_path / "db.sqlite3"), https=True, **FAST)
    site = Site.open(config)
    try:
        with TestClient(create_app(site), base_url="https://127.0.0.1") as client:
            client.get("/signup")
            token = client.cookies.get("emergo_csrf")
            data = {
                "username": "ann",
                "password": "pass word 1",
                "password2": "pass word 1",
                "csrf": token,
            }
            r = client.post(
                "/signup",
                data=data,
                headers={"Origin": "https://127.0.0.1"},
                follow_redirects=False,
            )
            assert r.status_code == 303, r.text
            assert "Secure" in r.headers["set-cookie"]
            # an http page is another origin of an https site
            r = client.post("/signup", data=data, headers={"Origin": "http://127.0.0.1"})
            assert r.status_code == 403
    finally:
        site.close()


def test_change_password_logs_out_other_sessions(site, client):
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    signup(client, "ann")
    other = TestClient(create_app(site, start=False), base_url=HOST)
    data = {"username": "ann", "password": "pass word 1", "csrf": form_token(other)}
    assert (
        other.post("/login", data=data, headers=ORIGIN, follow_redirects=False).status_code == 303
    )
    assert other.get("/api/account").status_code == 200
    csrf = session_csrf(client)
    wrong = {"csrf": csrf, "password": "nope nope", "new": "another pass"}
    assert client.post("/account/password", data=wrong, headers=ORIGIN).status_code == 403
    right = {"csrf": csrf, "password": "pass word 1", "new": "another pass"}
    r = client.post("/account/password", data=right, headers=ORIGIN)
    assert r.status_code == 200 and "password changed" in r.text
    assert client.get("/api/account").status_code == 200  # this session stays
    assert other.get("/api/account").status_code == 401  # the other one ended
    assert site.users.authenticate("ann", "another pass") is not None


def test_tokens_from_the_account_page_stored_hashed(site, client):
    signup(client, "ann")
    csrf = session_csrf(client)
    r = client.post(
        "/account/token",
        data={"csrf": csrf, "scope": ["board:play", "challenge:read"], "description": "<i>x</i>"},
        headers=ORIGIN,
    )
    assert r.status_code == 200
    assert "&lt;i&gt;x&lt;/i&gt;" in r.text and "<i>x</i>" not in r.text
    token = r.text.split("<code>")[1].split("</code>")[0]
    assert token.startswith("emo_")
    with site.db.read() as c:
        stored = c.execute(select(m.tokens)).one()
    assert token not in repr(tuple(stored)) and stored.hint == token[:8]
    assert stored.scopes == "board:play challenge:read"
    assert client.get("/api/account", headers={"Authorization": f"Bearer {token}"}).json()[
        "scopes"
    ] == ["board:play", "challenge:read"]
    r = client.post(f"/account/token/{stored.id}/revoke", data={"csrf": csrf}, headers=ORIGIN)
    assert r.status_code in (200, 303)
    r = client.get("/api/account", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 401


def test_passwords_and_sessions_stored_hashed(site, client):
    r = signup(client, "ann", password="my secret words")
    cookie = client.cookies.get("emergo_session")
    with site.db.read() as c:
        user = c.execute(select(m.users)).one()
        sessions = c.execute(select(m.sessions)).all()
    assert user.password_hash.startswith("$argon2id$") and "my secret" not in user.password_hash
    assert [s.id_hash for s in sessions] != [cookie] and len(sessions) == 1
    assert r.status_code == 303


def test_delete_account_keeps_its_games_anonymised(site, client):
    signup(client, "ann")
    csrf = session_csrf(client)
    _bob, bob_token = account(site, "bob")
    ann_token = site.tokens.create(site.users.by_name("ann").id)
    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    finished = new_game(ann, bob)
    ann.play(finished, "d4")
    bob.ok(f"/api/board/game/{finished}/resign")
    ongoing = new_game(bob, ann)
    open_challenge = ann.challenge("bob")
    ann_id = site.users.by_name("ann").id
    Progress(site.db).merge(ann_id, {"board/centre": 3})
    r = client.post(
        "/account/delete", data={"csrf": csrf, "password": "wrong pass"}, headers=ORIGIN
    )
    assert r.status_code == 403
    r = client.post(
        "/account/delete",
        data={"csrf": csrf, "password": "pass word 1"},
        headers=ORIGIN,
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert (
        client.get("/api/account", headers={"Authorization": f"Bearer {ann_token}"}).status_code
        == 401
    )
    assert site.users.by_name("ann") is None
    assert Progress(site.db).stars(ann_id) == {}  # what was personal is gone
    assert site.challenges.get(open_challenge).status == "canceled"
    assert site.rounds.get(ongoing).state.outcome is not None  # aborted
    full = bob.get(f"/api/game/{finished}").json()
    assert full["white"]["name"] == "(deleted)" and full["state"]["winner"] == "white"
    assert "ann" not in bob.get(f"/game/export/{finished}").text.lower().replace("anon", "")
    client.cookies.clear()
    assert signup(client, "ann").status_code == 409  # the name stays reserved


def test_names_are_escaped_in_pages(site, client):
    _ann, ann_token = account(site, "ann")
    _bob, bob_token = account(site, "bob")
    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    game = new_game(ann, bob)
    ann.ok(f"/api/board/game/{game}/chat", data={"text": "<script>alert(1)</script>"})
    page = client.get(f"/game/{game}")
    assert page.status_code == 200 and "<script>" not in page.text
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "form-action 'self'" in csp
    assert page.headers["x-frame-options"] == "DENY"


def test_rate_limits_hold_across_two_sites_on_one_database(db_url):
    limits = Limits(signup_per_hour=2, login_per_minute=3, chat_per_minute=2)
    config = Config(db=db_url, limits=limits, **{k: v for k, v in FAST.items() if k != "limits"})
    one, two = Site.open(config), Site.open(config)
    try:
        one.signup("ann", "pass word 1", "10.0.0.1")
        two.signup("bob", "pass word 1", "10.0.0.1")
        with pytest.raises(RateLimited) as limited:
            one.signup("carl", "pass word 1", "10.0.0.1")
        assert limited.value.retry_after >= 1
        two.signup("carl", "pass word 1", "10.0.0.2")  # another address
        for site in (one, two, one):
            assert site.login("ann", "wrong words", "10.0.0.3") is None
        with pytest.raises(RateLimited):
            two.login("ann", "pass word 1", "10.0.0.4")  # the name's limit, from anywhere new
    finally:
        one.close()
        two.close()


def test_failed_log_ins_from_elsewhere_never_lock_the_owner_out(site, steady_limits):
    """Issue 27, finding 4: the per-name limit counts failures, and the owner's own client
    (logged in from before) passes it with the right password while others are held; the
    right password does not count, the address's own limit still holds."""
    limit = site.config.limits.login_per_minute
    home = "192.0.2.10"
    site.signup("ann", "pass word 1", home)  # her client, known from now
    for n in range(limit):  # an attacker from many addresses, one wrong try each
        assert site.login("ann", "wrong words", f"198.51.100.{n}") is None
    with pytest.raises(RateLimited, match="failed log-ins as one name"):
        site.login("ann", "pass word 1", "198.51.100.200")  # even the right one, from elsewhere
    assert site.login("ann", "pass word 1", home) is not None  # the owner is not locked out
    # the addresses are kept as hashes, never as written
    with site.db.read() as c:
        kept = c.execute(select(m.login_clients.c.client)).scalars().all()
    assert kept and home not in kept and all(len(k) == 64 for k in kept)
    # nor as a hash anyone can make of every address (a plain SHA-256: 2**32 tries, once for all)
    assert hash_secret(home) not in kept
    # each account's hash of one address its own: a row says nothing of another account's
    bob = site.signup("bob", "pass word 2", home)
    with site.db.read() as c:
        rows = c.execute(select(m.login_clients.c.user_id, m.login_clients.c.client)).all()
    by_user = {user: client for user, client in rows}
    assert len(rows) == 2 and by_user[bob.id] != by_user[site.users.by_name("ann").id]
    # right passwords are not failures: the owner's many log-ins never reach the name's limit
    site.users.create("carl", "pass word 2")
    for n in range(limit + 2):
        assert site.login("carl", "pass word 2", f"203.0.113.{n}") is not None


def test_a_known_client_is_held_by_its_address_and_told_its_mistakes(site, steady_limits):
    """The attacks on the known client's pass: it is no way past the address's own limit, nor
    does an attacker's sign-up of another name or a failed log-in make its address known for
    the account.  And while others hold the name's limit, the owner's mistyped password from a
    known client is "wrong", not "wait": before, its failure, counted, answered 429 with a
    Retry-After (the right password passes at once)."""
    limit = site.config.limits.login_per_minute
    home, attacker = "192.0.2.10", "198.51.100.66"
    site.signup("ann", "pass word 1", home)
    site.signup("mallory", "pass word 3", attacker)  # the attacker's own account: not ann's
    for n in range(limit - 1):
        assert site.login("ann", "wrong words", f"203.0.113.{n}") is None
    assert site.login("ann", "wrong words", attacker) is None  # the name's limit reached now
    with pytest.raises(RateLimited, match="failed log-ins as one name"):
        site.login("ann", "pass word 1", attacker)  # its failure made it no known client
    assert site.login("ann", "wrong pass", home) is None  # "wrong", the count kept
    assert site.login("ann", "pass word 1", home) is not None
    for _ in range(limit - 2):
        site.login("ann", "pass word 1", home)
    with pytest.raises(RateLimited, match="log-in attempts"):
        site.login("ann", "pass word 1", home)  # the address's own limit holds for it


def test_no_secret_in_the_logs(site, client, caplog):
    """Everything the site and its libraries log while people sign up, log in, use tokens and
    play: no password, token or cookie in it."""
    import logging

    caplog.set_level(logging.DEBUG)
    signup(client, "ann", password="hush hush words")
    cookie = client.cookies.get("emergo_session")
    csrf = session_csrf(client)
    r = client.post("/account/token", data={"csrf": csrf, "scope": "board:play"}, headers=ORIGIN)
    token = r.text.split("<code>")[1].split("</code>")[0]
    client.get("/api/account", headers={"Authorization": f"Bearer {token}"})
    client.get("/api/account", headers={"Authorization": "Bearer emo_wrong"})
    data = {"username": "ann", "password": "hush hush words", "csrf": form_token(client)}
    client.post("/login", data=data, headers=ORIGIN)
    text = caplog.text
    assert caplog.records  # SQLAlchemy, the site: something was logged
    for secret in ("hush hush words", token, token[4:], cookie, csrf):
        assert secret not in text
