"""The live-game endpoints (emergo.web.games) against a stand-in for ``emergo.game``.

The real game flow is being written in another branch; this stand-in implements the part of the
PLAN.md contract the web app uses (two humans, hot-seat), so the wiring is tested now: a move is
stored before any client hears of it, every client gets the new state with its version, an
illegal move is answered with the library's reason and changes nothing."""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from starlette.testclient import TestClient

from emergo.board import Board, Move, Outcome, Termination
from emergo.web.app import create_app
from emergo.web.store import Store

HOST = {"host": "127.0.0.1:8765"}


@dataclass(frozen=True)
class MovePlayed:
    move: Move
    text: str
    ply: int
    color: bool
    version: int


@dataclass(frozen=True)
class TakenBack:
    moves: tuple[Move, ...]
    version: int


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome
    version: int


class Human:
    def __init__(self, name: str = "Human") -> None:
        self.name = name


class Game:
    """Just enough of emergo.game.Game for two humans."""

    def __init__(self, white: Any, black: Any, board: Board | None = None, **_: Any) -> None:
        self._board = board.copy() if board is not None else Board()
        self.players = {True: white, False: black}
        self.version = 0
        self.thinking = False
        self._outcome: Outcome | None = None
        self._subscribers: list[Callable[[Any], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def _emit(self, event: Any) -> None:
        for callback in list(self._subscribers):
            callback(event)

    def start(self) -> None:
        pass

    @property
    def board(self) -> Board:
        return self._board.copy()

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._board.move_stack)

    @property
    def turn(self) -> bool:
        return self._board.turn

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome or self._board.outcome()

    def play(self, text: str, by: bool) -> Move:
        with self._lock:
            if by != self._board.turn:
                raise ValueError("it is not your turn")
            move = self._board.parse_move(text)
            played = self._board.move_text(move)
            self._board.push(move)
            self.version += 1
            event = MovePlayed(move, played, len(self._board.move_stack), by, self.version)
        self._emit(event)
        return move

    def takeback(self, by: bool) -> list[Move]:
        with self._lock:
            undone = [self._board.pop()] if self._board.move_stack else []
            self.version += 1
            event = TakenBack(tuple(undone), self.version)
        self._emit(event)
        return undone

    def resign(self, by: bool) -> None:
        self._outcome = Outcome(Termination.RESIGNATION, not by)
        self.version += 1
        self._emit(GameOver(self._outcome, self.version))

    def offer_draw(self, by: bool) -> None:
        pass

    def stop_thinking(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Store]]:
    module = types.ModuleType("emergo.game")
    module.__dict__.update(
        Game=Game, Human=Human, MovePlayed=MovePlayed, TakenBack=TakenBack, GameOver=GameOver
    )
    monkeypatch.setitem(sys.modules, "emergo.game", module)
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(store), base_url="http://127.0.0.1:8765") as c:
        yield c, store
    store.close()


def receive_state(ws: Any) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] != "state":
        assert message["type"] == "event", message
    return message  # type: ignore[no-any-return]


def test_hot_seat_game_is_stored_before_it_is_acknowledged(
    client: tuple[TestClient, Store],
) -> None:
    c, store = client
    r = c.post(
        "/api/games",
        json={"white": {"kind": "human", "name": "Ann"}, "black": {"kind": "human", "name": "Bob"}},
    )
    assert r.status_code == 200, r.text
    game_id = r.json()["id"]
    with c.websocket_connect(f"/ws/game/{game_id}", headers=HOST) as ws:
        state = receive_state(ws)
        assert state["version"] == 0 and state["state"]["turn"] == "white"
        ws.send_json({"type": "move", "text": "D4", "by": "white"})
        event = ws.receive_json()
        assert event == {
            "type": "event", "event": "MovePlayed", "ply": 1, "text": "d4", "version": 1,
            "color": "white",
        }  # fmt: skip
        assert store.game(game_id)["moves"] == ["d4"]  # type: ignore[index]  # stored already
        state = receive_state(ws)
        assert state["version"] == 1 and state["state"]["turn"] == "black"
        ws.send_json({"type": "move", "text": "d5", "by": "black"})
        assert "(R15)" in ws.receive_json()["error"]
        ws.send_json({"type": "move", "text": "f6", "by": "white"})
        assert "not your turn" in ws.receive_json()["error"]
        ws.send_json({"type": "takeback", "by": "black"})
        assert receive_state(ws)["version"] == 2
        assert store.game(game_id)["moves"] == []  # type: ignore[index]
        ws.send_json({"type": "resign", "by": "white"})
        final = receive_state(ws)
        assert final["state"]["outcome"]["result"] == "0-1"
    saved = c.get(f"/api/games/{game_id}").json()
    assert saved["result"] == "0-1" and saved["termination"] == "resignation"
    assert saved["white"] == "Ann"


def test_bad_game_requests(client: tuple[TestClient, Store]) -> None:
    c, _ = client
    assert c.post("/api/games", json={"white": {"kind": "robot"}}).status_code == 400
    assert c.post("/api/games", json={"white": {"kind": "engine", "level": 99}}).status_code == 400
    with c.websocket_connect("/ws/game/999", headers=HOST) as ws:
        assert ws.receive_json()["type"] == "error"


def test_live_games_need_the_game_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "emergo.game", None)  # import fails, as before it lands
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(store), base_url="http://127.0.0.1:8765") as c:
        r = c.post("/api/games", json={})
        assert r.status_code == 501
        assert "emergo.game" in r.json()["error"]
    store.close()
