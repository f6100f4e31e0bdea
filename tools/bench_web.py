"""Benchmarks of ``emergo serve`` in local mode (scripts, not timed tests).

    .venv/bin/python tools/bench_web.py [first|roundtrip|load|all] [--loads 20] [--moves 100]
        [--clients 20] [--seconds 20] [--src DIR --src DIR ...]

* ``first``: a new hot-seat game's page (the page a player sees first with a board), from
  navigation to the performance mark ``emergo-board-drawn`` (the first board with the game's
  pieces) in headless Chromium, over ``--loads`` fresh loads of it with a warm cache (with
  several servers, they take turns load by load); the page's weight (every byte of a first,
  uncached load, uncompressed, API answers included, until the network is idle) and its number
  of requests, and apart from them its sockets' messages to it (count and bytes); and, of the
  warm loads, how many requests went to the server before the mark (the median: files
  revalidated, API calls).
* ``roundtrip``: a hot-seat game open in two browser contexts (two players' browsers, each
  with its own cache); a move clicked in one, timed until the other has drawn it (loopback,
  the real page both ends), over ``--moves`` moves; with several servers, they take turns in
  blocks of 10 moves.  The times are taken inside the pages (the Performance API; the two
  contexts share the machine's clock), so the browser driver's own round trips are not
  counted:

  - ``click``: the click (``pointerdown``) that completes the move, in the mover's page (the
    event's own time stamp);
  - ``handled``: the page's first listener for that click runs (the browser's input delay);
  - ``sent``: the mover's page hands the move to its WebSocket;
  - ``received``: the watcher's page receives the new state;
  - ``drawn``: the watcher's move list has the move (the elements with ``data-ply``; the page
    draws the board in the same task);
  - ``frame``: the next animation frame after that (the update painted).

  The round trip is ``click -> drawn``.  With it, the server process's CPU time a move (user +
  system, from /proc, from just before the click to both pages having drawn the move: less noisy
  than wall time on a shared machine).
* ``load``: ``--clients`` simulated players at once, each over its own WebSocket playing 7x7
  games against the engine at level 1 for ``--seconds``: games finished, moves a second (both
  sides), the round trip of a player's move (sent -> the state with it), the engine's answer
  (the state with the player's move -> the state with the engine's), the server's CPU a move,
  the errors by kind.  The engine thinks in the server process in both trees: in the local
  app's games, and in ``emergo serve`` the house bot of level 1 (a thread of the server, a
  client of its Bot API).
  A simulated player does what its page does: ``emergo serve``'s page takes a new position's
  legal moves from the socket's ``v`` message of the move (``position``), and asks ``GET
  /api/position`` only when a message brought none (the first position, a gap); the local app
  sent them with the state.  The simulated players are the one local player: they challenge
  the computer one at a time (a second challenge on the same terms while the first is pending
  is the first's, as a double click).

``--src DIR`` (repeatable) runs the server from that source tree (``PYTHONPATH=DIR``, its C
kernel built in place) with this Python; without it, the installed tree.  A tree is one of two
kinds, told apart by ``emergo/web/server.py``:

* the site (issue 26): ``python -m emergo serve --no-browser --port P --db FILE --config FILE
  [--no-house-bots]`` in local mode (one player, signed in by itself: the benchmark takes its
  session from ``GET /api/account``, which gives the CSRF token that the API (``X-CSRF-Token``)
  and the sockets (the subprotocol ``csrf.TOKEN``) need); a hot-seat game is ``POST
  /api/hotseat``, its page ``/game/{id}``, its socket ``/ws/game/{id}`` (``t``/``v``
  messages), a game against the engine ``POST /api/challenge/ai``.  The config file raises the
  rate limits (challenges, moves, socket messages: a benchmark is not one person at a board)
  and gives the level-1 house bot as many games at once as there are clients;
* the local app before it (``python -m emergo.web.server --no-browser --port P --db FILE``): a
  game is ``POST /api/games``, its page ``/?game=ID`` (the single-page app), its socket
  ``/ws/game/{id}`` (``type`` messages).

Each part starts its own servers on free ports, each with a fresh data directory
(``XDG_DATA_HOME``) and database, so before and after run back to back on one machine load::

    nice -n 5 .venv/bin/python tools/bench_web.py all --loads 20 --moves 100 \\
        --clients 20 --seconds 20 --src /work/wt/oldmain/src --src src

The pages are driven through stable hooks only: the mark, ``data-square`` (a square's
elements on the board: a move is clicked square by square along its route, from the legal
moves of the API), ``data-ply`` (the move list's moves); nothing else of the page's markup.
Needs the ``server`` and ``webtest`` extras and Chromium (/usr/bin/chromium).

Figures of one run of the command above (2026-12-02 00:56-01:01 UTC, the shared 2-core machine
at a load average of 14-21; before = the local app at cb88cda, after = ``emergo serve`` at
68a71fe with the game page's mark; after / before):

| | after | before | ratio |
|---|---|---|---|
| first board, warm cache, 20 loads, p50 / p99 | 1,127 / 2,371 ms | 1,192 / 2,354 ms | 0.95 / 1.01 |
| the page's weight (uncached), requests | 144,358 bytes, 8 | 147,662 bytes, 12 | 0.98, 0.67 |
| ... and its sockets' messages | 715 bytes in 3 | 4,019 bytes in 1 | |
| round trip, 100 moves, p50 / p99 | 92.4 / 452.7 ms | 45.8 / 347.5 ms | 2.02 / 1.30 |
| the server's CPU a move (round trip) | 18.5 ms | 5.0 ms | 3.7 |
| load, 20 clients, 20 s: moves a second | 24.8 | 138.3 | 0.18 |
| ... a player's move, p50 / p99 | 319 / 1,955 ms | 179 / 688 ms | 1.78 / 2.84 |
| ... the engine's answer, p50 / p99 | 586 / 2,109 ms | 56 / 444 ms | 10.4 / 4.75 |
| ... the server's CPU a move | 17.2 ms | 2.9 ms | 5.9 |

In the load run ``emergo serve`` answered 10 of its challenges to the house bot with 503 (the
bot did not accept within the wait); the local app had no errors.

After issue 27 (branch lean at 0d8350e: the hot path for hot-seat games and games without a
clock at the board, no your-turn notice to a player at the game, the new position in the
socket's ``v`` message, a token's request opening no session, a house bot taking all its games
without a clock), 2026-12-02 02:25-02:34 UTC at a load average of 16-21; ``all`` stopped in its
round trip (a page's navigation aborted, ``net::ERR_ABORTED``, once), so the round trip and the
load are ``roundtrip`` and ``load`` run right after it, each old and new back to back:

| | after | before | ratio |
|---|---|---|---|
| first board, warm cache, 20 loads, p50 / p99 | 1,570 / 3,762 ms | 2,146 / 3,767 ms | 0.73 / 1.00 |
| the page's weight (uncached), requests | 144,463 bytes, 8 | 147,662 bytes, 12 | 0.98, 0.67 |
| round trip, 100 moves, p50 / p99 | 28.2 / 200.9 ms | 30.7 / 176.6 ms | 0.92 / 1.14 |
| the server's CPU a move (round trip) | 4.8 ms | 2.8 ms | 1.71 |
| load, 20 clients, 20 s: moves a second | 71.2 | 150.9 | 0.47 |
| ... a player's move, p50 / p99 | 113 / 874 ms | 182 / 575 ms | 0.62 / 1.52 |
| ... the engine's answer, p50 / p99 | 186 / 929 ms | 43 / 295 ms | 4.29 / 3.15 |
| ... the server's CPU a move | 6.7 ms | 3.1 ms | 2.13 |

No errors in either load run.

Then (branch local26 at 35925b5: the house bots in local mode in process, over the site's
services instead of its HTTP; a level's hash sized by its cap, as the local app's; no watchdog
thread a move for the built-in engine and one stop watcher thread for all the kernel's searches;
the tournaments' sweep a raw read when nothing is due; and this tool's load players challenging
one at a time, taking each position from the socket's message as the page does), 2026-12-03
10:21-10:24 UTC at a load average of 7-10, one run of the command above with three trees:
``--src /work/wt/oldmain/src --src /work/wt/local26-before/src --src src`` (old = the local app
at cb88cda, main = main at 8841521 before the branch, new = the branch; all three driven by
this version of the tool; two figures are p50 / p99):

| | new | main | old | new / old | main / old |
|---|---|---|---|---|---|
| first board (ms), p50 / p99 | 255 / 463 | 237 / 488 | 236 / 362 | 1.08 / 1.28 | 1.00 / 1.35 |
| page weight (bytes), requests | 204,542, 8 | 204,542, 8 | 147,662, 12 | 1.39, 0.67 | 1.39 |
| round trip (ms) | 19.3 / 88.1 | 20.1 / 101.7 | 20.3 / 113.2 | 0.95 / 0.78 | 0.99 / 0.90 |
| server CPU a move (round trip) | 4.3 ms | 3.8 ms | 3.5 ms | 1.23 | 1.09 |
| load: moves a second | 321.6 | 179.2 | 271.3 | 1.19 | 0.66 |
| ... a player's move (ms) | 50 / 201 | 76 / 224 | 87 / 585 | 0.57 / 0.34 | 0.87 / 0.38 |
| ... the engine's answer (ms) | 46 / 189 | 91 / 224 | 19 / 231 | 2.40 / 0.82 | 4.77 / 0.97 |
| ... server CPU a move | 2.87 ms | 5.39 ms | 2.39 ms | 1.20 | 2.26 |

No errors in any load run.  The first board is the same page in main and new, and a hot-seat
move the same round (their differences there are the machine's noise: the CPU a move of 100
moves is read from /proc in 10 ms ticks); the page weighs 57 KB more than in the runs above
because the one bundle grew with /learn, puzzles and tournaments (emergo.js 148 KB); split by
page since (docs/web.md's table): 130,235 bytes, 14 requests, 0.88 of the local app's.  What is
left above the local app: a move is a round of the site, one SQLite write transaction under the
database's one write lock (a profile of the load shows the bots' moves waiting for that lock
longer than they think), and a game's end counts it in the opening explorer in the same
transaction (some 5-10 ms), where the local app's game was an object in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import http.cookiejar
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("EMERGO_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

SITE = "emergo serve"
APP = "local app"
"""The two kinds of tree: the site (issue 26) and the local app before it."""

# Installed in every page before its own scripts: timestamps (ms since the epoch, sub-ms) of
# the last click, each move handed to the WebSocket, each state received, each move-list update.
# The messages of both trees: the site's {"t":"move"...} and {"t":"v"...}, the local app's
# {"type":"move"...} and {"type":"state"...}.
PROBE = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const b = window.__bench = {click: 0, handled: 0, sent: [], states: [], drawn: [], frames: []};
  b.count = 0;
  const clicked = (e) => { b.click = performance.timeOrigin + e.timeStamp; b.handled = now(); };
  document.addEventListener("pointerdown", clicked, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const move = typeof data === "string"
      && (data.startsWith('{"t":"move"') || data.includes('"type":"move"'));
    if (move) b.sent.push([b.click, b.handled, now()]);
    return send.call(this, data);
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const head = typeof e.data === "string" ? e.data.slice(0, 20) : "";
        if (head.startsWith('{"t":"v"') || head.includes('"state"')) b.states.push(now());
      });
    }
  };
  new MutationObserver(() => {
    const n = document.querySelectorAll("[data-ply]").length;
    if (n <= b.count) { b.count = n; return; }
    b.count = n;
    b.drawn.push([n, now()]);
    requestAnimationFrame(() => b.frames.push([n, now()]));
  }).observe(document, {childList: true, subtree: true});
})();
"""

