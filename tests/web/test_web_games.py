"""Live games (emergo.web.games) on the real game flow (emergo.game): the HTTP and WebSocket
API, moves stored before they are acknowledged, versions, refusals that change nothing, engines
that die and are replaced, and a server killed with SIGKILL mid-game that loses no move."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

import httpx2 as httpx
from starlette.testclient import TestClient
from tests.web.conftest import free_port

from emergo.game import Computer, Player
from emergo.search import Limit
from emergo.web.app import create_app
from emergo.web.games import make_player
from emergo.web.store import Store

HOST = {"host": "127.0.0.1:8765"}
HOT_SEAT = {"white": {"kind": "human", "name": "Ann"}, "black": {"kind": "human", "name": "Bob"}}
SEVEN = "7x7 w 8/8"


def receive(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (events and other messages before it are skipped)."""
    while (message := ws.receive_json())["type"] != kind:
        assert message["type"] in ("event", "state", "played", "takenback", "draw", "ok"), message
    return message  # type: ignore[no-any-return]


def state_at(ws: Any, version: int) -> dict[str, Any]:
    while True:
        state = receive(ws, "state")
        if state["version"] >= version:
            return state


def test_hot_seat_game_is_stored_before_it_is_acknowledged(
    app_client: tuple[TestClient, Store],
) -> None:
    c, store = app_client
    r = c.post("/api/games", json=HOT_SEAT)
    assert r.status_code == 200, r.text
    game_id = r.json()["id"]
    assert r.json()["players"]["white"]["display"] == "Ann"
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        state = receive(ws, "state")
        assert state["version"] == 0 and state["state"]["turn"] == "white"
        ws.send_json({"type": "move", "text": "D4", "by": "white"})
        event = receive(ws, "event")
        assert event == {
            "type": "event", "event": "MovePlayed", "ply": 1, "text": "d4", "version": 1,
            "color": "white",
        }  # fmt: skip
        assert store.game(game_id)["moves"] == ["d4"]  # type: ignore[index]  # stored already
        state = receive(ws, "state")
        assert state["version"] == 1 and state["state"]["turn"] == "black"
        ws.send_json({"type": "move", "text": "d5", "by": "black"})
        error = receive(ws, "error")
        assert "(R15)" in error["error"] and error["status"] == 400
        ws.send_json({"type": "move", "text": "f6", "by": "white"})
        error = receive(ws, "error")
        assert "not White's turn" in error["error"] and error["status"] == 409
        ws.send_json({"type": "takeback", "by": "white"})
        assert state_at(ws, 2)["state"]["ply"] == 0
        assert store.game(game_id)["moves"] == []  # type: ignore[index]
        ws.send_json({"type": "draw", "by": "white"})
        assert state_at(ws, 3)["drawOffer"] == "white"
        ws.send_json({"type": "answer", "by": "black", "accept": False})
        assert state_at(ws, 4)["drawOffer"] is None
        ws.send_json({"type": "resign", "by": "white"})
        final = state_at(ws, 5)
        assert final["state"]["outcome"]["result"] == "0-1"
        assert final["state"]["phase"] == "over" and final["state"]["moves"] == []
    saved = c.get(f"/api/games/{game_id}").json()
    assert saved["result"] == "0-1" and saved["termination"] == "resignation"
    assert saved["white"] == "Ann" and saved["version"] == 5


def test_http_commands_refuse_out_of_turn_and_stale_requests(
    app_client: tuple[TestClient, Store],
) -> None:
    c, store = app_client
    game_id = c.post("/api/games", json={**HOT_SEAT, "pos": SEVEN}).json()["id"]
    r = c.post(f"/api/games/{game_id}/move", json={"text": "d4", "by": "black"})
    assert r.status_code == 409 and "not Black's turn" in r.json()["error"]
    r = c.post(f"/api/games/{game_id}/move", json={"text": "d4", "by": "white", "version": 7})
    assert r.status_code == 409 and r.json()["kind"] == "version"
    r = c.post(f"/api/games/{game_id}/move", json={"text": "zz9", "by": "white"})
    assert r.status_code == 400 and r.json()["error"]
    r = c.post(f"/api/games/{game_id}/takeback", json={"by": "white"})
    assert r.status_code == 409 and "no move to take back" in r.json()["error"]
    r = c.post(f"/api/games/{game_id}/fly", json={})
    assert r.status_code == 400
    r = c.post(f"/api/games/{game_id}/move", json={"text": "c4", "by": "white", "version": 0})
    assert r.status_code == 200, r.text
    assert r.json()["state"]["version"] == 1 and store.game(game_id)["moves"] == ["c4"]  # type: ignore[index]
    assert c.post("/api/games/999/move", json={"text": "d4"}).status_code == 404
    assert c.post("/api/games/x/move", json={"text": "d4"}).status_code == 404


