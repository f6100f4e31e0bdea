"""An attacker's campaign against the site (two accounts, and none): each attack that once
worked, refused now.  Fast tests on the in-process app (its WebSockets too) and, for the
connection cap, a real uvicorn; on both databases where the store answers (token ids)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from emergo.server.core.config import Config, Limits, from_mapping
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, new_game, wait_for
from tests.plugins.site import FAST, HOST, account, bearer

SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
"""A test where the database does not matter: SQLite only."""
ORIGIN = {"Origin": HOST}
WS = HOST.replace("http://", "ws://")


@pytest.fixture
def cast(site: Site, client: Any) -> dict[str, Any]:
    """Ann (White) and Bob in a game; tokens of Ann's without board:play, without any read
    scope."""
    _a, ann_token = account(site, "ann")
    _b, bob_token = account(site, "bob")
    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    ann_id = site.users.by_name("ann").id  # type: ignore[union-attr]
    bob_id = site.users.by_name("bob").id  # type: ignore[union-attr]
    return {
        "ann": ann,
        "bob": bob,
        "game": new_game(ann, bob),
        "ann_no_play": site.tokens.create(ann_id, ("challenge:read", "challenge:write")),
        "bob_write_only": site.tokens.create(bob_id, ("challenge:write",)),
    }


def answer(ws: Any, ident: Any) -> dict[str, Any]:
    """The ack or error of the command ``ident`` (other messages skipped)."""
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["t"] in ("ack", "error") and message.get("id") == ident:
            return message


# --- 1. the game socket: acting needs board:play ------------------------------------------------


@SQLITE
def test_a_token_without_board_play_cannot_act_on_the_game_socket(site, client, cast):
    game = cast["game"]
    url = f"{WS}/ws/game/{game}"
    with client.websocket_connect(url, headers=bearer(cast["ann_no_play"])) as ws:
        assert json.loads(ws.receive_text())["you"] == "white"  # it may watch its game
        commands = [
            {"t": "move", "move": "d4"},
            {"t": "resign"},
            {"t": "draw-yes"},
            {"t": "chat", "room": "player", "text": "hi"},
            {"t": "chat-room", "open": False},
        ]
        for i, command in enumerate(commands):
            ws.send_text(json.dumps({**command, "id": i}))
            refused = answer(ws, i)
            assert refused["t"] == "error" and refused["status"] == 403, command
            assert "board:play" in refused["error"]
    view = site.rounds.get(game)
    assert view.state.moves == () and view.state.outcome is None and view.player_chat
    assert site.chat.lines(game) == []
    with client.websocket_connect(url, headers=cast["ann"].headers) as ws:  # the full token
        ws.receive_text()
        ws.send_text(json.dumps({"t": "move", "move": "d4", "id": 1}))
        assert answer(ws, 1)["t"] == "ack"


# --- 2. the lobby socket: a user's challenges need a read scope ------------------------------


def lobby_events(client: Any, token: str, seek: Any) -> list[dict[str, Any]]:
    """The ``event`` messages the lobby socket of ``token`` gets while Ann challenges Bob and
    then makes two seeks (``seek()``), read until the second seek is shown."""
    events = []
    with client.websocket_connect(f"{WS}/ws/lobby", headers=bearer(token)) as ws:
        assert json.loads(ws.receive_text())["t"] == "seeks"
        seek(direct=True)
        for _ in range(2):
            last = seek()
            while True:
                message = json.loads(ws.receive_text())
                if message["t"] == "event":
                    events.append(message["event"])
                elif message["t"] == "seeks" and last in [s["id"] for s in message["seeks"]]:
                    break
    return events


@SQLITE
def test_the_lobby_socket_shows_private_challenges_only_with_a_read_scope(site, client, cast):
    ann, bob = cast["ann"], cast["bob"]
    made = iter(range(1, 100))  # each on new terms: the same terms pending are the same one

    def seek(direct: bool = False) -> str:
        limit = 60 * next(made)
        if direct:
            return ann.challenge("bob", **{"clock.limit": limit})
        return str(ann.ok("/api/lobby/seek", data={"clock.limit": limit})["id"])

    assert lobby_events(client, cast["bob_write_only"], seek) == []
    seen = lobby_events(client, bob.token, seek)  # a token that may read them: it sees them
    assert [e["type"] for e in seen] == ["challenge"]


# --- 3. secrets with non-ASCII characters -----------------------------------------------------


def test_same_secret():
    from emergo.server.core.auth import same_secret

    assert same_secret("abc", "abc")
    assert not same_secret("é" * 3, "abc") and not same_secret("abc", "abd")
    assert not same_secret("\ud800", "abc")  # a lone surrogate: wrong, not a crash
    assert not same_secret("", "") and not same_secret(None, "abc") and not same_secret("a", None)


@SQLITE
def test_a_non_ascii_csrf_token_is_a_403_not_a_500(site, client):
    client.get("/signup")
    for path in ("/signup", "/login"):
        data = {"username": "carl", "password": "pass word 1", "password2": "pass word 1"}
        r = client.post(path, data={**data, "csrf": "é" * 32}, headers=ORIGIN)
        assert r.status_code == 403, (path, r.text)
    form = client.cookies.get("emergo_csrf")
    r = client.post(
        "/signup",
        data={
            "username": "carl",
            "password": "pass word 1",
            "password2": "pass word 1",
            "csrf": form,
        },
        headers=ORIGIN,
        follow_redirects=False,
    )
    assert r.status_code == 303
    for headers, body in (
        ({**ORIGIN, "X-CSRF-Token": "é".encode("latin-1")}, {}),
        (ORIGIN, {"csrf": "é"}),
        (ORIGIN, {"csrf": "\u00e9\u4e2d"}),
    ):
        r = client.post("/api/account/tokens", json=body, headers=headers)
        assert r.status_code == 403 and "CSRF" in r.json()["error"], r.text
        r = client.post("/logout", data=body, headers=headers)
        assert r.status_code == 403, r.text
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"{WS}/ws/lobby?csrf=%C3%A9", headers=ORIGIN),
    ):
        pass
    assert refused.value.code == 4403
    assert client.get("/api/account").status_code == 200  # still signed in


# --- 4. token ids out of range ------------------------------------------------------------------


def test_revoking_a_token_id_out_of_range_is_a_404(site, client):
    client.get("/signup")
    data = {"username": "dora", "password": "pass word 1", "password2": "pass word 1"}
    data["csrf"] = client.cookies.get("emergo_csrf")
    assert client.post("/signup", data=data, headers=ORIGIN).status_code == 200
    csrf = client.get("/api/account").json()["csrf"]
    headers = {**ORIGIN, "X-CSRF-Token": csrf}
    made = client.post("/api/account/tokens", json={"scopes": "board:play"}, headers=headers)
    assert made.status_code == 201
    mine = client.get("/api/account/tokens").json()["tokens"][0]["id"]
    for bad in ("0", "-1", "abc", "1e3", "2147483648", "99999999999", "9" * 30, "%D9%A1"):
        r = client.post(f"/api/account/tokens/{bad}/revoke", headers=headers)
        assert r.status_code == 404, (bad, r.status_code, r.text)
        r = client.post(f"/account/token/{bad}/revoke", data={"csrf": csrf}, headers=ORIGIN)
        assert r.status_code == 404, (bad, r.status_code, r.text)
    assert len(client.get("/api/account/tokens").json()["tokens"]) == 1
    assert site.tokens.revoke(2**63) is False and site.tokens.revoke(-(2**70)) is False
    r = client.post(f"/api/account/tokens/{mine}/revoke", headers=headers)
    assert r.status_code == 200 and client.get("/api/account/tokens").json()["tokens"] == []


# --- 5. huge numbers in challenge bodies ------------------------------------------------------


@SQLITE
@pytest.mark.parametrize("path", ["/api/lobby/seek", "/api/challenge/bob", "/api/challenge/open"])
def test_huge_numbers_in_a_challenge_are_a_400_naming_the_field(site, client, cast, path):
    ann = cast["ann"]
    huge = "1" + "0" * 400  # a JSON integer no float holds
    for template, field in (
        ('{"clock.limit": HUGE}', "clock.limit"),
        ('{"clock.limit": 1e400}', "clock.limit"),
        ('{"clock.limit": -1e400}', "clock.limit"),
        ('{"clock": {"limit": HUGE, "increment": 0}}', "clock.limit"),
        ('{"clock": {"limit": 60, "increment": HUGE}}', "clock.increment"),
        ('{"clock.limit": 60, "clock.increment": HUGE}', "clock.increment"),
        ('{"days": HUGE}', "days"),
        ('{"days": 1e400}', "days"),
        ('{"days": [1]}', "days"),
    ):
        body = template.replace("HUGE", huge)
        r = client.post(
            path, content=body, headers={**ann.headers, "content-type": "application/json"}
        )
        assert r.status_code == 400, (body[:40], r.status_code, r.text)
        assert field in r.json()["error"], (body[:40], r.text)
    r = ann.post(path, data={"clock.limit": "1e400"})  # a form's text
    assert r.status_code == 400 and "clock.limit" in r.json()["error"]
    assert site.challenges.of_user(site.users.by_name("ann"))["out"] == []


# --- 6. the lag a page reports -----------------------------------------------------------------


def test_the_reported_lag_is_bounded():
    from emergo.server.round.commands import MAX_LAG, make_command
    from emergo.server.round.service import GameError

    game = SimpleNamespace(state=SimpleNamespace(version=0))
    for reported, taken in ((1000, MAX_LAG), (10**400, None), (1e308, MAX_LAG), (-5, 0.0)):
        if taken is None:
            with pytest.raises(GameError, match="lag"):
                make_command("move", text="d4", lag=reported)
            continue
        move = make_command("move", text="d4", lag=reported)(True, game)  # type: ignore[arg-type]
        assert move.lag == taken
    assert MAX_LAG <= 3.0  # scalachess's maxLagComp
    for bad in (float("inf"), float("nan"), "1", None, True):
        with pytest.raises(GameError, match="lag"):
            make_command("move", text="d4", lag=bad)


@SQLITE
def test_a_huge_lag_on_the_socket_is_an_error_and_the_socket_stays(site, client, cast):
    game = cast["game"]
    with client.websocket_connect(f"{WS}/ws/game/{game}", headers=cast["ann"].headers) as ws:
        ws.receive_text()
        for i, lag in enumerate(("1" + "0" * 400, "1e400", "-1e400", "NaN")):
            ws.send_text(f'{{"t": "move", "move": "d4", "id": {i}, "lag": {lag}}}')
            refused = answer(ws, i)
            assert refused["t"] == "error" and refused["status"] == 400, refused
            assert "lag" in refused["error"]
        ws.send_text(json.dumps({"t": "move", "move": "d4", "id": 9, "lag": 1e9}))
        assert answer(ws, 9)["t"] == "ack"  # a big finite lag: bounded, the move played
    assert site.rounds.get(game).state.moves == ("d4",)


# --- 7. connections per client -----------------------------------------------------------------


def test_the_connection_limit_is_a_setting():
    config = from_mapping({"limits": {"connections_per_client": 7, "socket_messages_per_10s": 9}})
    assert config.limits.connections_per_client == 7 and config.limits.socket_messages_per_10s == 9
    assert Limits().connections_per_client == 100
    with pytest.raises(ValueError, match="connections_per_client"):
        from_mapping({"limits": {"connections_per_client": 0}})


def test_connections_count_per_client():
    from emergo.server.core.limits import Connections, RateLimited

    c = Connections(2)
    one, two = c.open("user:1"), c.open("user:1")
    with pytest.raises(RateLimited) as refused:
        c.open("user:1")
    assert refused.value.retry_after >= 1
    c.open("user:2").close()  # another client is not counted with it
    one.close()
    one.close()  # twice: given back once
    assert c.count("user:1") == 1
    with c.open("user:1"):
        assert c.count("user:1") == 2
    two.close()
    assert c.count("user:1") == 0


@SQLITE
def test_one_client_cannot_open_more_than_its_connections(site, live):
    httpx = pytest.importorskip("httpx2")
    ws_client = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed

    site.connections.limit = 3
    _a, ann = account(site, "ann")
    _b, bob = account(site, "bob")
    http = httpx.Client(base_url=live, timeout=10)
    game = new_game(Player(http, "ann", ann), Player(http, "bob", bob))
    url = live.replace("http://", "ws://") + f"/ws/game/{game}"
    sockets = contextlib.ExitStack()
    anonymous = [sockets.enter_context(ws_client.connect(url)) for _ in range(3)]
    try:
        for ws in anonymous:
            assert json.loads(ws.recv(timeout=5))["t"] == "full"
        with ws_client.connect(url) as fourth:  # accepted, then closed with 4429
            with pytest.raises(ConnectionClosed) as closed:
                fourth.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        with httpx.stream("GET", f"{live}/api/stream/game/{game}", timeout=10) as r:
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
            assert "connections" in json.loads(r.read())["error"]
        with ws_client.connect(url, additional_headers=bearer(ann)) as mine:  # Ann's own count
            assert json.loads(mine.recv(timeout=5))["t"] == "full"
        anonymous.pop().close()
        wait_for(lambda: site.connections.count("addr:127.0.0.1") == 2, what="the release")
        with ws_client.connect(url) as again:
            assert json.loads(again.recv(timeout=5))["t"] == "full"
        # a user's streams count too, and are given back when they end (a token of its own for
        # each: a token holds one event stream at a time, issue 20's limit)
        tokens = [ann] + [site.tokens.create(_a.id) for _ in range(3)]
        streams = [
            httpx.stream("GET", f"{live}/api/stream/event", headers=bearer(t), timeout=10)
            for t in tokens
        ]
        statuses = []
        for s in streams:
            statuses.append(s.__enter__().status_code)
        assert sorted(statuses) == [200, 200, 200, 429]
        for s in streams:
            s.__exit__(None, None, None)
        wait_for(lambda: site.connections.count(f"user:{_a.id}") == 0, what="the streams' end")
    finally:
        sockets.close()


# --- floods of messages on a socket ------------------------------------------------------------


@pytest.fixture
def flood_client(db_url: str) -> Iterator[tuple[Site, Any]]:
    """A site whose sockets take 5 messages in 10 s, in process."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    limits = Limits(
        moves_per_second=10_000, challenges_per_minute=10_000, socket_messages_per_10s=5
    )
    site = Site.open(Config(db=db_url, **{**FAST, "limits": limits}), migrate=True)
    with TestClient(create_app(site), base_url=HOST) as c:
        yield site, c
    site.close()