MARKED = "() => performance.getEntriesByName('emergo-board-drawn').length > 0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))], 2)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_kind(src: str | None) -> str:
    """:data:`SITE` or :data:`APP`: which server a source tree (None: the installed one) has."""
    if src is None:
        spec = importlib.util.find_spec("emergo")
        if spec is None or spec.origin is None:
            raise SystemExit("bench_web: emergo is not installed")
        root = Path(spec.origin).parent.parent
    else:
        root = Path(src)
        if not (root / "emergo").is_dir():
            raise SystemExit(f"bench_web: {src} holds no emergo package (give its src folder)")
    return APP if (root / "emergo" / "web" / "server.py").exists() else SITE


def over(state: dict[str, Any]) -> bool:
    """A site's ``gameState`` of a game that has ended."""
    return state.get("status") not in ("created", "started")


def site_config(bot_games: int, all_levels: bool = False) -> str:
    """The site's config of a benchmark: local mode, the rate limits out of the way, the house
    bot of level 1 (every level's with ``all_levels``) playing ``bot_games`` games at once."""
    levels = "" if all_levels else "levels = [1]\n"
    return (
        '[server]\nmode = "local"\n'
        "[limits]\nchallenges_per_minute = 1000000\nmoves_per_second = 1000000\n"
        "socket_messages_per_10s = 1000000\nconnections_per_client = 100000\n"
        f"[bots]\n{levels}concurrency = {max(1, bot_games)}\n"
    )