def test_bad_game_requests(app_client: tuple[TestClient, Store]) -> None:
    c, _ = app_client
    for body in (
        {"white": {"kind": "robot"}},
        {"white": {"kind": "engine", "level": 99}},
        {"white": {"kind": "engine", "level": True}},
        {"white": {"kind": "engine", "movetime": -1}},
        {"white": "human"},
        {"white": {"kind": "human", "name": 5}},
        {"pos": "nonsense"},
        {"pos": 3},
        {"moves": ["d4", "d4"]},
    ):
        r = c.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]
    assert c.get("/api/games").json()["games"] == []  # nothing half-made
    with c.websocket_connect("/ws/game/999", headers=HOST) as ws:
        assert ws.receive_json()["type"] == "error"


def test_fuzzed_websocket_messages_change_nothing(app_client: tuple[TestClient, Store]) -> None:
    c, store = app_client
    game_id = c.post("/api/games", json={**HOT_SEAT, "pos": SEVEN}).json()["id"]
    rng = random.Random(11)
    junk: list[Any] = [
        None, 1, "move", [], {}, {"type": 5}, {"type": "move"}, {"type": "move", "text": 4},
        {"type": "move", "text": "d4", "by": "green"}, {"type": "move", "text": "x" * 300},
        {"type": "move", "text": "d4", "by": "black"}, {"type": "answer", "by": "black"},
        {"type": "answer", "by": "black", "accept": "yes"}, {"type": "takeback", "by": "black"},
        {"type": "move", "text": "d4", "names": "klingon"}, {"type": "stop"},
        {"type": "move", "text": "d4", "version": -1},
    ]  # fmt: skip
    for _ in range(40):
        text = "".join(rng.choice("abcdefg1234567x-*{}[]\"' ") for _ in range(rng.randint(0, 12)))
        junk.append({"type": "move", "text": text, "by": "white"})
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        receive(ws, "state")
        ws.send_text("{not json")
        assert receive(ws, "error")["status"] == 400
        ws.send_bytes(b"\x00\x01")
        assert receive(ws, "error")
        for message in junk:
            ws.send_text(json.dumps(message))
            reply = ws.receive_json()
            while reply["type"] in ("event", "state"):
                reply = ws.receive_json()
            if reply["type"] == "error":
                assert 400 <= reply["status"] < 500
    saved = store.game(game_id)
    assert saved is not None
    assert len(saved["moves"]) <= 1  # only a legal move in turn could have been played
    assert saved["version"] == len(saved["moves"])


def test_against_the_engine_at_level_1(app_client: tuple[TestClient, Store]) -> None:
    c, store = app_client
    r = c.post(
        "/api/games", json={"pos": SEVEN, "white": {"kind": "engine", "level": 1}, "black": {}}
    )
    assert r.status_code == 200, r.text
    game_id = r.json()["id"]
    assert r.json()["players"]["black"]["kind"] == "human"
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        state = receive(ws, "state")
        while state["state"]["turn"] != "black":  # the engine (White) moves first
            state = receive(ws, "state")
        assert store.game(game_id)["moves"] == [state["line"]["moves"][0]["text"]]  # type: ignore[index]
        move = state["state"]["moves"][0]["text"]
        ws.send_json({"type": "move", "text": move, "by": "black"})
        state = receive(ws, "state")
        while state["state"]["ply"] < 3:
            state = receive(ws, "state")
        assert len(store.game(game_id)["moves"]) == 3  # type: ignore[index]
        ws.send_json({"type": "hint", "id": 1})
        hint = receive(ws, "hint")
        assert hint["id"] == 1 and hint["move"]["text"] in {
            m["text"] for m in state["state"]["moves"]
        }
        ws.send_json({"type": "takeback", "by": "black"})  # Black's move and White's reply
        assert len(receive(ws, "takenback")["moves"]) == 2
        ws.send_json({"type": "move", "text": move, "by": "white"})
        assert "computer" in receive(ws, "error")["error"]


