"""Benchmarks of ``emergo serve`` (scripts, not timed tests; docs/web.md has the figures).

    .venv/bin/python tools/bench_web.py [first|roundtrip|load|all] [--loads 20] [--moves 200]
        [--clients 50] [--seconds 30] [--src DIR --src DIR ...]

* ``first``: time from navigation to the first board drawn (the page's performance mark
  ``emergo-board-drawn``) in headless Chromium, over ``--loads`` fresh page loads (with several
  ``--src``, the servers take turns load by load), and the page's weight (every file it loads,
  uncompressed).
* ``roundtrip``: a hot-seat game open in two tabs; a move clicked in one tab, timed until the
  other tab has drawn it (loopback, the real page both ends), over ``--moves`` moves.  The times
  are taken inside the pages (the Performance API; both tabs share the machine's clock), so the
  browser driver's own round trips are not counted:

  - ``click``: the click (``pointerdown``) that completes the move, in the mover's tab (the
    event's own time stamp);
  - ``handled``: the page's first listener for that click runs (the browser's input delay);
  - ``sent``: the mover's page hands the move to its WebSocket;
  - ``received``: the watcher's page receives the new state;
  - ``drawn``: the watcher's move list and board are updated (the DOM, a MutationObserver);
  - ``frame``: the next animation frame after that (the update painted).

  The round trip is ``click -> drawn``; the breakdown shows each step's p50/p99, the server's
  own phases (the server records them when ``EMERGO_WEB_TIMINGS`` names a file) and the
  server process's CPU time a move (user + system, from /proc: less noisy than wall time on a
  shared machine).
* ``load``: ``--clients`` simulated players at once, each over its own WebSocket playing 7x7
  games against the engine at level 1 for ``--seconds`` (then it stops): games finished,
  moves a second (both sides), and the round trip of a move (sent -> the state after it).

``--src DIR`` (repeatable) runs the server from another source tree (``PYTHONPATH=DIR``), e.g.
an older commit unpacked with ``git archive <commit> src | tar -x -C /tmp/before`` (copy the
built kernel ``src/emergo/_kernel*.so`` next to it): the round trip then alternates between the
trees in blocks of moves, so before and after are measured back to back on one machine load.

Each part starts its own server (``python -m emergo.web.server``) on a free port with a fresh
SQLite file, and needs the ``web`` and ``webtest`` extras and Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
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

# Installed in every page before its own scripts: timestamps (ms since the epoch, sub-ms) of
# the last click, each move handed to the WebSocket, each state received, each move-list update.
PROBE = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const b = window.__bench = {click: 0, handled: 0, sent: [], states: [], drawn: [], frames: []};
  b.count = 0;
  const clicked = (e) => { b.click = performance.timeOrigin + e.timeStamp; b.handled = now(); };
  document.addEventListener("pointerdown", clicked, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const move = typeof data === "string" && data.includes('"type":"move"');
    if (move) b.sent.push([b.click, b.handled, now()]);
    return send.call(this, data);
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const state = typeof e.data === "string" && e.data.slice(0, 20).includes('"state"');
        if (state) b.states.push(now());
      });
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("moves");
    if (!box) return;
    new MutationObserver(() => {
      const n = box.querySelectorAll("button").length;
      if (n <= b.count) { b.count = n; return; }
      b.count = n;
      b.drawn.push([n, now()]);
      requestAnimationFrame(() => b.frames.push([n, now()]));
    }).observe(box, {childList: true});
  });
})();
"""


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


