"""The web app's HTTP and WebSocket API with real requests: answers, errors, Host/Origin checks,
security headers, the store.  No browser needed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from emergo.web.app import create_app
from emergo.web.security import CSP, MAX_BODY
from emergo.web.store import SCHEMA_HEAD, Store

BASE = "http://127.0.0.1:8765"
HOST = {"host": "127.0.0.1:8765"}
INVENTOR = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{tmp_path_factory.mktemp('api') / 'db.sqlite3'}")
    yield s
    s.close()


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store), base_url=BASE) as c:
        yield c


def test_position_has_moves_routes_and_reasons(client: TestClient) -> None:
    r = client.get("/api/position", params={"pos": "w 12/12", "moves": "d4"})
    assert r.status_code == 200
    data = r.json()
    assert data["position"] == "w 11/11 d4:w" or data["turn"] == "black"
    assert data["phase"] == "enter"
    assert data["forbidden"]["d5"]["oblique"].endswith("(R15)")
    assert all(m["kind"] == "enter" for m in data["moves"])
    assert data["lastMove"]["path"] == ["d4"]
    assert len(data["geometry"]["squares"]) == 41


def test_capture_routes_both_namings(client: TestClient) -> None:
    data = client.get("/api/position", params={"pos": INVENTOR, "moves": "hd4x"}).json()
    assert data["phase"] == "capture"
    assert [m["path"] for m in data["moves"]] == [["e4", "c4", "c6", "e6", "e4", "c4"]]
    assert data["moves"][0]["checker"] == "d4xb6xd8xf6xd4xb6"
    assert data["pieces"]["d4"] == {"owner": "black", "caps": 2, "prisoners": 2}
    assert "must capture" in data["required"]


def test_move_parses_any_notation_and_explains(client: TestClient) -> None:
    r = client.post("/api/move", json={"pos": INVENTOR, "text": "hd4x"})
    assert r.status_code == 200
    assert r.json()["move"]["text"] == "h4xf4xd4"
    r = client.post("/api/move", json={"pos": INVENTOR, "moves": ["hd4x"], "text": "e4xc4"})
    assert r.status_code == 400
    assert r.json()["kind"] == "illegal"
    assert "(R11)" in r.json()["error"]
    r = client.post("/api/move", json={"pos": "w 12/12", "text": "e5"})
    assert "(R16)" in r.json()["error"]
    r = client.post("/api/move", json={"pos": "w 0/0 e5:w2 e6:b d7:b f7:b b5:b", "text": "e5x"})
    assert r.status_code == 400
    assert r.json()["kind"] == "ambiguous"
    assert r.json()["candidates"] == ["e5xe7xc7", "e5xe7xg7"]


def test_analyse_is_bounded(client: TestClient) -> None:
    r = client.post("/api/analyse", json={"pos": "w 12/12", "time": 0.2, "multipv": 2})
    assert r.status_code == 200
    lines = r.json()["lines"]
    assert [line["multipv"] for line in lines] == [1, 2]
    assert lines[0]["pv"][0]["kind"] == "enter"
    for bad in ({"time": 0}, {"time": 1e9}, {"multipv": 0}, {"depth": "x"}, {"time": True}):
        r = client.post("/api/analyse", json={"pos": "w 12/12", **bad})
        assert r.status_code == 400, bad


def test_analysis_websocket_streams_and_stops(client: TestClient) -> None:
    with client.websocket_connect("/ws/analyse", headers=HOST) as ws:
        ws.send_json({"type": "start", "pos": "w 12/12", "infinite": True, "multipv": 2})
        assert ws.receive_json()["type"] == "info"
        ws.send_json({"type": "stop"})
        while (message := ws.receive_json())["type"] != "done":
            assert message["type"] == "info"
        assert message["lines"]
        ws.send_text("not json")
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "start", "pos": "nonsense"})
        assert "invalid position" in ws.receive_json()["error"]


def test_records_round_trip(client: TestClient) -> None:
    r = client.post("/api/record/export", json={"pos": INVENTOR, "moves": "hd4x e4-c4-c6-e6-e4-c4"})
    text = r.json()["text"]
    assert "1... h4xf4xd4 2. e4xc4xc6xe6xe4xc4 1-0" in text
    games = client.post("/api/record/import", json={"text": text}).json()["games"]
    assert games[0]["start"] == INVENTOR
    assert [m["text"] for m in games[0]["moves"]] == ["h4xf4xd4", "e4xc4xc6xe6xe4xc4"]
    r = client.post("/api/record/import", json={"text": "[White nonsense"})
    assert r.status_code == 200
    assert r.json()["games"][0]["errors"]  # read as far as it goes, the problem said
    r = client.post("/api/record/import", json={"text": "1. d4 e5 2. zz *\n"})
    game = r.json()["games"][0]
    assert [m["text"] for m in game["moves"]] == ["d4", "e5"] and game["errors"]
    assert client.post("/api/record/import", json={"text": ""}).status_code == 400


def test_settings_are_stored(client: TestClient, store: Store) -> None:
    assert client.put("/api/settings", json={"view": "checker"}).json()["view"] == "checker"
    assert store.settings()["view"] == "checker"
    assert client.put("/api/settings", json={"view": "hex"}).status_code == 400
    assert client.put("/api/settings", json={"evil": 1}).status_code == 400


def test_store_is_migrated_and_keeps_games(store: Store) -> None:
    assert store.schema_version() == SCHEMA_HEAD
    game = store.create_game("w 12/12", white="Ann", black="Bob")
    store.add_move(game, 1, "d4")
    store.add_move(game, 2, "f6")
    store.take_back(game, 1)
    assert store.game(game)["moves"] == ["d4"]  # type: ignore[index]
    assert store.game(game)["version"] == 3  # type: ignore[index]


def test_saved_games_endpoints(client: TestClient, store: Store) -> None:
    game = store.create_game(INVENTOR, white="Freeling", black="van Zon")
    store.add_move(game, 1, "h4xf4xd4")
    assert any(g["id"] == game for g in client.get("/api/games").json()["games"])
    data = client.get(f"/api/games/{game}").json()
    assert data["state"]["phase"] == "capture"
    text = client.get(f"/api/games/{game}/record").text
    assert '[White "Freeling"]' in text and "h4xf4xd4" in text
    day = store.game(game)["created"][:10].replace("-", ".")  # type: ignore[index]
    assert f'[Date "{day}"]' in text  # the day it began, not ????.??.??
    assert client.delete(f"/api/games/{game}").status_code == 200
    assert client.get(f"/api/games/{game}").status_code == 404
    assert client.get("/api/games/abc").status_code == 404


def test_reopening_the_store_keeps_what_was_committed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    first = Store.open(url)
    game = first.create_game("w 12/12")
    first.add_move(game, 1, "d4")
    first.close()
    again = Store.open(url)  # migrations run again: a no-op at head
    assert again.game(game)["moves"] == ["d4"]  # type: ignore[index]
    again.close()


# --- security ------------------------------------------------------------------------------------


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for path in ("/", "/static/built/main.js", "/api/position", "/api/nothing"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert "access-control-allow-origin" not in r.headers


@pytest.mark.parametrize(
    "host", ["evil.example", "127.0.0.1.evil.example", "localhost.evil", "", "[::2]:8765"]
)
def test_foreign_host_is_refused(client: TestClient, host: str) -> None:
    r = client.get("/api/position", headers={"host": host})
    assert r.status_code in (400, 421)
    assert "Host" in r.json()["error"]


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://127.0.0.1:9999", "http://localhost.evil:8765", "x"],
)
def test_foreign_origin_is_refused(client: TestClient, origin: str) -> None:
    r = client.post("/api/move", json={"pos": "w 12/12", "text": "d4"}, headers={"origin": origin})
    assert r.status_code == 403
    r = client.get("/api/position", headers={"origin": origin})
    assert r.status_code == 403


def test_same_origin_and_local_names_are_accepted(client: TestClient) -> None:
    r = client.post("/api/move", json={"pos": "w 12/12", "text": "d4"}, headers={"origin": BASE})
    assert r.status_code == 200
    r = client.get("/api/health", headers={"host": "localhost:8765"})
    assert r.status_code == 200


def test_cross_site_websocket_is_refused(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as e,
        client.websocket_connect("/ws/analyse", headers={**HOST, "origin": "http://evil.example"}),
    ):
        pass
    assert e.value.code == 1008
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/analyse", headers={"host": "evil.example"}),
    ):
        pass


def test_forms_and_oversized_bodies_are_refused(client: TestClient) -> None:
    r = client.post("/api/move", content=b"text=d4", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post(
        "/api/record/import",
        content=json.dumps({"text": "x" * (MAX_BODY + 10)}).encode(),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413
    assert "error" in r.json()


@pytest.mark.parametrize(
    "body",
    [b"{", b"[]", b"null", b'"x"', b'{"pos": 5}', b'{"moves": {"a": 1}}', b"\xff\xfe"],
)
def test_malformed_bodies_are_4xx(client: TestClient, body: bytes) -> None:
    for path in ("/api/move", "/api/analyse", "/api/record/import", "/api/position"):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500 or (path == "/api/position" and r.status_code == 200)
        assert "error" in r.json() or r.status_code == 200


FIXTURE = [HealthCheck.function_scoped_fixture]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(
        ["/api/move", "/api/position", "/api/record/export", "/api/record/import"]
    ),
    body=st.dictionaries(
        st.sampled_from(["pos", "moves", "text", "names", "tags", "time", "multipv"]),
        json_values,
    ),
)
def test_fuzzed_requests_never_fail_the_server(client: TestClient, path: str, body: Any) -> None:
    r = client.post(path, json=body)
    assert r.status_code < 500, (path, body, r.text)
    assert isinstance(r.json(), dict)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pos=st.text(max_size=60), moves=st.text(max_size=40))
def test_fuzzed_positions_never_fail_the_server(client: TestClient, pos: str, moves: str) -> None:
    r = client.get("/api/position", params={"pos": pos, "moves": moves})
    assert r.status_code in (200, 400), (pos, moves, r.text)


DEEP = "[" * 100000 + "]" * 100000


@pytest.mark.parametrize(
    "path",
    [
        "/api/studies/99999999999999999999999",
        "/api/games/99999999999999999999999",
        "/api/games/99999999999999999999999/record",
        "/api/games/-1",
        "/api/games/0",
        f"/api/games/{2**63}",
    ],
)
def test_ids_out_of_range_are_404(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404, r.text
    assert "error" in r.json()


def test_huge_ids_in_commands_are_404(client: TestClient) -> None:
    r = client.post("/api/games/99999999999999999999999/move", json={"text": "d4"})
    assert r.status_code == 404 and "error" in r.json()
    r = client.delete("/api/studies/99999999999999999999999")
    assert r.status_code in (404, 405) and "error" in r.json()


@pytest.mark.parametrize("path", ["/api/move", "/api/studies", "/api/games", "/api/analyse"])
def test_deeply_nested_bodies_are_400(client: TestClient, path: str) -> None:
    r = client.post(path, content=DEEP.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "nested" in r.json()["error"]


@pytest.mark.parametrize("path", ["/ws/review", "/ws/analyse", "game"])
def test_deeply_nested_websocket_messages_are_refused(client: TestClient, path: str) -> None:
    if path == "game":
        hot_seat = {"white": {"kind": "human"}, "black": {"kind": "human"}}
        path = f"/ws/game/{client.post('/api/games', json=hot_seat).json()['id']}"
    with client.websocket_connect(path, headers=HOST) as ws:
        if path.startswith("/ws/game"):
            assert ws.receive_json()["type"] == "state"
        ws.send_text(DEEP)
        error = ws.receive_json()
        assert error["type"] == "error" and "nested" in error["error"], error
        ws.send_text(json.dumps({"type": "nonsense"}))  # the socket still answers
        assert ws.receive_json()["type"] == "error"
