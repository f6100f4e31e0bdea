"""The store's clocks and studies (migration 0002): a timed game's clocks survive a killed
server, takebacks put back the clocks of the earlier ply, a database made at 0001 is upgraded
by ``emergo serve``, and the analysis board's trees are checked move by move before they are
stored (and come back on a reload, in headless Chromium)."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

import httpx2 as httpx
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from tests.web.conftest import centre, free_port
from tests.web.test_web_games import HOST, HOT_SEAT, receive, start_server, state_at

from emergo.web import studies
from emergo.web.app import create_app
from emergo.web.store import SCHEMA_HEAD, Store

SEVEN = "7x7 w 8/8"


def live_state(base: str, game_id: int) -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}").json()["live"]
    return state


# --- clocks --------------------------------------------------------------------------------------


def test_a_killed_server_resumes_a_timed_game_with_its_clocks(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server(db, port)
    try:
        body = {**HOT_SEAT, "pos": SEVEN, "clock": {"kind": "fischer", "base": 60, "increment": 1}}
        game_id = httpx.post(f"{base}/api/games", json=body).json()["id"]
        for text_, by, think in (("c4", "white", 0.8), ("e5", "black", 1.2), ("b3", "white", 0.4)):
            time.sleep(think)
            r = httpx.post(f"{base}/api/games/{game_id}/move", json={"text": text_, "by": by})
            assert r.status_code == 200, r.text
        acknowledged = r.json()["state"]["clock"]
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    killed = time.monotonic()
    # after three moves: White thought ~1.2 s (+2 s increments), Black ~1.2 s (+1 s)
    assert acknowledged["running"] == "black"
    assert 60.5 < acknowledged["white"] < 61.0 and 59.0 < acknowledged["black"] < 60.0
    process = start_server(db, port)
    try:
        saved = httpx.get(f"{base}/api/games/{game_id}").json()
        assert saved["moves"] == ["c4", "e5", "b3"]
        assert saved["clocks"]["white"] == pytest.approx(acknowledged["white"], abs=0.01)
        clock = saved["live"]["clock"]
        elapsed = time.monotonic() - killed
        assert clock["running"] == "black" and clock["control"] == "60+1"
        # White's clock is stopped: exactly as stored; Black's runs again from its stored time
        assert clock["white"] == pytest.approx(acknowledged["white"], abs=0.01)
        assert acknowledged["black"] - elapsed - 0.2 <= clock["black"] <= acknowledged["black"]
        r = httpx.post(f"{base}/api/games/{game_id}/move", json={"text": "d5", "by": "black"})
        assert r.status_code == 200, r.text
        after = r.json()["state"]["clock"]
        assert after["running"] == "white" and after["black"] > clock["black"]  # + increment
    finally:
        process.terminate()
        process.wait(10)


def test_a_takeback_restores_the_clocks_of_the_earlier_ply(
    app_client: tuple[TestClient, Store], tmp_path: Path
) -> None:
    c, store = app_client
    body = {**HOT_SEAT, "pos": SEVEN, "clock": {"kind": "fischer", "base": 30, "increment": 0}}
    game_id = c.post("/api/games", json=body).json()["id"]
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        receive(ws, "state")
        time.sleep(0.3)
        ws.send_json({"type": "move", "text": "c4", "by": "white"})
        first = state_at(ws, 1)["clock"]
        time.sleep(0.5)
        ws.send_json({"type": "move", "text": "e5", "by": "black"})
        state_at(ws, 2)
        time.sleep(0.4)  # White's time on the move taken back: given back too
        sent = time.monotonic()
        ws.send_json({"type": "takeback", "by": "black"})
        back = state_at(ws, 3)["clock"]
        since = time.monotonic() - sent  # Black's clock runs again from the takeback on
    assert back["running"] == "black"
    assert back["white"] == pytest.approx(first["white"], abs=0.01)
    assert first["black"] - since - 0.01 <= back["black"] <= first["black"] + 0.01
    saved = store.game(game_id)
    assert saved is not None and saved["moves"] == ["c4"]
    assert saved["clocks"]["white"] == pytest.approx(first["white"], abs=0.01)
    assert saved["clocks"]["black"] == pytest.approx(30.0)
    # a server started again on the store resumes from the clocks of that ply
    with TestClient(create_app(store), base_url="http://127.0.0.1:8765") as again:
        clock = again.get(f"/api/games/{game_id}").json()["live"]["clock"]
    assert clock["white"] == pytest.approx(first["white"], abs=0.01)
    assert 29.0 < clock["black"] <= 30.0


# --- migration 0002 ------------------------------------------------------------------------------


def migrate_to(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    import emergo.web.store as store_module

    config = Config()
    folder = Path(store_module.__file__).with_name("migrations")
    config.set_main_option("script_location", str(folder))
    with create_engine(url).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def version_of(connection: Any) -> str:
    return str(connection.execute(text("select version_num from alembic_version")).scalar())


def test_emergo_serve_upgrades_a_database_made_at_0001(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    url = f"sqlite:///{db}"
    migrate_to(url, "0001")
    stamp = "2026-11-01 00:00:00.000000"  # as SQLAlchemy writes a DateTime in SQLite
    with create_engine(url).begin() as connection:
        assert version_of(connection) == "0001"
        connection.execute(
            text(
                "insert into games (id, created, updated, variant, start, white, black, players,"
                " tags, result, termination, version) values (7, :t, :t, '7x7', :start, 'Ann',"
                " 'Bob', :players, :tags, '*', null, 2)"
            ),
            {
                "t": stamp,
                "start": SEVEN,
                "players": json.dumps({"white": {"kind": "human"}, "black": {"kind": "human"}}),
                "tags": json.dumps({"TimeControl": "300+2"}),
            },
        )
        for ply, move in enumerate(["c4", "e5"], 1):
            connection.execute(
                text("insert into moves (game_id, ply, text, created) values (7, :ply, :move, :t)"),
                {"ply": ply, "move": move, "t": stamp},
            )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server(db, port)
    try:
        assert httpx.get(f"{base}/api/store").json() == {"schema": SCHEMA_HEAD, "head": "0002"}
        assert SCHEMA_HEAD == "0002"
        saved = httpx.get(f"{base}/api/games/7").json()
        assert saved["moves"] == ["c4", "e5"] and saved["clocks"] is None  # none stored at 0001
        live = saved["live"]
        assert live["state"]["turn"] == "white" and live["clock"]["control"] == "300+2"
        assert 299.0 < live["clock"]["white"] <= 300.0  # full clocks: nothing better is known
        r = httpx.post(f"{base}/api/games/7/move", json={"text": "b3", "by": "white"})
        assert r.status_code == 200, r.text
        assert httpx.get(f"{base}/api/games/7").json()["clocks"]["white"] > 300.0  # stored now
    finally:
        process.terminate()
        process.wait(10)
    with create_engine(url).connect() as connection:
        assert version_of(connection) == "0002"


# --- studies -------------------------------------------------------------------------------------

TREE = [
    {"move": "c4", "children": [{"move": "e5", "children": [{"move": "b3"}]}, {"move": "E3"}]},
    {"move": "b3"},
]


def test_a_study_is_stored_listed_replaced_and_deleted(
    app_client: tuple[TestClient, Store],
) -> None:
    c, _ = app_client
    r = c.post("/api/studies", json={"start": SEVEN, "tree": TREE})
    assert r.status_code == 201, r.text
    study_id = r.json()["id"]
    assert r.json()["nodes"] == 5
    listed = c.get("/api/studies").json()["studies"]
    assert [(s["id"], s["nodes"], s["variant"]) for s in listed] == [(study_id, 5, "7x7")]
    got = c.get(f"/api/studies/{study_id}").json()
    assert got["start"] == SEVEN
    first = got["tree"][0]
    assert first["move"]["text"] == "c4" and first["move"]["kind"] == "enter"
    assert [n["move"]["text"] for n in first["children"]] == ["e5", "e3"]  # canonical text
    assert first["children"][0]["children"][0]["move"]["text"] == "b3"
    r = c.put(f"/api/studies/{study_id}", json={"start": SEVEN, "tree": TREE[:1]})
    assert r.status_code == 200 and r.json()["nodes"] == 4
    assert c.get("/api/studies").json()["studies"][0]["nodes"] == 4
    assert c.delete(f"/api/studies/{study_id}").json() == {"deleted": study_id}
    assert c.get(f"/api/studies/{study_id}").status_code == 404
    assert c.put(f"/api/studies/{study_id}", json={"start": SEVEN, "tree": []}).status_code == 404


@pytest.mark.parametrize(
    ("tree", "path", "says"),
    [
        ("c4 e5", None, "tree must be a list"),
        ([{"move": "c4"}, {"move": "zz"}], [1], "'zz' is not a move"),
        ([{"move": "c4", "children": [{"move": "c4"}]}], [0, 0], "occupied"),
        ([{"move": "c4"}, {"move": "C4"}], [1], "c4 is there twice"),
        ([{"move": "c4", "children": [{"move": "e5"}, {"text": "e3"}]}], [0, 1], "must be"),
        ([{"move": "c4", "children": {"move": "e5"}}], [0], "children must be a list"),
        ([{"move": 5}], [0], "must be"),
    ],
)
def test_bad_trees_are_refused_and_change_nothing(
    app_client: tuple[TestClient, Store], tree: Any, path: list[int] | None, says: str
) -> None:
    c, _ = app_client
    study_id = c.post("/api/studies", json={"start": SEVEN, "tree": TREE}).json()["id"]
    for r in (
        c.post("/api/studies", json={"start": SEVEN, "tree": tree}),
        c.put(f"/api/studies/{study_id}", json={"start": SEVEN, "tree": tree}),
    ):
        assert r.status_code == 400, r.text
        assert says in r.json()["error"] and r.json().get("path") == path
    assert [s["id"] for s in c.get("/api/studies").json()["studies"]] == [study_id]
    assert c.get(f"/api/studies/{study_id}").json()["nodes"] == 5  # the old tree is whole


def test_study_limits_and_bad_starts(
    app_client: tuple[TestClient, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    c, _ = app_client
    r = c.post("/api/studies", json={"start": "w 99/99", "tree": []})
    assert r.status_code == 400 and "invalid position" in r.json()["error"]
    assert c.post("/api/studies", json={"tree": []}).status_code == 400
    for blank in ("", "  "):  # no default start: a study names its position
        r = c.post("/api/studies", json={"start": blank, "tree": []})
        assert r.status_code == 400 and "start must be a position" in r.json()["error"]
    assert c.post("/api/studies", json={"start": SEVEN, "tree": [], "name": 5}).status_code == 400
    monkeypatch.setattr(studies, "MAX_NODES", 4)
    r = c.post("/api/studies", json={"start": SEVEN, "tree": TREE})
    assert r.status_code == 413 and "at most 4 moves" in r.json()["error"]
    monkeypatch.setattr(studies, "MAX_NODES", 5000)
    monkeypatch.setattr(studies, "MAX_DEPTH", 2)
    r = c.post("/api/studies", json={"start": SEVEN, "tree": TREE})
    assert r.status_code == 400 and r.json()["path"] == [0, 0, 0]
    assert c.get("/api/studies").json()["studies"] == []
    assert c.get("/api/studies/x").status_code == 404


# --- the page ------------------------------------------------------------------------------------


def test_the_page_saves_its_tree_and_a_reload_brings_it_back(page: Any, server: str) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    page.goto(f"{server}/?pos=7x7%20w%208/8&moves=c4%20e5&animation=0&names=oblique&view=diamond")
    page.wait_for_selector("html[data-ready='1']")

    def enter(square: str) -> None:
        page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{square}']")))
        expect(page.locator("#moves button.current")).to_have_text(square)

    page.click("#moves button[data-ply='1']")  # back to 1. c4: another reply, a variation
    enter("e3")
    enter("b5")
    page.wait_for_url(re.compile(r"\?study=\d+"))
    page.wait_for_selector("html[data-study='saved']")
    study_id = int(page.url.split("study=")[1])
    expect(page.locator(f"#games li[data-study='{study_id}']")).to_contain_text("Study")
    page.reload()
    page.wait_for_selector("html[data-ready='1']")
    assert page.url.endswith(f"?study={study_id}")
    mains = [t.strip() for t in page.locator("#moves button.main").all_inner_texts()]
    assert mains == ["c4", "e5"]
    vline = page.locator("#moves .variation .vline")
    expect(vline).to_have_text(re.compile(r"^1\.\.\.\s*e3\s*2\.\s*b5$"))
    # an edit after the reload goes into the same study
    page.click("#moves button.main[data-ply='2']")
    enter("b3")
    page.wait_for_selector("html[data-study='saved']")
    assert page.url.endswith(f"?study={study_id}")
    saved = httpx.get(f"{server}/api/studies/{study_id}").json()
    assert saved["nodes"] == 5
