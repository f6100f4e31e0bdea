"""Follow and block (issue 31, emergo.server.relation): follows put a followed player's new
games in the follower's feed; a block stops challenges, pairing and the players' chat from
either side; who may do what over HTTP."""

from __future__ import annotations

import pytest

from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import account, bearer

SEEK = {"variant": "9x9", "clock.limit": 300, "clock.increment": 3}


@pytest.fixture
def three(site, client):
    people = {}
    for name in ("ann", "bob", "carl"):
        _user, token = account(site, name)
        people[name] = Player(client, name, token)
    for name in ("ann", "bob", "carl"):
        user = site.users.by_name(name)
        people[name + "_rel"] = Player(
            client, name, site.tokens.create(user.id, ("follow:read", "follow:write"))
        )
    return people


def test_follow_puts_their_new_games_in_my_feed(site, client, three) -> None:
    ann, bob, carl = three["ann"], three["bob"], three["carl"]
    r = three["carl_rel"].ok("/api/rel/follow/ann")
    assert r["following"] is True and r["followsYou"] is False
    assert three["carl_rel"].get("/api/rel/following").json()["users"] == [
        {"id": "ann", "name": "ann"}
    ]
    assert three["ann_rel"].get("/api/rel/with/carl").json()["followsYou"] is True
    before = site.notices.feed(site.users.by_name("carl").id)[0]
    game = new_game(ann, bob)
    feed, unread = site.notices.feed(site.users.by_name("carl").id)
    assert len(feed) == len(before) + 1 and unread >= 1
    assert feed[0]["gameId"] == game and feed[0]["kind"] == "game-started"
    # the players themselves hear nothing of their own game; an unfollow stops it
    assert not any(
        n["kind"] == "game-started" for n in site.notices.feed(site.users.by_name("ann").id)[0]
    )
    three["carl_rel"].ok("/api/rel/unfollow/ann")
    new_game(ann, bob)
    assert len(site.notices.feed(site.users.by_name("carl").id)[0]) == len(feed)
    assert carl.get("/api/rel/following").status_code == 403  # that token lacks follow:read


def test_a_block_stops_challenges_pairing_and_chat_both_ways(site, client, three) -> None:
    ann, bob = three["ann"], three["bob"]
    game = new_game(ann, bob)
    chat = f"/api/board/game/{game}/chat"
    ann.ok(chat, data={"room": "player", "text": "hello"})
    three["ann_rel"].ok("/api/rel/follow/bob")
    r = three["bob_rel"].ok("/api/rel/block/ann")
    assert r["blocking"] is True
    assert three["ann_rel"].get("/api/rel/with/bob").json() == {
        "following": False,  # a block ends the follows both ways
        "blocking": False,
        "followsYou": False,
        "blocksYou": True,
    }
    refused = ann.post("/api/challenge/bob", data=SEEK)
    assert refused.status_code == 403 and "blocks" in refused.json()["words"]
    assert bob.post("/api/challenge/ann", data=SEEK).status_code == 403  # either way
    assert ann.post(chat, data={"room": "player", "text": "hey"}).status_code == 403
    assert bob.post(chat, data={"room": "player", "text": "hey"}).status_code == 403
    assert three["ann_rel"].post("/api/rel/follow/bob").status_code == 403
    seek = ann.ok("/api/lobby/seek", data=SEEK)["id"]
    assert bob.post(f"/api/challenge/{seek}/accept").status_code == 403
    quick = bob.ok("/api/lobby/quick", data=SEEK)
    assert "seek" in quick  # not paired with the one he blocks: his own seek waits
    assert three["carl"].ok("/api/lobby/quick", data=SEEK)["gameId"]  # another player is
    three["bob_rel"].ok("/api/rel/unblock/ann")
    assert ann.post(chat, data={"room": "player", "text": "friends again"}).status_code == 200
    assert three["bob_rel"].get("/api/rel/blocking").json()["users"] == []


def test_who_may_follow_and_block(site, client, three) -> None:
    for path in ("/api/rel/follow/ann", "/api/rel/block/ann", "/api/rel/unfollow/ann"):
        assert client.post(path).status_code == 401
        assert client.post(path, headers=bearer("emo_nonsense")).status_code == 401
        assert three["bob"].post(path).status_code == 403  # no follow:write
    for path in ("/api/rel/following", "/api/rel/blocking", "/api/rel/with/ann"):
        assert client.get(path).status_code == 401
        assert three["bob"].get(path).status_code == 403  # no follow:read
    assert three["ann_rel"].post("/api/rel/follow/ann").status_code == 400  # yourself
    assert three["ann_rel"].post("/api/rel/block/nobody").status_code == 404
    assert three["ann_rel"].post("/api/rel/befriend/bob").status_code == 404
    assert three["ann_rel"].get("/api/rel/friends").status_code == 404
