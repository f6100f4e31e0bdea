"""The course of /learn over HTTP: ``GET /api/learn`` and ``POST /api/learn/judge`` (docs/learn.md).

The judge keeps nothing: every request carries the attempt (the level, the moves both sides
played, the mistakes) and the new move or answer; the answer is the verdict with what the page's
board needs.  Bad input of every kind is a clear 4xx, never a 500.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emergo import Board
from emergo.server.core.limits import LocalLimiter
from emergo.server.learn import load_course
from emergo.server.learn.http import MAX_LINE

COURSE = load_course()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """SQLite alone: these requests never reach the database (test_learn_progress.py runs
    both)."""
    return f"sqlite:///{tmp_path / 'online.sqlite3'}"


def judge(client: Any, **fields: Any) -> Any:
    return client.post("/api/learn/judge", json=fields)


def verdict(client: Any, **fields: Any) -> dict[str, Any]:
    r = judge(client, **fields)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# --- GET /api/learn ------------------------------------------------------------------------------


def test_the_course_as_json_with_the_pages_words_and_an_etag(client: Any) -> None:
    r = client.get("/api/learn")
    assert r.status_code == 200
    data = r.json()
    assert [s["id"] for s in data["stages"]] == [s.id for s in COURSE.stages]
    levels = {lv["id"]: lv for s in data["stages"] for lv in s["levels"]}
    assert set(levels) == set(COURSE.levels)
    weak = levels["feed/weak-piece"]
    assert weak["solution"] == ["f4-f5", "h5xf5"] and weak["replies"] == ["e5xg5"]
    assert weak["position"] == "w 0/0 c3:b e5:w3b f4:w h5:w i5:w" and weak["available"] is True
    assert Board(weak["position"]).turn  # a position string the library reads
    # the 3-column tables are not built in the tests' table folder: those levels say so
    missing = {lv for lv, data in levels.items() if not data["available"]}
    assert missing == set(COURSE.unavailable()) and missing
    assert all(levels[lv]["opponent"] == "tables" for lv in missing)
    # the pages' words come from the catalogue, fields unfilled for the page to fill
    assert data["texts"]["in-hand"] == COURSE.catalogue.text("page.in-hand") == "{n} in hand"
    assert data["texts"]["color.black"] == "Black"
    # the same body for everyone: a second request with the tag is answered 304
    tag = r.headers["etag"]
    again = client.get("/api/learn", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["etag"] == tag


def test_the_course_and_the_judge_are_public_alike_for_everyone(client: Any, site: Any) -> None:
    """Anonymous, a token with no scope of its own for them, a session: the same answers (the
    course and a step judged are nobody's; only progress is an account's)."""
    user = site.users.create("ann", "a good password")
    token = site.tokens.create(user.id, ("board:play",))
    ways: list[dict[str, str]] = [{}, {"Authorization": f"Bearer {token}"}]
    answers = []
    for headers in ways:
        assert client.get("/api/learn", headers=headers).status_code == 200
        r = client.post(
            "/api/learn/judge", json={"level": "capture/jump", "move": "d5xf5"}, headers=headers
        )
        assert r.status_code == 200
        answers.append(r.json())
    assert answers[0] == answers[1] and answers[0]["stars"] == 3


# --- POST /api/learn/judge: the verdicts ---------------------------------------------------------


def test_a_level_played_step_by_step_wrong_right_done(client: Any) -> None:
    level = "feed/weak-piece"
    wrong = verdict(client, level=level, moves=[], move="f4-e4")
    assert wrong["status"] == "wrong"
    assert wrong["text"] == COURSE.catalogue.text("verdict.line")
    assert wrong["attempt"] == {"level": level, "moves": [], "mistakes": 1}
    # the wrong move is shown, then taken back: the board is the position before it
    assert [s["move"]["path"] for s in wrong["steps"]] == [["f4", "e4"]]
    assert "e4" in wrong["steps"][0]["pieces"] and "f4" not in wrong["steps"][0]["pieces"]
    assert wrong["board"]["position"] == "w 0/0 c3:b e5:w3b f4:w h5:w i5:w"
    assert any(m["text"] == "f4-f5" for m in wrong["board"]["moves"])
    # the right move in another notation (R21), and the script's reply played after it
    right = verdict(client, level=level, moves=[], mistakes=1, move="f4f5")
    assert right["status"] == "right" and right["move"] == "f4-f5" and right["reply"] == "e5xg5"
    assert [s["move"]["text"] for s in right["steps"]] == ["f4-f5", "e5xg5"]
    assert right["steps"][1]["move"]["kind"] == "capture"
    assert right["attempt"]["moves"] == ["f4-f5", "e5xg5"]
    assert right["board"]["turn"] == "white"
    assert [m["text"] for m in right["board"]["moves"]] == ["h5xf5"]
    done = verdict(client, level=level, moves=right["attempt"]["moves"], mistakes=1, move="h5xf5")
    assert done["status"] == "done" and done["stars"] == 2  # one mistake: a move over par
    assert done["text"] == COURSE.catalogue.text("feed.weak-piece.done")
    assert done["board"]["moves"] == [] or done["board"]["turn"] == "black"


def test_a_refused_move_says_the_rule_and_changes_nothing(client: Any) -> None:
    refused = verdict(client, level="feeding/no-feed", moves=[], move="e4")
    assert refused["status"] == "refused" and refused["steps"] == []
    assert refused["text"].endswith("(R15)") and "not under attack" in refused["text"]
    assert refused["attempt"]["mistakes"] == 0  # a refusal costs nothing
    nonsense = verdict(client, level="feeding/no-feed", moves=[], move="zz9")
    assert nonsense["status"] == "refused" and "not a move" in nonsense["text"]


def test_three_stars_within_par_and_the_checkerboard_s_names(client: Any) -> None:
    done = verdict(client, level="capture/jump", move="d5xf5")
    assert done["status"] == "done" and done["stars"] == 3
    # a level drawn as a checkerboard reads its moves in checkerboard names (R3)
    level = COURSE.levels["board/checkerboard"]
    assert level.names == "checker"
    done = verdict(client, level=level.id, move="h8", names="checker")
    assert done["status"] == "done" and done["move"] == "e8"


def test_a_question_answered_wrong_then_right(client: Any) -> None:
    wrong = verdict(client, level="board/corner-neighbours", answer="2")
    assert wrong["status"] == "wrong" and wrong["attempt"]["mistakes"] == 1
    assert wrong["board"]["pieces"] == {"a5": {"owner": "white", "caps": 1, "prisoners": 0}}
    done = verdict(client, level="board/corner-neighbours", answer=1, mistakes=1)
    assert done["status"] == "done" and done["stars"] == 2
    choice = verdict(client, level="prisoners/owner", answer="Black")  # a choice by its text
    assert choice["status"] == "done" and choice["stars"] == 3
    refused = verdict(client, level="prisoners/owner", answer="green")
    assert refused["status"] == "refused"


@pytest.mark.requires_kernel
def test_against_the_tables_the_reply_is_theirs_and_the_value_is_said(client: Any) -> None:
    level = COURSE.levels["endings/small-two"]
    right = verdict(client, level=level.id, move=level.solution[0])
    assert right["status"] in ("right", "done")
    if right["status"] == "right":
        assert right["reply"] == level.replies[0]
        assert "with best play" in right["text"]


def test_a_level_against_a_bot_is_a_game_and_a_missing_table_is_said(client: Any) -> None:
    r = judge(client, level="middlegames/convert", move="g6-g5")
    assert r.status_code == 409 and "/api/learn/practice" in r.json()["error"]
    missing = COURSE.unavailable()[0]
    r = judge(client, level=missing, move="a1")
    assert r.status_code == 503 and "table" in r.json()["error"]


def test_a_form_body_is_read_too(client: Any) -> None:
    r = client.post(
        "/api/learn/judge",
        data={"level": "feed/weak-piece", "moves": "f4-f5 e5xg5", "mistakes": "0", "move": "h5xf5"},
    )
    assert r.status_code == 200 and r.json()["stars"] == 3


# --- POST /api/learn/judge: bad input is a clear 4xx --------------------------------------------


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"level": "feed/nope", "move": "e4"}, 404, "no level"),
        ({"level": 7, "move": "e4"}, 400, "level must be a level's id"),
        ({"move": "e4"}, 400, "level must be a level's id"),
        ({"level": "feed/weak-piece"}, 400, "send the move"),
        ({"level": "feed/weak-piece", "move": "f4-f5", "answer": "2"}, 400, "one of move"),
        ({"level": "feed/weak-piece", "answer": "2"}, 400, "played with moves"),
        ({"level": "board/corner-neighbours", "move": "a5"}, 400, "a question"),
        ({"level": "feed/weak-piece", "move": "f4\x00f5"}, 400, "U+0000"),
        ({"level": "feed/weak-piece", "move": "f4\nf5"}, 400, "control character"),
        ({"level": "feed/weak-piece", "move": "e" * 201}, 400, "too long"),
        ({"level": "feed/weak-piece", "move": 12}, 400, "a move text"),
        ({"level": "feed/weak-piece", "move": ["f4-f5"]}, 400, "a move text"),
        (
            {"level": "feed/weak-piece", "move": "h5xf5", "moves": ["x"] * (MAX_LINE + 1)},
            400,
            "at most",
        ),
        ({"level": "feed/weak-piece", "move": "h5xf5", "moves": {"a": 1}}, 400, "list of move"),
        ({"level": "feed/weak-piece", "move": "h5xf5", "moves": [1, 2]}, 400, "a move text"),
        ({"level": "feed/weak-piece", "move": "h5xf5", "moves": ["e4"]}, 400, "move 1"),
        ({"level": "feed/weak-piece", "move": "h5xf5", "moves": ["f4-f5"]}, 400, "missing"),
        (
            {"level": "feed/weak-piece", "move": "e4", "moves": ["f4-f5", "e5xg5", "h5xf5"]},
            400,
            "is over",
        ),
        ({"level": "feed/weak-piece", "move": "f4-f5", "mistakes": -1}, 400, "mistakes"),
        ({"level": "feed/weak-piece", "move": "f4-f5", "mistakes": 10**9}, 400, "mistakes"),
        ({"level": "feed/weak-piece", "move": "f4-f5", "mistakes": True}, 400, "mistakes"),
        ({"level": "feed/weak-piece", "move": "f4-f5", "names": "chess"}, 400, "names"),
    ],
)
def test_bad_input_is_refused_saying_what_is_wrong(
    client: Any, fields: dict[str, Any], status: int, said: str
) -> None:
    r = judge(client, **fields)
    assert r.status_code == status, r.text
    assert said in r.json()["error"]


def test_bodies_that_are_not_an_attempt(client: Any) -> None:
    path = "/api/learn/judge"
    surrogate = b'{"level": "feed/weak-piece", "move": "f4\\ud800"}'
    r = client.post(path, content=surrogate, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "Unicode" in r.json()["error"]
    r = client.post(path, content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post(path, content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = client.post(path, content=b"<xml/>", headers={"content-type": "application/xml"})
    assert r.status_code == 415
    r = client.post(path, content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 413
    deep = b'{"level": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = client.post(path, content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    level=st.sampled_from(sorted(COURSE.levels)),
    move=st.text(max_size=12),
    moves=st.lists(st.text(alphabet="abcdefghi123456789x-", max_size=6), max_size=3),
    names=st.sampled_from(["oblique", "checker"]),
)
def test_whatever_is_sent_the_answer_is_never_a_server_error(
    site: Any, client: Any, level: str, move: str, moves: list[str], names: str
) -> None:
    site.local_limits = LocalLimiter()  # many examples a second: under the steps' rate limit
    body = json.dumps({"level": level, "move": move, "moves": moves, "names": names})
    r = client.post(
        "/api/learn/judge",
        content=body.encode("utf-8", "surrogatepass"),
        headers={"content-type": "application/json"},
    )
    assert r.status_code < 500 or (r.status_code == 503 and "table" in r.json()["error"]), r.text
    if r.status_code == 200:
        assert r.json()["status"] in ("refused", "wrong", "right", "done", "failed")
