"""Studies over HTTP, on SQLite and PostgreSQL: a record imported into a study exports byte for
byte; edits by node path keep the rest of the text as written; who may read and change what
(the owner by session or token, another account, a visitor, a token with and without the
study scopes) on every endpoint; bad input refused with a reason and nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest

from emergo import record
from emergo.server.site import Site
from tests.plugins.common import ROOT
from tests.plugins.site import HOST, session_of

RECORDS = ROOT / "tests" / "data" / "records"
ANNOTATED = (RECORDS / "annotated.egn").read_text(encoding="utf-8")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def ann(site: Site) -> dict[str, Any]:
    """Ann's tokens: both study scopes, each alone, neither."""
    user = site.users.create("ann", "a good password")
    make = site.tokens.create
    return {
        "user": user,
        "rw": bearer(make(user.id, ("study:read", "study:write"))),
        "read": bearer(make(user.id, ("study:read",))),
        "write": bearer(make(user.id, ("study:write",))),
        "none": bearer(make(user.id, ("board:play",))),
    }


@pytest.fixture
def bob(site: Site) -> dict[str, str]:
    """Another account, with every study scope."""
    user = site.users.create("bob", "a good password")
    return bearer(site.tokens.create(user.id, ("study:read", "study:write")))


def make_study(client: Any, headers: dict[str, str], **fields: Any) -> dict[str, Any]:
    r = client.post("/api/study", json=fields, headers=headers)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def chapter_of(client: Any, study: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    cid = study["chapters"][0]["id"]
    r = client.get(f"/api/study/{study['id']}/{cid}", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


def edit(client: Any, study: dict[str, Any], headers: dict[str, str], **body: Any) -> Any:
    cid = study["chapters"][0]["id"]
    return client.post(f"/api/study/{study['id']}/{cid}", json=body, headers=headers)


# --- records in, records out --------------------------------------------------------------------


def test_the_same_record_imports_into_a_study_and_exports_unchanged(
    client: Any, ann: dict[str, Any]
) -> None:
    study = make_study(client, ann["rw"], name="Annotated", record=ANNOTATED)
    cid = study["chapters"][0]["id"]
    assert study["chapters"][0]["nodes"] == 16 and study["chapters"][0]["name"] == "Ann – Bob"
    for path in (f"/study/{study['id']}/{cid}.egn", f"/api/study/{study['id']}/{cid}.egn"):
        r = client.get(path, headers=ann["rw"])
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/x-emergo-record")
        assert r.content == ANNOTATED.encode("utf-8")  # byte for byte
    # the whole study of a file of games: each game a chapter, and the file back
    canonical = (RECORDS / "canonical.egn").read_text(encoding="utf-8")
    many = make_study(client, ann["rw"], name="Five", record=canonical)
    assert len(many["chapters"]) == 5
    assert client.get(f"/study/{many['id']}.egn", headers=ann["rw"]).text == canonical


def test_a_chapter_is_the_record_as_a_tree_with_each_moves_route(
    client: Any, ann: dict[str, Any]
) -> None:
    study = make_study(client, ann["rw"], record=ANNOTATED)
    data = chapter_of(client, study, ann["rw"])
    tree = data["tree"]
    assert tree == {
        **record.read_game(ANNOTATED).to_json(),
        "children": tree["children"],
        "start": "w 12/12",
        "turn": "white",
        "outcome": None,
    }
    d7 = tree["children"][0]
    assert d7["move"] == "d7" and d7["info"]["path"] == ["d7"] and d7["clock"] == 300.0
    e1 = d7["children"][0]
    assert (e1["nags"], e1["comment"]) == ([6], "Black goes to the edge.")
    assert [c["move"] for c in d7["children"]] == ["e1", "e9", "f2", "c3", "a5"]
    assert data["study"]["mine"] is True and isinstance(data["rev"], float)


def test_edits_by_node_path_change_only_what_they_edit(client: Any, ann: dict[str, Any]) -> None:
    study = make_study(client, ann["rw"], record=ANNOTATED)
    rev = chapter_of(client, study, ann["rw"])["rev"]
    edits = [
        {"op": "add", "path": [0, 0, 0, 0, 0, 0], "move": "a5"},  # after 3... h4: 4. a5
        {"op": "set", "path": [0, 0, 0, 0, 0, 0, 0], "comment": "a new  move", "nags": [3]},
        {"op": "set", "path": [0, 3], "shapes": [{"orig": "c3", "dest": "e5", "brush": "red"}]},
        {"op": "add", "path": [0], "move": "e1"},  # there already: nothing
    ]
    r = edit(client, study, ann["rw"], rev=rev, edits=edits)
    assert r.status_code == 200, r.text
    assert r.json()["nodes"] == 17 and r.json()["rev"] > rev
    cid = study["chapters"][0]["id"]
    text = client.get(f"/study/{study['id']}/{cid}.egn", headers=ann["rw"]).text
    lines = ANNOTATED.splitlines()
    assert text.splitlines()[:15] == lines[:15]  # the tags, remarks and the rest as written
    assert "( 1... c3 {[%cal Rc3e5]} )" in text
    assert text.endswith("3... h4 4. a5!! {a new move} *\n")
    # delete and promote: the tree the page shows
    r = edit(client, study, ann["rw"], edits=[{"op": "promote", "path": [0, 1]}])
    assert r.status_code == 200, r.text
    tree = chapter_of(client, study, ann["rw"])["tree"]
    assert [c["move"] for c in tree["children"][0]["children"]] == ["e9", "e1", "f2", "c3", "a5"]
    r = edit(client, study, ann["rw"], edits=[{"op": "delete", "path": [0, 4]}])
    assert r.status_code == 200 and r.json()["nodes"] == 16
    # tags: set and removed (a roster tag goes back to "?"); the moves' own cannot change
    tags = {"White": "Zoë", "Round": None, "Annotator": None}
    r = edit(client, study, ann["rw"], edits=[{"op": "tags", "tags": tags}])
    assert r.status_code == 200, r.text
    text = client.get(f"/study/{study['id']}/{cid}.egn", headers=ann["rw"]).text
    assert '[White "Zoë"]' in text and '[Round "?"]' in text and "Annotator" not in text
    r = edit(client, study, ann["rw"], edits=[{"op": "tags", "tags": {"Variant": "7x7"}}])
    assert r.status_code == 400 and "Variant" in r.json()["error"]


def test_an_edit_on_an_old_revision_is_refused(client: Any, ann: dict[str, Any]) -> None:
    study = make_study(client, ann["rw"])
    rev = chapter_of(client, study, ann["rw"])["rev"]
    first = edit(client, study, ann["rw"], rev=rev, edits=[{"op": "add", "path": [], "move": "d4"}])
    assert first.status_code == 200
    stale = edit(client, study, ann["rw"], rev=rev, edits=[{"op": "add", "path": [], "move": "e4"}])
    assert stale.status_code == 409 and stale.json()["rev"] == first.json()["rev"]
    tree = chapter_of(client, study, ann["rw"])["tree"]
    assert [c["move"] for c in tree["children"]] == ["d4"]  # the stale edit changed nothing


def test_export_flags_leave_out_comments_variations_and_clocks(
    client: Any, ann: dict[str, Any]
) -> None:
    study = make_study(client, ann["rw"], record=ANNOTATED)
    cid = study["chapters"][0]["id"]
    base = f"/api/study/{study['id']}/{cid}.egn"
    bare = client.get(base + "?comments=false&variations=false&clocks=false", headers=ann["rw"])
    game = record.read_game(bare.text)
    assert [str(m) for m in game.mainline_moves()] == ["d7", "e1", "c7", "f2", "g7", "h4"]
    assert "{" not in bare.text and "(" not in bare.text.split("\n\n", 1)[1]
    clocks = client.get(base + "?clocks=false", headers=ann["rw"]).text
    assert "[%clk" not in clocks and "[%eval" in clocks and "(" in clocks
    assert client.get(base + "?comments=maybe", headers=ann["rw"]).status_code == 400


def test_chapters_are_added_from_records_and_positions_and_deleted(
    client: Any, ann: dict[str, Any]
) -> None:
    study = make_study(client, ann["rw"], name="Openings", pos="7x7 w 8/8", chapter="Small")
    assert study["chapters"][0]["name"] == "Small" and study["chapters"][0]["variant"] == "7x7"
    r = client.post(
        f"/api/study/{study['id']}/import",
        json={"pgn": "1. d7 e1 *\n\n1. c7 *\n"},
        headers=ann["rw"],
    )
    assert r.status_code == 200, r.text
    assert [c["name"] for c in r.json()["chapters"]] == ["Chapter 2", "Chapter 3"]
    r = client.post(
        f"/api/study/{study['id']}/import",
        json={"pos": "hex w 12/12", "name": "Hex"},
        headers=ann["rw"],
    )
    assert r.status_code == 200 and r.json()["chapters"][0]["variant"] == "hex"
    chapters = client.get(f"/api/study/{study['id']}", headers=ann["rw"]).json()["chapters"]
    assert [c["name"] for c in chapters] == ["Small", "Chapter 2", "Chapter 3", "Hex"]
    for c in chapters[1:]:
        assert (
            client.delete(f"/api/study/{study['id']}/{c['id']}", headers=ann["rw"]).status_code
            == 200
        )
    last = client.delete(f"/api/study/{study['id']}/{chapters[0]['id']}", headers=ann["rw"])
    assert last.status_code == 400 and "at least one chapter" in last.json()["error"]
    r = client.post(
        f"/api/study/{study['id']}",
        json={"name": "Renamed", "visibility": "public"},
        headers=ann["rw"],
    )
    assert r.json()["name"] == "Renamed" and r.json()["visibility"] == "public"
    assert client.delete(f"/api/study/{study['id']}", headers=ann["rw"]).status_code == 200
    assert client.get(f"/api/study/{study['id']}", headers=ann["rw"]).status_code == 404


# --- who may read and change what ---------------------------------------------------------------


def _reads(client: Any, study: dict[str, Any]) -> list[str]:
    sid, cid = study["id"], study["chapters"][0]["id"]
    return [
        f"/api/study/{sid}",
        f"/api/study/{sid}/{cid}",
        f"/api/study/{sid}.egn",
        f"/api/study/{sid}/{cid}.egn",
        f"/study/{sid}.egn",
        f"/study/{sid}/{cid}.egn",
        f"/study/{sid}",
        f"/study/{sid}/{cid}",
    ]


@pytest.mark.parametrize("visibility", ["private", "unlisted", "public"])
def test_who_may_read_a_study(
    client: Any, ann: dict[str, Any], bob: dict[str, str], visibility: str
) -> None:
    study = make_study(client, ann["rw"], visibility=visibility, record="1. d7 e1 *\n")
    open_to_all = visibility != "private"
    for path in _reads(client, study):
        assert client.get(path, headers=ann["rw"]).status_code == 200, path
        assert client.get(path, headers=ann["read"]).status_code == 200, path
        for who in (bob, {}, ann["write"], ann["none"]):
            status = client.get(path, headers=who).status_code
            assert status == (200 if open_to_all else 403), (path, who, status)
    # a private study says so to others, and names no move
    r = client.get(f"/api/study/{study['id']}", headers=bob)
    if not open_to_all:
        assert "private" in r.json()["error"] and "d7" not in r.text
    # listed: the public ones to everyone, every one to its owner
    listed = client.get("/api/study/by/ann").json()["studies"]
    assert [s["id"] for s in listed] == ([study["id"]] if visibility == "public" else [])
    assert [
        s["id"] for s in client.get("/api/study/by/ann", headers=ann["read"]).json()["studies"]
    ] == [study["id"]]
    assert client.get("/api/study/by/nobody").status_code == 404


def test_who_may_change_a_study(client: Any, ann: dict[str, Any], bob: dict[str, str]) -> None:
    study = make_study(client, ann["rw"], visibility="public", record="1. d7 e1 *\n")
    sid, cid = study["id"], study["chapters"][0]["id"]
    changes = [
        ("post", f"/api/study/{sid}", {"name": "x"}),
        ("post", f"/api/study/{sid}/import", {"pos": "w 12/12"}),
        ("post", f"/api/study/{sid}/{cid}", {"edits": [{"op": "add", "path": [], "move": "c7"}]}),
        ("delete", f"/api/study/{sid}/{cid}", None),
        ("delete", f"/api/study/{sid}", None),
        ("post", "/api/study", {"name": "mine"}),
    ]
    for method, path, body in changes:
        for who, status in ((bob, 403), ({}, 401), (ann["read"], 403), (ann["none"], 403)):
            if path == "/api/study" and who is bob:
                continue  # anyone signed in with study:write makes a study of his own
            r = client.request(method, path, json=body, headers=who)
            assert r.status_code == status, (method, path, who, r.status_code, r.text)
    assert client.get(f"/api/study/{sid}").json()["name"] == "Study"  # nothing changed
    assert chapter_of(client, study)["nodes"] == 2
    assert make_study(client, bob)["owner"] == "bob"
    # the owner's write token (no read scope) changes it
    r = client.post(f"/api/study/{sid}", json={"name": "by token"}, headers=ann["write"])
    assert r.status_code == 200


def test_a_session_changes_its_study_with_its_csrf_token(client: Any) -> None:
    csrf = session_of(client, "carol")
    page = {"Origin": HOST, "X-CSRF-Token": csrf}
    r = client.post("/api/study", json={"name": "Mine", "record": "1. d7 *\n"}, headers=page)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert (
        client.post(f"/api/study/{sid}", json={"name": "x"}, headers={"Origin": HOST}).status_code
        == 403
    )
    assert (
        client.post("/api/study", json={"name": "x"}, headers={"X-CSRF-Token": csrf}).status_code
        == 403
    )
    assert client.get(f"/api/study/{sid}").json()["visibility"] == "private"  # the session reads it
    # the form of /study makes one too, then shows it
    r = client.post(
        "/study",
        data={"name": "From the form", "visibility": "unlisted", "record": "", "csrf": csrf},
        headers={"Origin": HOST},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/study/")
    assert "From the form" in client.get("/study").text


# --- bad input ----------------------------------------------------------------------------------

BAD_EDITS: list[Any] = [
    "add d4",
    [{"op": "fly", "path": []}],
    [{"op": "add", "path": [5], "move": "d4"}],
    [{"op": "add", "path": "0", "move": "d4"}],
    [{"op": "add", "path": [-1], "move": "d4"}],
    [{"op": "add", "path": [True], "move": "d4"}],
    [{"op": "add", "path": [], "move": "e5"}],  # the centre on the first move (R16)
    [{"op": "add", "path": [], "move": "zz"}],
    [{"op": "add", "path": [], "move": 4}],
    [{"op": "delete", "path": []}],
    [{"op": "set", "path": [0], "comment": "a } b"}],
    [{"op": "set", "path": [0], "comment": "[%clk 0:01:00] sneaky"}],
    [{"op": "set", "path": [0], "comment": "a\u0000b"}],
    [{"op": "set", "path": [0], "comment": "x" * 2001}],
    [{"op": "set", "path": [0], "comment": 3}],
    [{"op": "set", "path": [0], "nags": [256]}],
    [{"op": "set", "path": [0], "nags": "!"}],
    [{"op": "set", "path": [], "nags": [1]}],
    [{"op": "set", "path": [0], "shapes": [{"orig": "a9", "brush": "red"}]}],
    [{"op": "set", "path": [0], "shapes": [{"orig": "d7", "brush": "pink"}]}],
    [{"op": "set", "path": [0], "clock": -1}],
    [{"op": "set", "path": [0], "eval": {"kind": "cp", "value": "much"}}],
    [{"op": "set", "path": [0], "colour": "red"}],
    [{"op": "tags", "tags": {"White": "two\nlines"}}],
    [{"op": "tags", "tags": {"bad name": "x"}}],
    [
        {"op": "tags", "tags": {"Result": "1-0"}, "path": []},
        {"op": "add", "path": [9], "move": "d4"},
    ],
    [{"op": "add", "path": [], "move": "d4"}] * 201,
]


def test_bad_edits_are_refused_and_change_nothing(client: Any, ann: dict[str, Any]) -> None:
    study = make_study(client, ann["rw"], record="1. d7 e1 *\n")
    before = chapter_of(client, study, ann["rw"])
    for bad in BAD_EDITS:
        r = edit(client, study, ann["rw"], edits=bad)
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"], bad
    after = chapter_of(client, study, ann["rw"])
    assert after["tree"] == before["tree"] and after["rev"] == before["rev"]
    for rev in ("old", True):
        assert edit(client, study, ann["rw"], rev=rev, edits=[]).status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        {"name": "a\u0000b"},
        {"name": "x" * 101},
        {"name": 5},
        {"visibility": "secret"},
        {"record": "1. e5 *\n"},  # the centre on the first move (R16)
        {"record": "1. d7 {never closed\n"},
        {"record": "just words"},
        {"record": "1. d7 *\n" * 65},  # more games than a study holds chapters
        {"pos": "w 13/12"},
        {"pos": "hello"},
        {"record": 7},
    ],
)
def test_bad_studies_are_refused(client: Any, ann: dict[str, Any], body: dict[str, Any]) -> None:
    r = client.post("/api/study", json=body, headers=ann["rw"])
    assert r.status_code == 400, (body, r.text)
    assert client.get("/api/study/by/ann", headers=ann["rw"]).json()["studies"] == []


def test_lone_surrogates_nul_bytes_and_huge_bodies(client: Any, ann: dict[str, Any]) -> None:
    study = make_study(client, ann["rw"], record="1. d7 *\n")
    cid = study["chapters"][0]["id"]
    raw = {"content-type": "application/json", **ann["rw"]}
    surrogate = '{"edits": [{"op": "set", "path": [0], "comment": "\\ud800"}]}'
    r = client.post(f"/api/study/{study['id']}/{cid}", content=surrogate, headers=raw)
    assert r.status_code == 400, r.text
    r = client.post("/api/study", content='{"name": "\\udfff"}', headers=raw)
    assert r.status_code == 400
    r = client.post("/api/study", content=b'{"record": "1. d7 \x00 *"}', headers=raw)
    assert r.status_code == 400
    huge = json.dumps({"record": "1. d7 *\n" + "{" + "x" * 70_000 + "}"})
    assert client.post("/api/study", content=huge, headers=raw).status_code == 413
    assert client.post("/api/study", content=b"{not json", headers=raw).status_code == 400
    assert client.post("/api/study", content=b"[1, 2]", headers=raw).status_code == 400
    for path in ("/api/study/xx", "/api/study/xxxxxxxx", f"/api/study/{study['id']}/nochapter"):
        assert client.get(path, headers=ann["rw"]).status_code == 404
    assert chapter_of(client, study, ann["rw"])["nodes"] == 1


def test_a_chapter_holds_at_most_its_moves(
    client: Any, ann: dict[str, Any], monkeypatch: Any
) -> None:
    from emergo.server.study import chapters

    monkeypatch.setattr(chapters, "MAX_NODES", 3)
    study = make_study(client, ann["rw"], record="1. d7 e1 2. c7 *\n")
    r = edit(client, study, ann["rw"], edits=[{"op": "add", "path": [0, 0, 0], "move": "f2"}])
    assert r.status_code == 400 and "at most 3 moves" in r.json()["error"]
    r = client.post("/api/study", json={"record": "1. d7 e1 2. c7 f2 *\n"}, headers=ann["rw"])
    assert r.status_code == 400


def test_the_api_is_described(client: Any) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in (
        "/api/study",
        "/api/study/{id}",
        "/api/study/{id}/{chapter}",
        "/api/study/{id}/{chapter}.egn",
    ):
        assert path in paths
    assert paths["/api/study/{id}/{chapter}"]["post"]["security"] == [{"bearer": ["study:write"]}]