@dataclass
class Server:
    base: str
    pid: int
    label: str
    timings: Path

    def phases(self) -> dict[str, list[float]]:
        """The server's phases of each move so far (ms), if it records them (SIGUSR1 dumps)."""
        with contextlib.suppress(FileNotFoundError):
            self.timings.unlink()
        os.kill(self.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 3
        while not self.timings.exists():
            if time.monotonic() > deadline:
                return {}  # a server that does not record them (an older source tree)
            time.sleep(0.05)
        data: dict[str, list[float]] = json.loads(self.timings.read_text())
        return data

    def forget_phases(self) -> None:
        os.kill(self.pid, signal.SIGUSR2)


@contextmanager
def server(src: str | None = None) -> Iterator[Server]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        timings = Path(folder) / "timings.json"
        env = dict(os.environ, EMERGO_WEB_TIMINGS=str(timings))
        if src:
            env["PYTHONPATH"] = str(Path(src).resolve())
        command = [sys.executable, "-m", "emergo.web.server", "--no-browser", "--port", str(port)]
        proc = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.DEVNULL, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=1).read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            yield Server(base, proc.pid, src or "installed", timings)
        finally:
            proc.terminate()
            proc.wait(10)


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def first_board(loads: int, sources: list[str | None]) -> list[dict[str, Any]]:
    """The first board of ``loads`` page loads on each server, the servers taking turns load by
    load (so that both see the same machine load), and each page's weight."""
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        servers = [stack.enter_context(server(src)) for src in sources]
        contexts = [browser.new_context(viewport={"width": 1200, "height": 860}) for _ in servers]
        times: list[list[float]] = [[] for _ in servers]
        weights = [0] * len(servers)
        for i in range(loads + 1):
            for k, (srv, context) in enumerate(zip(servers, contexts, strict=True)):
                page = context.new_page()
                page.goto(srv.base + "/")
                page.wait_for_selector("html[data-ready='1']")
                ms = page.evaluate(
                    "() => performance.getEntriesByName('emergo-board-drawn')[0].startTime"
                )
                if i:  # the first load fills the cache
                    times[k].append(float(ms))
                else:  # the page's weight: every file of the first (uncached) load, uncompressed
                    weights[k] = page.evaluate(
                        "() => performance.getEntriesByType('navigation').concat("
                        "performance.getEntriesByType('resource'))"
                        ".reduce((n, e) => n + e.decodedBodySize, 0)"
                    )
                page.close()
        browser.close()
    return [
        {
            "server": srv.label,
            "loads": loads,
            "median_ms": pct(t, 50),
            "p95_ms": pct(t, 95),
            "page_bytes": w,
        }
        for srv, t, w in zip(servers, times, weights, strict=True)
    ]


def click_centre(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_click(page: Any) -> None:
    if page.locator("#board .dest.entry").count():
        click_centre(page, "#board .dest.entry")
        return
    square = page.locator("#board .movable").first.get_attribute("data-square")
    click_centre(page, f"#board .piece[data-square='{square}']")
    for _ in range(20):
        if not page.locator("#board .input .dest").count():
            return
        click_centre(page, "#board .input .dest")


STEPS = ("handled", "sent", "received", "drawn", "frame")


@dataclass
class Trips:
    """One server's round trips: per move, the times of each step after the click (ms)."""

    srv: Server
    steps: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STEPS})
    cpu: float = 0.0
    moves: int = 0
    mover: Any = None
    watcher: Any = None
    plies: int = 0

    def new_game(self) -> None:
        hot_seat = {"kind": "human"}
        body = {"white": hot_seat, "black": hot_seat}
        game = post(self.srv.base + "/api/games", body)["id"]
        for page in (self.mover, self.watcher):
            page.goto(f"{self.srv.base}/?game={game}&animation=0")
            page.wait_for_selector("html[data-ready='1']")
        self.plies = 0

    def play(self, moves: int) -> None:
        """Play ``moves`` moves (new games as needed), timing each in the pages."""
        if self.plies == 0 or self.mover.locator("#result").inner_text():
            self.new_game()
        cpu = cpu_seconds(self.srv.pid)
        for _ in range(moves):
            if self.mover.locator("#result").inner_text():
                self.cpu += cpu_seconds(self.srv.pid) - cpu
                self.new_game()
                cpu = cpu_seconds(self.srv.pid)
            n = self.plies + 1
            play_click(self.mover)
            seen = f"() => window.__bench.count >= {n}"
            self.watcher.wait_for_function(seen, polling=5)
            self.mover.wait_for_function(seen, polling=5)
            self.watcher.wait_for_function(  # the frame after the update
                f"() => window.__bench.frames.some(([k]) => k === {n})", polling=5
            )
            mover = self.mover.evaluate("() => window.__bench.sent.at(-1)")
            watcher = self.watcher.evaluate(
                f"""() => {{ const b = window.__bench;
                    return [b.states.at(-1), b.drawn.find(([k]) => k === {n})[1],
                            b.frames.find(([k]) => k === {n})[1]]; }}"""
            )
            click, handled, sent = mover
            for step, at in zip(STEPS, [handled, sent, *watcher], strict=True):
                self.steps[step].append(at - click)
            self.plies = n
            self.moves += 1
        self.cpu += cpu_seconds(self.srv.pid) - cpu

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
        phases = self.srv.phases()
        if phases:
            out["server_phases_ms"] = {
                name: {"p50": pct(v, 50), "p99": pct(v, 99), "n": len(v)}
                for name, v in phases.items()
            }
        return out


