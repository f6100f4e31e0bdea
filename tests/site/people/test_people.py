"""Who is here, TV and quick pairing (issue 31): the players online now (an open site socket
marks its player), search by name, a player's status with the game to watch; the best-rated
live game on TV, the next one when it ends; one click pairs with a matching seek or posts one."""

from __future__ import annotations

from sqlalchemy import insert

from emergo.server.core import models as m
from emergo.server.core.db import now
from emergo.server.people.service import ONLINE_FOR
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import HOST, account

SEEK = {"variant": "9x9", "clock.limit": 180, "clock.increment": 2}


def _rate(site, name, rating):
    with site.db.write() as tx:
        tx.execute(
            insert(m.perfs).values(
                user_id=site.users.by_name(name).id,
                perf="9x9-live",
                rating=rating,
                rd=60.0,
                volatility=0.06,
                games=40,
                latest=now(),
            )
        )


def _players(site, client, *names):
    out = []
    for name in names:
        _user, token = account(site, name)
        out.append(Player(client, name, token))
    return out


def test_online_now_from_an_open_site_socket_and_search(site, client) -> None:
    (ann,) = _players(site, client, "ann")
    _players(site, client, "annie", "bob")
    assert client.get("/api/players/online").json() == {"users": []}
    with client.websocket_connect(
        HOST.replace("http", "ws", 1) + "/ws/site", headers=ann.headers
    ) as ws:
        ws.receive_json()  # the first message: after the mark
        names = [u["name"] for u in client.get("/api/players/online").json()["users"]]
        assert names == ["ann"]
    t = site.users.by_name("ann")
    assert site.people.status(t.id).online
    assert not site.people.status(t.id, t=10**10 + ONLINE_FOR).online
    found = client.get("/api/players/search", params={"q": "AN"}).json()["users"]
    assert [u["name"] for u in found] == ["ann", "annie"]
    assert client.get("/api/players/search", params={"q": "x" * 21}).status_code == 400
    assert client.get("/api/players/search", params={"q": "a_"}).json()["users"] == []
    page = client.get("/players", params={"q": "ann"}).text
    assert 'href="/@/annie"' in page and "Online now" in page


def test_a_players_status_links_the_game_he_plays(site, client) -> None:
    ann, bob = _players(site, client, "ann", "bob")
    assert client.get("/api/players/ann/status").json()["playing"] is None
    game = new_game(ann, bob)
    status = client.get("/api/players/ann/status").json()
    assert status["playing"] == game and status["name"] == "ann"
    assert f'href="/game/{game}"' in client.get("/@/ann").text
    assert client.get("/api/players/nobody/status").status_code == 404


def test_tv_is_the_best_rated_live_game_and_changes_when_it_ends(site, client) -> None:
    ann, bob, carl, dora = _players(site, client, "ann", "bob", "carl", "dora")
    assert client.get("/api/tv").json() == {"game": None}
    for name, rating in (("ann", 2000), ("bob", 1900)):  # carl and dora are new (1500)
        _rate(site, name, rating)
    weak = new_game(carl, dora)
    strong = new_game(ann, bob)
    assert client.get("/api/tv").json()["game"]["id"] == strong
    assert client.get("/api/tv").json()["game"]["white"]["rating"] == 2000
    ann.ok(f"/api/board/game/{strong}/abort")
    assert client.get("/api/tv").json()["game"]["id"] == weak
    # correspondence and hot-seat games are never on TV
    carl.ok(f"/api/board/game/{weak}/abort")
    ann.challenge("bob", days=3)
    bob.accept(ann.get("/api/challenge").json()["out"][0]["id"])
    site.hotseat(site.users.by_name("carl"), SEEK)
    assert client.get("/api/tv").json() == {"game": None}


def test_quick_pairing_joins_a_matching_seek_or_posts_one(site, client) -> None:
    ann, bob, carl = _players(site, client, "ann", "bob", "carl")
    first = ann.ok("/api/lobby/quick", data=SEEK)
    assert first["seek"]["timeControl"]["show"] == "3+2"
    assert ann.ok("/api/lobby/quick", data=SEEK)["seek"]["id"] == first["seek"]["id"]
    other = carl.ok("/api/lobby/quick", data={**SEEK, "clock.limit": 600})
    assert "seek" in other  # other terms: no pairing
    joined = bob.ok("/api/lobby/quick", data=SEEK)
    game = site.rounds.get(joined["gameId"])
    assert {game.seats.white, game.seats.black} == {"ann", "bob"}
    assert [s["id"] for s in client.get("/api/lobby/seeks").json()["seeks"]] == [
        other["seek"]["id"]
    ]
    assert client.post("/api/lobby/quick", data=SEEK).status_code == 401
