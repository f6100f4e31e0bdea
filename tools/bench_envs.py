"""Environment steps per second: the PettingZoo wrapper of Emergo, the batched C environment
(emergo.kernel.BatchEnv) and a classic PettingZoo game, measured in one run.

Usage: .venv/bin/python tools/bench_envs.py [--seconds 5] [--seed 1] [--batch-only]
       .venv/bin/python tools/bench_envs.py --before OLD_SRC [--repeat 3]
(needs the extra `rl`).  ``--before`` compares the C rows of another emergo (OLD_SRC: the
directory holding its ``emergo`` package with its built kernel, e.g. the ``src`` of another
checkout) with this one: every row measured alternately with each, in fresh processes,
``--repeat`` times, and the median of each printed, so that both meet the same machine load.

Each row plays whole games with uniformly random legal actions for about ``--seconds`` CPU
seconds; finished games are reset.  A step is one action, so a capture of several hops is
several steps.

* PettingZoo rows (``emergo_v0``, and the baseline ``connect_four_v3``, whose pygame
  dependency comes with the extra `rl`): at every step the agent to move reads
  ``env.last()`` (observation planes and action mask) and a Python RNG picks an action.
* BatchEnv rows (9x9): ``n`` games per call from Python: ``env.step(env.sample())``, the
  actions drawn in C from each game's mask, the planes (float32, or uint8 when compact),
  masks, rewards and done flags written into NumPy arrays at every step.  The ``rollout``
  row runs the same loop inside C (one call).
* Self-play rows: ``emergo selfplay``'s games (the kernel search at a fixed node count, every
  position recorded) on one and two threads; games/s on the wall clock.
* EmergoVectorEnv rows: the Gymnasium vector environment (emergo.envs.vector) over 1,024
  games, its actions from the C sampler; ``copy=True`` (Gymnasium's default) copies the
  planes at every step.

Two rates: per CPU second of the process (comparable on a shared machine; BatchEnv's two
threads both count) and per wall-clock second (what a trainer sees; it shows the second
core, and suffers when other processes share the machine), and the machine's 1-minute load
average at the end of each row.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Row = tuple[int, int, float, float]
"""(steps, games, CPU seconds, wall seconds)."""


def measure(make: Callable[[], Any], seconds: float, seed: int) -> Row:
    """Random legal play in one PettingZoo environment for about ``seconds`` of CPU time.

    CPU time of this process, not wall time: the figures stay comparable on a shared machine.
    """
    rng = random.Random(seed)
    env = make()
    env.reset(seed=seed)
    steps = games = 0
    start, wall = time.process_time(), time.perf_counter()
    while True:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            games += 1
            if time.process_time() - start >= seconds:
                break
            env.reset(seed=seed + games)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps, games, time.process_time() - start, time.perf_counter() - wall


def measure_batch(n: int, seconds: float, seed: int, *, compact: bool = False) -> Row:
    """``n`` games in one BatchEnv stepped from Python for about ``seconds`` of CPU time."""
    from emergo.kernel import BatchEnv

    env = BatchEnv(n, "9x9", seed=seed, compact=compact)
    env.reset()
    steps = games = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        for _ in range(max(1, 4096 // n)):
            waiting = int(np.count_nonzero(env.terminated | env.truncated))  # these reset
            _, _, _, terminated, truncated = env.step(env.sample())
            steps += n - waiting
            games += int(np.count_nonzero(terminated | truncated))
    return steps, games, time.process_time() - start, time.perf_counter() - wall


def measure_rollout(n: int, seconds: float, seed: int) -> Row:
    """``n`` games in one BatchEnv, the random play loop inside C (BatchEnv.rollout)."""
    from emergo.kernel import BatchEnv

    env = BatchEnv(n, "9x9", seed=seed)
    env.reset()
    steps = games = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        done, ended = env.rollout(max(1, 65536 // n))
        steps += done * n - ended  # a finished game's next step is its reset, not an action
        games += ended
    return steps, games, time.process_time() - start, time.perf_counter() - wall


def measure_vector(n: int, seconds: float, seed: int, *, copy: bool) -> Row:
    """The Gymnasium vector environment (self-play over BatchEnv) with ``n`` games.

    The actions come from the batch environment's C sampler (a random legal action per game),
    so the row measures the adapter: ``step``, its info arrays (masks, player to move, illegal
    flags) and, with ``copy``, a copy of the planes at every step as Gymnasium's own vector
    environments make by default.
    """
    from emergo.envs.vector import EmergoVectorEnv

    envs = EmergoVectorEnv(n, "9x9", copy=copy)
    envs.reset(seed=seed)
    steps = games = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        for _ in range(max(1, 4096 // n)):
            batch = envs.batch
            waiting = int(np.count_nonzero(batch.terminated | batch.truncated))
            _, _, terminated, truncated, _ = envs.step(batch.sample())
            steps += n - waiting
            games += int(np.count_nonzero(terminated | truncated))
    return steps, games, time.process_time() - start, time.perf_counter() - wall


def measure_selfplay(nodes: int, workers: int, seconds: float, seed: int) -> Row:
    """``emergo selfplay``'s games (emergo.selfplay.play_game: the kernel search at ``nodes``
    a move, every position recorded) on ``workers`` threads, for about ``seconds`` of wall
    time: the rows are positions searched, the games whole games (a game started is finished)."""
    from emergo.parallel import ThreadRunner
    from emergo.selfplay import SelfplayConfig, play_game

    config = SelfplayConfig(nodes=nodes, seed=seed)
    start, wall = time.process_time(), time.perf_counter()
    steps = games = 0
    batch = 0
    while time.perf_counter() - wall < seconds:
        numbers = range(batch * workers, (batch + 1) * workers)
        for _, game in ThreadRunner(workers).run(lambda n: play_game(config, n), numbers):
            steps += len(game.rows)
            games += 1
        batch += 1
    return steps, games, time.process_time() - start, time.perf_counter() - wall


def selfplay_rows(s: float, seed: int) -> dict[str, Callable[[], Row]]:
    rows: dict[str, Callable[[], Row]] = {}
    for nodes in (1_000, 10_000):
        for workers in (1, 2):
            threads = f"{workers} thread{'s' * (workers > 1)}"
            name = f"emergo selfplay 9x9, {nodes:,} nodes a move, {threads}"
            rows[name] = lambda nodes=nodes, workers=workers: measure_selfplay(
                nodes, workers, max(s, 2.0), seed
            )
    return rows


def batch_rows(s: float, seed: int) -> dict[str, Callable[[], Row]]:
    """The rows of the C environments by name (what ``--before`` compares)."""
    rows: dict[str, Callable[[], Row]] = {}
    for n in (1, 64, 1024):
        rows[f"BatchEnv 9x9, {n:,} game{'s' * (n > 1)}"] = lambda n=n: measure_batch(n, s, seed)
    rows["BatchEnv 9x9, 1,024 games, uint8 planes"] = lambda: measure_batch(
        1024, s, seed, compact=True
    )
    rows["BatchEnv 9x9, 1,024 games, rollout in C"] = lambda: measure_rollout(1024, s, seed)
    for copy in (True, False):
        rows[f"EmergoVectorEnv 9x9, 1,024 games, copy={copy}"] = lambda copy=copy: measure_vector(
            1024, s, seed, copy=copy
        )
    return rows


def print_row(name: str, row: Row) -> None:
    steps, games, cpu, wall = row
    load = os.getloadavg()[0]  # 1-minute load average of the machine, at the row's end
    print(
        f"| {name} | {steps:,} | {games:,} | {steps / cpu:,.0f} | {steps / wall:,.0f} | "
        f"{steps / max(games, 1):,.1f} | {load:.1f} |",
        flush=True,
    )


def compare(before: str, rows: list[str], args: argparse.Namespace) -> None:
    """Each C row measured ``--repeat`` times with the emergo found under ``before`` and with
    this one, alternately, each run in its own process; the median run of each by CPU rate."""
    import json
    import subprocess
    import sys

    def run(path: str | None, name: str) -> Row | None:
        env = dict(os.environ)
        if path is not None:
            env["PYTHONPATH"] = path
        cmd = [sys.executable, __file__, "--seconds", str(args.seconds), "--seed", str(args.seed)]
        done = subprocess.run(
            [*cmd, "--row", name], env=env, capture_output=True, text=True, check=False
        )
        if done.returncode:  # a row the old emergo does not have
            return None
        steps, games, cpu, wall = json.loads(done.stdout)
        return int(steps), int(games), float(cpu), float(wall)

    print(f"before: emergo from {before}; after: this one; median of {args.repeat} runs each")
    print("| environment | steps | games | steps/s (CPU) | steps/s (wall) | steps/game | load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in rows:
        runs: dict[str, list[Row]] = {"before": [], "after": []}
        for _ in range(args.repeat):
            for label, path in (("before", before), ("after", None)):
                row = run(path, name)
                if row is not None:
                    runs[label].append(row)
        for label in ("before", "after"):
            if runs[label]:
                ranked = sorted(runs[label], key=lambda r: r[0] / r[2])
                print_row(f"{name}, {label}", ranked[len(ranked) // 2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU time per row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--batch-only", action="store_true", help="only the C rows (BatchEnv, the vector env)"
    )
    parser.add_argument(
        "--before",
        metavar="PATH",
        help="compare the C rows with the emergo package found under PATH (a PYTHONPATH entry)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per row with --before")
    parser.add_argument("--row", help=argparse.SUPPRESS)  # one C row as JSON (for --before)
    args = parser.parse_args()
    s, seed = args.seconds, args.seed
    if args.row:
        import json

        print(json.dumps(batch_rows(s, seed)[args.row]()))
        return
    if args.before:
        compare(args.before, list(batch_rows(s, seed)), args)
        return

    from emergo.envs import emergo_v0

    rows: list[tuple[str, Callable[[], Row]]] = []
    if not args.batch_only:
        rows += [
            (f"emergo_v0 {v}", lambda v=v: measure(lambda: emergo_v0.env(variant=v), s, seed))
            for v in ("9x9", "7x7", "hex")
        ]
        try:
            from pettingzoo.classic import connect_four_v3

            rows.append(
                (
                    "connect_four_v3 (PettingZoo classic)",
                    lambda: measure(connect_four_v3.env, s, seed),
                )
            )
        except ImportError as e:  # pygame missing: install the extra `rl`
            print(f"connect_four_v3 skipped: {e}")
    try:
        import emergo.envs.vector  # noqa: F401

        has_vector = True
    except ImportError as e:  # an older emergo
        print(f"EmergoVectorEnv skipped: {e}")
        has_vector = False
    rows += [
        (name, run)
        for name, run in batch_rows(s, seed).items()
        if has_vector or not name.startswith("EmergoVectorEnv")
    ]
    print("| environment | steps | games | steps/s (CPU) | steps/s (wall) | steps/game | load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, run in rows:
        print_row(name, run())
    if not args.batch_only:
        print()
        print("Self-play with the engine at a fixed node count (a step is a searched position):")
        print(
            "| self-play | positions | games | positions/s (CPU) | positions/s (wall) "
            "| plies/game | load |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, run in selfplay_rows(s, seed).items():
            row = run()
            print_row(name, row)
            print(f"|   games/s (wall) | | | | {row[1] / row[3]:,.2f} | | |", flush=True)


if __name__ == "__main__":
    main()