def round_trip(moves: int, sources: list[str | None], block: int = 10) -> list[dict[str, Any]]:
    """The round trip of ``moves`` moves on each server, alternating in blocks of ``block``."""
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        runs = []
        for src in sources:
            srv = stack.enter_context(server(src))
            context = browser.new_context(viewport={"width": 1200, "height": 860})
            context.add_init_script(PROBE)
            runs.append(Trips(srv, mover=context.new_page(), watcher=context.new_page()))
        for run in runs:  # a warm-up game: caches filled, code paths compiled
            run.new_game()
            run.play(4)
            run.steps = {s: [] for s in STEPS}
            run.cpu, run.moves, run.plies = 0.0, 0, 0
            run.srv.forget_phases()
        done = 0
        while done < moves:
            k = min(block, moves - done)
            for run in runs:
                run.play(k)
            done += k
        reports = [run.report() for run in runs]
        browser.close()
    return reports


async def load(clients: int, seconds: float, src: str | None = None) -> dict[str, Any]:
    import websockets

    latencies: list[float] = []
    counts = {"games": 0, "moves": 0, "errors": 0}

    with server(src) as srv:
        host = srv.base.removeprefix("http://")
        stop_at = time.monotonic() + seconds

        async def player(k: int) -> None:
            while time.monotonic() < stop_at:
                body = {
                    "pos": "7x7 w 8/8",
                    "white": {"kind": "human"},
                    "black": {"kind": "engine", "level": 1},
                }
                game = (await asyncio.to_thread(post, srv.base + "/api/games", body))["id"]
                async with websockets.connect(f"ws://{host}/ws/game/{game}") as ws:
                    sent: float | None = None
                    plies = 0
                    while time.monotonic() < stop_at:
                        msg = json.loads(await ws.recv())
                        if msg["type"] == "error":
                            counts["errors"] += 1
                            sent = None
                        if msg["type"] != "state":
                            continue
                        state = msg["state"]
                        if state["ply"] > plies:
                            counts["moves"] += state["ply"] - plies
                            plies = state["ply"]
                            if sent is not None:
                                latencies.append(1000 * (time.perf_counter() - sent))
                                sent = None
                        if state["outcome"] or plies > 300:
                            counts["games"] += 1
                            break
                        if state["turn"] == "white" and not msg["thinking"] and sent is None:
                            move = state["moves"][(k + plies) % len(state["moves"])]
                            sent = time.perf_counter()
                            await ws.send(json.dumps({"type": "move", "text": move["text"]}))

        cpu = cpu_seconds(srv.pid)
        started = time.monotonic()
        await asyncio.gather(*(player(k) for k in range(clients)))
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(srv.pid) - cpu
    return {
        "server": srv.label,
        "clients": clients,
        "seconds": round(elapsed, 1),
        "games": counts["games"],
        "moves": counts["moves"],
        "moves_per_s": round(counts["moves"] / elapsed, 1),
        "errors": counts["errors"],
        "p50_ms": pct(latencies, 50),
        "p99_ms": pct(latencies, 99),
        "server_cpu_ms_per_move": round(1000 * cpu / max(1, counts["moves"]), 2),
    }


STEP_NAMES = {
    "handled": "the browser delivers the click",
    "sent": "the mover's page handles it, sends",
    "received": "WebSocket + server + WebSocket",
    "drawn": "the watcher's page draws it",
    "frame": "to the next frame",
}

PHASE_NAMES = {
    "to_thread": "to a worker thread",
    "play": "game.play: parse, check, push",
    "store": "stored and committed",
    "to_loop": "back to the event loop",
    "state": "state built and encoded",
    "send": "sent to every client",
    "total": "the server, message in to sent",
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
    phases = report.get("server_phases_ms", {})
    if phases:
        print("  the server's phases (EMERGO_WEB_TIMINGS)     p50      p99")
        for name, s in phases.items():
            print(f"    {PHASE_NAMES.get(name, name):<38}{s['p50']:>7.2f}  {s['p99']:>7.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what", nargs="?", default="all", choices=("first", "roundtrip", "load", "all"))
    p.add_argument("--loads", type=int, default=20)
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument(
        "--src",
        action="append",
        default=[],
        help="run the server from this source tree (repeat to compare, back to back)",
    )
    args = p.parse_args()
    sources: list[str | None] = list(args.src) or [None]
    if args.what in ("first", "all"):
        for result in first_board(args.loads, sources):
            print(f"first board ({result['server']}):", json.dumps(result))
    if args.what in ("roundtrip", "all"):
        for report in round_trip(args.moves, sources):
            show_trips(report)
    if args.what in ("load", "all"):
        for src in sources:
            result = asyncio.run(load(args.clients, args.seconds, src))
            print("load:", json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
