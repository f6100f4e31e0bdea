"""Environment steps per second: the PettingZoo wrapper of Emergo against a classic PettingZoo game.

Usage: .venv/bin/python tools/bench_envs.py [--seconds 5] [--seed 1]   (needs the extra `rl`)

Each row plays whole games in one environment for about ``--seconds`` CPU seconds: at every
step the agent to move reads ``env.last()`` (observation planes and action mask
included) and plays a uniformly random legal action; finished games are reset.  A step
is one action, so a capture of several hops is several steps.  The baseline is
PettingZoo's ``connect_four_v3`` (its pygame dependency comes with the extra `rl`),
measured the same way in the same run.  The batched C environment's row is added when
it exists (docs/research.md).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def measure(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, int, float]:
    """(steps, games, CPU seconds) of random legal play for about ``seconds`` of CPU time.

    CPU time of this process, not wall time: the figures stay comparable on a shared machine.
    """
    rng = random.Random(seed)
    env = make()
    env.reset(seed=seed)
    steps = games = 0
    start = time.process_time()
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
    return steps, games, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from emergo.envs import emergo_v0

    rows: list[tuple[str, Callable[[], Any]]] = [
        (f"emergo_v0 {v}", lambda v=v: emergo_v0.env(variant=v)) for v in ("9x9", "7x7", "hex")
    ]
    try:
        from pettingzoo.classic import connect_four_v3

        rows.append(("connect_four_v3 (PettingZoo classic)", connect_four_v3.env))
    except ImportError as e:  # pygame missing: install the extra `rl`
        print(f"connect_four_v3 skipped: {e}")
    print("| environment | steps | games | steps/s (CPU) | steps/game |")
    print("|---|---:|---:|---:|---:|")
    for name, make in rows:
        steps, games, elapsed = measure(make, args.seconds, args.seed)
        print(
            f"| {name} | {steps:,} | {games:,} | {steps / elapsed:,.0f} | "
            f"{steps / max(games, 1):,.1f} |",
            flush=True,
        )
    print("| emergo BatchEnv (C, batched) | planned | | | |")


if __name__ == "__main__":
    main()
