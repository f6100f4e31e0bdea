#!/usr/bin/env python3
"""Fair starts (docs/fair-starts.md): make the opening ballots, and measure White's share.

Between equal players White, who enters first (R7), wins most games from the empty
board, and the more so the stronger the play.  Two commands, both kernel self-play at
fixed node budgets a move, each game from empty tables and its own seeded jitter of
the budget (each move gets ``nodes`` times a factor drawn from 0.9..1.1, so that two
games from one start differ), so the same arguments give the same games anywhere:

``make`` writes a board's ballots (src/emergo/data/ballots*.txt, emergo.ballots):

1. a random sequence of entering moves (R13) from the start, ``--min-plies`` to
   ``--max-plies`` long, still in the entering phase with no capture pending (R8);
2. the search at ``--nodes`` scores it within ``--margin`` centi-men of even;
3. a pair of self-play games from it at ``--play-nodes`` (two seeds) is split: White
   won one, Black the other.  Those are kept, in the order found.

    python tools/fair_starts.py make --variant 9x9 --count 40 --nodes 400000 --play-nodes 100000

``measure`` plays ``--pairs`` pairs of games (one start, two seeds) per board and start,
and prints one table: White's score with a 95% interval from the pair scores.  Starts:
``empty`` (the start, the first two plies drawn at random as in tools/first_move.py),
``ballots`` (a ballot drawn per pair, emergo.ballots.draw_ballot), ``swap`` (the swap
rule, emergo.ballots.SwapRule: the first player's score), ``handicap`` (White one man
fewer in hand: an extra man for Black, ``w 11/12``) and ``black-first`` (Black enters
first, ``b 12/12``).

    nice -n 19 python tools/fair_starts.py measure --nodes 100000 --pairs 40

Both show progress on standard error and stop on Ctrl-C with what they have (``make``
keeps the ballots found; ``measure`` prints the table of the games played; exit 130).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from emergo.ballots import (
    BALLOTS_FILES,
    SwapRule,
    draw_ballot,
)
from emergo.board import Board, MoveKind
from emergo.cli.common import Progress
from emergo.geometry import DEFAULT_VARIANT, VARIANTS, geometry
from emergo.kernel import Searcher
from emergo.search import Limit

MAX_PLIES = 400
"""A self-play game this long is a draw (as tools/first_move.py)."""
JITTER = 0.1
"""Each move's budget is ``nodes * (1 +- JITTER)``, drawn from the game's seed."""
STARTS = ("empty", "ballots", "swap", "handicap", "black-first")

_searcher: Searcher | None = None


def searcher() -> Searcher:
    global _searcher
    if _searcher is None:
        _searcher = Searcher(hash_mb=16)
    return _searcher


def jittered(rng: random.Random, nodes: int) -> Limit:
    return Limit(nodes=max(1, round(nodes * (1 - JITTER + 2 * JITTER * rng.random()))))


def self_play(board: Board, nodes: int, seed: str) -> tuple[str, list[str]]:
    """The kernel against itself from ``board``: the result ("1-0", "0-1", "1/2-1/2") and
    the game's moves from the board's root."""
    rng = random.Random(seed)
    search = searcher()
    search.clear()
    board = board.copy()
    while board.outcome() is None and len(board.move_stack) < MAX_PLIES:
        move = search.search(board, jittered(rng, nodes)).move
        assert move is not None  # the game is not over, so there is a legal move
        board.push(move)
    result = board.result() if board.outcome() is not None else "1/2-1/2"
    return result, [str(m) for m in board.move_stack]


def white_points(result: str) -> float:
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


# --- make ---------------------------------------------------------------------------------------


def candidates(seed: int, variant: str, low: int, high: int) -> Iterator[Board]:
    """Distinct random entering sequences (R13, no capture pending), endless and seeded."""
    rng = random.Random(f"ballots {seed} {variant}")
    seen: set[str] = set()
    while True:
        board = Board(variant=variant)
        for _ in range(rng.randint(low, high)):
            moves = board.moves()
            if not moves or moves[0].kind is not MoveKind.ENTER:
                break
            board.push(rng.choice(moves))
        moves = board.moves()
        if not moves or moves[0].kind is not MoveKind.ENTER or board.position() in seen:
            continue
        seen.add(board.position())
        yield board


def make(args: argparse.Namespace) -> int:
    out: Path = args.out or BALLOTS_FILES[args.variant]
    kept: list[str] = []
    tried = scored = white = 0
    progress = Progress(f"ballots {args.variant}", args.count, unit=" ballots")

    def write() -> None:
        command = (
            f"python tools/fair_starts.py make --variant {args.variant} --count {args.count} "
            f"--nodes {args.nodes} --margin {args.margin} --play-nodes {args.play_nodes} "
            f"--min-plies {args.min_plies} --max-plies {args.max_plies} --seed {args.seed}"
        )
        header = [
            f"# Opening ballots of {args.variant} (emergo.ballots, docs/fair-starts.md): one a",
            f"# line, entering moves from the start; ballot N of this file is '{args.variant}-N'.",
            f"# Made by {command}:",
            f"# of {tried} random entering sequences, {scored} scored within {args.margin} "
            f"centi-men at {args.nodes} nodes;",
            f"# these split a pair of self-play games at {args.play_nodes} nodes a move "
            f"(over all {scored} pairs White scored {white / max(1, scored):.0%}).",
        ]
        start = "" if args.variant == "9x9" else f"{Board(variant=args.variant).position()} | "
        out.write_text("\n".join(header + [start + m for m in kept]) + "\n", encoding="utf-8")

    try:
        for board in candidates(args.seed, args.variant, args.min_plies, args.max_plies):
            tried += 1
            search = searcher()
            search.clear()
            info = search.search(board, Limit(nodes=args.nodes)).infos
            score = info[0].score if info else None
            if score is None or score.kind != "cp" or abs(score.value) > args.margin:
                continue
            scored += 1
            text = " ".join(str(m) for m in board.move_stack)
            games = [self_play(board, args.play_nodes, f"make {text} {g}")[0] for g in (0, 1)]
            points = sum(white_points(r) for r in games)
            white += points / 2
            if sorted(games) == ["0-1", "1-0"]:
                kept.append(text)
                write()  # an interrupted run keeps these
                progress.update(1, f"{scored} of {tried} within the margin")
            if len(kept) >= args.count:
                break
    except KeyboardInterrupt:
        write()
        progress.close()
        print(f"interrupted: wrote {len(kept)} ballots to {out}", file=sys.stderr)
        return 130
    write()
    progress.close()
    print(f"wrote {len(kept)} ballots to {out} ({tried} tried, {scored} scored)", file=sys.stderr)
    return 0


# --- measure ------------------------------------------------------------------------------------


def start_position(variant: str, start: str) -> str:
    """The R22 start position of a start: ``handicap`` gives White one man fewer in hand
    (``w 11/12``, ``7x7 w 7/8``), ``black-first`` puts Black to move (``b 12/12``)."""
    men = geometry(variant).men
    side = {"handicap": f"w {men - 1}/{men}", "black-first": f"b {men}/{men}"}
    text = side.get(start, f"w {men}/{men}")
    return text if variant == DEFAULT_VARIANT else f"{variant} {text}"


RANDOM_PLIES = 2
"""Plies drawn at random at the start of ``empty``, ``handicap`` and ``black-first`` games
(one each, as tools/first_move.py), so that their pairs differ."""


@dataclass(frozen=True)
class Job:
    variant: str
    start: str
    pair: int
    game: int
    nodes: int
    seed: int
    swap_entries: int

    @property
    def key(self) -> str:
        return f"{self.variant} {self.start} {self.nodes} {self.seed} {self.pair} {self.game}"


@dataclass(frozen=True)
class Game:
    """One game of ``measure``: the first player's points (White's, or under the swap rule
    those of the player who made White's first entries), the swap taken, plies, moves."""

    job: Job
    result: str
    first: float
    swapped: bool | None
    plies: int
    moves: str