@SQLITE
@pytest.mark.parametrize("path", ["game", "lobby"])
def test_a_socket_flooding_messages_is_cut_off(flood_client, path):
    site, client = flood_client
    ann, bob = account(site, "ann"), account(site, "bob")
    game = new_game(Player(client, "ann", ann[1]), Player(client, "bob", bob[1]))
    url = f"{WS}/ws/game/{game}" if path == "game" else f"{WS}/ws/lobby"
    got: list[dict[str, Any]] = []
    with client.websocket_connect(url) as ws:
        ws.receive_text()  # full, or seeks
        for _ in range(12):
            ws.send_text('{"t":"ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                got.append(json.loads(ws.receive_text()))
    assert closed.value.code == 4429
    pongs = [m for m in got if m["t"] == "pong"]
    assert len(pongs) == 5
    if path == "game":  # the first message over the limit is told so
        errors = [m for m in got if m["t"] == "error"]
        assert len(errors) == 1 and errors[0]["status"] == 429


def test_a_socket_within_its_credits_is_never_cut_off():
    from emergo.server.core.limits import Credits

    t = [0.0]
    credits = Credits(5, 10.0, clock=lambda: t[0])
    for _window in range(3):  # 5 a window, window after window
        assert [credits.take() for _ in range(5)] == [0] * 5
        t[0] += 10.0
    assert [credits.take() for _ in range(7)] == [0, 0, 0, 0, 0, 1, 2]
    assert 0 < credits.retry_after() <= 10


# --- challenge decline reasons ------------------------------------------------------------------


@SQLITE
def test_a_decline_carries_only_lichess_reason_keys(site, client, cast):
    from emergo.server.challenge.service import DECLINE_REASONS

    ann, bob = cast["ann"], cast["bob"]
    for sent, shown in (
        ('<img src=x onerror="alert(1)"> win a prize at evil.example', "generic"),
        ("\u202egeneric", "generic"),
        ("toofast", "tooFast"),
        ("later", "later"),
    ):
        challenge = ann.challenge("bob")
        bob.ok(f"/api/challenge/{challenge}/decline", data={"reason": sent})
        declined = client.get(f"/api/challenge/{challenge}/show").json()
        assert declined["status"] == "declined" and declined["declineReasonKey"] == shown
        # the words are the site's own for that key (lichess's declineReason), never the text sent
        assert declined["declineReason"] == DECLINE_REASONS[shown.lower()]


# --- seeks, sessions, redirects, headers, names --------------------------------------------------


@SQLITE
def test_one_user_cannot_fill_the_lobby(site, client, cast):
    from emergo.server.challenge.service import MAX_SEEKS

    ann = cast["ann"]
    for n in range(MAX_SEEKS):  # each on new terms: the same terms pending are the same seek
        ann.ok("/api/lobby/seek", data={"clock.limit": 60 * (n + 1)})
    r = ann.post("/api/lobby/seek", data={"clock.limit": 60 * (MAX_SEEKS + 1)})
    assert r.status_code == 429 and "seeks" in r.json()["error"]
    assert len(client.get("/api/lobby/seeks").json()["seeks"]) == MAX_SEEKS
    ann.challenge("bob")  # other challenges are still hers to make
    ann.ok("/api/challenge/open")


def sign(client: Any, path: str, name: str, **extra: str) -> Any:
    client.get(path)
    data = {"username": name, "password": "pass word 1", "password2": "pass word 1"}
    data["csrf"] = client.cookies.get("emergo_csrf")
    return client.post(path, data=data, headers=ORIGIN, follow_redirects=False, **extra)


@SQLITE
def test_a_log_in_ends_the_session_the_browser_had(site, client):
    assert sign(client, "/signup", "erin").status_code == 303
    first = client.cookies.get("emergo_session")
    assert sign(client, "/login", "erin").status_code == 303
    second = client.cookies.get("emergo_session")
    assert second and second != first
    assert site.users.session(first) is None  # the old id opens nothing any more
    assert site.users.session(second) is not None
    assert sign(client, "/signup", "fred").status_code == 303  # a sign-up too
    assert site.users.session(second) is None


@SQLITE
def test_no_open_redirect_after_log_in(site, client):
    """A guard: the site has no ``?next=``; a log-in always lands on the site's own lobby."""
    assert sign(client, "/signup", "gina").status_code == 303
    for target in ("https://evil.example/", "//evil.example", "/\\evil.example"):
        r = sign(client, f"/login?next={target}", "gina")
        assert r.status_code == 303 and r.headers["location"] == "/", r.headers
        page = client.get(f"/login?next={target}").text
        assert "evil.example" not in page


@SQLITE
def test_every_answer_forbids_framing_and_shows_no_traceback(site, client, cast):
    """A guard: pages, API answers, errors and static files all carry the CSP (with
    ``frame-ancestors 'none'``) and ``X-Frame-Options: DENY``; no error shows a traceback."""
    game = cast["game"]
    paths = [
        "/",
        "/signup",
        "/login",
        "/account",
        f"/game/{game}",
        "/game/nosuchgame",
        "/challenge/nosuchid",
        "/@/ann",
        "/@/nobody",
        "/leaderboard",
        "/games",
        "/api/health",
        "/api/account",
        "/api/game/nosuchgame",
        "/no/such/page",
        "/static/no-such-file.js",
    ]
    for path in paths:
        r = client.get(path, follow_redirects=False)
        csp = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert r.headers.get("x-frame-options") == "DENY", path
        assert "Traceback" not in r.text and 'File "' not in r.text, path
    headers = {**cast["ann"].headers, "content-type": "application/json"}
    r = client.post("/api/lobby/seek", content=b"[" * 5000, headers=headers)
    assert r.status_code == 400 and "Traceback" not in r.text


@SQLITE
def test_names_that_look_alike_are_not_two_accounts(site, client):
    """A guard: names are ASCII letters, digits, ``_`` and ``-`` (no homoglyph, no
    normalisation to collide), unique in any case."""
    from emergo.server.user.accounts import AccountError

    assert sign(client, "/signup", "Hugo").status_code == 303
    for name in ("hugo", "HUGO", "Ｈugo", "Hugο", "Hu\u200bgo", "Hugo\u0301", "ℌugo", "hugo "):
        with pytest.raises(AccountError) as refused:
            site.users.create(name, "pass word 1")
        assert refused.value.status in (400, 409), name
    assert site.users.by_name("HuGo").name == "Hugo"
    assert site.users.by_name("Ｈugo") is None


# --- the CSRF token of a cookie socket, out of the URL ------------------------------------------


@SQLITE
def test_a_cookie_socket_takes_its_csrf_token_as_a_subprotocol(site, client, cast):
    assert sign(client, "/signup", "ivan").status_code == 303
    csrf = client.get("/api/account").json()["csrf"]
    url = f"{WS}/ws/game/{cast['game']}"
    headers = {**ORIGIN, "cookie": f"emergo_session={client.cookies.get('emergo_session')}"}
    say = {"t": "chat", "room": "spectator", "text": "hello", "id": 1}
    offer = ["emergo", f"csrf.{csrf}"]
    # (a copy of the headers each time: the test client adds the subprotocols to the dict)
    with client.websocket_connect(url, headers={**headers}, subprotocols=offer) as ws:
        assert ws.accepted_subprotocol == "emergo"  # a browser needs one of its offers chosen
        assert json.loads(ws.receive_text())["t"] == "full"
        ws.send_text(json.dumps(say))
        assert answer(ws, 1)["t"] == "ack"  # signed in as Ivan by the cookie
    for offered in (["emergo"], ["emergo", "csrf.wrong"], ["emergo", "csrf.%C3%A9"]):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(url, headers={**headers}, subprotocols=offered),
        ):
            pass
        assert refused.value.code == 4403, offered
    with client.websocket_connect(f"{url}?csrf={csrf}", headers={**headers}) as ws:  # old pages
        assert ws.accepted_subprotocol is None
        assert json.loads(ws.receive_text())["t"] == "full"
        ws.send_text(json.dumps(say))
        assert answer(ws, 1)["t"] == "ack"


