"""The NDJSON streams and the WebSockets on a real server (uvicorn in a thread), on SQLite and
PostgreSQL: what each sends, in which order, with versions; who may send what."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import update

from emergo.server.core import models as m
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import account

httpx = pytest.importorskip("httpx2")
ws_client = pytest.importorskip("websockets.sync.client")


@contextmanager
def stream(url: str, headers: dict[str, str] | None = None) -> Iterator[queue.Queue[Any]]:
    """The JSON lines of an NDJSON stream, read by a thread into a queue (``"\\n"`` for a
    keep-alive line, None at the end)."""
    lines: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()

    def read() -> None:
        try:
            with httpx.stream("GET", url, headers=headers or {}, timeout=30) as r:
                if r.status_code != 200:
                    lines.put({"status": r.status_code, "body": r.read().decode()})
                    return
                for line in r.iter_lines():
                    if stop.is_set():
                        return
                    lines.put(json.loads(line) if line.strip() else "\n")
        except Exception as e:  # the test closed it
            lines.put({"closed": repr(e)})
        finally:
            lines.put(None)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield lines
    finally:
        stop.set()


def take(lines: queue.Queue[Any], kind: str | None = None, timeout: float = 10.0) -> Any:
    """The next line of a type (``kind``: its ``type``), skipping keep-alives and others."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind} line in {timeout} s")
        item = lines.get(timeout=left)
        if item is None:
            raise AssertionError(f"the stream ended before a {kind} line")
        if item == "\n":
            continue
        if kind is None or item.get("type") == kind or "status" in item:
            return item


@pytest.fixture
def http_players(site, live) -> tuple[Player, Player]:
    _a, ann = account(site, "ann")
    _b, bob = account(site, "bob")
    http = httpx.Client(base_url=live, timeout=10)
    return Player(http, "ann", ann), Player(http, "bob", bob)


def test_board_game_stream(site, live, http_players):
    ann, bob = http_players
    game = new_game(ann, bob)
    with stream(f"{live}/api/board/game/stream/{game}", ann.headers) as lines:
        full = take(lines, "gameFull")
        assert full["id"] == game and full["white"]["name"] == "ann"
        assert full["clock"] == {"initial": 300000, "increment": 2000}
        assert full["state"]["moves"] == "" and full["state"]["version"] == 0
        ann.play(game, "d4")
        state = take(lines, "gameState")
        assert state["moves"] == "d4" and state["version"] == 1
        bob.play(game, "E6")  # any text the parser takes; the stream has the canonical one
        state = take(lines, "gameState")
        assert state["moves"] == "d4 e6" and state["version"] == 2
        ann.ok(f"/api/board/game/{game}/chat", data={"room": "player", "text": "<b>hi</b>"})
        chat = take(lines, "chatLine")
        assert chat["text"] == "<b>hi</b>" and chat["username"] == "ann"
        bob.ok(f"/api/board/game/{game}/resign")
        state = take(lines, "gameState")
        assert state["status"] == "resign" and state["winner"] == "white"
        assert lines.get(timeout=10) is None  # the stream ends with the game


def test_a_player_stream_says_when_the_opponent_is_gone(site, live, http_players):
    ann, bob = http_players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    ann.play(game, "c5")
    with stream(f"{live}/api/board/game/stream/{game}", ann.headers) as lines:
        take(lines, "gameFull")
        assert take(lines, "opponentGone")["gone"] is False
        with site.db.write() as tx:  # Bob's last sign of life, 100 s ago
            tx.execute(
                update(m.presence)
                .where(m.presence.c.user_id != site.users.by_name("ann").id)
                .values(seen=time.time() - 100)
            )
        gone = take(lines, "opponentGone")
        assert gone["gone"] is True and gone["claimWinInSeconds"] == 0
    ann.ok(f"/api/board/game/{game}/claim-victory")


def test_only_players_stream_a_game_as_a_player(site, live, http_players):
    ann, bob = http_players
    _c, carl = account(site, "carl")
    game = new_game(ann, bob)
    r = httpx.get(
        f"{live}/api/board/game/stream/{game}", headers={"Authorization": f"Bearer {carl}"}
    )
    assert r.status_code == 403
    r = httpx.get(f"{live}/api/board/game/stream/{game}")
    assert r.status_code == 401


