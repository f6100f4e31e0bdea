"""The benchmark's regression (tools/bench_web.py): a hot-seat game, or a game without a clock
against someone at the board, played each move in the locked transaction with a your-turn
notice for a player looking at the game, and every page asked the server for each new position.

Now such a move takes the hot path (one statement) unless a conditional move answers it, no
notice goes to a player at the game (lichess tells a player only when away), and the game
socket's ``v`` message carries the new position as ``GET /api/position`` answers it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.plugins.game_helpers import Player
from tests.plugins.site import HOST, account, bearer

WS = HOST.replace("http://", "ws://", 1)


@pytest.fixture
def locked(site: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games whose commands took the locked transaction."""
    calls: list[str] = []
    play_locked = site.rounds._play_locked

    def counted(game_id: str, *args: Any) -> Any:
        calls.append(game_id)
        return play_locked(game_id, *args)

    monkeypatch.setattr(site.rounds, "_play_locked", counted)
    return calls


def _turn_notices(player: Player, game: str) -> int:
    feed = player.get("/api/account/notifications").json()["notifications"]
    return sum(1 for n in feed if n["kind"] == "your-turn" and n["gameId"] == game)


def test_a_game_without_a_clock_at_the_screen(site, players, locked):
    ann, bob = players
    game = bob.accept(ann.challenge("bob", color="white"))  # no clock: a correspondence game
    ann_id, bob_id = site.users.by_name("ann").id, site.users.by_name("bob").id
    site.presence.connect(game, bob_id)  # Bob's page is open on the game
    ann.play(game, "d4")
    assert locked == [] and _turn_notices(bob, game) == 0
    # a conditional move of Ann's answers Bob's: the locked path plays it
    ann.ok(f"/api/board/game/{game}/conditional", json={"lines": ["e6 f4"]})
    bob.play(game, "e6")
    assert ann.state(game)["moves"] == "d4 e6 f4" and locked == [game]
    assert _turn_notices(bob, game) == 0  # still at the game
    site.presence.connect(game, ann_id)
    bob.play(game, "c6")
    assert locked == [game] and ann.state(game)["moves"] == "d4 e6 f4 c6"
    site.presence.disconnect(game, bob_id)  # Bob went away: told it is his turn
    ann.play(game, "c4")
    assert locked == [game, game] and _turn_notices(bob, game) == 1


def test_a_hot_seat_game_at_the_screen(site, client, locked):
    user, token = account(site, "ann")
    ann = Player(client, "ann", token)
    game = str(ann.ok("/api/hotseat", data={})["gameId"])
    site.presence.connect(game, user.id)
    for text in ("d4", "e6", "f4"):
        ann.play(game, text)
    assert locked == [] and _turn_notices(ann, game) == 0
    ann.ok(f"/api/board/game/{game}/takeback/yes")  # asked is granted: the locked path
    assert ann.state(game)["moves"] == "d4 e6" and locked == [game]


def _receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["t"] == kind:
            return message


def test_a_moves_version_carries_its_position(site, client, players):
    ann, bob = players
    game = bob.accept(ann.challenge("bob", color="white", **{"clock.limit": 300}))
    start = ann.get(f"/api/game/{game}").json()["initialFen"]
    with client.websocket_connect(f"{WS}/ws/game/{game}", headers=bearer(bob.token)) as ws:
        _receive(ws, "full")
        ann.play(game, "d4")
        pushed = _receive(ws, "v")["position"]
    asked = client.get("/api/position", params={"pos": start, "moves": "d4"}).json()
    for key in ("position", "turn", "pieces", "moves", "forbidden", "lastMove", "outcome"):
        assert pushed[key] == asked[key], key
    assert pushed["line"]["moves"] == asked["line"]["moves"]
