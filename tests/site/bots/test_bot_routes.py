"""Issue 27, the attacker's finding 9: the Bot API's chat is its players', its chat on/off routes
exist as the OpenAPI description says, and a bot account's token plays no move through the game
socket (the Board API refuses it: so does the socket)."""

from __future__ import annotations

import json

from tests.plugins.game_helpers import Player
from tests.plugins.site import HOST, bearer

WS = HOST.replace("http://", "ws://", 1)


def _bot(site, name, scopes=("bot:play",)):
    user = site.users.create(name, None, bot=True)
    return user, site.tokens.create(user.id, scopes)


def test_a_bot_reads_the_chat_of_its_own_games_only(site, client):
    _ann, ann_token = _bot(site, "ann-bot")
    _bob, bob_token = _bot(site, "bob-bot")
    _eve, eve_token = _bot(site, "eve-bot")
    ann, bob = Player(client, "ann-bot", ann_token), Player(client, "bob-bot", bob_token)
    challenge = ann.challenge("bob-bot", color="white", **{"clock.limit": 300})
    game = bob.accept(challenge)
    r = client.post(f"/api/bot/game/{game}/chat", headers=bearer(ann_token), data={
        "room": "player", "text": "good luck"})  # fmt: skip
    assert r.status_code == 200, r.text
    r = client.get(f"/api/bot/game/{game}/chat", headers=bearer(bob_token))
    assert r.status_code == 200 and [x["text"] for x in r.json()] == ["good luck"], r.text
    r = client.get(f"/api/bot/game/{game}/chat", headers=bearer(eve_token))
    assert r.status_code == 403, r.text


def test_the_bot_chat_room_routes_exist(site, client):
    _ann, ann_token = _bot(site, "ann-bot")
    _bob, bob_token = _bot(site, "bob-bot")
    ann, bob = Player(client, "ann-bot", ann_token), Player(client, "bob-bot", bob_token)
    game = bob.accept(ann.challenge("bob-bot", color="white", **{"clock.limit": 300}))
    paths = client.get("/api/openapi.json").json()["paths"]
    for state in ("on", "off"):
        path = f"/api/bot/game/{{id}}/chat/{state}"
        assert path in paths
        r = client.post(path.format(id=game), headers=bearer(ann_token))
        assert r.status_code == 200, (state, r.status_code, r.text)


def test_a_bot_token_with_board_play_plays_no_move_through_the_socket(site, client):
    _bot_user, bot_token = _bot(site, "robo", ("board:play", "bot:play"))
    person = site.users.create("ann", "a good password")
    ann = Player(client, "ann", site.tokens.create(person.id))
    robo = Player(client, "robo", bot_token)
    game = robo.accept(ann.challenge("robo", color="black", **{"clock.limit": 300}))
    assert (
        client.post(f"/api/board/game/{game}/move/d4", headers=bearer(bot_token)).status_code == 403
    )
    with client.websocket_connect(f"{WS}/ws/game/{game}", headers=bearer(bot_token)) as ws:
        while json.loads(ws.receive_text())["t"] != "full":
            pass
        ws.send_text('{"t":"move","move":"d4","id":1}')
        while True:
            message = json.loads(ws.receive_text())
            if message["t"] in ("error", "ack"):
                break
        assert message["t"] == "error" and message["status"] == 403, message
    assert ann.state(game)["moves"] == ""