def test_event_stream(site, live, http_players):
    ann, bob = http_players
    with stream(f"{live}/api/stream/event", bob.headers) as lines:
        challenge = ann.challenge("bob", color="white", **{"clock.limit": 60})
        event = take(lines, "challenge")
        assert event["challenge"]["id"] == challenge
        assert event["challenge"]["challenger"]["name"] == "ann"
        game = bob.accept(challenge)
        assert take(lines, "gameStart")["game"]["gameId"] == game
        ann.ok(f"/api/board/game/{game}/abort")
        finish = take(lines, "gameFinish")
        assert finish["game"]["gameId"] == game and finish["game"]["status"] == "aborted"
        second = ann.challenge("bob")
        take(lines, "challenge")
        ann.ok(f"/api/challenge/{second}/cancel")
        assert take(lines, "challengeCanceled")["challenge"]["id"] == second
    # a new stream starts with the games in progress and the challenges waiting
    game = new_game(ann, bob)
    waiting = ann.challenge("bob")
    with stream(f"{live}/api/stream/event", bob.headers) as lines:
        assert take(lines, "gameStart")["game"]["gameId"] == game
        assert take(lines, "challenge")["challenge"]["id"] == waiting


def test_spectator_stream_has_no_players_chat(site, live, http_players):
    ann, bob = http_players
    _c, carl = account(site, "carl")
    game = new_game(ann, bob)
    ann.ok(f"/api/board/game/{game}/chat", data={"room": "player", "text": "players only"})
    with stream(f"{live}/api/stream/game/{game}") as lines:  # anonymous
        full = take(lines, "gameFull")
        assert full["id"] == game
        spectator = Player(ann.http, "carl", carl)
        spectator.ok(f"/api/board/game/{game}/chat", data={"room": "spectator", "text": "go"})
        line = take(lines, "chatLine")
        assert line["room"] == "spectator" and line["text"] == "go"
        ann.play(game, "d4")
        assert take(lines, "gameState")["moves"] == "d4"
        # a player writes to the spectators during the game (lichess: a bot's greeting)...
        ann.ok(f"/api/board/game/{game}/chat", data={"room": "spectator", "text": "hello all"})
        line = take(lines, "chatLine")
        assert line["room"] == "spectator" and line["username"] == "ann"
    with stream(f"{live}/api/board/game/stream/{game}", ann.headers) as lines:
        take(lines, "gameFull")  # ...and reads their room only once the game is over
        ann.ok(f"/api/board/game/{game}/chat", data={"room": "player", "text": "mine"})
        rooms = []
        while not rooms or rooms[-1][1] != "mine":
            said = take(lines, "chatLine")
            rooms.append((said["room"], said["text"]))
        assert all(room == "player" for room, _text in rooms), rooms


# --- WebSockets ----------------------------------------------------------------------------------


def ws_url(live: str, path: str) -> str:
    return live.replace("http://", "ws://") + path