@dataclass
class Server:
    """A running server and the benchmark's client of it (the local player's session)."""

    base: str
    pid: int
    label: str
    kind: str
    opener: urllib.request.OpenerDirector
    jar: http.cookiejar.CookieJar
    csrf: str = ""

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"origin": self.base}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        if self.csrf:
            headers["x-csrf-token"] = self.csrf
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(request, timeout=30) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.code} {e.read()[:200]!r}") from None

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.request("POST", path, body)

    @property
    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def sign_in(self) -> None:
        """The local player's session (the site signs every request in) and its CSRF token."""
        if self.kind == SITE:
            self.csrf = self.get("/api/account")["csrf"]

    def new_hotseat(self, variant: str = "9x9") -> str:
        if self.kind == SITE:
            game: str = self.post("/api/hotseat", {"variant": variant})["gameId"]
            return game
        start = {"9x9": "w 12/12", "7x7": "7x7 w 8/8"}[variant]
        hot_seat = {"kind": "human"}
        body = {"pos": start, "white": hot_seat, "black": hot_seat}
        return str(self.post("/api/games", body)["id"])

    def page(self, game: str, query: str = "") -> str:
        """The address of a game's page."""
        if self.kind == SITE:
            return f"{self.base}/game/{game}" + (f"?{query}" if query else "")
        return f"{self.base}/?game={game}" + (f"&{query}" if query else "")

    def legal(self, game: str) -> tuple[int, list[dict[str, Any]]]:
        """The game's plies so far and its legal moves now (none once it is over), each with
        its route (``path``: the squares clicked), from the API."""
        if self.kind == SITE:
            full = self.get(f"/api/game/{game}")
            moves = full["state"]["moves"].split()
            if over(full["state"]):
                return len(moves), []
            query = urllib.parse.urlencode({"pos": full["initialFen"], "moves": " ".join(moves)})
            return len(moves), self.get(f"/api/position?{query}")["moves"]
        saved = self.get(f"/api/games/{game}")
        if saved.get("live"):  # the game held live: its state is the one the pages show
            state = saved["live"]["state"]
            return state["ply"], [] if state["outcome"] else state["moves"]
        return len(saved["moves"]), saved["state"]["moves"] if saved["result"] == "*" else []


