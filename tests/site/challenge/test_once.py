"""A double click makes one of a thing (issue 31, defect 2): a seek, a challenge, a link or a game
of the computer posted twice on the same terms while the first is pending is the first; a
hot-seat game asked for twice before anyone moved is the first; the rest of the challenge rules
are untouched (other terms are another seek, and the first seek taken leaves none behind)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.plugins.site import account

SEEK = {"variant": "9x9", "clock.limit": 300, "clock.increment": 3, "color": "random"}


def test_the_same_seek_posted_twice_is_one_seek(site, client, players) -> None:
    ann, bob = players
    first = ann.ok("/api/lobby/seek", data=SEEK)
    second = ann.ok("/api/lobby/seek", data=SEEK)
    assert first["id"] == second["id"]
    assert [s["id"] for s in client.get("/api/lobby/seeks").json()["seeks"]] == [first["id"]]
    other = ann.ok("/api/lobby/seek", data={**SEEK, "clock.limit": 600})
    assert other["id"] != first["id"]  # other terms: another seek
    game = bob.accept(first["id"])
    assert game
    # the seek taken: the same terms again are a new seek, never the game's
    again = ann.ok("/api/lobby/seek", data=SEEK)
    assert again["id"] not in (first["id"], other["id"])


def test_a_double_click_in_parallel_still_makes_one(site, client, players) -> None:
    ann, _bob = players
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: ann.ok("/api/lobby/seek", data=SEEK), range(2)))
    assert answers[0]["id"] == answers[1]["id"]
    assert len(client.get("/api/lobby/seeks").json()["seeks"]) == 1


def test_a_challenge_and_a_link_posted_twice_are_one(site, client, players) -> None:
    ann, _bob = players
    assert ann.challenge("bob", **SEEK) == ann.challenge("bob", **SEEK)
    link = ann.ok("/api/challenge/open", data=SEEK)
    assert ann.ok("/api/challenge/open", data=SEEK)["id"] == link["id"]
    mine = ann.get("/api/challenge").json()
    assert len(mine["out"]) == 2


def test_new_game_twice_is_one_hot_seat_game(site, client) -> None:
    _user, token = account(site, "carl")
    headers = {"Authorization": f"Bearer {token}"}
    terms = {"variant": "7x7", "clock.limit": 600, "clock.increment": 5}
    a = client.post("/api/hotseat", data=terms, headers=headers).json()["gameId"]
    b = client.post("/api/hotseat", data=terms, headers=headers).json()["gameId"]
    assert a == b
    c = client.post("/api/hotseat", data={**terms, "variant": "9x9"}, headers=headers).json()
    assert c["gameId"] != a  # other terms: another game
    assert client.post(f"/api/board/game/{a}/move/c3", headers=headers).status_code == 200
    d = client.post("/api/hotseat", data=terms, headers=headers).json()["gameId"]
    assert d != a  # a game already begun is never handed out again