class Socket:
    """A game socket of the tests: messages by type, commands answered."""

    def __init__(self, live: str, game: str, token: str | None = None, **kw: Any) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._connection = ws_client.connect(
            ws_url(live, f"/ws/game/{game}"), additional_headers=headers, **kw
        )
        self.ws = self._connection.__enter__()
        self.backlog: list[dict[str, Any]] = []
        self.ids = 0

    def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next message of a type (those of other types are skipped)."""
        while self.backlog:
            message = self.backlog.pop(0)
            if message["t"] == kind:
                return message
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(deadline - time.monotonic(), 0.01)))
            if message["t"] == kind:
                return message

    def command(self, t: str, **fields: Any) -> dict[str, Any]:
        """Send a command; its answer (ack or error)."""
        self.ids += 1
        ident = self.ids
        self.ws.send(json.dumps({"t": t, "id": ident, **fields}))
        deadline = time.monotonic() + 10
        while True:
            message = json.loads(self.ws.recv(timeout=max(deadline - time.monotonic(), 0.01)))
            if message["t"] in ("ack", "error") and message.get("id") == ident:
                return message
            self.backlog.append(message)

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def test_game_socket_players_and_a_spectator(site, live, http_players):
    ann, bob = http_players
    _c, carl = account(site, "carl")
    game = new_game(ann, bob)
    a, b, c = Socket(live, game, ann.token), Socket(live, game, bob.token), Socket(live, game, carl)
    try:
        full = a.next("full")
        assert full["you"] == "white" and full["v"] == 0 and full["game"]["id"] == game
        assert b.next("full")["you"] == "black"
        assert c.next("full")["you"] is None
        assert a.command("move", move="d4", v=0)["t"] == "ack"
        for sock in (a, b, c):
            v = sock.next("v")
            assert v["v"] == 1 and v["events"][0]["t"] == "move"
            assert v["state"]["moves"] == "d4"
        stale = b.command("move", move="e6", v=0)
        assert stale["t"] == "error" and stale["status"] == 409
        assert b.command("move", move="e6", v=1)["t"] == "ack"
        assert c.command("move", move="c5")["status"] == 403  # spectators only watch
        assert c.command("resign")["status"] == 403
        assert b.command("chat", room="player", text="good luck")["t"] == "ack"
        assert a.next("chat")["line"]["text"] == "good luck"
        assert c.command("chat", room="spectator", text="nice")["t"] == "ack"
        assert c.next("chat")["line"]["text"] == "nice"
        assert c.next("crowd", timeout=8)["spectators"] >= 1
        assert a.command("resync")["t"] == "ack"
        full = a.next("full")
        assert full["v"] == 2 and [x["text"] for x in full["chat"]] == ["good luck"]
        assert a.command("chat-room", open=False)["t"] == "ack"
        assert b.next("chatRoom")["open"] is False
        assert b.command("chat", room="player", text="hello?")["status"] == 409
        assert a.command("resign")["t"] == "ack"
        over = c.next("v")
        assert over["state"]["status"] == "resign" and over["events"][-1]["t"] == "gameOver"
    finally:
        for sock in (a, b, c):
            sock.close()


def test_anonymous_sockets_watch_and_cannot_act(site, live, http_players):
    ann, bob = http_players
    game = new_game(ann, bob)
    sock = Socket(live, game)
    try:
        assert sock.next("full")["you"] is None
        assert sock.command("move", move="d4")["status"] == 401
        assert sock.command("chat", room="spectator", text="hi")["status"] == 401
        sock.ws.send(json.dumps({"t": "ping"}))
        assert sock.next("pong")
    finally:
        sock.close()
    assert ann.state(game)["moves"] == ""


def _signed_in(live: str, name: str) -> tuple[dict[str, str], str]:
    """Sign up through the page: the session cookie and the session's CSRF token."""
    with httpx.Client(base_url=live, follow_redirects=False) as c:
        c.get("/signup")
        form = c.cookies.get("emergo_csrf")
        r = c.post(
            "/signup",
            data={
                "username": name,
                "password": "pass word 1",
                "password2": "pass word 1",
                "csrf": form,
            },
            headers={"Origin": live},
        )
        assert r.status_code == 303, r.text
        cookie = c.cookies.get("emergo_session")
        csrf = c.get("/api/account").json()["csrf"]
    return {"Cookie": f"emergo_session={cookie}"}, csrf


def test_a_cookie_socket_needs_the_sites_origin_and_the_csrf_token(site, live, http_players):
    ann, bob = http_players
    cookie, csrf = _signed_in(live, "dora")
    game = new_game(ann, bob)
    url = ws_url(live, f"/ws/game/{game}")
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus, match="403"):  # no CSRF token: refused
        ws_client.connect(url, additional_headers=cookie, origin=live)
    with pytest.raises(InvalidStatus, match="403"):  # another site's page
        ws_client.connect(
            url + f"?csrf={csrf}", additional_headers=cookie, origin="http://evil.example"
        )
    with ws_client.connect(url + f"?csrf={csrf}", additional_headers=cookie, origin=live) as ws:
        full = json.loads(ws.recv(timeout=5))
        assert full["t"] == "full" and full["you"] is None


def test_lobby_socket(site, live, http_players):
    ann, bob = http_players
    with ws_client.connect(ws_url(live, "/ws/lobby"), additional_headers=bob.headers) as ws:
        first = json.loads(ws.recv(timeout=5))
        assert first == {"t": "seeks", "seeks": []}
        seek = ann.ok("/api/lobby/seek", data={"clock.limit": 180, "clock.increment": 2})
        deadline = time.monotonic() + 10
        got_seek = got_event = False
        challenge = ann.challenge("bob")
        while not (got_seek and got_event) and time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=5))
            if message["t"] == "seeks" and [s["id"] for s in message["seeks"]] == [seek["id"]]:
                got_seek = True
            if message["t"] == "event" and message["event"]["type"] == "challenge":
                assert message["event"]["challenge"]["id"] == challenge
                got_event = True
        assert got_seek and got_event