def dying_factory(kept: list[Computer]) -> Any:
    """Players whose engine is an external process over the protocol (the test kills it)."""

    def factory(spec: dict[str, Any], variant: str) -> Player:
        if spec["kind"] != "engine":
            return make_player(spec, variant)
        command = [sys.executable, "-m", "emergo.cli.engine"]
        computer = Computer.protocol(command, limit=Limit(time=30))
        kept.append(computer)
        return computer

    return factory


def test_an_engine_that_dies_is_replaced(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    kept: list[Computer] = []
    app = create_app(store, player_factory=dying_factory(kept))
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        body = {"pos": SEVEN, "white": {"kind": "human"}, "black": {"kind": "engine", "level": 1}}
        game_id = c.post("/api/games", json=body).json()["id"]
        with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
            receive(ws, "state")
            ws.send_json({"type": "move", "text": "c4", "by": "white"})
            while not (state := receive(ws, "state"))["thinking"]:
                pass
            first = kept[0].searcher.engine.process  # type: ignore[attr-defined]
            first.kill()  # the engine dies mid-search
            while (event := receive(ws, "event"))["event"] != "EngineRestarted":
                pass
            assert "failed" in event["error"]
            assert len(kept) == 2 and first.poll() is not None
            state = receive(ws, "state")
            assert state["restarts"] == 1 and state["thinking"]
            ws.send_json({"type": "stop"})  # the new engine plays at once
            while (state := receive(ws, "state"))["state"]["ply"] < 2:
                pass
            assert state["state"]["turn"] == "white"
        assert len(store.game(game_id)["moves"]) == 2  # type: ignore[index]
    store.close()


# --- a real server process, killed -------------------------------------------------------------


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "emergo.web.server", "--no-browser", "--port", str(port)]
    process = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def test_a_killed_server_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server(db, port)
    acknowledged: list[str] = []
    try:
        body = {"pos": SEVEN, "white": {"kind": "human"}, "black": {"kind": "engine", "level": 1}}
        game_id = httpx.post(f"{base}/api/games", json=body).json()["id"]
        rng = random.Random(3)
        for _ in range(6):
            state = httpx.get(f"{base}/api/games/{game_id}").json()["live"]
            for _ in range(100):  # wait for the engine's reply
                if state["state"]["turn"] == "white" and not state["thinking"]:
                    break
                time.sleep(0.05)
                state = httpx.get(f"{base}/api/games/{game_id}").json()["live"]
            if state["state"]["outcome"]:
                break
            text = rng.choice(state["state"]["moves"])["text"]
            r = httpx.post(f"{base}/api/games/{game_id}/move", json={"text": text, "by": "white"})
            assert r.status_code == 200, r.text
            acknowledged = [m["text"] for m in r.json()["state"]["line"]["moves"]]
    finally:
        os.kill(process.pid, signal.SIGKILL)  # no shutdown: whatever was acknowledged is stored
        process.wait(10)
    assert len(acknowledged) >= 5
    process = start_server(db, port)
    try:
        saved = httpx.get(f"{base}/api/games/{game_id}").json()
        assert saved["moves"][: len(acknowledged)] == acknowledged
        assert "live" in saved  # resumed at start-up, before anyone asked for it
        # the game resumes: its live state is rebuilt from the store and takes a move
        state = httpx.post(f"{base}/api/games/{game_id}/stop", json={}).json()["state"]
        assert [m["text"] for m in state["line"]["moves"]][: len(acknowledged)] == acknowledged
        for _ in range(100):
            if state["state"]["turn"] == "white" and not state["thinking"]:
                break
            time.sleep(0.05)
            state = httpx.get(f"{base}/api/games/{game_id}").json()["live"]
        text = state["state"]["moves"][0]["text"]
        r = httpx.post(f"{base}/api/games/{game_id}/move", json={"text": text, "by": "white"})
        assert r.status_code == 200, r.text
        assert r.json()["state"]["version"] > saved["version"]
    finally:
        process.terminate()
        process.wait(10)


class HangingSearcher:
    """A searcher that never answers, not even when asked to stop (a hung engine)."""

    name = "hangs"

    def __init__(self) -> None:
        import threading

        self.forever = threading.Event()

    def search(self, board: Any, limit: Any, **_: Any) -> Any:
        self.forever.wait(60)
        raise RuntimeError("released")