@contextmanager
def server(
    src: str | None = None, bot_games: int = 0, all_levels: bool = False
) -> Iterator[Server]:
    """A server of the tree ``src`` (None: the installed one) on a free port, with a fresh data
    directory; the site runs its house bots when ``bot_games`` is not 0 (:func:`site_config`)."""
    kind = tree_kind(src)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        env = dict(os.environ, XDG_DATA_HOME=folder)
        if src:
            env["PYTHONPATH"] = str(Path(src).resolve())
        if kind == SITE:
            config = Path(folder) / "bench.toml"
            config.write_text(site_config(bot_games, all_levels))
            command = [sys.executable, "-m", "emergo", "serve", "--config", str(config)]
            command += [] if bot_games else ["--no-house-bots"]
        else:
            command = [sys.executable, "-m", "emergo.web.server"]
        command += ["--no-browser", "--port", str(port), "--db", str(db)]
        log = (Path(folder) / "server.log").open("w")
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=1).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.flush()
                        shown = (Path(folder) / "server.log").read_text()[-2000:]
                        started = f"{' '.join(command)} did not start"
                        raise SystemExit(f"bench_web: {started}:\n{shown}") from None
                    time.sleep(0.1)
            jar = http.cookiejar.CookieJar()
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            label = f"{kind} ({src or 'installed'})"
            srv = Server(base, proc.pid, label, kind, opener, jar)
            srv.sign_in()
            yield srv
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


# --- first board -------------------------------------------------------------------------------

WEIGHT = """() => {
  const all = performance.getEntriesByType('navigation').concat(
    performance.getEntriesByType('resource'));
  return [all.reduce((n, e) => n + e.decodedBodySize, 0), all.length];
}"""
# requests answered by the server (not the cache alone) that ended before the board was drawn
ASKED = """() => {
  const mark = performance.getEntriesByName('emergo-board-drawn')[0].startTime;
  return performance.getEntriesByType('navigation').concat(
    performance.getEntriesByType('resource'))
    .filter((e) => e.responseEnd <= mark && e.transferSize > 0).length;
}"""


