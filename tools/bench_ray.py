#!/usr/bin/env python3
"""The overhead of ``--ray`` per game: the same games on the local runner and on a local
Ray cluster with as many workers (docs/research.md has a run's figures).

Self-play (``emergo.selfplay``, the kernel's search in the worker) and a match
(``emergo.match``: engine processes over the protocol, started once per Ray worker).
The cluster's start-up is timed on its own; the games are checked equal.

    python tools/bench_ray.py                   # 2 workers, ~1 minute
    python tools/bench_ray.py --workers 4 --games 200
"""

from __future__ import annotations

import argparse
import time

from emergo.match import parse_engine_spec, run_match
from emergo.parallel import ThreadRunner
from emergo.ray_runner import RayRunner
from emergo.selfplay import SelfplayConfig, run_selfplay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=60, help="self-play games")
    parser.add_argument("--nodes", type=int, default=1000, help="self-play nodes a move")
    parser.add_argument("--match-games", type=int, default=12)
    args = parser.parse_args()
    config = SelfplayConfig(nodes=args.nodes, seed=1)
    specs = [parse_engine_spec("engine nodes=300"), parse_engine_spec("greedy")]

    t = time.perf_counter()
    local_games = run_selfplay(config, args.games, runner=ThreadRunner(args.workers))
    local_sp = time.perf_counter() - t
    t = time.perf_counter()
    local_match = run_match(specs, games=args.match_games, concurrency=args.workers, seed=1)
    local_m = time.perf_counter() - t

    t = time.perf_counter()
    runner = RayRunner(f"local:{args.workers}")
    start = time.perf_counter() - t
    try:
        run_selfplay(config, 2 * args.workers, runner=runner)  # warm the workers up
        t = time.perf_counter()
        ray_games = run_selfplay(config, args.games, runner=runner)
        ray_sp = time.perf_counter() - t
        t = time.perf_counter()
        ray_match = run_match(specs, games=args.match_games, seed=1, runner=runner)
        ray_m = time.perf_counter() - t
        t = time.perf_counter()
        empty = 500
        assert sorted(runner.run(abs, range(empty))) == [(i, i) for i in range(empty)]
        task = (time.perf_counter() - t) / empty
    finally:
        runner.close()
    assert ray_games == local_games, "self-play differs"
    key = [(g.number, g.result, g.plies) for g in local_match.games]
    assert key == [(g.number, g.result, g.plies) for g in ray_match.games], "match differs"

    print(f"{args.workers} workers; Ray cluster start {start:.1f} s (once per run)")
    print(f"an empty task (the runner's own cost, pipelined): {1000 * task:.2f} ms")
    print("| work | games | local s/game | Ray s/game | overhead per game |")
    print("|---|---:|---:|---:|---:|")
    for name, n, loc, ray in (
        (f"selfplay, {args.nodes} nodes a move", args.games, local_sp, ray_sp),
        ("match, engine nodes=300 vs greedy", args.match_games, local_m, ray_m),
    ):
        print(
            f"| {name} | {n} | {loc / n:.3f} | {ray / n:.3f} | {1000 * (ray - loc) / n:+.0f} ms |"
        )


if __name__ == "__main__":
    main()