# --- the e-mail address: its own scopes -----------------------------------------------------------


@SQLITE
def test_a_token_reads_and_changes_the_mail_settings_only_with_their_scopes(site, client, cast):
    ann = cast["ann"]  # board:play, challenge:read, challenge:write: a program's token
    ann_id = site.users.by_name("ann").id
    site.notices.set_settings(ann_id, "ann@example.org", "instant")
    path = "/api/account/preferences"
    assert ann.get(path).status_code == 403  # it cannot read the address...
    r = ann.post(path, json={"email": "thief@example.org", "mail": "instant"})
    assert r.status_code == 403 and "preference:write" in r.json()["error"]  # ... or change it
    assert site.notices.settings(ann_id).json()["email"] == "ann@example.org"
    reader = bearer(site.tokens.create(ann_id, ("preference:read",)))
    writer = bearer(site.tokens.create(ann_id, ("preference:write",)))
    assert client.get(path, headers=reader).json()["email"] == "ann@example.org"
    assert client.post(path, headers=reader, json={"mail": "off"}).status_code == 403
    r = client.post(path, headers=writer, json={"email": "ann@example.net", "mail": "digest"})
    assert r.status_code == 200 and site.notices.settings(ann_id).json()["mail"] == "digest"


@SQLITE
def test_an_account_holds_a_bounded_number_of_tokens(site, client, cast):
    from emergo.server.user.tokens import MAX_TOKENS, TokenError

    ann_id = site.users.by_name("ann").id
    for _ in range(MAX_TOKENS - len(site.tokens.list(ann_id))):
        site.tokens.create(ann_id, ("board:play",))
    with pytest.raises(TokenError, match="at most"):
        site.tokens.create(ann_id, ("board:play",))
    assert len(site.tokens.list(ann_id)) == MAX_TOKENS


