from __future__ import annotations

from tests.plugins.site import account, bearer


def test_a_game_over_the_board_api(site, client):
    _ann, ann = account(site, "ann")
    _bob, bob = account(site, "bob")
    r = client.post(
        "/api/challenge/bob",
        headers=bearer(ann),
        data={"clock.limit": 300, "clock.increment": 2, "color": "white"},
    )
    assert r.status_code == 200, r.text
    challenge = r.json()["id"]
    r = client.post(f"/api/challenge/{challenge}/accept", headers=bearer(bob))
    assert r.status_code == 200, r.text
    game = r.json()["gameId"]
    r = client.post(f"/api/board/game/{game}/move/d4", headers=bearer(ann))
    assert r.status_code == 200, r.text
    r = client.post(f"/api/board/game/{game}/move/d4", headers=bearer(ann))
    assert r.status_code == 400, r.text
    r = client.post(f"/api/board/game/{game}/move/e6", headers=bearer(bob))
    assert r.status_code == 200, r.text
    r = client.get(f"/api/game/{game}", headers=bearer(ann))
    assert r.json()["state"]["moves"] == "d4 e6", r.json()
    r = client.post(f"/api/board/game/{game}/resign", headers=bearer(bob))
    assert r.status_code == 200, r.text
    r = client.get(f"/game/export/{game}")
    assert "1-0" in r.text, r.text
