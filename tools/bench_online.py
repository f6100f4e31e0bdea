"""Benchmark of the online site (issue 19): simulated players in live games on PostgreSQL.

A script, not a test.  It starts a PostgreSQL server of its own (tests/online/pg.py; durable:
fsync on), migrates a database, makes the accounts, starts 1 or 2 ``emergo serve --online``
processes on loopback and plays live games between pairs of players over the Board API: each
player reads its game stream on its own process and posts its moves there; with 2 processes
White plays on the first and Black on the second, so every move crosses processes through the
database and LISTEN/NOTIFY.  Printed: games, moves, moves/s, the round trip of a move to the
opponent (the mover's POST sent -> the opponent's stream has the new state) p50/p99/max,
errors (must be 0), and the server processes' CPU a move (user + system from /proc).

    .venv/bin/python tools/bench_online.py --processes 1 --games 8 --seconds 30
    .venv/bin/python tools/bench_online.py --processes 2 --games 8 --seconds 30

The target is a p99 under 50 ms on an idle machine: say how busy the machine was (the load
average is printed) with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx2 as httpx  # noqa: E402
from tests.online.pg import Cluster, binaries, free_port  # noqa: E402

from emergo import Board  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.round_trips: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class PlayerThread(threading.Thread):
    """One side of one game: reads its stream, moves when it is its turn."""

    def __init__(
        self,
        base: str,
        token: str,
        game: str,
        color: str,
        stats: Stats,
        sent: dict[Any, float],
        stop: threading.Event,
        seed: int,
    ) -> None:
        super().__init__(daemon=True)
        self.base, self.token, self.game, self.color = base, token, game, color
        self.stats, self.sent, self.stop_all = stats, sent, stop
        self.rng = random.Random(seed)
        self.http = httpx.Client(base_url=base, timeout=30, headers=self.auth)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def run(self) -> None:
        board = Board()
        try:
            with self.http.stream("GET", f"/api/board/game/stream/{self.game}") as r:
                for line in r.iter_lines():
                    if not line.strip():
                        continue
                    now = time.perf_counter()
                    data = json.loads(line)
                    state = data.get("state") if data.get("type") == "gameFull" else data
                    if state is None or state.get("type") != "gameState":
                        continue
                    version = state["version"]
                    key = (self.game, version)
                    with self.stats.lock:
                        start = self.sent.pop(key, None)
                        if start is not None:
                            self.stats.round_trips.append(now - start)
                    moves = state["moves"].split()
                    for text in moves[len(board.move_stack) :]:
                        board.push(board.parse_move(text))
                    if state["status"] != "started":
                        return
                    if state["turn"] == self.color and not self.stop_all.is_set():
                        self.move(board, version)
                    if self.stop_all.is_set():
                        self.http.post(f"/api/board/game/{self.game}/resign")
                        return
        except Exception as e:
            if not self.stop_all.is_set():
                self.stats.error(f"{self.color} {self.game}: {type(e).__name__}: {e}")

    def move(self, board: Board, version: int) -> None:
        legal = [str(m) for m in board.legal_moves]
        text = self.rng.choice(legal)
        with self.stats.lock:
            self.sent[(self.game, version + 1)] = time.perf_counter()
        r = self.http.post(f"/api/board/game/{self.game}/move/{text}")
        if r.status_code != 200:
            self.stats.error(f"move {text}: {r.status_code} {r.text[:100]}")
        else:
            with self.stats.lock:
                self.stats.moves += 1


def pair(
    bases: list[str],
    tokens: tuple[str, str],
    names: tuple[str, str],
    stats: Stats,
    stop: threading.Event,
    seed: int,
) -> None:
    """Games between two players until the time is up: White on the first process."""
    white_base, black_base = bases[0], bases[-1]
    sent: dict[Any, float] = {}
    n = 0
    while not stop.is_set():
        w = httpx.Client(base_url=white_base, headers={"Authorization": f"Bearer {tokens[0]}"})
        b = httpx.Client(base_url=black_base, headers={"Authorization": f"Bearer {tokens[1]}"})
        r = w.post(
            f"/api/challenge/{names[1]}",
            data={"clock.limit": 600, "clock.increment": 5, "color": "white"},
        )
        if r.status_code != 200:
            stats.error(f"challenge: {r.status_code} {r.text[:100]}")
            return
        r = b.post(f"/api/challenge/{r.json()['id']}/accept")
        if r.status_code != 200:
            stats.error(f"accept: {r.status_code} {r.text[:100]}")
            return
        game = r.json()["gameId"]
        players = [
            PlayerThread(white_base, tokens[0], game, "white", stats, sent, stop, seed * 1000 + n),
            PlayerThread(
                black_base, tokens[1], game, "black", stats, sent, stop, seed * 1000 + n + 1
            ),
        ]
        for p in players:
            p.start()
        for p in players:
            p.join()
        n += 2
        with stats.lock:
            stats.games += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, choices=(1, 2), default=2)
    parser.add_argument("--games", type=int, default=8, help="games played at once")
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    found = binaries()
    if found is None:
        print("PostgreSQL is not installed (apt-get install postgresql)", file=sys.stderr)
        return 1
    cluster = Cluster(found, durable=True)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        url = cluster.create_database("bench")
        from emergo.online.config import Config
        from emergo.online.site import Site

        site = Site.open(Config(db=url, argon2_time_cost=1, argon2_memory_kib=64), migrate=True)
        tokens, names = [], []
        for i in range(2 * args.games):
            user = site.users.create(f"p{i}", None)
            tokens.append(site.tokens.create(user.id))
            names.append(f"p{i}")
        site.close()
        bases = []
        config = ROOT / "tools" / ".bench_online.toml"
        config.write_text("[limits]\nmoves_per_second = 100000\nchallenges_per_minute = 100000\n")
        for _ in range(args.processes):
            port = free_port()
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "emergo",
                        "serve",
                        "--online",
                        "--db",
                        url,
                        "--port",
                        str(port),
                        "--no-browser",
                        "--config",
                        str(config),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server at {base} did not start")
                time.sleep(0.1)
        config.unlink()
        stats = Stats()
        stop = threading.Event()
        cpu_before = sum(cpu_seconds(s.pid) for s in servers)
        load_before = os.getloadavg()
        started = time.monotonic()
        threads = [
            threading.Thread(
                target=pair,
                args=(
                    bases,
                    (tokens[2 * i], tokens[2 * i + 1]),
                    (names[2 * i], names[2 * i + 1]),
                    stats,
                    stop,
                    i,
                ),
                daemon=True,
            )
            for i in range(args.games)
        ]
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop.set()
        elapsed = time.monotonic() - started
        moves = stats.moves
        cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu_before
        for t in threads:
            t.join(30)
        rt = [x * 1000 for x in stats.round_trips]
        print(
            f"processes {args.processes}, games at once {args.games}, {elapsed:.1f} s, "
            f"load average {load_before[0]:.1f} -> {os.getloadavg()[0]:.1f}"
        )
        print(f"games finished {stats.games}, moves {moves}, {moves / elapsed:.1f} moves/s")
        if rt:
            print(
                f"round trip to the opponent: p50 {statistics.median(rt):.1f} ms, "
                f"p99 {percentile(rt, 0.99):.1f} ms, max {max(rt):.1f} ms ({len(rt)} moves)"
            )
        print(
            f"server CPU a move {1000 * cpu / max(moves, 1):.2f} ms "
            f"({cpu:.1f} s over {args.processes} processes)"
        )
        print(f"errors {len(stats.errors)}")
        for e in stats.errors[:10]:
            print("  ", e)
        return 0 if not stats.errors else 1
    finally:
        for s in servers:
            s.send_signal(signal.SIGINT)
        for s in servers:
            try:
                s.wait(20)
            except subprocess.TimeoutExpired:
                s.kill()
        cluster.stop()


if __name__ == "__main__":
    raise SystemExit(main())