def test_a_hung_engine_is_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from emergo.web import games

    monkeypatch.setattr(games, "HANG_GRACE", 0.5)
    hung = HangingSearcher()
    made: list[str] = []

    def factory(spec: dict[str, Any], variant: str) -> Player:
        if spec["kind"] != "engine":
            return make_player(spec, variant)
        made.append(variant)
        if len(made) == 1:
            return Computer(hung, Limit(time=0.1))  # type: ignore[arg-type]
        return make_player(spec, variant)

    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(store, player_factory=factory), base_url="http://x") as c:
        body = {"pos": SEVEN, "white": {"kind": "engine", "level": 1}, "black": {}}
        game_id = c.post("/api/games", json=body, headers=HOST).json()["id"]
        with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
            while (event := receive(ws, "event"))["event"] != "EngineRestarted":
                pass
            assert "stopped answering" in event["error"]
            while (state := receive(ws, "state"))["state"]["ply"] < 1:
                pass
            assert state["restarts"] == 1 and state["state"]["turn"] == "black"
    hung.forever.set()
    store.close()


class SlowSearcher:
    """A healthy engine that uses most of its time: it answers after ``seconds``."""

    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def search(self, board: Any, limit: Any, stop: Any = None, **_: Any) -> Any:
        from emergo.search import SearchResult

        if stop is not None:
            stop.wait(self.seconds)
        else:
            time.sleep(self.seconds)
        return SearchResult(next(iter(board.legal_moves)))


