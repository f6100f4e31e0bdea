"""Memory of ``emergo serve`` as games are made (a benchmark script, not a timed test).

    .venv/bin/python tools/bench_web_memory.py [--games 1000] [--every 250] [--settle 5]
        [--kind hotseat|engine] [--house-bots] [--src DIR --src DIR ...]

Starts a server (tools/bench_web.py's ``server``: ``emergo serve`` in local mode, or the local
app of a tree from before issue 26, each with a fresh data directory), makes ``--games`` games
through the API and prints the server process's resident memory (RSS, from /proc) after the
start, every ``--every`` games and ``--settle`` seconds after the last.  ``--kind``:

* ``hotseat``: a hot-seat game, no move played (the site: ``POST /api/hotseat``, started with
  ``--no-house-bots``; the local app: ``POST /api/games`` with two people);
* ``engine``: a game against the engine at level 1, which moves first (so that its searcher is
  made and used); the benchmark waits for its move, then resigns (the site: the level-1 house
  bot, a thread of the server, ``POST /api/challenge/ai`` and ``/api/board/game/{id}/resign``;
  the local app: ``POST /api/games`` and ``/api/games/{id}/resign``).

``--house-bots``: the site runs every level's house bot (``emergo serve``'s default) rather
than level 1's alone (``engine``) or none (``hotseat``).  ``--src DIR`` (repeatable) runs the
server from that source tree, one after the other, so that a before and an after can be
compared::

    nice -n 5 .venv/bin/python tools/bench_web_memory.py --games 1000 --kind hotseat \\
        --src /work/wt/oldmain/src --src src

Figures (2026-12-02 01:01-01:06 UTC, the shared machine; before = the local app at cb88cda,
after = ``emergo serve`` at 68a71fe; RSS in MB, after / before):

| | after the start | after the games | ratios |
|---|---|---|---|
| 1,000 ``hotseat`` | 67.6 / 67.4 | 68.9 / 82.2 | 1.00, 0.84 |
| 200 ``engine`` | 70.0 / 67.2 | 92.8 / 77.8 | 1.04, 1.19 |
| 100 ``hotseat --house-bots`` | 72.1 / 67.2 | 73.0 / 68.9 | 1.07, 1.06 |

(``engine``: the level-1 house bot against the local app's engine; ``--house-bots``: every
level's bot, as ``emergo serve`` starts by default.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import SITE, Server, server


def rss_mb(pid: int) -> float:
    """The resident set size of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def engine_game(srv: Server) -> None:
    """A game against the level-1 engine (White): its first move waited for, then resigned."""
    deadline = time.monotonic() + 60
    if srv.kind == SITE:
        terms = {"level": 1, "color": "black"}
        game = srv.post("/api/challenge/ai", terms)["gameId"]
        while not srv.get(f"/api/game/{game}")["state"]["moves"]:
            if time.monotonic() > deadline:
                raise SystemExit(f"bench_web_memory: the engine did not move in game {game}")
            time.sleep(0.02)
        srv.post(f"/api/board/game/{game}/resign", {})
        return
    engine = {"kind": "engine", "level": 1}
    body = {"pos": "w 12/12", "white": engine, "black": {"kind": "human", "name": "B"}}
    game = srv.post("/api/games", body)["id"]
    while not (srv.get(f"/api/games/{game}").get("live") or {}).get("state", {}).get("ply"):
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_web_memory: the engine did not move in game {game}")
        time.sleep(0.02)
    srv.post(f"/api/games/{game}/resign", {"by": "black"})


def bot_ready(srv: Server) -> None:
    """Wait until the site's level-1 house bot plays (it starts with the server)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            engine_game(srv)
            return
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)


def run(
    games: int, kind: str, every: int, settle: float, src: str | None, house_bots: bool
) -> dict[str, Any]:
    bot_games = 4 if kind == "engine" or house_bots else 0
    with server(src, bot_games=bot_games, all_levels=house_bots) as srv:
        if srv.kind == SITE and bot_games:
            time.sleep(5)  # the house bots started, as a player would find them
        rows = [(0, round(rss_mb(srv.pid), 1))]
        print(f"  {srv.label}: after the start  RSS {rows[0][1]:>8.1f} MB", flush=True)
        if kind == "engine" and srv.kind == SITE:
            bot_ready(srv)  # one game more, not counted: the bot answering
        started = time.monotonic()
        for k in range(1, games + 1):
            if kind == "engine":
                engine_game(srv)
            else:
                srv.new_hotseat()
            if k % every == 0 or k == games:
                rows.append((k, round(rss_mb(srv.pid), 1)))
                print(f"  {srv.label}: {k:>6} games  RSS {rows[-1][1]:>8.1f} MB", flush=True)
        elapsed = time.monotonic() - started
        time.sleep(settle)
        settled = round(rss_mb(srv.pid), 1)
    return {
        "server": srv.label,
        "kind": kind,
        "house_bots": ("all levels" if house_bots else "level 1" if bot_games else "none")
        if srv.kind == SITE
        else "(none: the local app's engine plays in its games)",
        "games": games,
        "seconds": round(elapsed, 1),
        "rss_mb": dict(rows),
        "rss_mb_settled": settled,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--kind", choices=("hotseat", "engine"), default="hotseat")
    p.add_argument("--every", type=int, default=250)
    p.add_argument("--settle", type=float, default=5.0)
    p.add_argument("--house-bots", action="store_true", help="the site: every level's house bot")
    p.add_argument("--src", action="append", default=[])
    args = p.parse_args()
    reports = []
    for src in list(args.src) or [None]:
        reports.append(run(args.games, args.kind, args.every, args.settle, src, args.house_bots))
        print("memory:", json.dumps(reports[-1]), flush=True)
    for report in reports[1:]:
        before, after = reports[0], report
        ratios = {
            "start": round(after["rss_mb"][0] / before["rss_mb"][0], 2),
            f"after {args.games}": round(
                after["rss_mb"][args.games] / before["rss_mb"][args.games], 2
            ),
            "settled": round(after["rss_mb_settled"] / before["rss_mb_settled"], 2),
        }
        print(f"memory ratios, {after['server']} / {before['server']}:", json.dumps(ratios))


if __name__ == "__main__":
    main()
