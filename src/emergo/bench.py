"""``emergo bench``: the C kernel against the pure-Python rules library, measured in one run.

Three figures per side, from the same start and the same sampled positions:

* random games/s -- whole uniformly random games to their end (R18, R19).  The
  reference loop is ``while b.outcome() is None: b._make(rng.choice(b.moves()))``;
  the kernel's is :func:`emergo.kernel.playouts`.
* legal-move generations/s -- complete legal-move generation on positions
  sampled from random games (reference: ``b._moves = None; b.generate()``).
* perft nodes/s -- leaves per second of perft from the start (bulk counted
  at depth 1 on both sides), at the deepest depth that fits the time budget.

The issue's targets are at least 60,000 kernel games/s and at least 25 times
the reference, both read from the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from emergo.board import COLORS, Board
from emergo.geometry import VARIANTS

TARGET_GAMES = 60_000
TARGET_RATIO = 25.0
SAMPLE_GAMES = 20
"""Random games whose positions are the generation sample."""


def _timed(run: Callable[[], int], budget: float) -> tuple[int, float]:
    """Call ``run`` (returning a count) until ``budget`` seconds have passed; (count, seconds)."""
    total = 0
    start = time.perf_counter()
    while True:
        total += run()
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return total, elapsed


# --- the reference ----------------------------------------------------------------------------


def reference_game(variant: str, rng: random.Random) -> int:
    """One random game in the rules library; returns its length in plies."""
    b = Board(variant=variant)
    while b.outcome() is None:
        b._make(rng.choice(b.moves()))
    return len(b.move_stack)


def reference_perft(board: Board, depth: int) -> int:
    """Perft over the rules library: R18 ends the game, repetition ignored, bulk leaf counts."""
    if depth == 0:
        return 1
    if any(not board.hand(c) and not board.occupied(c) for c in COLORS):
        return 0
    if depth == 1:
        return board.generate().count()
    total = 0
    for move in board.moves():
        board._make(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


def sample_positions(variant: str, seed: int) -> list[str]:
    """Every position of a few random games (the reference plays them: no kernel needed)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(SAMPLE_GAMES):
        b = Board(variant=variant)
        while b.outcome() is None:
            positions.append(b.position())
            b._make(rng.choice(b.moves()))
    return positions


def _perft_rate(count: Callable[[int], int], budget: float) -> dict[str, float]:
    """Deepen perft until one depth takes a quarter of the budget; the rate at that depth.

    A depth whose time, estimated from the last growth, would pass twice the
    budget is not started.
    """
    depth, nodes, elapsed, growth = 0, 1, 0.0, 1.0
    while depth < 12 and elapsed < budget / 4 and elapsed * growth <= 2 * budget:
        start = time.perf_counter()
        deeper = count(depth + 1)
        elapsed = time.perf_counter() - start
        growth = deeper / max(nodes, 1)
        depth, nodes = depth + 1, deeper
    return {
        "perft_depth": depth,
        "perft_nodes": nodes,
        "perft_nodes_per_s": nodes / max(elapsed, 1e-9),
    }


def measure_reference(
    variant: str, positions: list[str], budget: float, games: int | None, seed: int
) -> dict[str, float]:
    rng = random.Random(seed)
    if games is not None:
        start = time.perf_counter()
        plies = sum(reference_game(variant, rng) for _ in range(games))
        played, elapsed = games, time.perf_counter() - start
    else:
        lengths: list[int] = []

        def one_game() -> int:
            lengths.append(reference_game(variant, rng))
            return 1

        played, elapsed = _timed(one_game, budget)
        plies = sum(lengths)
    boards = [Board(p, variant=variant) for p in positions]

    def generate_all() -> int:
        for b in boards:
            b._moves = None
            b.generate()
        return len(boards)

    generations, gen_elapsed = _timed(generate_all, budget)
    root = Board(variant=variant)
    return {
        "games": played,
        "games_per_s": played / elapsed,
        "mean_length": plies / played,
        "generations_per_s": generations / gen_elapsed,
        **_perft_rate(lambda d: reference_perft(root, d), budget),
    }


# --- the kernel -------------------------------------------------------------------------------