def new_context(browser: Any) -> Any:
    """A browser context of its own (cookies, cache), with the window of a laptop."""
    return browser.new_context(viewport={"width": 1200, "height": 860})


def listen(ws: Any, got: list[int]) -> None:
    """Count the sizes of a page's socket's messages to it in ``got``."""
    ws.on("framereceived", lambda p: got.append(len(p.encode() if isinstance(p, str) else p)))


def first_board(loads: int, sources: list[str | None]) -> list[dict[str, Any]]:
    """The first board of ``loads`` loads of a new hot-seat game's page on each server, the
    servers taking turns load by load (so that both see the same machine load), and the
    page's weight."""
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        servers = [stack.enter_context(server(src)) for src in sources]
        urls = [srv.page(srv.new_hotseat()) for srv in servers]
        contexts = [new_context(browser) for _ in servers]
        times: list[list[float]] = [[] for _ in servers]
        asked: list[list[float]] = [[] for _ in servers]
        weights = [(0, 0, 0, 0)] * len(servers)
        for i in range(loads + 1):
            for k, (url, context) in enumerate(zip(urls, contexts, strict=True)):
                page = context.new_page()
                frames: list[int] = []
                if not i:  # the sockets' messages to the page (its game's state, the site's)
                    page.on("websocket", lambda ws, got=frames: listen(ws, got))
                page.goto(url)
                page.wait_for_function(MARKED)
                ms = page.evaluate(
                    "() => performance.getEntriesByName('emergo-board-drawn')[0].startTime"
                )
                if i:  # the first load fills the cache
                    times[k].append(float(ms))
                    asked[k].append(float(page.evaluate(ASKED)))
                else:  # every file and answer of the first (uncached) load, uncompressed
                    page.wait_for_load_state("networkidle")
                    weight, requests = page.evaluate(WEIGHT)
                    weights[k] = (int(weight), int(requests), sum(frames), len(frames))
                page.close()
        browser.close()
    return [
        {
            "server": srv.label,
            "loads": loads,
            "p50_ms": pct(t, 50),
            "p99_ms": pct(t, 99),
            "page_bytes": w[0],
            "requests": w[1],
            "socket_bytes": w[2],
            "socket_messages": w[3],
            "warm_requests_to_server_p50": pct(a, 50),
        }
        for srv, t, a, w in zip(servers, times, asked, weights, strict=True)
    ]


# --- round trip --------------------------------------------------------------------------------


def click_square(page: Any, square: str) -> None:
    box = page.locator(f"[data-square='{square}']").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_click(page: Any, path: list[str]) -> None:
    """Click a move's route square by square, until the page has sent it."""
    sent = page.evaluate("() => window.__bench.sent.length")
    for square in path:
        click_square(page, square)
        if page.evaluate("() => window.__bench.sent.length") > sent:
            return
    said = page.evaluate("() => document.getElementById('message')?.textContent")  # a hint
    raise RuntimeError(f"the page sent no move after clicking {' '.join(path)} ({said!r})")


STEPS = ("handled", "sent", "received", "drawn", "frame")


