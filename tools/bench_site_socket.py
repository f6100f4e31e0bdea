"""The cost of the site-wide channel (``/ws/site``) per idle signed-in player: a real
``emergo serve --online`` process on SQLite, N players each with one site socket open and
idle (their pages ping every 25 s, as static/page/sitewide.js); the server's memory and CPU
time before and after, and how fast a challenge reaches the one it is for.

Usage: .venv/bin/python tools/bench_site_socket.py [--players 500] [--idle 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2 as httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from emergo.server.core.config import Config
from emergo.server.site import Site

SERVE = (sys.executable, "-m", "emergo", "serve", "--online", "--no-house-bots")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def run(port: int, tokens: list[str], pid: int, idle: float) -> None:
    base = f"ws://127.0.0.1:{port}/ws/site"
    start_cpu = cpu_seconds(pid)
    await asyncio.sleep(idle)  # the server's own idle work (timers, sweeps), nobody connected
    baseline = (cpu_seconds(pid) - start_cpu) / idle
    before_rss, before_cpu = rss_kib(pid), cpu_seconds(pid)
    sockets = []
    for token in tokens:
        ws = await connect(base, additional_headers={"Authorization": f"Bearer {token}"})
        await ws.recv()
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(2)
    open_rss, open_cpu = rss_kib(pid), cpu_seconds(pid)
    n = len(sockets)

    async def pinger() -> None:  # the pages' keep-alive
        while True:
            await asyncio.sleep(25)
            for ws in sockets:
                await ws.send('{"t":"ping"}')

    task = asyncio.create_task(pinger())
    await asyncio.sleep(idle)
    task.cancel()
    idle_cpu = cpu_seconds(pid) - open_cpu
    print(f"players idle with a site socket: {n}")
    print(f"server RSS: {before_rss / 1024:.1f} MiB before, {open_rss / 1024:.1f} MiB with them")
    print(f"memory per idle player: {(open_rss - before_rss) / n:.1f} KiB")
    print(f"CPU to open them: {(open_cpu - before_cpu) / n * 1000:.2f} ms a player")
    share = idle_cpu / idle
    print(f"server CPU idle, nobody connected: {baseline * 100:.2f} % of a core")
    print(f"server CPU idle, {n} site sockets: {share * 100:.2f} % of a core")
    print(f"CPU per idle player: {(share - baseline) / n * 1e6:.1f} µs a second")
    for ws in sockets:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--idle", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/site.sqlite3"
        site = Site.open(Config(db=db, argon2_time_cost=1, argon2_memory_kib=64), migrate=True)
        tokens = []
        for i in range(args.players):
            user = site.users.create(f"p{i}", None)
            tokens.append(site.tokens.create(user.id))
        site.close()
        port = free_port()
        proc = subprocess.Popen(
            [*SERVE, "--db", db, "--port", str(port), "--no-browser"],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
            asyncio.run(run(port, tokens, proc.pid, args.idle))
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(30)


if __name__ == "__main__":
    main()
