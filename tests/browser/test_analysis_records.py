"""What the page keeps in records and studies (issue 18): hand-written comments and move marks,
the result with its reason of an imported record, today's date on an exported one."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

RESIGNED = """[Event "t"]
[Result "0-1"]
[Termination "resignation"]

1. d7!? e1 {a quiet reply} 2. c7?? 0-1
"""


def test_import_gives_marks_comments_and_the_result_with_its_reason(
    app_client: tuple[Any, Any],
) -> None:
    client, _ = app_client
    r = client.post("/api/record/import", json={"text": RESIGNED})
    assert r.status_code == 200, r.text
    game = r.json()["games"][0]
    assert game["marks"] == {"1": "!?", "3": "??"}
    assert game["comments"] == {"2": "a quiet reply"}
    assert game["outcome"]["result"] == "0-1"
    assert game["outcome"]["reason"] == "White resigned (R20)"
    # an unfinished record has no outcome
    r = client.post("/api/record/import", json={"text": "1. d7 e1 *\n"})
    assert r.json()["games"][0]["outcome"] is None


def test_export_writes_comments_marks_and_todays_date(app_client: tuple[Any, Any]) -> None:
    client, _ = app_client
    comments = {"0": "a game", "2": "the edge"}
    body = {"moves": ["d7", "e1"], "comments": comments, "marks": {"1": "!"}}
    r = client.post("/api/record/export", json=body)
    assert r.status_code == 200, r.text
    text = r.json()["text"]
    assert "{a game} 1. d7! e1 {the edge} *" in text
    assert f'[Date "{dt.date.today():%Y.%m.%d}"]' in text  # not ????.??.??
    kept = client.post("/api/record/export", json={**body, "tags": {"Date": "1986.??.??"}})
    assert '[Date "1986.??.??"]' in kept.json()["text"]
    bad_bodies = ({"marks": {"1": "!!!"}}, {"marks": {"x": "!"}}, {"comments": ["a"]})
    for bad in (*bad_bodies, {"comments": {"1": "a\u0000b"}}):
        assert client.post("/api/record/export", json={"moves": ["d7"], **bad}).status_code == 400


def test_studies_keep_comments_and_marks(app_client: tuple[Any, Any]) -> None:
    client, _ = app_client
    csrf = client.get("/api/account").json()["csrf"]  # local mode: the player is signed in
    page = {"Origin": "http://127.0.0.1:8765", "X-CSRF-Token": csrf}
    r = client.post("/api/study", json={"record": "1. d7!? {first} e1 *\n"}, headers=page)
    assert r.status_code == 201, r.text
    sid, cid = r.json()["id"], r.json()["chapters"][0]["id"]
    node = client.get(f"/api/study/{sid}/{cid}").json()["tree"]["children"][0]
    assert (node["nags"], node["comment"], node["info"]["text"]) == ([5], "first", "d7")
    assert "nags" not in node["children"][0] and "comment" not in node["children"][0]
    path = f"/api/study/{sid}/{cid}"
    bad_nodes = ({"nags": [256]}, {"comment": "a } b"}, {"comment": 3}, {"comment": "x" * 2001})
    for bad in (*bad_nodes, {"comment": "a\u0000b"}, {"comment": "\ud800"}):
        body = json.dumps({"edits": [{"op": "set", "path": [0], **bad}]})  # \ud800 escaped
        r = client.post(path, content=body, headers={**page, "content-type": "application/json"})
        assert r.status_code == 400, (bad, r.text)
    # a comment of two lines is one line of a record's comment, as the reader reads it
    r = client.post(
        path, json={"edits": [{"op": "set", "path": [0], "comment": "two\nlines"}]}, headers=page
    )
    assert r.status_code == 200
    assert client.get(path).json()["tree"]["children"][0]["comment"] == "two lines"