def test_an_engine_thinking_within_its_per_move_clock_is_not_restarted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watchdog's allowance is the clock left when the thought starts, not the clock left
    at each check (which falls as the engine thinks): 5 s of a 6 s per-move clock is healthy."""
    from emergo.web import games

    monkeypatch.setattr(games, "HANG_GRACE", 0.5)

    def factory(spec: dict[str, Any], variant: str) -> Player:
        if spec["kind"] != "engine":
            return make_player(spec, variant)
        return Computer(SlowSearcher(5.0), None, name="slow")  # type: ignore[arg-type]

    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(store, player_factory=factory), base_url="http://x") as c:
        body = {
            "pos": SEVEN,
            "white": {"kind": "engine", "level": 11},
            "black": {},
            "clock": {"kind": "per-move", "base": 6},
        }
        game_id = c.post("/api/games", json=body, headers=HOST).json()["id"]
        with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
            while (event := receive(ws, "event"))["event"] != "MovePlayed":
                assert event["event"] not in ("EngineRestarted", "GameOver"), event
            state = receive(ws, "state")
            assert state["restarts"] == 0 and state["state"]["ply"] == 1
    store.close()


def test_a_move_is_stored_before_it_is_acknowledged_when_another_thread_delivers(
    app_client: tuple[TestClient, Store],
) -> None:
    """Another thread delivering the game's events (here: a draw offer whose store write is
    slow) stores the move later: the answer "played" waits for it."""
    import threading

    from emergo.board import BLACK

    c, store = app_client
    game_id = c.post("/api/games", json=HOT_SEAT).json()["id"]
    live = c.app.app.state.live_games[game_id]  # type: ignore[attr-defined]
    slow_set_version, slow_add_move = store.set_version, store.add_move
    delivering = threading.Event()

    def set_version(*args: Any, **kwargs: Any) -> Any:
        delivering.set()
        time.sleep(1.0)  # this thread delivers the game's events meanwhile
        return slow_set_version(*args, **kwargs)

    def add_move(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return slow_add_move(*args, **kwargs)

    store.set_version = set_version  # type: ignore[method-assign]
    store.add_move = add_move  # type: ignore[method-assign]
    offer = threading.Thread(target=live.game.offer_draw, kwargs={"by": BLACK})
    offer.start()
    assert delivering.wait(5)
    r = c.post(f"/api/games/{game_id}/move", json={"text": "d4", "by": "white"})
    assert r.status_code == 200 and r.json()["type"] == "played", r.text
    assert store.game(game_id)["moves"] == ["d4"]  # type: ignore[index]  # stored already
    assert r.json()["state"]["line"]["moves"][0]["text"] == "d4"
    offer.join(5)


def test_a_move_the_store_cannot_keep_is_not_acknowledged(
    app_client: tuple[TestClient, Store],
) -> None:
    c, store = app_client
    game_id = c.post("/api/games", json=HOT_SEAT).json()["id"]

    def add_move(*args: Any, **kwargs: Any) -> Any:
        raise OSError("disk full")

    store.add_move = add_move  # type: ignore[method-assign]
    r = c.post(f"/api/games/{game_id}/move", json={"text": "d4", "by": "white"})
    assert r.status_code == 503, r.text
    assert "store failed" in r.json()["error"]
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        assert ws.receive_json()["type"] in ("error", "state")


def test_an_unreadable_stored_clock_is_said_not_dropped_silently(
    app_client: tuple[TestClient, Store], caplog: pytest.LogCaptureFixture
) -> None:
    from sqlalchemy import update

    from emergo.web.store import GameRow

    c, store = app_client
    body = {**HOT_SEAT, "clock": {"kind": "fischer", "base": 60, "increment": 1}}
    game_id = c.post("/api/games", json=body).json()["id"]
    with store.session() as session:  # a tag this version cannot read (a newer server's?)
        session.execute(
            update(GameRow).where(GameRow.id == game_id).values(tags={"TimeControl": "60+x"})
        )
    live = c.app.app.state.live_games.pop(game_id)  # type: ignore[attr-defined]
    live.close()
    state = c.post(f"/api/games/{game_id}/stop", json={}).json()["state"]  # resumed
    assert state["clock"] is None and "'60+x' cannot be read" in state["warning"]
    assert any("cannot be read" in r.message for r in caplog.records)


class GatedSearcher:
    """An engine that thinks until the test opens its gate, then plays its first legal move."""

    name = "gated"

    def __init__(self) -> None:
        import threading

        self.started = threading.Event()
        self.gate = threading.Event()

    def search(self, board: Any, limit: Any, **_: Any) -> Any:
        from emergo.search import SearchResult

        self.started.set()
        assert self.gate.wait(30)
        self.gate.clear()
        return SearchResult(board.moves()[0])


@pytest.mark.parametrize("kind", ["takeback", "resign", "draw"])
def test_a_command_checked_before_the_engine_replied_is_refused_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The engine's reply lands between the web layer's version check and the command (made
    to, deterministically: the check itself opens the engine's gate and waits for the reply):
    the game refuses the command, which the client sent at the version it saw, as stale."""
    engine = GatedSearcher()

    def factory(spec: dict[str, Any], variant: str) -> Player:
        if spec["kind"] != "engine":
            return make_player(spec, variant)
        return Computer(engine, Limit(time=1.0), name="gated")  # type: ignore[arg-type]

    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(
        create_app(store, player_factory=factory), base_url="http://127.0.0.1:8765"
    ) as c:
        body = {"pos": SEVEN, "white": {"kind": "human"}, "black": {"kind": "engine", "level": 1}}
        game_id = c.post("/api/games", json=body).json()["id"]
        r = c.post(f"/api/games/{game_id}/move", json={"text": "c4", "by": "white", "version": 0})
        assert r.status_code == 200, r.text
        seen = r.json()["state"]["version"]  # the client's view: its move, the engine thinking
        assert engine.started.wait(30)
        live = c.app.app.state.live_games[game_id]  # type: ignore[attr-defined]
        checked = live.current_version

        def check_then_reply(game: Any) -> int:
            now = checked(game)
            if not engine.gate.is_set() and game.thinking:
                engine.gate.set()  # the reply lands just after the check
                assert game.wait(30)
                live.wait_stored(game)
            return now

        monkeypatch.setattr(live, "current_version", check_then_reply)
        r = c.post(f"/api/games/{game_id}/{kind}", json={"by": "white", "version": seen})
        assert r.status_code == 409, r.text
        assert r.json()["kind"] == "version" and r.json()["version"] > seen
        saved = c.get(f"/api/games/{game_id}").json()  # nothing taken back, resigned, offered
        assert len(saved["moves"]) == 2 and saved["result"] == "*"
        assert saved["version"] == r.json()["version"]  # a draw offer, too, bumps it
        # at the version it now has, the same command is carried out
        r = c.post(
            f"/api/games/{game_id}/{kind}", json={"by": "white", "version": saved["version"]}
        )
        assert r.status_code == 200, r.text
    store.close()
