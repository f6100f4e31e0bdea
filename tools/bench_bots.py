"""How fast a bot answers over the Bot API, and how many games one bot process keeps (issue 20).

A script, not a test: it starts ``emergo serve --online`` on a temporary SQLite file, one
``emergo bot --level L --concurrency K`` process, and K simulated persons, each challenging
the bot to a live game (9x9, 600+5, the person White) and playing random legal moves over the
Board API.  A reply time is from the person's move being acknowledged (its POST answered) to
the bot's move appearing in the person's game stream: the server's fan-out, the bot's stream,
its engine's thinking (level 1: a shallow search) and its POST.

    .venv/bin/python tools/bench_bots.py --level 1 --games 1 --moves 100
    .venv/bin/python tools/bench_bots.py --level 1 --games 8 --moves 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx

from emergo import Board
from emergo.server.core.config import Config
from emergo.server.site import Site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def person(*args: object) -> None:
    try:
        _person(*args)  # type: ignore[arg-type]
    except Exception as e:  # reported, the others go on
        print(f"a player stopped: {e!r}", file=sys.stderr)


def _person(
    base: str, token: str, bot: str, moves: int, out: list[float], stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        while len(out) < moves and not stop.is_set():
            r = http.post(
                f"/api/challenge/{bot}",
                data={"variant": "9x9", "color": "white", "clock.limit": 600, "clock.increment": 5},
            )
            challenge = r.json()["id"]
            game = None
            for _ in range(200):
                c = http.get(f"/api/challenge/{challenge}/show").json()
                if c.get("gameId"):
                    game = c["gameId"]
                    break
                time.sleep(0.05)
            if game is None:
                raise RuntimeError(f"the bot did not accept: {c}")
            board = Board(variant="9x9")
            with http.stream("GET", f"/api/board/game/stream/{game}") as stream:
                lines = stream.iter_lines()
                sent = 0.0
                for line in lines:
                    if not line.strip():
                        continue
                    data = json.loads(line)
                    state = data.get("state", data) if data.get("type") == "gameFull" else data
                    if "moves" not in state:
                        continue
                    texts = state["moves"].split()
                    if len(texts) > len(board.move_stack):
                        for text in texts[len(board.move_stack) :]:
                            board.push(board.parse_move(text))
                        if sent and len(texts) % 2 == 0:
                            out.append(time.perf_counter() - sent)
                    if state.get("status") not in ("created", "started") or board.outcome():
                        break
                    if len(out) >= moves or stop.is_set():
                        http.post(f"/api/board/game/{game}/resign")
                        break
                    if board.turn and len(texts) % 2 == 0:
                        move = rng.choice(list(board.legal_moves))
                        r = http.post(f"/api/board/game/{game}/move/{move}")
                        sent = time.perf_counter()
                        if r.status_code != 200:
                            break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--games", type=int, default=1, help="games at once (--concurrency)")
    parser.add_argument("--moves", type=int, default=100, help="bot replies to measure")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-bots-"))
    db = str(folder / "site.sqlite3")
    site = Site.open(Config(db=db, argon2_time_cost=1, argon2_memory_kib=64), migrate=True)
    bot = site.users.create("robo", None, bot=True)
    bot_token = site.tokens.create(bot.id, ("bot:play",))
    tokens = []
    for i in range(args.games):
        user = site.users.create(f"p{i}", None)
        tokens.append(site.tokens.create(user.id))
    site.close()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # the simulated players move at once, faster than the site lets a person (20 a second)
    config = folder / "emergo.toml"
    config.write_text("[limits]\nmoves_per_second = 1000\nchallenges_per_minute = 1000\n")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "emergo",
            "serve",
            "--online",
            "--no-house-bots",
            "--db",
            db,
            "--port",
            str(port),
            "--no-browser",
            "--config",
            str(config),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    procs = [server]
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "emergo",
                    "bot",
                    "--server",
                    base,
                    "--level",
                    str(args.level),
                    "--concurrency",
                    str(args.games),
                ],
                env={**env, "EMERGO_BOT_TOKEN": bot_token},
                stdout=subprocess.DEVNULL,
                stderr=open(folder / "bot.log", "w"),  # noqa: SIM115 - the child holds it
            )
        )
        time.sleep(2)
        out: list[float] = []
        stop = threading.Event()
        per_game = args.moves
        threads = [
            threading.Thread(target=person, args=(base, t, "robo", per_game, out, stop, i))
            for i, t in enumerate(tokens)
        ]
        start = time.perf_counter()
        load = os.getloadavg()[0]
        for t in threads:
            t.start()
        while len(out) < args.moves and any(t.is_alive() for t in threads):
            time.sleep(0.2)
        stop.set()
        for t in threads:
            t.join(60)
        elapsed = time.perf_counter() - start
        ms = sorted(x * 1000 for x in out)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(
            f"level {args.level}, {args.games} game(s) at once: {len(ms)} replies in "
            f"{elapsed:.1f} s; reply p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, "
            f"max {ms[-1]:.1f} ms; load average before {load:.1f}"
        )
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
