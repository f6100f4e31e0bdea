"""A fake server speaking lichess's Bot API shape, for the tests of ``emergo bot`` and the example.

It is a threaded ``http.server`` on 127.0.0.1 with the endpoints a bot uses (docs/bot.md lists
them): NDJSON streams in chunks with an empty keep-alive line when idle, the current
challenges and games replayed on connecting to the event stream, moves checked by the
library, a real Fischer clock.  The opponents are scripted in the test: a
:class:`FakeGame`'s ``opponent`` is called on the opponent's turn (by default it plays a
random legal move), and a test may offer draws, ask takebacks, resign or leave for them.
Faults are injected with :meth:`FakeServer.fail` (any status and headers, e.g. a 429 with
Retry-After) and :meth:`FakeServer.drop_streams` (connections cut without the last chunk).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import random
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from emergo import Board
from emergo.board import WHITE

COLOR_NAMES = {True: "white", False: "black"}
_CLOSE = object()


@dataclass
class Fault:
    method: str
    prefix: str
    status: int
    headers: dict[str, str]
    times: int


@dataclass
class Request:
    method: str
    path: str
    form: dict[str, str]
    authorization: str
    at: float = field(default_factory=time.monotonic)


class FakeGame:
    """One game on the fake server between ``white`` and ``black`` (user names)."""

    def __init__(
        self,
        server: FakeServer,
        gid: str,
        white: str,
        black: str,
        *,
        variant: str = "9x9",
        clock: tuple[float, float] | None = (60.0, 1.0),
        days: int | None = None,
        rated: bool = False,
        initial: str | None = None,
    ) -> None:
        self.server = server
        self.id = gid
        self.players = {True: white, False: black}
        self.variant = variant
        self.initial = initial
        self.board = Board(initial, variant=variant) if initial else Board(variant=variant)
        self.clock = clock
        self.days = days
        self.rated = rated
        self.status = "started"
        self.winner: bool | None = None
        self.draw_offer: bool | None = None
        self.takeback_request: bool | None = None
        left = int((clock[0] if clock else 0) * 1000)
        self.left = {True: left, False: left}
        self.turn_began = time.monotonic()
        self.subscribers: list[queue.Queue[Any]] = []
        self.chat: list[tuple[str, str, str]] = []
        self.answers: list[str] = []
        """The bot's answers to offers, in order: draw-yes, draw-no, takeback-yes, ..."""
        self.answer_plies: list[int] = []
        """The plies of the game just after each answer."""
        self.opponent: Callable[[FakeGame], None] | None = random_opponent
        """Called (in a thread of its own) whenever the opponent is to move."""
        self.opponent_delay = 0.0
        self.gone: dict[str, Any] | None = None
        self.gone_until = 0.0

    def leave(self, seconds: int) -> None:
        """The opponent leaves: the bot may claim the win after ``seconds``."""
        self.gone = {"type": "opponentGone", "gone": True, "claimWinInSeconds": seconds}
        self.gone_until = time.monotonic() + seconds
        self.broadcast(self.gone)

    def come_back(self) -> None:
        self.gone = None
        self.broadcast({"type": "opponentGone", "gone": False})

    # --- what the server sends --------------------------------------------------------------

    def speed(self) -> str:
        if self.clock is None:
            return "correspondence" if self.days else "unlimited"
        total = self.clock[0] + 40 * self.clock[1]
        return "bullet" if total < 180 else "blitz" if total < 480 else "rapid"

    def state(self) -> dict[str, Any]:
        inc = int(self.clock[1] * 1000) if self.clock else 0
        left = dict(self.left)
        if self.clock and self.status == "started":
            left[self.board.turn] -= int((time.monotonic() - self.turn_began) * 1000)
        state: dict[str, Any] = {
            "type": "gameState",
            "moves": " ".join(str(m) for m in self.board.move_stack),
            "wtime": max(left[True], 0),
            "btime": max(left[False], 0),
            "winc": inc,
            "binc": inc,
            "status": self.status,
        }
        if self.winner is not None:
            state["winner"] = COLOR_NAMES[self.winner]
        if self.draw_offer is not None:
            state["wdraw" if self.draw_offer else "bdraw"] = True
        if self.takeback_request is not None:
            state["wtakeback" if self.takeback_request else "btakeback"] = True
        return state

    def full(self) -> dict[str, Any]:
        def player(color: bool) -> dict[str, Any]:
            name = self.players[color]
            title = self.server.accounts.get(name.lower(), {}).get("title")
            return {"id": name.lower(), "name": name, "title": title, "rating": 1500}

        full: dict[str, Any] = {
            "type": "gameFull",
            "id": self.id,
            "variant": {"key": self.variant, "name": self.variant},
            "speed": self.speed(),
            "perf": {"name": self.speed()},
            "rated": self.rated,
            "createdAt": 0,
            "white": player(True),
            "black": player(False),
            "initialFen": self.initial or "startpos",
            "clock": None
            if self.clock is None
            else {"initial": int(self.clock[0] * 1000), "increment": int(self.clock[1] * 1000)},
            "state": self.state(),
        }
        if self.days:
            full["daysPerTurn"] = self.days
        return full

    def start_event(self, user: str) -> dict[str, Any]:
        if self.server.sparse:
            return {"type": "gameStart", "game": {"gameId": self.id, "id": self.id}}
        color = next(c for c, name in self.players.items() if name.lower() == user.lower())
        other = self.players[not color]
        return {
            "type": "gameStart",
            "game": {
                "gameId": self.id,
                "fullId": self.id + "xxxx",
                "color": COLOR_NAMES[color],
                "fen": self.board.position(),
                "isMyTurn": self.board.turn == color,
                "speed": self.speed(),
                "rated": self.rated,
                "variant": {"key": self.variant, "name": self.variant},
                "opponent": {"id": other.lower(), "username": other, "rating": 1500},
                "compat": {"bot": True, "board": True},
            },
        }

    def broadcast(self, message: Any) -> None:
        for subscriber in list(self.subscribers):
            subscriber.put(message)

    def publish(self) -> None:
        self.broadcast(self.state())
        if self.status != "started":
            self.broadcast(_CLOSE)
            for name in self.players.values():
                self.server.emit(name, {"type": "gameFinish", "game": {"gameId": self.id}})
        else:
            self._maybe_opponent()

    # --- playing (under the server's lock) ------------------------------------------------------

    def color_of(self, user: str) -> bool | None:
        for color, name in self.players.items():
            if name.lower() == user.lower():
                return color
        return None

    def play(self, color: bool, text: str) -> str | None:
        """Play a move for ``color``; an error message when it is refused."""
        if self.status != "started":
            return "the game is over"
        if self.board.turn != color:
            return "not your turn"
        try:
            self.board.push_move(text)
        except ValueError as e:
            return str(e)
        now = time.monotonic()
        if self.clock is not None:
            self.left[color] -= int((now - self.turn_began) * 1000)
            if self.left[color] < 0:
                self.board.pop()
                self.finish("outoftime", not color)
                return None
            self.left[color] += int(self.clock[1] * 1000)
        self.turn_began = now
        if self.draw_offer is not None and self.draw_offer != color:
            self.draw_offer = None  # a move declines the offer
        self.takeback_request = None
        outcome = self.board.outcome()
        if outcome is not None:
            self.finish("mate" if outcome.winner is not None else "draw", outcome.winner)
        return None

    def finish(self, status: str, winner: bool | None) -> None:
        self.status, self.winner = status, winner
        self.draw_offer = self.takeback_request = None

    def _maybe_opponent(self) -> None:
        opponent = self.opponent
        bot = self.server.bot.lower()
        to_move = self.players[self.board.turn].lower()
        if opponent is None or to_move == bot or self.status != "started":
            return
        plies = len(self.board.move_stack)

        def run() -> None:
            time.sleep(self.opponent_delay)
            with self.server.lock:
                if self.status == "started" and len(self.board.move_stack) == plies:
                    opponent(self)

        threading.Thread(target=run, daemon=True).start()

    def opponent_color(self) -> bool:
        color = self.color_of(self.server.bot)
        assert color is not None
        return not color