@dataclass
class Trips:
    """One server's round trips: per move, the times of each step after the click (ms)."""

    srv: Server
    mover: Any
    watcher: Any
    steps: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STEPS})
    cpu: float = 0.0
    moves: int = 0
    game: str = ""
    reloads: list[str] = field(default_factory=list)
    """Why a move had to be clicked again after reloading the pages (none, normally)."""

    def new_game(self) -> None:
        self.game = self.srv.new_hotseat()
        self.reload()

    def reload(self) -> None:
        for page in (self.mover, self.watcher):
            page.goto(self.srv.page(self.game, "animation=0"))
            page.wait_for_function(MARKED)

    def play(self, moves: int) -> None:
        """Play ``moves`` moves (new games as needed), timing each in the pages."""
        if not self.game:
            self.new_game()
        for _ in range(moves):
            plies, legal = self.srv.legal(self.game)
            if not legal:
                self.new_game()
                plies, legal = self.srv.legal(self.game)
            n = plies + 1
            cpu = cpu_seconds(self.srv.pid)
            try:
                play_click(self.mover, legal[0]["path"])
            except RuntimeError as e:  # said in the report; the pages loaded again
                self.reloads.append(str(e))
                self.reload()
                cpu = cpu_seconds(self.srv.pid)
                play_click(self.mover, legal[0]["path"])
            seen = f"() => window.__bench.count >= {n}"
            self.watcher.wait_for_function(seen, polling=5)
            self.mover.wait_for_function(seen, polling=5)
            self.watcher.wait_for_function(  # the frame after the update
                f"() => window.__bench.frames.some(([k]) => k === {n})", polling=5
            )
            self.cpu += cpu_seconds(self.srv.pid) - cpu
            mover = self.mover.evaluate("() => window.__bench.sent.at(-1)")
            watcher = self.watcher.evaluate(
                f"""() => {{ const b = window.__bench;
                    return [b.states.at(-1), b.drawn.find(([k]) => k === {n})[1],
                            b.frames.find(([k]) => k === {n})[1]]; }}"""
            )
            click, handled, sent = mover
            for step, at in zip(STEPS, [handled, sent, *watcher], strict=True):
                self.steps[step].append(at - click)
            self.moves += 1

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"server": self.srv.label, "moves": self.moves}
        for step in STEPS:
            out[f"click->{step}"] = {
                "p50": pct(self.steps[step], 50),
                "p99": pct(self.steps[step], 99),
            }
        # each step's own share: the time from the step before it (per move)
        previous = [0.0] * self.moves
        for step in STEPS:
            own = [t - b for t, b in zip(self.steps[step], previous, strict=True)]
            out[f"step:{step}"] = {"p50": pct(own, 50), "p99": pct(own, 99)}
            previous = self.steps[step]
        out["round_trip_p50_ms"] = pct(self.steps["drawn"], 50)
        out["round_trip_p99_ms"] = pct(self.steps["drawn"], 99)
        out["server_cpu_ms_per_move"] = round(1000 * self.cpu / max(1, self.moves), 2)
        if self.reloads:
            out["reloads"] = self.reloads
        return out


def round_trip(moves: int, sources: list[str | None], block: int = 10) -> list[dict[str, Any]]:
    """The round trip of ``moves`` moves on each server, alternating in blocks of ``block``."""
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        runs = []
        for src in sources:
            srv = stack.enter_context(server(src))
            pages = []
            for _ in range(2):  # two players' browsers: each its own cache and session
                context = new_context(browser)
                context.add_init_script(PROBE)
                pages.append(context.new_page())
            runs.append(Trips(srv, pages[0], pages[1]))
        for run in runs:  # a warm-up game: caches filled, code paths compiled
            run.play(4)
            run.steps = {s: [] for s in STEPS}
            run.cpu, run.moves = 0.0, 0
        done = 0
        while done < moves:
            k = min(block, moves - done)
            for run in runs:
                run.play(k)
            done += k
        reports = [run.report() for run in runs]
        browser.close()
    return reports


# --- load --------------------------------------------------------------------------------------


