"""Make an `emergo serve` local database with the code of main before issue 26 (cb88cda):
games against the engine (finished and not), a hot-seat game with a clock, a hex game, a game
from a position, studies with variations, comments and marks, settings, an analysis.
Run with PYTHONPATH=<that checkout>/src."""

import sys
import time
from pathlib import Path

from emergo.web.app import create_app
from emergo.web.store import Store
from starlette.testclient import TestClient

out = Path(sys.argv[1])
if out.exists():
    out.unlink()
store = Store.open(f"sqlite:///{out}")
app = create_app(store)
H = {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:8765"}


def wait_turn(c, gid, ply):
    for _ in range(600):
        s = c.get(f"/api/games/{gid}", headers=H).json()
        if len(s["moves"]) >= ply or s.get("outcome"):
            return s
        time.sleep(0.05)
    raise RuntimeError(s)


with TestClient(app, base_url="http://127.0.0.1:8765") as c:
    # 1. Ann (White) against the engine at level 2, 9x9, eight plies, left unfinished
    g = c.post(
        "/api/games",
        json={"white": {"kind": "human", "name": "Ann"}, "black": {"kind": "engine", "level": 2}},
        headers=H,
    ).json()
    gid = g["id"]
    for i in range(4):
        s = c.get(f"/api/games/{gid}", headers=H).json()
        legal = s["legal"] if "legal" in s else None
        board = c.post(
            "/api/position",
            json={
                "pos": s["start"],
                "moves": [m["text"] if isinstance(m, dict) else m for m in s["moves"]],
            },
            headers=H,
        ).json()
        move = (
            board["moves"][0]["text"] if isinstance(board["moves"][0], dict) else board["moves"][0]
        )
        r = c.post(
            f"/api/games/{gid}/move", json={"text": move, "version": s["version"]}, headers=H
        )
        assert r.status_code == 200, r.text
        wait_turn(c, gid, 2 * (i + 1))
    # 2. a hot-seat 7x7 game under 3+2, resigned by Black after six plies
    g = c.post(
        "/api/games",
        json={
            "pos": "7x7 w 8/8",
            "white": {"kind": "human", "name": "Ann"},
            "black": {"kind": "human", "name": "Bob"},
            "clock": {"kind": "fischer", "base": 180, "increment": 2},
        },
        headers=H,
    )
    assert g.status_code == 200, g.text
    g = g.json()
    gid = g["id"]
    for i in range(6):
        s = c.get(f"/api/games/{gid}", headers=H).json()
        board = c.post(
            "/api/position",
            json={
                "pos": s["start"],
                "moves": [m["text"] if isinstance(m, dict) else m for m in s["moves"]],
            },
            headers=H,
        ).json()
        move = (
            board["moves"][-1]["text"]
            if isinstance(board["moves"][-1], dict)
            else board["moves"][-1]
        )
        r = c.post(
            f"/api/games/{gid}/move", json={"text": move, "version": s["version"]}, headers=H
        )
        assert r.status_code == 200, r.text
    s = c.get(f"/api/games/{gid}", headers=H).json()
    r = c.post(f"/api/games/{gid}/resign", json={"by": "black", "version": s["version"]}, headers=H)
    assert r.status_code == 200, r.text
    # 3. the engine (1 s a move... 0.5 s) as White against Bob on the hexagon, until Bob's second move
    g = c.post(
        "/api/games",
        json={
            "pos": "hex w 12/12",
            "white": {"kind": "engine", "movetime": 0.5},
            "black": {"kind": "human", "name": "Bob"},
        },
        headers=H,
    ).json()
    gid = g["id"]
    s = wait_turn(c, gid, 1)
    for k in range(2):
        board = c.post(
            "/api/position",
            json={
                "pos": s["start"],
                "moves": [m["text"] if isinstance(m, dict) else m for m in s["moves"]],
            },
            headers=H,
        ).json()
        move = (
            board["moves"][0]["text"] if isinstance(board["moves"][0], dict) else board["moves"][0]
        )
        r = c.post(
            f"/api/games/{gid}/move", json={"text": move, "version": s["version"]}, headers=H
        )
        assert r.status_code == 200, r.text
        s = wait_turn(c, gid, 2 * k + 3)
    # 4. a game from a position (the inventor's capture example), hot-seat, played to its end
    g = c.post(
        "/api/games",
        json={
            "pos": "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2",
            "white": {"kind": "human", "name": "Freeling"},
            "black": {"kind": "human", "name": "van Zon"},
        },
        headers=H,
    ).json()
    gid = g["id"]
    for text in ("h4xf4xd4", "e4xc4xc6xe6xe4xc4"):
        s = c.get(f"/api/games/{gid}", headers=H).json()
        r = c.post(
            f"/api/games/{gid}/move", json={"text": text, "version": s["version"]}, headers=H
        )
        assert r.status_code == 200, r.text
    # 5. studies: a 9x9 opening with variations, comments and marks; a 7x7 one
    tree = [
        {
            "move": "d4",
            "comment": "White enters off the centre (R16)",
            "mark": "!",
            "children": [
                {"move": "f6", "children": [{"move": "c5", "mark": "?!", "comment": "too slow"}]},
                {"move": "e6", "comment": "the main line", "children": [{"move": "f4"}]},
            ],
        },
        {"move": "e4", "mark": "?", "children": []},
    ]
    r = c.post(
        "/api/studies",
        json={"start": "w 12/12", "name": "First moves, with side lines", "tree": tree},
        headers=H,
    )
    assert r.status_code == 201, r.text
    r = c.post(
        "/api/studies",
        json={
            "start": "7x7 w 8/8",
            "name": "Small board",
            "tree": [{"move": "c3", "children": [{"move": "e5"}]}],
        },
        headers=H,
    )
    assert r.status_code == 201, r.text
    # 6. settings and an analysis
    assert (
        c.put(
            "/api/settings",
            json={"view": "checker", "names": "checker", "theme": "dark", "sound": False},
            headers=H,
        ).status_code
        == 200
    )
    assert (
        c.post(
            "/api/analyse", json={"pos": "w 12/12", "depth": 2, "multipv": 2}, headers=H
        ).status_code
        == 200
    )
    print(c.get("/api/games", headers=H).json())
    print(c.get("/api/studies", headers=H).json())
store.close()
