"""The analysis board's HTTP and WebSocket API on the site in local mode, with real requests:
answers, errors, Host/Origin checks, security headers, the account's settings.  No browser
needed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from emergo.server.app import create_app
from emergo.server.core.guard import CSP, MAX_BODY
from emergo.server.site import Site
from tests.plugins.browser import local_site

BASE = "http://127.0.0.1:8765"
HOST = {"host": "127.0.0.1:8765"}
INVENTOR = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = local_site(tmp_path_factory.mktemp("api") / "site.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="module")
def client(site: Site) -> Iterator[TestClient]:
    with TestClient(create_app(site), base_url=BASE) as c:
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
    answer = client.post("/api/position", json={"pos": "w 12/12", "moves": ["d4"]}).json()
    assert len(answer["geometry"]["squares"]) == 41 and answer["moves"] == data["moves"]


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


def socket(client: TestClient, path: str) -> Any:
    """A socket of the page's: the site's Origin and the session's CSRF token (local mode signs
    every request in)."""
    csrf = client.get("/api/account").json()["csrf"]
    cookie = f"emergo_session={client.cookies['emergo_session']}"
    return client.websocket_connect(
        path,
        headers={**HOST, "origin": BASE, "cookie": cookie},
        subprotocols=["emergo", f"csrf.{csrf}"],
    )


def test_analysis_websocket_streams_and_stops(client: TestClient) -> None:
    with socket(client, "/ws/analyse") as ws:
        ws.send_json({"t": "start", "pos": "w 12/12", "infinite": True, "multipv": 2})
        assert ws.receive_json()["t"] == "info"
        ws.send_json({"t": "stop"})
        while (message := ws.receive_json())["t"] != "done":
            assert message["t"] == "info"
        assert message["lines"]
        ws.send_text("not json")
        assert ws.receive_json()["t"] == "error"
        ws.send_json({"t": "start", "pos": "nonsense"})
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


def test_settings_are_kept_with_the_local_player(client: TestClient, site: Site) -> None:
    csrf = {"x-csrf-token": client.get("/api/account").json()["csrf"], "origin": BASE}
    r = client.put("/api/settings", json={"view": "checker"}, headers=csrf)
    assert r.json()["view"] == "checker"
    assert site.local_user is not None
    assert site.preferences.get(site.local_user.id)["view"] == "checker"
    assert client.get("/api/settings").json()["view"] == "checker"
    assert client.put("/api/settings", json={"view": "hex"}, headers=csrf).status_code == 400
    assert client.put("/api/settings", json={"evil": 1}, headers=csrf).status_code == 400
    r = client.put("/api/settings", json={"view": "diamond"}, headers={"origin": BASE})
    assert r.status_code == 403  # no CSRF token


# --- security ------------------------------------------------------------------------------------


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for path in ("/", "/analysis", "/static/built/emergo.js", "/api/position", "/api/nothing"):
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


def test_oversized_bodies_are_refused(client: TestClient) -> None:
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


DEEP = "[" * 30000 + "]" * 30000  # nested past any decoder, within the body limit


@pytest.mark.parametrize(
    "path", ["/api/game/99999999999999999999999", "/game/99999999999999999999999/analysis"]
)
def test_unknown_games_are_404(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/api/move", "/api/analyse", "/api/record/import"])
def test_deeply_nested_bodies_are_400(client: TestClient, path: str) -> None:
    r = client.post(path, content=DEEP.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "nested" in r.json()["error"]


@pytest.mark.parametrize("path", ["/ws/review", "/ws/analyse"])
def test_deeply_nested_websocket_messages_are_refused(client: TestClient, path: str) -> None:
    with socket(client, path) as ws:
        ws.send_text(DEEP)
        error = ws.receive_json()
        assert error["t"] == "error" and "nested" in error["error"], error
        ws.send_text(json.dumps({"t": "nonsense"}))  # the socket still answers
        assert ws.receive_json()["t"] == "error"
