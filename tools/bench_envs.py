"""Environment steps per second: the PettingZoo wrapper of Emergo, the batched C environment
(emergo.kernel.BatchEnv) and a classic PettingZoo game, measured in one run.

Usage: .venv/bin/python tools/bench_envs.py [--seconds 5] [--seed 1] [--batch-only]
(needs the extra `rl`).  Before/after a kernel change, run it against both builds back to
back: ``PYTHONPATH=/path/to/old/src .venv/bin/python tools/bench_envs.py --batch-only``, then
without PYTHONPATH.

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU time per row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--batch-only", action="store_true", help="only the C rows (BatchEnv, the vector env)"
    )
    args = parser.parse_args()

    from emergo.envs import emergo_v0

    s, seed = args.seconds, args.seed
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
    for n in (1, 64, 1024):
        rows.append(
            (f"BatchEnv 9x9, {n:,} game{'s' * (n > 1)}", lambda n=n: measure_batch(n, s, seed))
        )
    rows.append(
        (
            "BatchEnv 9x9, 1,024 games, uint8 planes",
            lambda: measure_batch(1024, s, seed, compact=True),
        )
    )
    rows.append(("BatchEnv 9x9, 1,024 games, rollout in C", lambda: measure_rollout(1024, s, seed)))
    try:
        import emergo.envs.vector  # noqa: F401

        for copy in (True, False):
            rows.append(
                (
                    f"EmergoVectorEnv 9x9, 1,024 games, copy={copy}",
                    lambda copy=copy: measure_vector(1024, s, seed, copy=copy),
                )
            )
    except ImportError as e:  # an older emergo (a before/after comparison)
        print(f"EmergoVectorEnv skipped: {e}")
    print("| environment | steps | games | steps/s (CPU) | steps/s (wall) | steps/game | load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, run in rows:
        steps, games, cpu, wall = run()
        load = os.getloadavg()[0]  # 1-minute load average of the machine, at the row's end
        print(
            f"| {name} | {steps:,} | {games:,} | {steps / cpu:,.0f} | {steps / wall:,.0f} | "
            f"{steps / max(games, 1):,.1f} | {load:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
