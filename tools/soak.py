#!/usr/bin/env python3
"""Soak test of the C kernel: up to a million random games, kernel against reference.

The pure-Python reference needs milliseconds per game, so a million games
cannot all be replayed in it.  What the soak does, per variant:

* Every game (seeds ``seed .. seed + N - 1``) is played by the kernel's
  self-check (``emergo.kernel.self_check``), which at every ply verifies the
  kernel's invariants: bitboards and stacks agree (R6), men are conserved,
  the incremental Zobrist key equals a recomputed one, counting and listing
  generation agree, capture priority (R8) and route lengths (R11) hold, no
  move is listed twice, and make/unmake of every legal move restores the
  position exactly.  Its win/draw/loss, length and termination counts must
  equal those of ``kernel.playouts`` over the same seeds (two C game loops).
* Every ``--sample``-th game is also compared in full with the reference
  (``emergo.differential.compare_game``, the comparison the tests use): the
  kernel's random game (same seed) is replayed in ``emergo.Board``, which
  checks every ply's legal-move set, the result, the termination and the
  final position; and perft 2 at one ply of that game is compared.

Disagreements are printed with the seed that reproduces them
(``kernel.random_game(seed=S, variant=V)``); the exit status is 1 if any.

    tools/soak.py 1000000 --jobs 2        # a million games per variant
    tools/soak.py 20000 --variant 7x7 --sample 50
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from emergo import Board, kernel
from emergo.differential import compare_game


@dataclass
class Chunk:
    variant: str
    seed: int
    games: int = 0
    plies: int = 0
    compared: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def run_chunk(args: tuple[str, int, int, int]) -> Chunk:
    variant, seed, n, sample = args
    chunk = Chunk(variant, seed)
    start = Board(variant=variant)
    stats, errors = kernel.self_check(start, n, seed)
    chunk.problems += [f"{variant} self-check: {e}" for e in errors]
    played = kernel.playouts(start, n, seed)
    if stats != played and not errors:
        chunk.problems.append(
            f"{variant} seeds {seed}..{seed + n - 1}: self-check {stats} != {played}"
        )
    chunk.games = stats.games
    chunk.plies = round(stats.mean_length * stats.games)
    chunk.terminations.update(stats.terminations)
    for s in range(seed, seed + n):
        if s % sample == 0:
            chunk.compared += 1
            problem = compare_game(seed=s, variant=variant, perft_depth=2)
            if problem:
                chunk.problems.append(f"{variant} seed {s}: {problem}")
    return chunk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", nargs="?", type=int, default=10_000, help="games per variant")
    parser.add_argument("--variant", choices=("9x9", "7x7", "both"), default="both")
    parser.add_argument("--sample", type=int, default=1000, help="compare every K-th game fully")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--chunk", type=int, default=5000, help="games per work unit")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    if args.n < 0 or args.sample < 1 or args.chunk < 1 or args.jobs < 1:
        parser.error("n must be >= 0 and --sample, --chunk, --jobs >= 1")
    variants = ("9x9", "7x7") if args.variant == "both" else (args.variant,)
    work = [
        (v, s, min(args.chunk, args.seed + args.n - s), args.sample)
        for v in variants
        for s in range(args.seed, args.seed + args.n, args.chunk)
    ]
    start = time.perf_counter()
    totals: dict[str, Chunk] = {v: Chunk(v, args.seed) for v in variants}
    problems: list[str] = []
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    results = pool.imap(run_chunk, work) if pool else map(run_chunk, work)
    try:
        for chunk in results:
            total = totals[chunk.variant]
            total.games += chunk.games
            total.plies += chunk.plies
            total.compared += chunk.compared
            total.terminations.update(chunk.terminations)
            problems += chunk.problems
            for p in chunk.problems:
                print(f"DISAGREEMENT {p}", flush=True)
            done = sum(t.games for t in totals.values())
            elapsed = time.perf_counter() - start
            print(
                f"{done:>9,} games  {done / elapsed:>8,.0f} games/s  {len(problems)} disagreements",
                flush=True,
            )
    finally:
        if pool:
            pool.close()
            pool.join()
    print(f"soak: {time.perf_counter() - start:.1f} s")
    for t in totals.values():
        terms = ", ".join(f"{k} {v:,}" for k, v in sorted(t.terminations.items()))
        mean = t.plies / t.games if t.games else 0.0
        print(
            f"  {t.variant}: {t.games:,} games self-checked, {t.compared:,} compared with the "
            f"reference, mean {mean:.1f} plies; {terms}"
        )
    if problems:
        print(f"soak: {len(problems)} disagreements (reproduce with kernel.random_game)")
        return 1
    print("soak: no disagreements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