@dataclass
class Load:
    """What the simulated players of one server saw."""

    latencies: list[float] = field(default_factory=list)
    """A player's move: sent -> the state with it (ms)."""
    answers: list[float] = field(default_factory=list)
    """The engine's answer: the state with the player's move -> the state with the engine's."""
    games: int = 0
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    asking: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One challenge of the computer at a time: the site gives a player's second challenge on
    the same terms, while the first is pending, the first's game (a double click), and all the
    simulated players are the one local player."""

    def error(self, what: str) -> None:
        self.errors[what[:80]] = self.errors.get(what[:80], 0) + 1

    def played(self, mine: float | None, sent: float | None) -> float | None:
        """A state with new moves came: the times of the move sent, or of the engine's answer
        after the player's move; the time the player's move came back (or None)."""
        t = time.perf_counter()
        if sent is not None:
            self.latencies.append(1000 * (t - sent))
            return t
        if mine is not None:
            self.answers.append(1000 * (t - mine))
        return None


async def load_app(srv: Server, k: int, stop_at: float, seen: Load) -> None:
    """One player of the local app: games against the engine at level 1, White."""
    import websockets

    host = srv.base.removeprefix("http://")
    while time.monotonic() < stop_at:
        engine = {"kind": "engine", "level": 1}
        body = {"pos": "7x7 w 8/8", "white": {"kind": "human"}, "black": engine}
        game = (await asyncio.to_thread(srv.post, "/api/games", body))["id"]
        async with websockets.connect(f"ws://{host}/ws/game/{game}") as ws:
            sent: float | None = None
            mine: float | None = None
            plies = 0
            while (left := stop_at - time.monotonic()) > 0:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    return
                if msg["type"] == "error":
                    seen.error(f"socket: {msg.get('error')}")
                    sent = None
                if msg["type"] != "state":
                    continue
                state = msg["state"]
                if state["ply"] > plies:
                    seen.moves += state["ply"] - plies
                    plies = state["ply"]
                    mine, sent = seen.played(mine, sent), None
                if state["outcome"] or plies > 300:
                    seen.games += 1 if state["outcome"] else 0
                    break
                if state["turn"] == "white" and not msg["thinking"] and sent is None:
                    move = state["moves"][(k + plies) % len(state["moves"])]
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "text": move["text"]}))


class Http:
    """One player's keep-alive connection to the site, for the page's ``GET /api/position``."""

    def __init__(self, srv: Server) -> None:
        self.conn = http.client.HTTPConnection(srv.base.removeprefix("http://"), timeout=30)
        self.headers = {"cookie": srv.cookie}

    def get(self, path: str) -> Any:
        try:
            self.conn.request("GET", path, headers=self.headers)
            answer = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):  # closed while idle: again
            self.conn.close()
            self.conn.request("GET", path, headers=self.headers)
            answer = self.conn.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"GET {path}: {answer.status} {body[:200]!r}")
        return json.loads(body)


async def load_site(srv: Server, k: int, stop_at: float, seen: Load) -> None:
    """One player of the site: games against the house bot of level 1, White, over the game's
    socket, asking for each new position's legal moves as the page does."""
    import websockets
    from websockets.typing import Origin

    host = srv.base.removeprefix("http://")
    conn = Http(srv)
    protocols: Any = ["emergo", f"csrf.{srv.csrf}"]
    headers = {"cookie": srv.cookie}
    terms = {"level": 1, "variant": "7x7", "color": "white"}
    while time.monotonic() < stop_at:
        try:
            async with seen.asking:
                made = await asyncio.to_thread(srv.post, "/api/challenge/ai", terms)
        except RuntimeError as e:  # the bot busy with as many games as it plays at once
            seen.error(f"challenge: {e}")
            await asyncio.sleep(0.5)
            continue
        game = made["gameId"]
        url = f"ws://{host}/ws/game/{game}"
        async with websockets.connect(
            url, origin=Origin(srv.base), additional_headers=headers, subprotocols=protocols
        ) as ws:
            sent: float | None = None
            mine: float | None = None
            start, position, known = "", "", 0
            legal: list[dict[str, Any]] = []
            while (left := stop_at - time.monotonic()) > 0:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    return
                if msg["t"] == "error":
                    seen.error(f"socket: {msg.get('error')}")
                    sent = None
                if msg["t"] == "full":
                    state, start = msg["game"]["state"], msg["game"]["initialFen"]
                elif msg["t"] == "v" and "state" in msg:
                    state = msg["state"]
                else:
                    continue
                moves = state["moves"].split()
                if len(moves) > known or not position:
                    if len(moves) > known:
                        mine, sent = seen.played(mine, sent), None
                    seen.moves += len(moves) - known
                    new = moves[known:] if position else moves
                    data = msg.get("position") if position and len(new) == 1 else None
                    if data is None:  # the page asks only when the message brought none
                        query = urllib.parse.urlencode(
                            {"pos": position or start, "moves": " ".join(new)}
                        )
                        data = await asyncio.to_thread(conn.get, f"/api/position?{query}")
                    position, legal, known = data["position"], data["moves"], len(moves)
                if over(state) or known > 300:
                    if over(state):
                        seen.games += 1
                    else:
                        await ws.send(json.dumps({"t": "resign"}))
                    break
                if state["turn"] == "white" and sent is None and legal:
                    move = legal[(k + known) % len(legal)]["text"]
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"t": "move", "move": move, "v": msg["v"]}))


def warm_bot(srv: Server) -> None:
    """Wait until the site's house bot plays (it starts with the server); one game resigned."""
    deadline = time.monotonic() + 60
    while True:
        try:
            game = srv.post("/api/challenge/ai", {"level": 1, "variant": "7x7"})["gameId"]
            srv.post(f"/api/board/game/{game}/resign", {})
            return
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