def random_opponent(game: FakeGame) -> None:
    """The default opponent: a random legal move at once."""
    move = random.Random(len(game.board.move_stack)).choice(game.board.moves())
    game.play(game.board.turn, str(move))
    game.publish()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.fake.handle(self, "GET")

    def do_POST(self) -> None:
        self.server.fake.handle(self, "POST")

    # --- answers ----------------------------------------------------------------------

    def answer(self, status: int, body: Any = None, headers: dict[str, str] | None = None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def ok(self) -> None:
        self.answer(200, {"ok": True})

    def stream(self, messages: queue.Queue[Any], keepalive: float) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        fake = self.server.fake
        with fake.lock:
            fake.open_streams.append(self.connection)
        try:
            while True:
                try:
                    message = messages.get(timeout=keepalive)
                except queue.Empty:
                    message = None
                if message is _CLOSE:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    return
                line = b"\n" if message is None else json.dumps(message).encode() + b"\n"
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
        except OSError:
            return
        finally:
            with fake.lock:
                if self.connection in fake.open_streams:
                    fake.open_streams.remove(self.connection)
            self.close_connection = True


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeServer


class FakeServer:
    """See the module.  ``bot`` is the bot's account (``token`` its token)."""

    def __init__(self, bot: str = "Botty", token: str = "bot-secret-token-123") -> None:
        self.bot = bot
        self.token = token
        self.tokens = {token: bot}
        self.accounts: dict[str, dict[str, Any]] = {
            bot.lower(): {"id": bot.lower(), "username": bot, "title": "BOT"},
            "alice": {"id": "alice", "username": "Alice"},
            "rival": {"id": "rival", "username": "Rival", "title": "BOT"},
        }
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.requests: list[Request] = []
        self.faults: list[Fault] = []
        self.subscribers: dict[str, list[queue.Queue[Any]]] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, str] = {}
        """Challenge id -> ``accepted``, ``declined:REASON`` or ``cancelled``."""
        self.games: dict[str, FakeGame] = {}
        self.open_streams: list[socket.socket] = []
        self.event_connections = 0
        self.keepalive = 0.5
        self.accept_challenges = True
        """Whether the bot's own challenges are accepted (by their scripted opponent)..."""
        self.decline_reason = "generic"
        """... else declined with this reason."""
        self.challenge_variants: list[dict[str, str]] = []
        self.sparse = False
        """Send what the emergo server sends today rather than all of lichess's fields: a
        ``gameStart`` with the game's id alone, game ids that are not the challenge's (the
        accept's answer has the ``gameId``), a ``challengeDeclined`` with the id alone."""
        self.opponent: Callable[[FakeGame], None] | None = random_opponent
        """The opponent of the games that challenges start (see FakeGame.opponent)."""
        self._ids = itertools.count(1)
        self._http = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._http.fake = self
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.drop_streams()
        self._http.shutdown()
        self._http.server_close()

    # --- scripting ------------------------------------------------------------------------

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):04d}"

    def game_id(self, challenge_id: str) -> str:
        """The id of the game of a challenge: lichess's is the challenge's own."""
        return challenge_id + "g" if self.sparse else challenge_id

    def game_of(self, challenge_id: str) -> FakeGame | None:
        return self.games.get(self.game_id(challenge_id))

    def emit(self, user: str, message: dict[str, Any]) -> None:
        for subscriber in self.subscribers.get(user.lower(), []):
            subscriber.put(message)

    def challenge(
        self,
        challenger: str = "Alice",
        *,
        variant: str = "9x9",
        clock: tuple[float, float] | None = (60.0, 1.0),
        days: int | None = None,
        rated: bool = False,
        color: str = "random",
    ) -> str:
        """A challenge from ``challenger`` to the bot (an event on its stream); its id."""
        with self.lock:
            cid = self.new_id("c")
            if clock is not None:
                tc: dict[str, Any] = {
                    "type": "clock",
                    "limit": clock[0],
                    "increment": clock[1],
                    "show": f"{clock[0]:g}+{clock[1]:g}",
                }
            elif days:
                tc = {"type": "correspondence", "daysPerTurn": days}
            else:
                tc = {"type": "unlimited"}
            probe = FakeGame(self, cid, challenger, self.bot, clock=clock, days=days)
            account = self.accounts.get(challenger.lower(), {})
            data = {
                "id": cid,
                "url": f"{self.url}/{cid}",
                "status": "created",
                "challenger": {
                    "id": challenger.lower(),
                    "name": challenger,
                    "title": account.get("title"),
                    "rating": 1500,
                },
                "destUser": {"id": self.bot.lower(), "name": self.bot, "title": "BOT"},
                "variant": {"key": variant, "name": variant, "short": variant},
                "rated": rated,
                "speed": probe.speed(),
                "timeControl": tc,
                "color": color,
                "perf": {"icon": "", "name": probe.speed()},
                "direction": "in",
                "_clock": clock,
                "_days": days,
            }
            self.challenges[cid] = data
            self.emit(self.bot, {"type": "challenge", "challenge": _public(data)})
            return cid

    def cancel_challenge(self, cid: str) -> None:
        with self.lock:
            data = self.challenges.pop(cid)
            self.answers[cid] = "cancelled"
            self.emit(self.bot, {"type": "challengeCanceled", "challenge": _public(data)})

    def start_game(
        self,
        white: str,
        black: str,
        *,
        gid: str | None = None,
        variant: str = "9x9",
        clock: tuple[float, float] | None = (60.0, 1.0),
        days: int | None = None,
        rated: bool = False,
        initial: str | None = None,
        opponent: Callable[[FakeGame], None] | None = random_opponent,
    ) -> FakeGame:
        with self.lock:
            gid = gid or self.new_id("g")
            game = FakeGame(
                self,
                gid,
                white,
                black,
                variant=variant,
                clock=clock,
                days=days,
                rated=rated,
                initial=initial,
            )
            game.opponent = opponent
            self.games[gid] = game
            for name in (white, black):
                self.emit(name, game.start_event(name))
            game._maybe_opponent()
            self.changed.notify_all()
            return game

    def fail(
        self,
        method: str,
        prefix: str,
        status: int,
        headers: dict[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """The next ``times`` requests ``method prefix...`` get ``status`` (and ``headers``)."""
        with self.lock:
            self.faults.append(Fault(method, prefix, status, headers or {}, times))

    def drop_streams(self) -> None:
        """Cut every open stream (no last chunk: the client sees a broken connection)."""
        with self.lock:
            streams, self.open_streams = list(self.open_streams), []
        for sock in streams:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def wait(self, predicate: Callable[[], Any], timeout: float = 20.0) -> Any:
        """Wait until ``predicate()`` (called under the lock) is true; its value."""
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                value = predicate()
                if value:
                    return value
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {predicate}")
                self.changed.wait(min(left, 0.1))

    def posts(self, prefix: str) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.method == "POST" and r.path.startswith(prefix)]

    # --- requests -------------------------------------------------------------------------

    def handle(self, handler: _Handler, method: str) -> None:
        parts = urllib.parse.urlsplit(handler.path)
        path = urllib.parse.unquote(parts.path)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length).decode() if length else ""
        form = dict(urllib.parse.parse_qsl(body))
        auth = handler.headers.get("Authorization", "")
        with self.lock:
            self.requests.append(Request(method, path, form, auth))
            self.changed.notify_all()
            for fault in self.faults:
                if fault.method == method and path.startswith(fault.prefix) and fault.times > 0:
                    fault.times -= 1
                    handler.answer(fault.status, {"error": f"fault {fault.status}"}, fault.headers)
                    return
        user = self.tokens.get(auth.removeprefix("Bearer ")) if auth.startswith("Bearer ") else None
        if user is None:
            handler.answer(401, {"error": "No such token"})
            return
        try:
            self._route(handler, method, path, form, user)
        finally:
            with self.lock:
                self.changed.notify_all()

    def _route(self, h: _Handler, method: str, path: str, form: dict[str, str], user: str) -> None:
        words = path.strip("/").split("/")
        if method == "GET" and path == "/api/account":
            h.answer(200, self.accounts[user.lower()])
        elif method == "POST" and path == "/api/bot/account/upgrade":
            with self.lock:
                self.accounts[user.lower()]["title"] = "BOT"
            h.ok()
        elif method == "GET" and path == "/api/stream/event":
            self._event_stream(h, user)
        elif method == "GET" and words[:4] == ["api", "bot", "game", "stream"] and len(words) == 5:
            self._game_stream(h, user, words[4])
        elif method == "POST" and words[:3] == ["api", "bot", "game"] and len(words) >= 5:
            self._game_action(h, user, words[3], words[4:], form)
        elif method == "POST" and words[:2] == ["api", "challenge"] and len(words) == 4:
            self._challenge_answer(h, user, words[2], words[3], form)
        elif method == "POST" and words[:2] == ["api", "challenge"] and len(words) == 3:
            self._challenge_create(h, user, words[2], form)
        else:
            h.answer(404, {"error": "Not found"})

    def _event_stream(self, h: _Handler, user: str) -> None:
        messages: queue.Queue[Any] = queue.Queue()
        with self.lock:
            self.event_connections += 1
            for data in self.challenges.values():
                if data["destUser"]["id"] == user.lower():
                    messages.put({"type": "challenge", "challenge": _public(data)})
            for game in self.games.values():
                if game.status == "started" and game.color_of(user) is not None:
                    messages.put(game.start_event(user))
            self.subscribers.setdefault(user.lower(), []).append(messages)
        try:
            h.stream(messages, self.keepalive)
        finally:
            with self.lock:
                self.subscribers[user.lower()].remove(messages)

    def _game_stream(self, h: _Handler, user: str, gid: str) -> None:
        with self.lock:
            game = self.games.get(gid)
            if game is None:
                h.answer(404, {"error": "No such game"})
                return
            messages: queue.Queue[Any] = queue.Queue()
            messages.put(game.full())
            if game.gone is not None:
                messages.put(game.gone)
            if game.status != "started":
                messages.put(_CLOSE)
            game.subscribers.append(messages)
        try:
            h.stream(messages, self.keepalive)
        finally:
            with self.lock:
                game.subscribers.remove(messages)

    def _game_action(
        self, h: _Handler, user: str, gid: str, action: list[str], form: dict[str, str]
    ) -> None:
        with self.lock:
            game = self.games.get(gid)
            color = game.color_of(user) if game is not None else None
            if game is None or color is None:
                h.answer(404, {"error": "No such game"})
                return
            kind = action[0]
            error: str | None = None
            if kind == "move" and len(action) == 2:
                error = game.play(color, action[1])
            elif kind == "resign":
                error = "the game is over" if game.status != "started" else None
                if error is None:
                    game.finish("resign", not color)
            elif kind == "abort":
                game.finish("aborted", None)
            elif kind == "claim-victory":
                if game.gone is None or time.monotonic() < game.gone_until:
                    error = "You cannot claim victory in this game"
                else:
                    game.finish("timeout", color)
            elif kind == "chat":
                game.chat.append((form.get("room", ""), user, form.get("text", "")))
                h.ok()
                return
            elif kind in ("draw", "takeback") and len(action) == 2:
                error = self._answer_offer(game, color, kind, action[1] == "yes")
            else:
                h.answer(404, {"error": "Not found"})
                return
            if error is not None:
                h.answer(400, {"error": error})
                return
            game.publish()
        h.ok()

    def _answer_offer(self, game: FakeGame, color: bool, kind: str, yes: bool) -> str | None:
        game.answers.append(f"{kind}-{'yes' if yes else 'no'}")
        if kind == "draw":
            if game.draw_offer is None or game.draw_offer == color:
                return "no draw offer to answer"
            game.draw_offer = None
            if yes:
                game.finish("draw", None)
            game.answer_plies.append(len(game.board.move_stack))
            return None
        if game.takeback_request is None or game.takeback_request == color:
            return "no takeback request to answer"
        asker = game.takeback_request
        game.takeback_request = None
        if yes:
            game.board.pop()
            if game.board.turn != asker and game.board.move_stack:
                game.board.pop()  # back to the asker's turn
            game.turn_began = time.monotonic()
        game.answer_plies.append(len(game.board.move_stack))
        return None

    def _challenge_answer(
        self, h: _Handler, user: str, cid: str, verb: str, form: dict[str, str]
    ) -> None:
        with self.lock:
            data = self.challenges.get(cid)
            if data is None:
                h.answer(404, {"error": "No such challenge"})
                return
            if verb == "cancel" and data["challenger"]["id"] == user.lower():
                del self.challenges[cid]
                self.answers[cid] = "cancelled"
                h.ok()
                return
            if data["destUser"]["id"] != user.lower() or verb not in ("accept", "decline"):
                h.answer(404, {"error": "No such challenge"})
                return
            del self.challenges[cid]
            if verb == "decline":
                reason = form.get("reason", "generic")
                self.answers[cid] = f"declined:{reason}"
                self.emit(
                    data["challenger"]["id"],
                    {"type": "challengeDeclined", "challenge": {**_public(data),
                     "declineReason": reason, "declineReasonKey": reason}},
                )  # fmt: skip
                h.ok()
                return
            self.answers[cid] = "accepted"
            white, black = data["challenger"]["name"], self.bot
            if data["color"] == "black" or (data["color"] == "random" and int(cid[1:]) % 2):
                white, black = black, white
            game = self.start_game(
                white,
                black,
                gid=self.game_id(cid),
                variant=data["variant"]["key"],
                clock=data["_clock"],
                days=data["_days"],
                rated=data["rated"],
                opponent=self.opponent,
            )
        h.answer(200, {"ok": True, "gameId": game.id} if self.sparse else {"ok": True})

    def _challenge_create(self, h: _Handler, user: str, dest: str, form: dict[str, str]) -> None:
        with self.lock:
            account = self.accounts.get(dest.lower())
            if account is None:
                h.answer(404, {"error": f"No such user {dest}"})
                return
            self.challenge_variants.append(form)
            cid = self.new_id("m")
            h.answer(200, {"id": cid, "url": f"{self.url}/{cid}", "status": "created"})
            if not self.accept_challenges:
                self.emit(
                    user,
                    {"type": "challengeDeclined", "challenge": {"id": cid} if self.sparse else
                     {"id": cid, "declineReason": "no", "declineReasonKey": self.decline_reason}},
                )  # fmt: skip
                return
            clock = None
            if "clock.limit" in form:
                clock = (float(form["clock.limit"]), float(form.get("clock.increment", 0)))
            days = int(form["days"]) if "days" in form else None
            mine = form.get("color", "random")
            white, black = (user, account["username"])
            if mine == "black":
                white, black = black, white
            self.start_game(
                white,
                black,
                gid=self.game_id(cid),
                variant=form.get("variant", "9x9"),
                clock=clock,
                days=days,
                rated=form.get("rated") == "true",
                opponent=self.opponent,
            )


def _public(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not k.startswith("_")}


__all__ = ["WHITE", "FakeGame", "FakeServer", "random_opponent"]
