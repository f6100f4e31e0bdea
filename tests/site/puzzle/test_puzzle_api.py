"""The puzzle API over HTTP (lichess's shape), on SQLite and PostgreSQL: a puzzle's JSON, the
next one, a result judged and rated (never the page's word), activity as NDJSON, the dashboard
and replay, the timed run; visitors judged and never kept."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import pytest

from emergo.puzzles import load
from emergo.server.site import Site
from tests.plugins.site import HOST, bearer, session_of

SCOPES = ("puzzle:read", "puzzle:write")


@pytest.fixture
def ann(site: Site) -> dict[str, str]:
    user = site.users.create("ann", "a good password")
    return bearer(site.tokens.create(user.id, SCOPES))


def first(variant: str = "7x7") -> Any:
    return next(p for p in load(variant) if len(p.solution) >= 3 and "win" not in p.themes)


def test_a_puzzle_in_lichess_shape(client: Any) -> None:
    p = first()
    data = client.get(f"/api/puzzle/{p.id}").json()
    puzzle = data["puzzle"]
    assert puzzle["id"] == p.id and puzzle["solution"] == list(p.solution)
    assert puzzle["themes"] == list(p.themes) and puzzle["initialPly"] == p.initial_ply
    assert puzzle["rating"] == p.rating and puzzle["plays"] == 0
    assert puzzle["variant"] == "7x7" and puzzle["position"] == p.position
    game = data["game"]
    assert game["id"] == p.source and game["moves"] == list(p.game)
    assert game["url"].startswith("/analysis?pos=") and "user" not in data
    daily = client.get("/api/puzzle/daily").json()
    assert daily == client.get("/api/puzzle/daily").json()
    assert client.get("/api/puzzle/nope00").status_code == 404
    assert client.get("/api/puzzle/NOT-AN-ID").status_code == 404


def test_next_by_angle_and_board(client: Any, ann: dict[str, str]) -> None:
    data = client.get("/api/puzzle/next?angle=liberation&variant=hex").json()
    assert data["puzzle"]["variant"] == "hex" and "liberation" in data["puzzle"]["themes"]
    mine = client.get("/api/puzzle/next?variant=7x7", headers=ann).json()
    assert mine["user"] == {"rating": 1500, "games": 0, "provisional": True}
    assert client.get("/api/puzzle/next?angle=nonsense").status_code == 400
    assert client.get("/api/puzzle/next?variant=8x8").status_code == 400
    assert client.get("/api/puzzle/next?rating=99").status_code == 400


def test_a_result_is_judged_and_rated(site: Site, client: Any, ann: dict[str, str]) -> None:
    p = first()
    path = f"/api/puzzle/{p.id}/result"
    # a visitor: judged, nothing kept
    going = client.post(path, json={"moves": [p.solution[0]]}).json()
    assert going["status"] == "right" and going["reply"] == p.solution[1] and going["win"] is None
    done = client.post(path, json={"moves": list(p.solution)}).json()
    assert done["status"] == "solved" and done["win"] is True and done["round"]["rated"] is False
    assert client.get(f"/api/puzzle/{p.id}").json()["puzzle"]["plays"] == 0
    # the page's word is never a win
    r = client.post(path, json={"win": True}, headers=ann)
    assert r.status_code == 400 and "a win is a line" in r.json()["error"]
    assert client.post(path, json={}, headers=ann).status_code == 400
    bad = client.post(path, json={"moves": [p.solution[0], p.solution[1]]}, headers=ann)
    assert bad.status_code == 400 and "not an attempt" in bad.json()["error"]
    assert client.post(path, json={"moves": "nonsense"}, headers=ann).status_code == 400
    # the first try rated, the second not
    won = client.post(path, json={"moves": list(p.solution)}, headers=ann).json()
    assert won["round"] == {"win": True, "rated": True, "ratingDiff": won["perf"]["rating"] - 1500}
    assert won["perf"]["rating"] > 1500 and won["perf"]["games"] == 1
    again = client.post(path, json={"moves": list(p.solution)}, headers=ann).json()
    assert again["round"]["rated"] is False and again["perf"]["rating"] == won["perf"]["rating"]
    assert client.get(f"/api/puzzle/{p.id}").json()["puzzle"]["plays"] == 1
    # giving up: a loss
    q = first("hex")
    lost = client.post(f"/api/puzzle/{q.id}/result", data={"win": "false"}, headers=ann).json()
    assert lost["status"] == "failed" and lost["round"]["ratingDiff"] < 0
    assert client.post("/api/puzzle/nope00/result", json={"win": False}).status_code == 404


def test_activity_dashboard_replay(site: Site, client: Any, ann: dict[str, str]) -> None:
    p, q = first(), first("hex")
    client.post(f"/api/puzzle/{p.id}/result", json={"moves": list(p.solution)}, headers=ann)
    client.post(f"/api/puzzle/{q.id}/result", json={"win": False}, headers=ann)
    r = client.get("/api/puzzle/activity", headers=ann)
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in r.text.splitlines() if line]
    assert [(x["puzzle"]["id"], x["win"]) for x in lines] == [(q.id, False), (p.id, True)]
    assert lines[0]["puzzle"]["lastMove"] == q.game[-1]
    assert len(client.get("/api/puzzle/activity?max=1", headers=ann).text.splitlines()) == 1
    assert client.get("/api/puzzle/activity?max=0", headers=ann).status_code == 400
    d = client.get("/api/puzzle/dashboard/30", headers=ann).json()
    assert d["global"]["nb"] == 2 and d["global"]["firstWins"] == 1
    # the rating after each rated try, led by the window's start; each step its ratingDiff
    history = d["history"]
    assert [h[1] - g[1] for g, h in itertools.pairwise(history)] == [
        x["ratingDiff"] for x in reversed(lines)
    ]
    assert history[0][1] == 1500 and history[-1][1] == d["perf"]["rating"]
    assert [h[0] for h in history] == sorted(h[0] for h in history)
    # tries older than the window: the rating they left is its start, the only point
    from sqlalchemy import update

    from emergo.server.core import models as m

    r = m.puzzle_rounds
    with site.db.write() as tx:
        tx.execute(update(r).values(created=r.c.created - 5 * 86400))
    day = client.get("/api/puzzle/dashboard/1", headers=ann).json()["history"]
    assert [x[1] for x in day] == [d["perf"]["rating"]]
    assert set(d["themes"]) == set(p.themes) | set(q.themes)
    assert client.get("/api/puzzle/dashboard/0", headers=ann).status_code == 400
    assert client.get("/api/puzzle/dashboard/abc", headers=ann).status_code == 400
    replay = client.get("/api/puzzle/replay/30/mix", headers=ann).json()["replay"]
    assert replay["remaining"] == [q.id] and replay["nb"] == 1
    theme = next(t for t in q.themes)
    assert client.get(f"/api/puzzle/replay/30/{theme}", headers=ann).json()["replay"]["nb"] == 1
    assert client.get("/api/puzzle/replay/30/nonsense", headers=ann).status_code == 404


def test_a_visitors_attempts_merged_unrated(site: Site, client: Any, ann: dict[str, str]) -> None:
    p, q, r = first(), first("hex"), first("9x9")
    client.post(f"/api/puzzle/{r.id}/result", json={"moves": list(r.solution)}, headers=ann)
    rated = client.get("/api/puzzle/dashboard/30", headers=ann).json()["perf"]
    day = 86_400_000
    t = int(time.time() * 1000)
    body = {
        "solutions": [
            {"id": p.id, "win": True, "date": t - day},
            {"id": q.id, "win": False, "fixed": True, "date": t},
            {"id": p.id, "win": False, "date": t},  # the same puzzle again: the first kept
            {"id": r.id, "win": False, "date": t},  # tried in the account: its round kept
            {"id": "nope00", "win": True, "date": t},  # no such puzzle: skipped
        ]
    }
    merged = client.post("/api/puzzle/batch", json=body, headers=ann)
    assert merged.status_code == 200 and merged.json() == {"merged": 2}
    assert client.post("/api/puzzle/batch", json=body, headers=ann).json() == {"merged": 0}
    d = client.get("/api/puzzle/dashboard/30", headers=ann).json()
    assert d["global"]["nb"] == 3 and d["global"]["firstWins"] == 2
    assert d["global"]["replayWins"] == 1
    assert d["perf"] == rated  # merged attempts rate nothing, for the player or the puzzle
    assert client.get(f"/api/puzzle/{p.id}").json()["puzzle"]["plays"] == 0
    lines = [
        json.loads(x) for x in client.get("/api/puzzle/activity", headers=ann).text.splitlines()
    ]
    assert {x["puzzle"]["id"]: x["ratingDiff"] for x in lines} == {
        p.id: None,
        q.id: None,
        r.id: rated["rating"] - 1500,
    }
    assert client.get("/api/puzzle/replay/30/mix", headers=ann).json()["replay"]["nb"] == 0
    # the rating chart's history: the start and the one rated try (merged ones are no point)
    assert [x[1] for x in d["history"]] == [1500, rated["rating"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "solutions must be a list"),
        ({"solutions": "x"}, "solutions must be a list"),
        ({"solutions": [3]}, "solutions[0] must be"),
        ({"solutions": [{"win": True, "date": 0}]}, "solutions[0].id"),
        ({"solutions": [{"id": "NOT AN ID", "win": True, "date": 0}]}, "solutions[0].id"),
        ({"solutions": [{"id": "abc", "win": "yes", "date": 0}]}, "solutions[0].win"),
        ({"solutions": [{"id": "abc", "win": True, "fixed": 1, "date": 0}]}, "solutions[0].fixed"),
        ({"solutions": [{"id": "abc", "win": True, "date": -1}]}, "solutions[0].date"),
        ({"solutions": [{"id": "abc", "win": True, "date": 10**15}]}, "solutions[0].date"),
        ({"solutions": [{"id": "abc", "win": True, "date": 0}] * 501}, "at most 500"),
    ],
)
def test_a_batch_that_is_garbage_is_refused(
    client: Any, ann: dict[str, str], body: dict[str, Any], field: str
) -> None:
    r = client.post("/api/puzzle/batch", json=body, headers=ann)
    assert r.status_code == 400 and field in r.json()["error"]


def test_who_may_merge_a_batch(site: Site, client: Any) -> None:
    p = first()
    body = {"solutions": [{"id": p.id, "win": True, "date": int(time.time() * 1000)}]}
    assert client.post("/api/puzzle/batch", json=body).status_code == 401
    bad = {"Authorization": "Bearer nonsense"}
    assert client.post("/api/puzzle/batch", json=body, headers=bad).status_code == 401
    user = site.users.create("cy", "a good password")
    reader = bearer(site.tokens.create(user.id, ("puzzle:read",)))
    assert client.post("/api/puzzle/batch", json=body, headers=reader).status_code == 403
    # a session: the CSRF token needed; the attempts go to that account only
    csrf = session_of(client, "dee")
    origin = {"Origin": HOST}
    assert client.post("/api/puzzle/batch", json=body, headers=origin).status_code == 403
    ok = client.post("/api/puzzle/batch", json=body, headers={**origin, "X-CSRF-Token": csrf})
    assert ok.json() == {"merged": 1}
    assert client.get("/api/puzzle/dashboard/30", headers=reader).json()["global"]["nb"] == 0
    assert client.get("/api/puzzle/dashboard/30").json()["global"]["nb"] == 1


def test_batches_are_limited_per_player(
    site: Site, client: Any, ann: dict[str, str], steady_limits: float
) -> None:
    """A batch is the merge of a browser's history, once a sign-in: a player sending 500
    attempts again and again is refused (429) before the database is asked."""
    from emergo.server.puzzle.http import BATCHES_PER_MINUTE

    t = int(time.time() * 1000)
    body = {"solutions": [{"id": f"zz{i:04d}", "win": True, "date": t} for i in range(500)]}
    for _ in range(BATCHES_PER_MINUTE):
        assert client.post("/api/puzzle/batch", json=body, headers=ann).json() == {"merged": 0}
    r = client.post("/api/puzzle/batch", json=body, headers=ann)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
    other = bearer(site.tokens.create(site.users.create("eve", "a good password").id, SCOPES))
    assert client.post("/api/puzzle/batch", json=body, headers=other).status_code == 200


def test_the_timed_run(client: Any, ann: dict[str, str]) -> None:
    run = client.get("/api/storm?variant=7x7").json()
    assert run["seconds"] == 180 and run["mistake"] == 10 and run["combo"][0] == [5, 3]
    ratings = [p["rating"] for p in run["puzzles"]]
    assert ratings == sorted(ratings)
    solved = [{"id": p["id"], "moves": p["solution"]} for p in run["puzzles"][:2]]
    body = {"solved": solved, "errors": 1, "combo": 4, "time": 180}
    counted = client.post("/api/storm", json=body, headers=ann).json()
    assert counted["score"] == 2 and counted["newHigh"] is True
    high = client.get("/api/storm", headers=ann).json()["high"]
    assert high["score"] == 2 and high["runs"] == 1
    # a visitor's run is counted, not kept; a made-up line is refused
    assert client.post("/api/storm", json=body).json()["score"] == 2
    fake = {"solved": [{"id": solved[0]["id"], "moves": solved[0]["moves"][:1]}]}
    p = run["puzzles"][0]
    if len(p["solution"]) > 1:
        assert client.post("/api/storm", json=fake).status_code == 400
    assert client.post("/api/storm", json={"solved": "x"}).status_code == 400
    # each puzzle says the moves the server's rule takes at each solver's turn (the page
    # judges by them): the solution's moves are right, the last solves it
    for p in run["puzzles"]:
        assert len(p["accepted"]) == (len(p["solution"]) + 1) // 2
        assert all(p["solution"][2 * k] in a for k, a in enumerate(p["accepted"]))
        assert p["accepted"][-1][p["solution"][-1]] == "solved"


def test_the_timed_run_takes_a_transposing_route(site: Site, client: Any) -> None:
    # 621zgx's second move may go round its loop either way (R11): the run's judge takes both
    from emergo.server.puzzle.http import storm_puzzle

    site.puzzles.ensure_shipped()
    p = storm_puzzle(site.puzzles.get("621zgx"))
    assert p["accepted"][1] == {"f6xf8xd8xd6xf6": "right", "f6xd6xd8xf8xf6": "right"}
    line = [*p["solution"][:2], "f6xd6xd8xf8xf6", *p["solution"][3:]]
    run = client.post("/api/storm", json={"solved": [{"id": "621zgx", "moves": line}]})
    assert run.json()["score"] == 1


def test_the_pages(site: Site, client: Any, ann: dict[str, str]) -> None:
    p = first()
    home = client.get("/").text
    assert "Puzzle of the day" in home and 'href="/training/daily"' in home
    assert 'href="/training"' in home  # the header's link
    for path in (
        "/training",
        f"/training/{p.id}",
        "/training/daily",
        "/training/replay",
        "/training/dashboard",
        "/storm",
    ):
        r = client.get(path)
        assert r.status_code == 200 and 'data-page="training"' in r.text, path
    assert "puzzles</a>" not in client.get("/@/ann").text
    client.post(f"/api/puzzle/{p.id}/result", json={"moves": list(p.solution)}, headers=ann)
    profile = client.get("/@/ann").text
    rating = round(site.puzzles.perf(site.users.by_name("ann").id)[0].rating)
    assert 'class="puzzle-rating"' in profile and f">{rating}?<" in profile