async def load(clients: int, seconds: float, src: str | None = None) -> dict[str, Any]:
    seen = Load()
    with server(src, bot_games=2 * clients) as srv:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(clients + 4))
        if srv.kind == SITE:
            await asyncio.to_thread(warm_bot, srv)
        player = load_site if srv.kind == SITE else load_app
        stop_at = time.monotonic() + seconds
        cpu = [cpu_seconds(srv.pid)]

        async def stop() -> None:  # the server's CPU over the moves counted, no more
            await asyncio.sleep(stop_at - time.monotonic())
            cpu.append(cpu_seconds(srv.pid))

        await asyncio.gather(stop(), *(player(srv, k, stop_at, seen) for k in range(clients)))
    return {
        "server": srv.label,
        "clients": clients,
        "seconds": seconds,
        "games": seen.games,
        "moves": seen.moves,
        "moves_per_s": round(seen.moves / seconds, 1),
        "errors": seen.errors,
        "p50_ms": pct(seen.latencies, 50),
        "p99_ms": pct(seen.latencies, 99),
        "answer_p50_ms": pct(seen.answers, 50),
        "answer_p99_ms": pct(seen.answers, 99),
        "server_cpu_ms_per_move": round(1000 * (cpu[1] - cpu[0]) / max(1, seen.moves), 2),
    }


# --- the report --------------------------------------------------------------------------------

STEP_NAMES = {
    "handled": "the browser delivers the click",
    "sent": "the mover's page handles it, sends",
    "received": "WebSocket + server + WebSocket",
    "drawn": "the watcher's page draws it",
    "frame": "to the next frame",
}


def show_trips(report: dict[str, Any]) -> None:
    print(f"round trip ({report['server']}, {report['moves']} moves):", json.dumps(report))
    print("  ms, measured in the pages          this step        since the click")
    print("                                      p50      p99       p50      p99")
    for step in STEPS:
        own, since = report[f"step:{step}"], report[f"click->{step}"]
        print(
            f"  {STEP_NAMES[step]:<35}{own['p50']:>6.2f}  {own['p99']:>7.2f}"
            f"    {since['p50']:>6.2f}  {since['p99']:>7.2f}"
        )
    print(f"  round trip (click -> drawn): p50 {report['round_trip_p50_ms']:.2f} ms,", end=" ")
    print(f"p99 {report['round_trip_p99_ms']:.2f} ms")
    print(f"  the server's CPU a move (user + system): {report['server_cpu_ms_per_move']:.2f} ms")


def show_ratios(what: str, reports: list[dict[str, Any]], keys: tuple[str, ...]) -> None:
    """Each server's figures against the first server's (the first ``--src``: before)."""
    if len(reports) < 2:
        return
    first = reports[0]
    for report in reports[1:]:
        ratios = {}
        for key in keys:
            with contextlib.suppress(TypeError, ZeroDivisionError):
                ratios[key] = round(report[key] / first[key], 2)
        print(f"{what} ratios, {report['server']} / {first['server']}:", json.dumps(ratios))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what", nargs="?", default="all", choices=("first", "roundtrip", "load", "all"))
    p.add_argument("--loads", type=int, default=20)
    p.add_argument("--moves", type=int, default=100)
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument(
        "--src",
        action="append",
        default=[],
        help="run the server from this source tree (repeat to compare, back to back; the "
        "ratios are against the first)",
    )
    args = p.parse_args()
    sources: list[str | None] = list(args.src) or [None]
    if args.what in ("first", "all"):
        results = first_board(args.loads, sources)
        for result in results:
            print(f"first board ({result['server']}):", json.dumps(result), flush=True)
        show_ratios("first board", results, ("p50_ms", "p99_ms", "page_bytes", "requests"))
    if args.what in ("roundtrip", "all"):
        reports = round_trip(args.moves, sources)
        for report in reports:
            show_trips(report)
        trip = ("round_trip_p50_ms", "round_trip_p99_ms", "server_cpu_ms_per_move")
        show_ratios("round trip", reports, trip)
    if args.what in ("load", "all"):
        results = []
        for src in sources:
            results.append(asyncio.run(load(args.clients, args.seconds, src)))
            print(f"load ({results[-1]['server']}):", json.dumps(results[-1]), flush=True)
        keys = ("moves_per_s", "p50_ms", "p99_ms", "answer_p50_ms", "answer_p99_ms")
        show_ratios("load", results, (*keys, "server_cpu_ms_per_move"))


if __name__ == "__main__":
    main()
