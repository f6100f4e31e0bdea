"""The site-wide channel and the rough edges of the player's review (items 2, 4, 17, 18):
``/ws/online/site``, the decline reasons in words, the lobby's errors in a player's words, one
"your turn" a game in the feed."""

from __future__ import annotations

from typing import Any

import pytest
from tests.online.conftest import HOST
from tests.online.helpers import Player, new_game

from emergo.online.challenges import DECLINE_REASONS, ChallengeError, decline_key

SITE_WS = HOST.replace("http", "ws", 1) + "/ws/online/site"


def receive_until(ws: Any, want: Any, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if want(message):
            return message
    raise AssertionError("the message never came")


def test_the_site_socket_refuses_anonymous_and_tells_a_player_everything(
    client: Any, players: tuple[Player, Player]
) -> None:
    from starlette.websockets import WebSocketDisconnect

    ann, bob = players
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(SITE_WS):
        pass
    assert refused.value.code in (1008, 4401)  # refused before it was accepted
    with client.websocket_connect(SITE_WS, headers=bob.headers) as ws:
        assert ws.receive_json() == {"t": "unread", "unread": 0}
        assert ws.receive_json() == {"t": "challenges", "in": []}
        challenge = ann.challenge("bob", **{"clock.limit": 60})
        got = receive_until(ws, lambda m: m["t"] == "challenges")
        assert [c["id"] for c in got["in"]] == [challenge]
        ann.ok(f"/api/challenge/{challenge}/cancel")
        got = receive_until(ws, lambda m: m["t"] == "challenges")
        assert got["in"] == []
        game = new_game(ann, bob)
        start = receive_until(ws, lambda m: m["t"] == "event" and m["event"]["type"] == "gameStart")
        assert start["event"]["game"]["gameId"] == game
        ws.send_text('{"t":"ping"}')
        receive_until(ws, lambda m: m["t"] == "pong")


def test_a_decline_says_why_in_words_with_lichess_keys(
    client: Any, players: tuple[Player, Player]
) -> None:
    ann, bob = players
    challenge = ann.challenge("bob", **{"clock.limit": 60})
    r = bob.post(f"/api/challenge/{challenge}/decline", data={"reason": "because"})
    assert r.status_code == 400 and "tooFast" in r.json()["error"]
    with client.websocket_connect(SITE_WS, headers=ann.headers) as ws:
        receive_until(ws, lambda m: m["t"] == "challenges")
        bob.ok(f"/api/challenge/{challenge}/decline", data={"reason": "toofast"})
        got = receive_until(ws, lambda m: m["t"] == "event")
    declined = got["event"]
    assert declined["type"] == "challengeDeclined"
    assert declined["challenge"]["id"] == challenge
    assert declined["challenge"]["destUser"]["name"] == "bob"
    assert declined["challenge"]["declineReasonKey"] == "tooFast"
    assert declined["challenge"]["declineReason"] == DECLINE_REASONS["toofast"]
    shown = ann.get(f"/api/challenge/{challenge}/show").json()
    assert shown["status"] == "declined" and shown["declineReasonKey"] == "tooFast"
    # no reason: lichess's generic one
    other = ann.challenge("bob")
    bob.ok(f"/api/challenge/{other}/decline")
    assert ann.get(f"/api/challenge/{other}/show").json()["declineReasonKey"] == "generic"


def test_decline_keys() -> None:
    assert decline_key(None) == "generic"
    assert decline_key("TIMECONTROL") == "timeControl"
    for bad in ("nope", 3, ["later"]):
        with pytest.raises(ChallengeError):
            decline_key(bad)


@pytest.mark.parametrize(
    ("fields", "api", "words"),
    [
        ({"clock.limit": 0}, "clock.limit must be in 1..10800 s", "the time is 1 second to 180"),
        ({"clock.limit": 60, "clock.increment": 500}, "clock.increment", "the increment is 0"),
        ({"days": 4}, "days must be one of", "the days a move are 1, 2, 3"),
        ({"variant": "chess"}, "variant must be one of", "choose a board"),
        ({"clock.limit": "soon"}, "clock.limit must be a number", "the time is a number"),
    ],
)
def test_lobby_errors_keep_the_apis_names_and_add_a_players_words(
    players: tuple[Player, Player], fields: dict[str, Any], api: str, words: str
) -> None:
    ann, _bob = players
    r = ann.post("/api/lobby/seek", data=fields)
    assert r.status_code == 400
    body = r.json()
    assert api in body["error"]
    assert body["words"].startswith(words)
    assert "clock." not in body["words"] and "variant must" not in body["words"]


def test_no_such_player_in_words(players: tuple[Player, Player]) -> None:
    ann, _bob = players
    r = ann.post("/api/challenge/nobody", data={"clock.limit": 60})
    assert r.status_code == 404
    assert r.json()["words"] == "there is no player called nobody"


def test_the_feed_has_one_your_turn_a_game(client: Any, players: tuple[Player, Player]) -> None:
    ann, bob = players
    first = bob.accept(ann.challenge("bob", days=3, color="white"))
    second = bob.accept(ann.challenge("bob", days=3, color="white"))
    for game in (first, second):
        ann.play(game, "d4")
        bob.play(game, "e6")
        ann.play(game, "f4")
        bob.play(game, "c6")
    feed = bob.get("/api/account/notifications").json()
    turns = [n for n in feed["notifications"] if n["kind"] == "your-turn"]
    assert sorted(n["gameId"] for n in turns) == sorted([first, second])
    assert feed["unread"] == 2