@SQLITE
def test_oversized_bodies_and_messages_are_413(site, client, cast):
    """A guard: a body past 64 KiB is a 413 whether it says its length or comes in chunks; a
    socket message past it is a 413 error and the socket stays (uvicorn's ``ws_max_size``
    closes such a socket before the site sees it)."""

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"a" * 1024

    ann, game = cast["ann"], cast["game"]
    for path in ("/api/lobby/seek", f"/api/board/game/{game}/resign", "/signup", "/login"):
        headers = {**ann.headers, **ORIGIN}
        assert client.post(path, content=chunks(), headers=headers).status_code == 413, path
        r = client.post(path, content=b"a" * 70_000, headers=headers)
        assert r.status_code == 413, path
    assert site.rounds.get(game).state.outcome is None
    with client.websocket_connect(f"{WS}/ws/game/{game}", headers=ann.headers) as ws:
        ws.receive_text()
        ws.send_text(json.dumps({"t": "chat", "room": "player", "text": "x" * 70_000, "id": 1}))
        assert answer(ws, None)["status"] == 413  # not read: its id is not known
        ws.send_text(json.dumps({"t": "ping", "id": 2}))
        assert json.loads(ws.receive_text())["t"] == "pong"


# --- secrets in a debug log ----------------------------------------------------------------------