def start_board(job: Job) -> Board:
    """The board a pair starts from (the same for both its games)."""
    rng = random.Random(f"measure {job.seed} {job.variant} {job.start} {job.pair}")
    if job.start == "ballots":
        return draw_ballot(job.variant, rng=rng).board()
    board = Board(start_position(job.variant, job.start))
    if job.start == "swap":
        return board
    for _ in range(RANDOM_PLIES):
        board.push(rng.choice(board.moves()))
    return board


def play(job: Job) -> Game:
    board = start_board(job)
    rng = random.Random(f"measure {job.key}")
    swapped: bool | None = None
    if job.start == "swap":
        rule = SwapRule(job.swap_entries)
        search = searcher()
        search.clear()
        while not rule.due(board):
            move = rule.balanced_entry(board, search, jittered(rng, job.nodes))
            if move is None:  # Black's entries before the choice: his best
                move = search.search(board, jittered(rng, job.nodes)).move
            assert move is not None
            board.push(move)
        swapped = rule.decide(board, search, jittered(rng, job.nodes))
    result, moves = self_play(board, job.nodes, f"measure {job.key}")
    white = white_points(result)
    return Game(job, result, 1 - white if swapped else white, swapped, len(moves), " ".join(moves))


def interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """The mean of the pair scores and a 95% interval: the wider of the normal one from the
    pairs' variance (two games of one start may go alike) and the Wilson interval of the
    games as if independent (a floor when the pairs happen to agree)."""
    n = len(scores)
    mean = statistics.fmean(scores)
    half = 1.96 * (statistics.stdev(scores) if n > 1 else 0.5) / math.sqrt(n)
    z, games = 1.96, 2 * n
    centre = (mean + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(mean * (1 - mean) / games + z * z / (4 * games * games))
    spread /= 1 + z * z / games
    low, high = min(mean - half, centre - spread), max(mean + half, centre + spread)
    return mean, max(0.0, low), min(1.0, high)


def share(scores: Sequence[float]) -> str:
    mean, low, high = interval(scores)
    return f"{100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def table(games: Sequence[Game], args: argparse.Namespace) -> str:
    """White's score per board and start; under the swap rule also the first player's (the
    one who made White's first entries, White or, after a swap, Black)."""
    rows = [
        "| board | start | nodes a move | pairs | White wins | Black wins | draws | "
        "White's score [95% interval] | swaps taken | first player's score | "
        "distinct games | mean plies |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for variant in args.variant:
        for start in args.start:
            mine = [g for g in games if g.job.variant == variant and g.job.start == start]
            pairs: dict[int, list[Game]] = {}
            for g in mine:
                pairs.setdefault(g.job.pair, []).append(g)
            whole = [p for p in pairs.values() if len(p) == 2]
            if not whole:
                continue
            played = [g for p in whole for g in p]
            white = share([(white_points(a.result) + white_points(b.result)) / 2 for a, b in whole])
            swaps = [g.swapped for g in played if g.swapped is not None]
            first = share([(a.first + b.first) / 2 for a, b in whole]) if swaps else "-"
            rows.append(
                f"| {variant} | {start} | {args.nodes:,} | {len(whole)} | "
                f"{sum(g.result == '1-0' for g in played)} | "
                f"{sum(g.result == '0-1' for g in played)} | "
                f"{sum(g.result not in ('1-0', '0-1') for g in played)} | {white} | "
                + (f"{sum(swaps)} of {len(swaps)}" if swaps else "-")
                + f" | {first} | {len({g.moves for g in played})} | "
                f"{statistics.fmean(g.plies for g in played):.0f} |"
            )
    return "\n".join(rows)


def measure(args: argparse.Namespace) -> int:
    jobs = [
        Job(v, s, p, g, args.nodes, args.seed, args.swap_entries)
        for p in range(args.pairs)
        for v in args.variant
        for s in args.start
        for g in (0, 1)
    ]
    done: dict[str, Game] = {}
    if args.results is not None and args.results.exists():
        for line in args.results.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            job = Job(**row["job"])
            done[job.key] = Game(
                job, *(row[k] for k in ("result", "first", "swapped")), row["plies"], row["moves"]
            )
    todo = [j for j in jobs if j.key not in done]
    games = [done[j.key] for j in jobs if j.key in done]
    started = time.monotonic()
    progress = Progress("fair starts", len(todo), unit=" games")
    status = 0
    try:
        for job in todo:
            game = play(job)
            games.append(game)
            if args.results is not None:
                with args.results.open("a", encoding="utf-8") as handle:
                    row = {"job": vars(job)} | {
                        k: getattr(game, k)
                        for k in ("result", "first", "swapped", "plies", "moves")
                    }
                    handle.write(json.dumps(row) + "\n")
            progress.update(1, f"{job.variant} {job.start} pair {job.pair + 1}")
    except KeyboardInterrupt:
        status = 130
    progress.close()
    command = (
        "python tools/fair_starts.py measure "
        + " ".join(f"--variant {v}" for v in args.variant)
        + " "
        + " ".join(f"--start {s}" for s in args.start)
        + f" --nodes {args.nodes} --pairs {args.pairs} --seed {args.seed}"
        + f" --swap-entries {args.swap_entries}"
    )
    print(f"$ {command}\n\n{table(games, args)}\n")
    print(
        f"{len(games)} games, {time.monotonic() - started:.0f} s"
        + (" (interrupted)" if status else "")
    )
    return status


# --- main ---------------------------------------------------------------------------------------


def positive(text: str) -> int:
    """An argument that is a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="write a board's ballots")
    m.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (9x9)")
    m.add_argument("--count", type=positive, default=24, help="ballots to keep (24)")
    m.add_argument("--nodes", type=positive, default=400_000, help="nodes of step 2 (400000)")
    m.add_argument("--margin", type=int, default=40, help="largest |score| kept (40 cm)")
    m.add_argument("--play-nodes", type=positive, default=100_000, help="nodes a move, step 3")
    m.add_argument("--min-plies", type=positive, default=3, help="shortest ballot (3)")
    m.add_argument("--max-plies", type=positive, default=5, help="longest ballot (5)")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--out", type=Path, help="default: the variant's shipped ballots")
    e = sub.add_parser("measure", help="White's score per board and start")
    e.add_argument("--variant", action="append", choices=VARIANTS, help="(repeat; all)")
    e.add_argument("--start", action="append", choices=STARTS, help="(repeat; all)")
    e.add_argument("--nodes", type=positive, default=100_000, help="nodes a move (100000)")
    e.add_argument("--pairs", type=positive, default=24, help="game pairs per board and start (24)")
    e.add_argument("--swap-entries", type=positive, default=1, help="the swap rule's N (1)")
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--results", type=Path, help="JSON lines of the games: resumes a run")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "measure":
        args.variant = args.variant or list(VARIANTS)
        args.start = args.start or list(STARTS)
        return measure(args)
    if args.command == "make":
        if not 1 <= args.min_plies <= args.max_plies:
            parser.error("--min-plies must be at least 1 and at most --max-plies")
        return make(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
