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
    tree = [{"move": "d7", "mark": "!?", "comment": "first", "children": [{"move": "e1"}]}]
    r = client.post("/api/studies", json={"start": "w 12/12", "tree": tree})
    assert r.status_code == 201, r.text
    study = client.get(f"/api/studies/{r.json()['id']}").json()
    node = study["tree"][0]
    assert (node["mark"], node["comment"], node["move"]["text"]) == ("!?", "first", "d7")
    assert "mark" not in node["children"][0] and "comment" not in node["children"][0]
    bad_nodes = ({"mark": "!!!"}, {"comment": "a } b"}, {"comment": 3}, {"comment": "x" * 1001})
    for bad in (*bad_nodes, {"comment": "two\nlines"}, {"comment": "\ud800"}):
        body = json.dumps({"start": "w 12/12", "tree": [{"move": "d7", **bad}]})  # \ud800 escaped
        r = client.post("/api/studies", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json().get("path", [0]) == [0], r.text  # (or the door)
