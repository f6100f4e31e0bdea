#!/usr/bin/env python3
"""Texel tuning of the kernel's evaluation weights on the engine's own self-play games.

1. Self-play: ``--games`` games of the kernel Searcher against itself at
   ``--nodes`` nodes a move (the current weights), each from a start made of
   2-8 random moves so that the games differ (emergo.selfplay, as ``emergo
   selfplay``; ``--ray ADDRESS`` plays them on a Ray cluster, the same games;
   ``--data FILE`` reads an ``emergo selfplay`` file instead).
2. Positions: every position of those games after the opening where the
   player to move has no capture (R8: a capture position is never a leaf of
   the search, so the evaluation never sees one), labelled with the game's
   result for the player to move (1, 1/2, 0; games longer than ``--max-plies``
   count as draws).
3. Fit: the evaluation is linear, e = w . f (f: emergo.kernel.eval_features,
   in the mover's view), so the model P(win) = sigmoid(K e / 400) is a
   logistic regression.  K is first fitted to the current weights, then the
   weights are fitted with K fixed by full-batch Adam on the mean logistic loss
   (cross-entropy) plus a small pull towards the current weights (weights of
   terms the games never show stay put).  ``men`` is held at 100 so the scale
   stays centi-men.
4. Check: ``--check N`` plays N game pairs, tuned against current weights at
   the same nodes, colours swapped, from the shipped openings.

``--variant`` (R4) plays the games on that board, starts from and writes its
shipped weights file (emergo.kernel.weights_file: ``eval_weights_hex.txt`` for
hex) and checks from its opening suite (random entering openings of 2-8 moves
when it has none).  Writes ``--out`` (default: the variant's shipped file) only
with ``--write``.  A run with the defaults takes about five minutes on one core:

    python tools/tune.py --write
    python tools/tune.py --games 200 --check 20        # a quick look, nothing written
    python tools/tune.py --variant hex --weights src/emergo/data/eval_weights.txt --write
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

from emergo import kernel
from emergo.ballots import load_ballots
from emergo.board import Board
from emergo.cli.common import (
    EXIT_INTERRUPTED,
    Progress,
    add_ray,
    close_runner,
    int_range,
    ray_runner,
    seconds,
)
from emergo.geometry import VARIANTS
from emergo.match import PLIES_MAX
from emergo.parallel import Runner
from emergo.search import Limit
from emergo.selfplay import GameData, SelfplayConfig, read_npz, run_selfplay
from emergo.wire import NODES_MAX, SEED


def _bar(desc: str, total: int, unit: str) -> Progress:
    """Progress on standard error: a live bar on a terminal, else a line each 5 s."""
    return Progress(desc, total, unit=unit, delay=0.0, interval=5.0)


FIXED = ("men",)
"""Terms held at their current weight (the scale of the evaluation)."""


def random_opening(rng: random.Random, variant: str) -> Board:
    """A board after 2-8 random entries (R13), so that self-play games differ."""
    board = Board(variant=variant)
    for _ in range(rng.randint(2, 8)):
        board.push(rng.choice(board.moves()))
    return board


def self_play(
    weights: dict[str, int],
    games: int,
    nodes: int,
    max_plies: int,
    seed: int,
    variant: str,
    runner: Runner | None = None,
) -> list[tuple[list[int], float]]:
    """Quiet positions of self-play games (emergo.selfplay) with the result for the player
    to move; the games are played by ``runner`` (threads, or a Ray cluster: --ray)."""
    config = SelfplayConfig(
        nodes=nodes, seed=seed, max_plies=max_plies, weights=weights, variant=variant
    )
    bar = _bar("self-play", games, "games")
    count = 0

    def on_game(game: GameData) -> None:
        nonlocal count
        count += len(game.rows)
        bar.update(1, f"{count} positions")

    try:
        played = run_selfplay(config, games, runner=runner, on_game=on_game)
    finally:
        bar.close()
    return labelled([(r.position, r.result, r.capturing) for g in played for r in g.rows])


def labelled(rows: list[tuple[str, int, bool]]) -> list[tuple[list[int], float]]:
    """The evaluation's features of each quiet position (the mover has no capture: R8, a
    capture position is never a leaf of the search) and its result (1, 1/2, 0)."""
    quiet = [(position, result) for position, result, capturing in rows if not capturing]
    features = kernel._kernel.eval_terms_batch([kernel.pack(p) for p, _ in quiet])
    return [(row, (result + 1) / 2) for row, (_, result) in zip(features, quiet, strict=True)]


def read_data(path: Path) -> list[tuple[list[int], float]]:
    """The quiet positions of an ``emergo selfplay`` file."""
    columns, _ = read_npz(path)
    rows = zip(columns["position"], columns["result"], columns["capturing"], strict=True)
    return labelled([(str(p), int(str(r)), bool(c)) for p, r, c in rows])


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def loss(data: list[tuple[list[int], float]], w: list[float], k: float) -> float:
    """Mean logistic loss (cross-entropy) of sigmoid(k e / 400) against the results."""
    total = 0.0
    eps = 1e-12
    for f, r in data:
        p = _sigmoid(k * sum(wi * fi for wi, fi in zip(w, f, strict=True)) / 400)
        total -= r * math.log(p + eps) + (1 - r) * math.log(1 - p + eps)
    return total / len(data)


def fit_k(data: list[tuple[list[int], float]], w: list[float]) -> float:
    """The scaling constant that best fits the current weights (golden-section search)."""
    lo, hi = 0.01, 10.0
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(data, w, a), loss(data, w, b)
    for _ in range(30):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(data, w, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(data, w, b)
    return (lo + hi) / 2


def fit_weights(
    data: list[tuple[list[int], float]],
    start: list[float],
    k: float,
    frozen: set[int],
    epochs: int,
    pull: float,
) -> list[float]:
    """Adam on the mean logistic loss, plus pull * |w - start|^2 / 2 (in units of 100)."""
    w = list(start)
    n = len(w)
    m = [0.0] * n
    v = [0.0] * n
    lr, b1, b2 = 1.0, 0.9, 0.999
    sparse = [[(i, fi) for i, fi in enumerate(f) if fi] for f, _ in data]
    labels = [r for _, r in data]
    bar = _bar("fit", epochs, "epochs")
    for t in range(1, epochs + 1):
        grad = [0.0] * n
        for f, r in zip(sparse, labels, strict=True):
            e = sum(w[i] * fi for i, fi in f)
            d = (_sigmoid(k * e / 400) - r) * k / 400
            for i, fi in f:
                grad[i] += d * fi
        for i in range(n):
            grad[i] = grad[i] / len(data) + pull * (w[i] - start[i]) / 100**2
            if i in frozen:
                continue
            m[i] = b1 * m[i] + (1 - b1) * grad[i]
            v[i] = b2 * v[i] + (1 - b2) * grad[i] ** 2
            mh, vh = m[i] / (1 - b1**t), v[i] / (1 - b2**t)
            w[i] -= lr * mh / (math.sqrt(vh) + 1e-12)
        bar.update(1, f"loss {loss(data, w, k):.5f}" if t % 10 == 0 or t == epochs else "")
    bar.close()
    return w


def play_pair(
    a: kernel.Searcher, b: kernel.Searcher, opening: Board, limit: Limit, max_plies: int
) -> float:
    """Points of ``a`` in two games from the opening, colours swapped."""
    points = 0.0
    for white, black in ((a, b), (b, a)):
        board = opening.copy()
        a.clear()
        b.clear()
        while board.outcome() is None and len(board.move_stack) < max_plies:
            side = white if board.turn else black
            move = side.search(board, limit).move
            assert move is not None
            board.push(move)
        outcome = board.outcome()
        if outcome is None or outcome.winner is None:
            points += 0.5
        elif (outcome.winner is True) == (white is a):
            points += 1.0
    return points


def check(
    new: dict[str, int], old: dict[str, int], pairs: int, nodes: int, plies: int, variant: str
) -> float:
    """Score of the new weights against the old over ``pairs`` game pairs."""
    a = kernel.Searcher(hash_mb=8, weights=new)
    b = kernel.Searcher(hash_mb=8, weights=old)
    try:
        suite = [ballot.board() for ballot in load_ballots(variant=variant)]
    except ValueError:  # no suite for this variant yet
        rng = random.Random(f"check-{variant}")
        suite = [random_opening(rng, variant) for _ in range(pairs)]
    limit = Limit(nodes=nodes)
    points = 0.0
    bar = _bar("check", pairs, "pairs")
    for i in range(pairs):
        points += play_pair(a, b, suite[i % len(suite)], limit, plies)
        bar.update(1, f"tuned {points / (2 * (i + 1)):.3f}")
    bar.close()
    return points / (2 * pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (default 9x9)")
    parser.add_argument("--weights", type=Path, help="start weights (default: the shipped file)")
    parser.add_argument(
        "--games", type=int_range(1, 10**7), default=1500, help="self-play games (default 1500)"
    )
    parser.add_argument(
        "--nodes", type=int_range(1, NODES_MAX), default=4000, help="nodes a move (default 4000)"
    )
    parser.add_argument(
        "--max-plies", type=int_range(1, PLIES_MAX), default=300, help="game length cap (draw)"
    )
    parser.add_argument(
        "--epochs", type=int_range(1, 10**6), default=200, help="Adam iterations (default 200)"
    )
    # (seconds() is a finite number in a range; the pull is no time, but the check is the same)
    parser.add_argument(
        "--pull", type=seconds(0, 1e6), default=1e-2, help="pull to the start weights (0..1e6)"
    )
    parser.add_argument(
        "--check",
        type=int_range(0, 10**6),
        default=100,
        metavar="PAIRS",
        help="check pairs (0: no check)",
    )
    parser.add_argument("--seed", type=int_range(0, SEED.max or 0), default=1)
    parser.add_argument("--data", type=Path, help="an 'emergo selfplay' file: no self-play")
    add_ray(parser)
    parser.add_argument("--out", type=Path, help="weights file (default: the variant's shipped)")
    parser.add_argument("--write", action="store_true", help="write the tuned weights to --out")
    args = parser.parse_args(argv)

    terms = [t.name for t in kernel.eval_terms()]
    out = args.out or kernel.weights_file(args.variant)
    old = kernel.load_weights(args.weights, variant=args.variant)
    start = [float(old[name]) for name in terms]
    t0 = time.monotonic()
    if args.data is not None:
        print(f"positions of {args.data}", flush=True)
        data = read_data(args.data)
    else:
        print(
            f"self-play: {args.games} {args.variant} games at {args.nodes} nodes a move", flush=True
        )
        runner = ray_runner(args.ray) if args.ray else None
        try:
            data = self_play(
                old, args.games, args.nodes, args.max_plies, args.seed, args.variant, runner
            )
        finally:
            close_runner(runner)
    print(f"{len(data)} quiet positions in {time.monotonic() - t0:.0f} s", flush=True)
    k = fit_k(data, start)
    before = loss(data, start, k)
    print(f"K = {k:.3f}; loss of the current weights {before:.5f}", flush=True)
    frozen = {terms.index(name) for name in FIXED}
    tuned = fit_weights(data, start, k, frozen, args.epochs, args.pull)
    after = loss(data, tuned, k)
    new = {name: round(value) for name, value in zip(terms, tuned, strict=True)}
    print(f"loss {before:.5f} -> {after:.5f}")
    for name in terms:
        print(f"  {name:24} {old[name]:>6} -> {new[name]:>6}")
    score = None
    if args.check:
        print(f"check: {args.check} pairs, tuned vs current, {args.nodes} nodes a move", flush=True)
        score = check(new, old, args.check, args.nodes, args.max_plies, args.variant)
        print(f"tuned scores {score:.3f} against the current weights")
    if args.write:
        header = (
            "Evaluation weights of the C kernel's search (emergo.kernel.Searcher), in centi-men\n"
            "per unit of each term (100 = one man); terms count for the player to move\n"
            "(docs/kernel.md).  Format: 'name value' per line, '#' starts a comment; a term left\n"
            "out keeps its built-in default.\n"
            f"Written by tools/tune.py: {args.games} {args.variant} self-play games, "
            f"{args.nodes} nodes a move,\n"
            f"{len(data)} quiet positions, K = {k:.3f}, logistic loss {before:.5f} -> {after:.5f}"
            + (
                f",\ncheck vs the start weights: {score:.3f} over {2 * args.check} games."
                if score is not None
                else "."
            )
        )
        kernel.write_weights(new, out, header=header)
        print(f"wrote {out}")
    print(f"done in {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ntune: interrupted: nothing written", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
