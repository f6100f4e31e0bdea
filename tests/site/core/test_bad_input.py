"""Issue 27, the attacker's findings 7 and 8: input that reached the database or the encoder and
came back as a 500 with a traceback.  Each is a 4xx with a message now, on SQLite and PostgreSQL
(a NUL is PostgreSQL's refusal: ``A string literal cannot contain NUL``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import HOST, account, bearer, session_of

NUL_ID = "abc%00defg"  # 8 characters once decoded, one of them NUL (httpx refuses a raw one)
WS = HOST.replace("http://", "ws://", 1)


@pytest.mark.parametrize(
    "method,path",
    [
        ("GET", "/api/game/{id}"),
        ("GET", "/api/board/game/stream/{id}"),
        ("GET", "/api/stream/game/{id}"),
        ("GET", "/api/board/game/{id}/chat"),
        ("POST", "/api/board/game/{id}/move/d4"),
        ("POST", "/api/board/game/{id}/resign"),
        ("POST", "/api/board/game/{id}/draw/yes"),
        ("POST", "/api/board/game/{id}/chat"),
        ("POST", "/api/challenge/{id}/accept"),
        ("POST", "/api/challenge/{id}/decline"),
        ("POST", "/api/challenge/{id}/cancel"),
        ("GET", "/api/challenge/{id}/show"),
    ],
)
def test_a_nul_in_an_id_is_no_such_thing(site, client, method, path):
    _ann, token = account(site, "ann")
    r = client.request(method, path.format(id=NUL_ID), headers=bearer(token))
    assert r.status_code in (400, 404), (r.status_code, r.text)
    assert "error" in r.json()


def test_a_nul_in_an_id_closes_the_game_socket_cleanly(site, client):
    _ann, token = account(site, "ann")
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"{WS}/ws/game/{NUL_ID}", headers=bearer(token)) as ws,
    ):
        ws.receive_text()
    assert closed.value.code == 4404


def test_a_nul_in_a_token_description_or_an_address(site, client):
    csrf = session_of(client, "ann")  # tokens are made signed in
    signed = {"Origin": HOST, "X-CSRF-Token": csrf}
    r = client.post(
        "/api/account/tokens",
        headers=signed,
        json={"description": "mine\x00", "scopes": ["board:play"]},
    )
    assert r.status_code == 400, (r.status_code, r.text)
    r = client.post(
        "/account/notifications/mail",
        headers={"Origin": HOST},
        data={"csrf": csrf, "email": "ann\x00@example.org", "mail": "instant"},
        follow_redirects=False,
    )
    assert r.status_code == 400, (r.status_code, r.text)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/live?nb=\u00b2",
        "/api/games/user/ann?max=\u00b2",
        "/api/games/user/ann?since=\u00b2",
        "/api/games/user/ann?before=\u00b2_abcdefgh",
        "/api/games/search?max=\u00b2",
    ],
)
def test_unicode_digits_are_no_number(site, client, path):
    _ann, token = account(site, "ann")
    r = client.get(path, headers=bearer(token))
    assert r.status_code in (400, 404), (r.status_code, r.text)


def test_up_to_in_unicode_digits(site, client):
    _ann, token = account(site, "ann")
    r = client.post(
        "/api/account/notifications/read", headers=bearer(token), json={"upTo": "\u00b2"}
    )
    assert r.status_code == 400, (r.status_code, r.text)


@pytest.mark.parametrize("level", ["1e400", "Infinity", "-Infinity", "NaN"])
def test_an_infinite_level(site, client, level):
    _ann, token = account(site, "ann")
    r = client.post(
        "/api/challenge/ai",
        headers={**bearer(token), "content-type": "application/json"},
        content=f'{{"level": {level}}}',
    )
    assert r.status_code == 400, (r.status_code, r.text)


def _receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["t"] == kind:
            return message


def test_a_lone_surrogate_refuses_the_message_before_anything_is_played(site, client):
    _a, ann_token = account(site, "ann")
    _b, bob_token = account(site, "bob")

    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    game = new_game(ann, bob)
    with client.websocket_connect(f"{WS}/ws/game/{game}", headers=bearer(ann_token)) as ws:
        _receive(ws, "full")
        ws.send_text('{"t":"move","move":"d4","id":"\\ud800"}')
        error = _receive(ws, "error")
        assert error["status"] == 400 and error["id"] is None, error
        ws.send_text('{"t":"chat","room":"player","text":"hi \\udfff","id":1}')
        error = _receive(ws, "error")
        assert error["status"] == 400, error
        ws.send_text('{"t":"ping"}')  # the socket is still open
        _receive(ws, "pong")
    assert ann.state(game)["moves"] == ""
    lines = client.get(f"/api/board/game/{game}/chat", headers=bearer(ann_token)).json()
    assert lines == []


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/api/nothing-here", 404), ("POST", "/api/bot/online", 405),
     ("DELETE", "/api/users", 405), ("PUT", "/api/puzzle/batch", 405)],
)  # fmt: skip
def test_no_such_endpoint_is_json_naming_it(site, client, method, path, status):
    """The router's own refusals answered ``Not Found`` as plain text, unlike every other
    error of the API."""
    r = client.request(method, path)
    assert r.status_code == status and r.headers["content-type"] == "application/json", r.text
    assert method in r.json()["error"] and path in r.json()["error"]
    if status == 405:
        assert r.headers["allow"]
