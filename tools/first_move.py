#!/usr/bin/env python3
"""How often does the first player (White, R7) win?  Engine self-play from the empty board.

The seeds say of HexEmergo that the first player has a decisive advantage.
This measures it: the kernel search plays itself from the start of a variant
(``hex w 12/12``, ``w 12/12``, ...) at a fixed node budget a move, both sides
equal.  So that the games differ, the first ``--random-plies`` plies (entries)
are drawn uniformly at random from the legal moves (an even number: both
sides make the same number of random moves); after that each search starts
from empty tables for the game and has a fixed budget, so the same arguments
give the same games on any machine.  A game longer than ``--max-plies``
counts as a draw.

    python tools/first_move.py --variant hex --variant 9x9 --nodes 5000 --nodes 50000 \\
        --games 200 --jobs 2

prints, per variant and budget, the games won by White and by Black, draws,
White's score with a 95% interval (Wilson) and how the games ended.  What answers it
(opening ballots, the swap rule, a man fewer for White) is measured the same way by
``tools/fair_starts.py measure`` (docs/fair-starts.md).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass

from emergo.board import Board
from emergo.geometry import VARIANTS
from emergo.kernel import Searcher
from emergo.search import Limit


@dataclass(frozen=True)
class Job:
    variant: str
    nodes: int
    game: int
    random_plies: int
    max_plies: int
    seed: int


_searcher: Searcher | None = None


def play(job: Job) -> tuple[Job, str, str, int]:
    """One self-play game: (job, result, termination, plies)."""
    global _searcher
    if _searcher is None:
        _searcher = Searcher(hash_mb=16)
    rng = random.Random(f"{job.seed}-{job.variant}-{job.game}")
    board = Board(variant=job.variant)
    for _ in range(job.random_plies):
        moves = board.moves()
        if board.outcome() is not None or not moves:
            break
        board.push(rng.choice(moves))
    _searcher.clear()
    limit = Limit(nodes=job.nodes)
    while board.outcome() is None and len(board.move_stack) < job.max_plies:
        move = _searcher.search(board, limit).move
        assert move is not None  # the game is not over
        board.push(move)
    outcome = board.outcome()
    if outcome is None:
        return job, "1/2-1/2", "max-plies", len(board.move_stack)
    reason = outcome.termination.value if outcome.termination else "?"
    return job, outcome.result(), reason, len(board.move_stack)


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="(repeat; hex)")
    parser.add_argument("--nodes", action="append", type=int, help="nodes a move (repeat; 5000)")
    parser.add_argument("--games", type=int, default=200, help="games per variant and budget")
    parser.add_argument("--random-plies", type=int, default=2, help="random first plies (2)")
    parser.add_argument("--max-plies", type=int, default=400, help="a draw after this (400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    args = parser.parse_args(argv)
    if args.random_plies < 0 or args.random_plies % 2:
        parser.error("--random-plies must be even (both sides the same number)")
    variants = args.variant or ["hex"]
    budgets = args.nodes or [5000]
    jobs = [
        Job(v, n, g, args.random_plies, args.max_plies, args.seed)
        for v in variants
        for n in budgets
        for g in range(args.games)
    ]
    results: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    start = time.monotonic()
    with multiprocessing.Pool(args.jobs) as pool:
        for done, (job, result, reason, plies) in enumerate(pool.imap(play, jobs), 1):
            results.setdefault((job.variant, job.nodes), []).append((result, reason, plies))
            print(f"\r{done}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    command = "python tools/first_move.py " + " ".join(
        [f"--variant {v}" for v in variants]
        + [f"--nodes {n}" for n in budgets]
        + [
            f"--games {args.games} --random-plies {args.random_plies}",
            f"--max-plies {args.max_plies} --seed {args.seed}",
        ]
    )
    print(f"$ {command}\n")
    print(
        "| variant | nodes a move | games | White wins | Black wins | draws | White's score "
        "[95% interval] | mean plies | ended by |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for (variant, nodes), rows in results.items():
        n = len(rows)
        white = sum(r == "1-0" for r, _, _ in rows)
        black = sum(r == "0-1" for r, _, _ in rows)
        draws = n - white - black
        points = white + draws / 2
        low, high = wilson(points, n)
        ended = Counter(reason for _, reason, _ in rows)
        mean = sum(p for _, _, p in rows) / n
        print(
            f"| {variant} | {nodes:,} | {n} | {white} | {black} | {draws} | "
            f"{100 * points / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}] | {mean:.0f} | "
            + ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
            + " |"
        )
    print(f"\n{time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
