"""``emergo bench``: the C kernel against the pure-Python rules library, measured in one run.

Three figures per side, from the same start and the same sampled positions:

* random games/s -- whole uniformly random games to their end (R18, R19).  The
  reference loop is ``while b.outcome() is None: b.push_unchecked(rng.choice(b.moves()))``;
  the kernel's is :func:`emergo.kernel.playouts`.
* legal-move generations/s -- complete legal-move generation on positions
  sampled from random games (reference: ``b._moves = None; b.generate()``).
* perft nodes/s -- leaves per second of perft from the start (bulk counted
  at depth 1 on both sides), at the deepest depth that fits the time budget.

The issue's targets are at least 60,000 kernel games/s and at least 25 times
the reference, both read from the same run.

The search part (``--search`` alone, or with the kernel figures by default)
searches a fixed suite of positions (:data:`SEARCH_POSITIONS`: starts, the
entering phase, the shadowpiece, the movement phase, combinations, an
endgame) to a fixed depth with the kernel's :class:`~emergo.kernel.Searcher`,
each with a fresh table.  The total node count is the *signature* of the
search: it is the same on every run and machine, and changes only when the
search or the evaluation weights change (tests/kernel/test_kernel_search.py pins it).
Nodes are counted as usual: every move made in the main search and in the
quiescence search.  The target is at least 5 M nodes/s on one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from emergo.board import COLORS, Board

TARGET_GAMES = 60_000
TARGET_RATIO = 25.0
TARGET_SEARCH_NPS = 5_000_000
SEARCH_DEPTH = 9
"""Depth of the search part; the signature is quoted at this depth."""
SEARCH_POSITIONS = (
    "w 12/12",
    "7x7 w 8/8",
    "w 7/7 c3:b c5:w e1:b e4:b e6:w e9:w f3:b f5:w g7:b i5:w",
    "w 2/2 a5:w b4:w c3:b c5:b c6:b d2:w d5:b d6:b d8:b e1:w e4:w e7:w e9:b f2:w f8:w g3:b"
    " g5:b h4:w h6:b i5:w",
    "w 0/6 b4:w c4:w c5:w d6:w2b e1:b e2:w3b e3:wb e7:wb e9:w f3:b i5:w",
    "w 0/0 a5:w b4:w c3:b c4:w c5:b c6:b c7:b d2:w d5:b d6:b d7:w d8:b e1:w e4:w e7:w e9:b"
    " f2:w f8:w g3:b g5:b g6:b h4:w h6:b i5:w",
    "w 0/0 a5:b c3:w c7:b d2:w2b d7:w2b d8:b e3:w e5:b e7:b e8:b f2:w f3:wb f4:b f6:w g3:b"
    " g5:w g7:w h4:w h6:b",
    "w 0/0 b4:wb c3:w c5:b d2:b d6:wb d8:w e2:b e9:wb f2:w f3:b f4:b f5:b f6:wb f8:bw g4:w2b"
    " g7:w i5:w",
    "w 0/0 c5:b c7:w2b d2:bw d6:bw d8:b f2:w f6:w2 g3:b3w g5:bw h4:w h6:b2w i5:bw",
    "w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2",
    "w 0/0 b4:w d3:w3 d4:b6w d8:b3w2 e3:w2b2 e9:w g7:bw h5:w",
)
"""The search suite: starts (9x9, 7x7), entering (early, late, before a shadowpiece),
movement (full board, middle game, late), the combination of the rules' seed 004, an endgame."""
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
        b.push_unchecked(rng.choice(b.moves()))
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
        board.push_unchecked(move)
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
            b.push_unchecked(rng.choice(b.moves()))
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


# --- the search -----------------------------------------------------------------------------


def measure_search(
    depth: int = SEARCH_DEPTH, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Search every suite position to ``depth`` with a fresh table; nodes, time, signature.

    ``progress`` hears ``search: position N`` as each position is done."""
    from emergo import kernel
    from emergo.search import Limit

    searcher = kernel.Searcher(hash_mb=16)
    rows: list[dict[str, Any]] = []
    nodes, seconds = 0, 0.0
    for number, position in enumerate(SEARCH_POSITIONS, 1):
        searcher.clear()
        result = searcher.search(Board(position), Limit(depth=depth))
        info = result.infos[0]
        nodes += info.nodes
        seconds += info.time
        rows.append(
            {
                "position": position,
                "depth": info.depth,
                "nodes": info.nodes,
                "seconds": info.time,
                "move": str(result.move),
                "score": str(info.score),
            }
        )
        if progress is not None:
            progress(f"search: position {number}")
    return {
        "depth": depth,
        "signature": nodes,
        "seconds": seconds,
        "nodes_per_s": nodes / max(seconds, 1e-9),
        "positions": rows,
    }


def search_table(search: dict[str, Any]) -> str:
    ok = "met" if search["nodes_per_s"] >= TARGET_SEARCH_NPS else "MISSED"
    return "\n".join(
        [
            f"search: {len(search['positions'])} positions to depth {search['depth']}, "
            f"fresh table each",
            f"{'signature (total nodes)':26}{search['signature']:>16,}",
            f"{'search nodes/s':26}{_fmt(search['nodes_per_s']):>16}",
            f"{'search seconds':26}{search['seconds']:>16.2f}",
            f"target >= {TARGET_SEARCH_NPS / 1e6:g} M search nodes/s: {ok}",
        ]
    )


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
    search: dict[str, Any] | None = report.get("search")
    if "kernel" not in report and "reference" not in report:
        return search_table(search) if search else ""
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
    if search:
        lines.append(search_table(search))
    return "\n".join(lines)


def run(
    variant: str,
    seconds: float,
    games: int | None,
    seed: int,
    *,
    kernel_side: bool = True,
    reference_side: bool = True,
    search_depth: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The figures asked for; ``search_depth`` adds the search part at that depth.

    ``progress`` hears the name of each part as it is done (``search: position N`` for
    each search position, ``kernel``, ``reference``): :func:`parts` tells how many.
    """

    def done(part: str) -> None:
        if progress is not None:
            progress(part)

    report: dict[str, Any] = {"variant": variant, "seconds": seconds}
    if search_depth is not None:
        report["search"] = measure_search(search_depth, progress)
    if not (kernel_side or reference_side):
        return report
    positions = sample_positions(variant, seed)
    report["positions"] = len(positions)
    if kernel_side:
        report["kernel"] = measure_kernel(variant, positions, seconds, games, seed)
        done("kernel")
    if reference_side:
        report["reference"] = measure_reference(variant, positions, seconds, games, seed)
        done("reference")
    if kernel_side and reference_side:
        report["ratio"] = {key: report["kernel"][key] / report["reference"][key] for _, key in ROWS}
    if kernel_side:
        report["targets"] = {"games_per_s_met": report["kernel"]["games_per_s"] >= TARGET_GAMES}
        if reference_side:
            report["targets"]["ratio_met"] = report["ratio"]["games_per_s"] >= TARGET_RATIO
    if search_depth is not None:
        targets = report.setdefault("targets", {})
        targets["search_nps_met"] = report["search"]["nodes_per_s"] >= TARGET_SEARCH_NPS
    return report


def parts(*, kernel_side: bool, reference_side: bool, search: bool) -> int:
    """How many parts :func:`run` measures with these settings (for a progress bar)."""
    return int(kernel_side) + int(reference_side) + (len(SEARCH_POSITIONS) if search else 0)
