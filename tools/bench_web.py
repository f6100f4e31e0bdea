"""Benchmarks of ``emergo serve`` (scripts, not timed tests; docs/web.md has the figures).

    .venv/bin/python tools/bench_web.py [first|roundtrip|load|all] [--loads 20] [--moves 200]
        [--clients 50] [--seconds 30]

* ``first``: time from navigation to the first board drawn (the page's performance mark
  ``emergo-board-drawn``) in headless Chromium, over ``--loads`` fresh page loads.
* ``roundtrip``: a hot-seat game open in two tabs; a move clicked in one tab, timed until the
  other tab shows it (loopback, the real page both ends), over ``--moves`` moves.
* ``load``: ``--clients`` simulated players at once, each over its own WebSocket playing 7x7
  games against the engine at level 1 for ``--seconds`` (then it stops): games finished,
  moves a second (both sides), and the round trip of a move (sent -> the state after it).

Each part starts its own server (``python -m emergo.web.server``) on a free port with a fresh
SQLite file, and needs the ``web`` and ``webtest`` extras and Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@contextmanager
def server() -> Iterator[str]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        command = [sys.executable, "-m", "emergo.web.server", "--no-browser", "--port", str(port)]
        proc = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.DEVNULL)
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
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def first_board(loads: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        times = []
        for i in range(loads + 1):
            page = context.new_page()
            page.goto(base + "/")
            page.wait_for_selector("html[data-ready='1']")
            ms = page.evaluate(
                "() => performance.getEntriesByName('emergo-board-drawn')[0].startTime"
            )
            if i:  # the first load fills the cache
                times.append(float(ms))
            page.close()
        browser.close()
    return {"loads": loads, "median_ms": statistics.median(times), "p95_ms": pct(times, 95)}


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


def round_trip(moves: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    with server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        mover, watcher = context.new_page(), context.new_page()
        while len(times) < moves:
            hot_seat = {"kind": "human"}
            game = post(base + "/api/games", {"white": hot_seat, "black": hot_seat})["id"]
            for page in (mover, watcher):
                page.goto(f"{base}/?game={game}&animation=0")
                page.wait_for_selector("html[data-ready='1']")
            mover.evaluate(
                "() => fetch('/api/settings', {method: 'PUT', headers: "
                "{'content-type': 'application/json'}, body: '{\"animation\": false}'})"
            )
            while len(times) < moves:
                if mover.locator("#result").inner_text():
                    break
                n = watcher.locator("#moves button").count()
                start = time.perf_counter()
                play_click(mover)
                watcher.wait_for_function(
                    f"() => document.querySelectorAll('#moves button').length > {n}"
                )
                times.append(1000 * (time.perf_counter() - start))
                mover.wait_for_function(  # before the next click: the mover's own board too
                    f"() => document.querySelectorAll('#moves button').length > {n}"
                )
        browser.close()
    return {"moves": len(times), "p50_ms": pct(times, 50), "p99_ms": pct(times, 99)}


async def load(clients: int, seconds: float) -> dict[str, float]:
    import websockets

    latencies: list[float] = []
    counts = {"games": 0, "moves": 0, "errors": 0}

    with server() as base:
        host = base.removeprefix("http://")
        stop_at = time.monotonic() + seconds

        async def player(k: int) -> None:
            while time.monotonic() < stop_at:
                body = {
                    "pos": "7x7 w 8/8",
                    "white": {"kind": "human"},
                    "black": {"kind": "engine", "level": 1},
                }
                game = (await asyncio.to_thread(post, base + "/api/games", body))["id"]
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

        started = time.monotonic()
        await asyncio.gather(*(player(k) for k in range(clients)))
        elapsed = time.monotonic() - started
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "games": counts["games"],
        "moves": counts["moves"],
        "moves_per_s": round(counts["moves"] / elapsed, 1),
        "errors": counts["errors"],
        "p50_ms": pct(latencies, 50),
        "p99_ms": pct(latencies, 99),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what", nargs="?", default="all", choices=("first", "roundtrip", "load", "all"))
    p.add_argument("--loads", type=int, default=20)
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--seconds", type=float, default=30)
    args = p.parse_args()
    if args.what in ("first", "all"):
        print("first board:", json.dumps(first_board(args.loads)), flush=True)
    if args.what in ("roundtrip", "all"):
        print("round trip:", json.dumps(round_trip(args.moves)), flush=True)
    if args.what in ("load", "all"):
        print("load:", json.dumps(asyncio.run(load(args.clients, args.seconds))), flush=True)


if __name__ == "__main__":
    main()
