"""Load benchmark of a deployment (issue 22): simulated players in live games over the game
WebSockets, against 1, 2 and 4 ``emergo serve --online`` processes on one PostgreSQL, directly or
through nginx with the shipped config (deploy/nginx/emergo.conf).

A script, not a test: it prints figures.  Each pair of players plays live games (600+5, random
legal moves) back to back; each player holds the game's socket (``/ws/game/{id}``, a
token) and sends its moves on it.  Directly, White's socket is on process i and Black's on the
next (every move crosses processes through PostgreSQL and LISTEN/NOTIFY); through nginx, nginx
spreads them.  The round trip is from the mover sending its move to the opponent's socket
receiving the new version.  Measured: games at once, moves/s, round trip p50/p99, errors, the
database's size per 1,000 games, CPU a move in the web processes and in PostgreSQL (/proc), and
with --profile a cProfile of the first process's event loop.

    .venv/bin/python tools/bench_load.py --processes 1,2,4 --games 40 --seconds 30
    .venv/bin/python tools/bench_load.py --processes 2,4 --games 40 --seconds 30 --nginx
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import pstats
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx2 as httpx  # noqa: E402
from tests.plugins.postgres import Cluster, binaries, free_port  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from emergo import Board  # noqa: E402
from emergo.server.core.config import Limits  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def postgres_cpu(cluster: Cluster) -> float:
    """CPU seconds of the postmaster and every backend (its children), including those that
    ended (cutime/cstime of the postmaster)."""
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(x) for x in fields[11:15]) / CLK_TCK  # its own and its ended children's
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == postmaster:
                total += (int(stat[11]) + int(stat[12])) / CLK_TCK
    return total


@dataclasses.dataclass
class Stats:
    round_trips: list[float] = dataclasses.field(default_factory=list)
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = dataclasses.field(default_factory=list)


class Player:
    """One side of a game: its socket; moves when it is its turn."""

    def __init__(
        self, url: str, token: str, color: str, sent: dict[int, float], stats: Stats, seed: int
    ) -> None:
        self.url, self.token, self.color = url, token, color
        self.sent, self.stats = sent, stats
        self.rng = random.Random(seed)
        self.board = Board()

    async def play(self, stop: asyncio.Event, ssl: Any) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        async with connect(self.url, additional_headers=headers, ssl=ssl, max_size=2**20) as ws:
            version = 0
            resigned = False
            async for raw in ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message["t"]
                if kind == "error":
                    self.stats.errors.append(f"{self.color}: {message}")
                    continue
                if kind == "full":
                    state = message["game"]["state"]
                elif kind == "v" and "state" in message:
                    state = message["state"]
                else:
                    continue
                version = message["v"]
                start = self.sent.pop(version, None)
                if start is not None:
                    self.stats.round_trips.append(now - start)
                for text in state["moves"].split()[len(self.board.move_stack) :]:
                    self.board.push(self.board.parse_move(text))
                if state["status"] != "started":
                    if self.color == "white":
                        self.stats.games_finished += 1
                    return
                if stop.is_set():
                    if self.color == "white" and not resigned:  # never stale: no version
                        await ws.send(json.dumps({"t": "resign"}))
                        resigned = True
                    continue
                if state["turn"] == self.color:
                    text = self.rng.choice([str(m) for m in self.board.legal_moves])
                    self.sent[version + 1] = time.perf_counter()
                    await ws.send(json.dumps({"t": "move", "move": text, "v": version}))
                    self.stats.moves += 1


async def pair(
    bases: tuple[str, str],
    tokens: tuple[str, str],
    names: tuple[str, str],
    stats: Stats,
    stop: asyncio.Event,
    seed: int,
    ssl: Any,
) -> None:
    """Games between two players until the time is up."""
    n = 0
    verify = ssl is None
    async with (
        httpx.AsyncClient(base_url=bases[0], verify=verify, timeout=30) as white,
        httpx.AsyncClient(base_url=bases[1], verify=verify, timeout=30) as black,
    ):
        while not stop.is_set():
            r = await white.post(
                f"/api/challenge/{names[1]}",
                data={"clock.limit": 600, "clock.increment": 5, "color": "white"},
                headers={"Authorization": f"Bearer {tokens[0]}"},
            )
            if r.status_code != 200:
                stats.errors.append(f"challenge: {r.status_code} {r.text[:100]}")
                return
            r = await black.post(
                f"/api/challenge/{r.json()['id']}/accept",
                headers={"Authorization": f"Bearer {tokens[1]}"},
            )
            if r.status_code != 200:
                stats.errors.append(f"accept: {r.status_code} {r.text[:100]}")
                return
            game = r.json()["gameId"]
            stats.games_started += 1
            sent: dict[int, float] = {}
            players = []
            for i, color in enumerate(("white", "black")):
                ws = bases[i].replace("http", "ws", 1) + f"/ws/game/{game}"
                players.append(Player(ws, tokens[i], color, sent, stats, seed * 1000 + n + i))
            try:
                await asyncio.gather(*(p.play(stop, ssl) for p in players))
            except Exception as e:
                stats.errors.append(f"game {game}: {type(e).__name__}: {e}")
                return
            n += 2


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_servers(
    url: str, count: int, config: Path, profile: Path | None
) -> tuple[list[subprocess.Popen[bytes]], list[int]]:
    servers, ports = [], []
    for i in range(count):
        port = free_port()
        command = [sys.executable]
        if profile is not None and i == 0:
            command += ["-m", "cProfile", "-o", str(profile)]
            command += [str(ROOT / ".venv" / "bin" / "emergo")]
        else:
            command += ["-m", "emergo"]
        command += [
            "serve",
            "--online",
            "--no-house-bots",
            "--config",
            str(config),
            "--port",
            str(port),
        ]
        servers.append(
            subprocess.Popen(
                [*command, "--db", url, "--no-browser"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        ports.append(port)
    for port in ports:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"the server on port {port} did not start")
            time.sleep(0.1)
    return servers, ports


def run(cluster: Cluster, args: argparse.Namespace, processes: int, via_nginx: bool) -> bool:
    name = f"bench_{processes}_{'nginx' if via_nginx else 'direct'}"
    url = cluster.create_database(name)
    from emergo.server.core.config import Config
    from emergo.server.site import Site

    site = Site.open(Config(db=url, argon2_time_cost=1, argon2_memory_kib=64), migrate=True)
    tokens, names = [], []
    for i in range(2 * args.games):
        user = site.users.create(f"p{i}", None)
        tokens.append(site.tokens.create(user.id))
        names.append(f"p{i}")
    site.close()
    size_before = database_size(cluster, name)
    work = Path(tempfile.mkdtemp(prefix="emergo-bench-"))
    config = work / "emergo.toml"
    limits = "moves_per_second = 100000\nchallenges_per_minute = 100000\n"
    if "connections_per_client" in {f.name for f in dataclasses.fields(Limits)}:
        limits += "connections_per_client = 100000\n"  # every simulated player is 127.0.0.1
    config.write_text(f'[server]\nallow_hosts = ["127.0.0.1"]\n[limits]\n{limits}')
    profile = work / "profile.out" if args.profile else None
    servers, ports = start_servers(url, processes, config, profile)
    nginx = None
    ssl: Any = None
    try:
        if via_nginx:
            import ssl as ssl_module

            from tests.system.test_deploy import Deployment

            (work / "nginx").mkdir()
            nginx = Deployment(work / "nginx", url)
            conf = nginx.root / "emergo.conf"
            lines = "".join(f"    server 127.0.0.1:{p} max_fails=0;\n" for p in ports)
            text = conf.read_text()
            head, rest = text.split("upstream emergo_web {\n", 1)
            rest = rest.split("    keepalive", 1)[1]
            conf.write_text(head + "upstream emergo_web {\n" + lines + "    keepalive" + rest)
            nginx.start_nginx()
            ssl = ssl_module.create_default_context()
            ssl.check_hostname = False
            ssl.verify_mode = ssl_module.CERT_NONE
            bases = [nginx.url] * processes
        else:
            bases = [f"http://127.0.0.1:{p}" for p in ports]
        stats = Stats()
        cpu_web = sum(cpu_seconds(s.pid) for s in servers)
        cpu_pg = postgres_cpu(cluster)
        load = os.getloadavg()[0]

        async def main() -> float:
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(
                    pair(
                        (bases[i % processes], bases[(i + 1) % processes]),
                        (tokens[2 * i], tokens[2 * i + 1]),
                        (names[2 * i], names[2 * i + 1]),
                        stats,
                        stop,
                        i,
                        ssl,
                    )
                )
                for i in range(args.games)
            ]
            started = time.monotonic()
            await asyncio.sleep(args.seconds)
            stop.set()
            elapsed = time.monotonic() - started
            await asyncio.wait(tasks, timeout=30)
            return elapsed

        spy = None
        if args.py_spy:
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).with_name("py-spy")),
                    "record",
                    "--pid",
                    str(servers[0].pid),
                    "--duration",
                    str(int(args.seconds)),
                    "--rate",
                    "50",
                    "--format",
                    "raw",
                    "--output",
                    str(work / "spy.txt"),
                    "--nonblocking",
                    "--gil",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        moves_before = 0
        elapsed = asyncio.run(main())
        cpu_web = sum(cpu_seconds(s.pid) for s in servers) - cpu_web
        cpu_pg = postgres_cpu(cluster) - cpu_pg
        moves = stats.moves - moves_before
        size = database_size(cluster, name) - size_before
        rt = [x * 1000 for x in stats.round_trips]
        where = "through nginx" if via_nginx else "directly"
        print(
            f"== {processes} process(es) {where}: {args.games} games at once, {elapsed:.0f} s, "
            f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}"
        )
        print(
            f"games started {stats.games_started}, finished {stats.games_finished}; moves "
            f"{moves}, {moves / elapsed:.1f} moves/s"
        )
        if rt:
            print(
                f"round trip to the opponent: p50 {statistics.median(rt):.1f} ms, "
                f"p99 {percentile(rt, 0.99):.1f} ms, max {max(rt):.0f} ms ({len(rt)} moves)"
            )
        print(
            f"CPU a move: web processes {1000 * cpu_web / max(moves, 1):.2f} ms, PostgreSQL "
            f"{1000 * cpu_pg / max(moves, 1):.2f} ms ({cpu_web:.1f} s + {cpu_pg:.1f} s)"
        )
        print(
            f"database growth {size / 1e6:.1f} MB for {stats.games_started} games: "
            f"{size / 1e6 / max(stats.games_started, 1) * 1000:.0f} MB per 1,000 games "
            f"({moves / max(stats.games_started, 1):.0f} moves a game)"
        )
        rows = live_rows(cluster, name)
        games = max(stats.games_started, 1)
        print(
            "live rows a game (without indexes and pages): "
            + ", ".join(f"{table} {size / games / 1000:.1f} kB" for table, size in rows.items())
            + f"; {sum(rows.values()) / games / 1000:.1f} kB a game, "
            f"{sum(rows.values()) / games / 1000:.0f} MB per 1,000 games"
        )
        print(f"errors {len(stats.errors)}")
        for e in stats.errors[:5]:
            print("  ", e)
        if spy is not None:
            spy.wait(60)
            summarize_spy(work / "spy.txt")
        return not stats.errors
    finally:
        if nginx is not None:
            nginx.stop_nginx()
        for s in servers:
            s.send_signal(signal.SIGINT)
        for s in servers:
            try:
                s.wait(20)
            except subprocess.TimeoutExpired:
                s.kill()
        if profile is not None and profile.exists():
            print("-- where the first process's event loop spends its time (cProfile, tottime):")
            pstats.Stats(str(profile)).sort_stats("tottime").print_stats(12)


def summarize_spy(path: Path) -> None:
    """The share of py-spy's samples (holding the GIL: Python running) by the innermost frame
    of ours (emergo), and by the innermost frame of all."""
    if not path.exists():
        print("-- py-spy wrote nothing (is ptrace allowed here?)")
        return
    ours: dict[str, int] = {}
    leaves: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        frames = stack.split(";")
        leaves[frames[-1]] = leaves.get(frames[-1], 0) + count
        mine = [f for f in frames if "emergo/" in f]
        key = mine[-1] if mine else "(not in emergo: the server's machinery)"
        ours[key] = ours.get(key, 0) + count
    print(f"-- py-spy: {total} samples of the first process holding the GIL")
    for title, table in (("innermost emergo frame", ours), ("innermost frame", leaves)):
        print(f"   by {title}:")
        for frame, count in sorted(table.items(), key=lambda x: -x[1])[:10]:
            print(f"   {100 * count / max(total, 1):5.1f}%  {frame[:110]}")


def live_rows(cluster: Cluster, name: str) -> dict[str, int]:
    """Bytes of the live rows of a game's tables (``pg_column_size`` of each row)."""
    import psycopg

    sizes = {}
    with psycopg.connect(cluster.url(name)) as c:
        for table in ("games", "moves", "game_events", "timers"):
            row = c.execute(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t")
            found = row.fetchone()
            sizes[table] = int(found[0]) if found else 0
    return sizes


def database_size(cluster: Cluster, name: str) -> int:
    import psycopg

    with psycopg.connect(cluster.url(name)) as c:
        row = c.execute("SELECT pg_database_size(current_database())").fetchone()
        assert row is not None
        return int(row[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2,4", help="comma-separated, e.g. 1,2,4")
    parser.add_argument("--games", type=int, default=40, help="games played at once")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--nginx", action="store_true", help="through nginx (shipped config)")
    parser.add_argument("--profile", action="store_true", help="cProfile the first process")
    parser.add_argument(
        "--py-spy",
        action="store_true",
        help="sample the first process with py-spy (every thread) during the run",
    )
    args = parser.parse_args()
    found = binaries()
    if found is None:
        print("PostgreSQL is not installed (apt-get install postgresql)", file=sys.stderr)
        return 1
    cluster = Cluster(found, durable=True)
    ok = True
    try:
        for processes in (int(x) for x in args.processes.split(",")):
            ok = run(cluster, args, processes, args.nginx) and ok
    finally:
        cluster.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
