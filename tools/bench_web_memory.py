"""Memory of ``emergo serve`` as games are made (a benchmark script, not a timed test).

    .venv/bin/python tools/bench_web_memory.py [--games 5000] [--every 500] [--settle 5]
        [--kind mixed|hotseat|engine|thinking] [--src DIR --src DIR ...]

Starts a server (``python -m emergo.web.server``) on a free port with a fresh SQLite file,
makes ``--games`` games through ``POST /api/games`` and prints the server process's resident
memory (RSS, from /proc) every ``--every`` games, and again ``--settle`` seconds after the
last.  ``--kind``: ``hotseat``; ``engine`` (against the level-1 engine, the person to move);
``mixed`` (the two in turn); ``thinking`` (the level-1 engine moves first, so its searcher is
made and used).
``--src DIR`` (repeatable) runs the server from another source tree (``PYTHONPATH=DIR``;
copy the built kernel ``src/emergo/_kernel*.so`` next to it), one after the other, so a before
and an after can be compared: docs/web.md has the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import post, server


def rss_mb(pid: int) -> float:
    """The resident set size of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def body(kind: str, k: int) -> dict[str, Any]:
    human = {"kind": "human", "name": "W"}
    if kind == "thinking":  # the engine (White, level 1) moves at once: its searcher is used
        return {"pos": "w 12/12", "white": {"kind": "engine", "level": 1}, "black": human}
    engine = kind == "engine" or (kind == "mixed" and k % 2)
    black = {"kind": "engine", "level": 1} if engine else {"kind": "human", "name": "B"}
    return {"pos": "w 12/12", "white": human, "black": black}


def run(games: int, kind: str, every: int, settle: float, src: str | None) -> dict[str, Any]:
    with server(src) as srv:
        rows = [(0, round(rss_mb(srv.pid), 1))]
        started = time.monotonic()
        for k in range(1, games + 1):
            post(srv.base + "/api/games", body(kind, k))
            if k % every == 0 or k == games:
                rows.append((k, round(rss_mb(srv.pid), 1)))
                print(f"  {srv.label}: {k:>6} games  RSS {rows[-1][1]:>8.1f} MB", flush=True)
        elapsed = time.monotonic() - started
        time.sleep(settle)
        settled = round(rss_mb(srv.pid), 1)
        with urllib.request.urlopen(srv.base + "/api/games", timeout=10) as r:
            listed = len(json.load(r)["games"])
    return {
        "server": srv.label,
        "kind": kind,
        "games": games,
        "seconds": round(elapsed, 1),
        "rss_mb": dict(rows),
        "rss_mb_settled": settled,
        "listed": listed,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--games", type=int, default=5000)
    p.add_argument("--kind", choices=("hotseat", "engine", "mixed", "thinking"), default="mixed")
    p.add_argument("--every", type=int, default=500)
    p.add_argument("--settle", type=float, default=5.0)
    p.add_argument("--src", action="append", default=[])
    args = p.parse_args()
    for src in list(args.src) or [None]:
        report = run(args.games, args.kind, args.every, args.settle, src)
        print("memory:", json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