def measure_kernel(
    variant: str, positions: list[str], budget: float, games: int | None, seed: int
) -> dict[str, float]:
    from emergo import _kernel, kernel

    start = Board(variant=variant)
    if games is not None:
        t0 = time.perf_counter()
        stats = kernel.playouts(start, games, seed)
        elapsed = time.perf_counter() - t0
        played, plies = games, stats.mean_length * stats.games
    else:
        chunk, next_seed, plies = 2000, seed, 0.0

        def some_games() -> int:
            nonlocal next_seed, plies
            stats = kernel.playouts(start, chunk, next_seed)
            next_seed += chunk
            plies += stats.mean_length * stats.games
            return chunk

        played, elapsed = _timed(some_games, budget)
    packed = [kernel.pack(p, variant=variant) for p in positions]
    reps = 50

    def generate_all() -> int:
        _kernel.bench_generate(packed, reps)  # complete generation, as Board.generate
        return reps * len(packed)

    generations, gen_elapsed = _timed(generate_all, budget)
    return {
        "games": played,
        "games_per_s": played / elapsed,
        "mean_length": plies / played if played else 0.0,
        "generations_per_s": generations / gen_elapsed,
        **_perft_rate(lambda d: kernel.perft(start, d), budget),
    }


# --- report -----------------------------------------------------------------------------------

ROWS = (
    ("random games/s", "games_per_s"),
    ("legal-move generations/s", "generations_per_s"),
    ("perft nodes/s", "perft_nodes_per_s"),
)


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def table(report: dict[str, Any]) -> str:
    k: dict[str, float] | None = report.get("kernel")
    r: dict[str, float] | None = report.get("reference")
    ratio: dict[str, float] = report.get("ratio", {})
    lines = [
        f"emergo bench: {report['variant']}, {report['seconds']:g} s per figure",
        f"{'':26}{'kernel':>16}{'reference':>14}{'ratio':>10}",
    ]
    for label, key in ROWS:
        kv = k[key] if k else None
        rv = r[key] if r else None
        rt = f"{ratio[key]:,.1f}x" if key in ratio else "-"
        lines.append(f"{label:26}{_fmt(kv):>16}{_fmt(rv):>14}{rt:>10}")
    depths = [
        f"{name} D{side['perft_depth']:g}" for name, side in (("kernel", k), ("ref", r)) if side
    ]
    lines.append(f"{'perft depth (start)':26}{', '.join(depths):>40}")
    lengths = [f"{side['mean_length']:.1f}" for side in (k, r) if side]
    lines.append(f"{'mean game length (plies)':26}{' / '.join(lengths):>40}")
    targets = report.get("targets")
    if targets:
        games_ok = "met" if targets["games_per_s_met"] else "MISSED"
        lines.append(f"target >= {TARGET_GAMES:,} kernel games/s: {games_ok}")
        if "ratio_met" in targets:
            ratio_ok = "met" if targets["ratio_met"] else "MISSED"
            lines.append(f"target >= {TARGET_RATIO:g}x the reference (games/s): {ratio_ok}")
    return "\n".join(lines)


def run(
    variant: str,
    seconds: float,
    games: int | None,
    seed: int,
    *,
    kernel_side: bool = True,
    reference_side: bool = True,
) -> dict[str, Any]:
    positions = sample_positions(variant, seed)
    report: dict[str, Any] = {
        "variant": variant,
        "seconds": seconds,
        "positions": len(positions),
    }
    if kernel_side:
        report["kernel"] = measure_kernel(variant, positions, seconds, games, seed)
    if reference_side:
        report["reference"] = measure_reference(variant, positions, seconds, games, seed)
    if kernel_side and reference_side:
        report["ratio"] = {key: report["kernel"][key] / report["reference"][key] for _, key in ROWS}
    if kernel_side:
        report["targets"] = {"games_per_s_met": report["kernel"]["games_per_s"] >= TARGET_GAMES}
        if reference_side:
            report["targets"]["ratio_met"] = report["ratio"]["games_per_s"] >= TARGET_RATIO
    return report


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="emergo bench",
        description="Speed of the C kernel and the pure-Python reference, measured in one run.",
    )
    parser.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (default 9x9)")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--kernel-only", action="store_true", help="measure the C kernel only")
    side.add_argument("--reference-only", action="store_true", help="measure the reference only")
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="time budget of each figure on each side (default 2)",
    )
    parser.add_argument(
        "--games", type=int, metavar="N", help="play exactly N random games per side"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a target (60,000 games/s, 25x the reference) is missed",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 on success, 1 when the kernel is missing or ``--check`` fails."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    kernel_side = not args.reference_only
    if kernel_side:
        try:
            from emergo import kernel  # noqa: F401
        except ImportError as e:
            print(
                f"emergo bench: {e}; --reference-only measures the reference alone", file=sys.stderr
            )
            return 1
    report = run(
        args.variant,
        args.seconds,
        args.games,
        args.seed,
        kernel_side=kernel_side,
        reference_side=not args.kernel_only,
    )
    print(json.dumps(report, indent=2) if args.json else table(report))
    if args.check and not all(report.get("targets", {}).values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
