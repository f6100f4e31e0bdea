"""The stoppable review (``WS /ws/review``: :func:`emergo.analyse.review_game` streamed) and
the clocks of live games (a time control at new-game, the clocks in every state, a time
forfeit).  No browser needed: the browser tests are in test_web_tree.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from starlette.testclient import TestClient

from emergo import record
from emergo.analyse import MoveReview, review_game
from emergo.players import backend
from emergo.search import Limit
from emergo.web.app import create_app
from emergo.web.store import Store

BASE = "http://127.0.0.1:8765"
HOST = {"host": "127.0.0.1:8765"}
# 7x7, sixteen moves with captures in them (R8): forced positions inside
LINE = [
    "d5",
    "e3",
    "b3",
    "d7",
    "f4",
    "d3",
    "e5",
    "g4",
    "d2",
    "g4xe4xe6",
    "d2xd4",
    "f4",
    "c2",
    "f5",
    "b5",
    "d1",
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = Store.open(f"sqlite:///{Path(tmp_path_factory.mktemp('rc')) / 'db.sqlite3'}")
    with TestClient(create_app(store), base_url=BASE) as c:
        yield c
    store.close()


def game_of(moves: list[str]) -> record.Game:
    return record.read_game('[Variant "7x7"]\n\n' + " ".join(moves) + " *\n")


def test_a_review_hears_each_move_in_order_as_it_is_reviewed() -> None:
    """on_move hears every move once, in order, forced ones (R8) included, and what it hears
    is what the review returns."""
    game = game_of(LINE)
    heard: list[MoveReview] = []
    review = review_game(game, backend("auto"), Limit(depth=2), on_move=heard.append)
    assert [r.ply for r in heard] == list(range(1, len(game.moves) + 1))
    assert heard == review.moves


def test_a_review_stops_and_keeps_what_it_reviewed() -> None:
    game = game_of(LINE)
    stop = threading.Event()
    heard: list[int] = []

    def on_move(r: MoveReview) -> None:
        heard.append(r.ply)
        if len(heard) == 3:
            stop.set()

    stream = review_game(game, backend("auto"), Limit(depth=2), stop=stop, on_move=on_move)
    assert [r.ply for r in stream.moves] == heard == [1, 2, 3]


def test_review_websocket_streams_and_stops_at_once(client: TestClient) -> None:
    with client.websocket_connect("/ws/review", headers=HOST) as ws:
        ws.send_json({"type": "start", "pos": "7x7 w 8/8", "moves": LINE, "time": 2, "id": 7})
        first = ws.receive_json()
        assert first["type"] in ("progress", "move") and first["id"] == 7
        ws.send_json({"type": "start", "pos": "7x7 w 8/8", "moves": LINE, "time": 2})
        refused = ws.receive_json()
        while refused["type"] != "error":  # the one running goes on meanwhile
            refused = ws.receive_json()
        assert "stop it first" in refused["error"]
        asked = time.monotonic()
        ws.send_json({"type": "stop"})
        messages = []
        while True:
            message = ws.receive_json()
            messages.append(message)
            if message["type"] == "done":
                break
        stopped_in = time.monotonic() - asked
        done = messages[-1]
        assert done["stopped"] is True
        assert len(done["moves"]) < len(LINE)  # 2 s a position: nowhere near the end
        assert stopped_in < 1.5, stopped_in  # the search under way is stopped, not finished
        assert done["text"].count("{") == len(done["moves"])  # the record holds what was reviewed
        # nothing after done: the review's thread has ended; a new review may start
        ws.send_json({"type": "start", "pos": "7x7 w 8/8", "moves": LINE[:2], "time": 0.05})
        while (message := ws.receive_json())["type"] != "done":
            assert message["type"] in ("progress", "move")
        assert message["stopped"] is False and len(message["moves"]) == 2


@pytest.mark.parametrize(
    "clock",
    [
        "5+3",
        {"kind": "fischer"},
        {"kind": "fischer", "base": 0},
        {"kind": "fischer", "base": -5},
        {"kind": "fischer", "base": 1e9},
        {"kind": "fischer", "base": 60, "increment": True},
        {"kind": "per-move", "base": 10, "increment": 2},
        {"kind": "bronstein", "base": 60},
    ],
)
def test_bad_clocks_are_refused(client: TestClient, clock: object) -> None:
    body = {"pos": "7x7 w 8/8", "white": {"kind": "human"}, "black": {"kind": "human"}}
    r = client.post("/api/games", json={**body, "clock": clock}, headers=HOST)
    assert r.status_code == 400, r.text
    assert "clock" in r.json()["error"]


def test_clocks_run_and_time_forfeits(client: TestClient) -> None:
    body = {"pos": "7x7 w 8/8", "white": {"kind": "human"}, "black": {"kind": "human"}}
    r = client.post(
        "/api/games",
        json={**body, "clock": {"kind": "fischer", "base": 1.5, "increment": 1}},
        headers=HOST,
    )
    assert r.status_code == 200, r.text
    state = r.json()
    clock = state["clock"]
    assert clock["control"] == "1.5+1" and clock["running"] == "white"
    assert 0 < clock["white"] <= 1.5 and clock["black"] == 1.5
    game_id = state["id"]
    r = client.post(f"/api/games/{game_id}/move", json={"text": "c4"}, headers=HOST)
    after = r.json()["state"]["clock"]
    assert after["running"] == "black" and 1.5 < after["white"] <= 2.5  # the increment
    saved = client.get(f"/api/games/{game_id}").json()
    assert saved["tags"]["TimeControl"] == "1.5+1"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        live = client.get(f"/api/games/{game_id}").json()["live"]
        if live["state"]["outcome"]:
            break
        time.sleep(0.1)
    outcome = live["state"]["outcome"]
    assert outcome["result"] == "1-0" and outcome["termination"] == "time-forfeit", outcome
    assert "time" in outcome["reason"]
    assert live["clock"]["running"] is None and live["clock"]["black"] == 0
    record_text = client.get(f"/api/games/{game_id}/record").text
    assert '[Termination "time-forfeit"]' in record_text


def test_reviews_never_hold_up_moves_and_requests(client: TestClient) -> None:
    """More reviews than the event loop's default pool has threads: a study saved and a move
    played meanwhile are answered long before the reviews (2 s a position, 17 positions) end."""
    import contextlib
    import os

    many = min(32, (os.cpu_count() or 1) + 4) + 1  # asyncio's default pool, and one more
    hot_seat = {"white": {"kind": "human"}, "black": {"kind": "human"}}
    with contextlib.ExitStack() as stack:
        for _ in range(many):
            ws = stack.enter_context(client.websocket_connect("/ws/review", headers=HOST))
            ws.send_json({"type": "start", "pos": "7x7 w 8/8", "moves": LINE, "time": 2})
        time.sleep(0.5)
        asked = time.monotonic()
        r = client.post("/api/studies", json={"start": "w 12/12", "tree": []})
        assert r.status_code == 201, r.text
        game_id = client.post("/api/games", json=hot_seat).json()["id"]
        r = client.post(f"/api/games/{game_id}/move", json={"text": "d4", "by": "white"})
        assert r.status_code == 200 and r.json()["type"] == "played", r.text
        answered_in = time.monotonic() - asked
        assert answered_in < 8.0, answered_in  # not behind any review (each takes 34 s)


def test_a_cancelled_review_handler_leaves_no_task_pending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server cancels the handler (a shutdown) while its finally waits for the review: the
    sender and the review's task are cancelled too ("Task was destroyed but it is pending")."""
    import asyncio
    import contextlib
    import json

    from emergo.web import app as web_app

    async def never(*args: object, **kwargs: object) -> object:
        await asyncio.Event().wait()  # a review that does not end
        return None

    monkeypatch.setattr(web_app, "in_search_thread", never)
    start = {"type": "start", "pos": "7x7 w 8/8", "moves": LINE[:2], "time": 0.1}

    class FakeSocket:
        def __init__(self) -> None:
            self.inbox = [json.dumps(start)]

        async def accept(self) -> None:
            pass

        async def receive_text(self) -> str:
            if self.inbox:
                return self.inbox.pop()
            await asyncio.Event().wait()
            return ""

        async def send_json(self, message: object) -> None:
            pass

    async def main() -> list[asyncio.Task[object]]:
        handler = asyncio.ensure_future(web_app.ws_review(FakeSocket()))  # type: ignore[arg-type]
        await asyncio.sleep(0.1)
        handler.cancel()  # in receive_text: the finally waits for the review
        await asyncio.sleep(0.1)
        handler.cancel()  # and again, in the finally
        with contextlib.suppress(asyncio.CancelledError):
            await handler
        for _ in range(3):
            await asyncio.sleep(0)
        me = asyncio.current_task()
        return [t for t in asyncio.all_tasks() if t is not me and not t.done()]

    left: list[object] = []  # on a thread of its own: another test may run a loop on this one
    runner = threading.Thread(target=lambda: left.extend(asyncio.run(main())))
    runner.start()
    runner.join(10)
    assert not runner.is_alive() and left == []