@SQLITE
def test_no_secret_in_the_servers_debug_log(site):
    """The server run with uvicorn's debug log (every WebSocket handshake header, every socket
    path): no password, cookie, token or CSRF token written, whatever a client sends."""
    import logging
    import threading

    import uvicorn

    from tests.plugins.postgres import free_port

    httpx = pytest.importorskip("httpx2")
    ws_client = pytest.importorskip("websockets.sync.client")
    from emergo.server.app import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(site),
        host="127.0.0.1",
        port=port,
        log_level="debug",
        ws="websockets-sansio",
        timeout_graceful_shutdown=1,
    )
    written: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            written.append(self.format(record))

    keep = Keep()
    for name in ("uvicorn", "emergo", "websockets"):
        logging.getLogger(name).addHandler(keep)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    live = f"http://127.0.0.1:{port}"
    wait_for(lambda: server.started, what="the server")
    password = "hush hush words"
    try:
        with httpx.Client(base_url=live) as c:
            c.get("/signup")
            form = c.cookies.get("emergo_csrf")
            data = {"username": "kim", "password": password, "password2": password, "csrf": form}
            c.post("/signup", data=data, headers={"Origin": live})
            cookie = c.cookies.get("emergo_session")
            csrf = c.get("/api/account").json()["csrf"]
            made = c.post(
                "/api/account/tokens",
                json={"scopes": "board:play challenge:read"},
                headers={"Origin": live, "X-CSRF-Token": csrf},
            )
            token = made.json()["token"]
            c.get("/api/account", headers=bearer(token))
        ws_url = live.replace("http://", "ws://") + "/ws/lobby"
        session = {"Cookie": f"emergo_session={cookie}"}
        for url, headers, offer in (
            (ws_url, bearer(token), None),
            (f"{ws_url}?csrf={csrf}", session, None),
            (ws_url, session, ["emergo", f"csrf.{csrf}"]),
        ):
            with ws_client.connect(
                url, additional_headers=headers, origin=live, subprotocols=offer
            ) as ws:
                assert json.loads(ws.recv(timeout=5))["t"] == "seeks"
    finally:
        server.should_exit = True
        thread.join(10)
        for name in ("uvicorn", "emergo", "websockets"):
            logging.getLogger(name).removeHandler(keep)
    text = "\n".join(written)
    assert "WebSocket /ws/lobby" in text and "cookie" in text.lower()  # it was written
    for secret in (password, cookie, csrf, token, token[4:], form):
        assert secret not in text
