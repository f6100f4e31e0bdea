#!/usr/bin/env python3
"""The proof of strength: engine matches over the protocol with ``emergo match``, summarised.

Runs, each as an ``emergo match`` command (engines are ``emergo-engine``
processes speaking the protocol; colours swapped in pairs; shipped openings):

  a  engine vs random
  b  engine vs greedy
  c  engine vs MCTS, MCTS given --mcts-factor times the engine's time
  d  engine at --long-time s/move vs itself at --short-time s/move
  e  the level ladder: each level against the one below (2 vs 1, ..., 11 vs 10)

and prints a table (score, W/D/L, Elo +/- 95% error, LOS), also written with the
exact commands to OUT/summary.md; the game records go to OUT/*.egn.  Every
figure of docs/engine.md comes from this script.  Examples:

  tools/proof_matches.py --out proof                  # a-c: 200 games each (~30 min, 2 cores)
  tools/proof_matches.py --only d --long-games 40     # a shorter d
  tools/proof_matches.py --only e                     # the ladder
  tools/proof_matches.py --quick                      # a smoke test: 2 games of everything
  tools/proof_matches.py --variant hex --out proof-hex --games 60   # HexEmergo (R4)

``--variant hex`` plays every match from the hex ballots
(src/emergo/data/ballots_hex.txt, emergo.ballots.BALLOTS_FILES); the engines
take the variant from the position and the kernel search its hex weights.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from emergo.ballots import BALLOTS_FILES
from emergo.geometry import VARIANTS
from emergo.record import read_headers

MATCHES = "abcde"


@dataclass
class Figures:
    label: str
    command: list[str]
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    elo: str = "?"
    los: str = "?"
    penta: str = ""
    white: str = ""
    seconds: float = 0.0
    failed: str = ""

    def row(self) -> str:
        if self.failed:
            return f"| {self.label} | failed: {self.failed} |||||"
        share = 100 * self.points / self.games if self.games else 0.0
        return (
            f"| {self.label} | {self.games} | {self.points:g} ({share:.1f}%) | "
            f"{self.wins}/{self.draws}/{self.losses} | {self.penta} | {self.elo} | {self.los} | "
            f"{self.white} | {self.seconds / 60:.1f} min |"
        )


HEADER = (
    "| match | games | score of the first | W/D/L | pentanomial LL LD DD/WL WD WW | "
    "Elo [95% interval] | LOS | won by White/Black | time |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def colour_count(records: Path) -> str:
    """How many games of a records file White and Black won: the openings' balance."""
    with records.open(encoding="utf-8") as handle:
        results = [headers.get("Result") for headers in iter(lambda: read_headers(handle), None)]
    return f"{results.count('1-0')}/{results.count('0-1')}"


def emergo_command() -> list[str]:
    beside = Path(sys.executable).parent / "emergo"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "emergo"]


def parse_summary(text: str, figures: Figures) -> None:
    """Read the numbers of the first pairing out of ``emergo match``'s summary."""
    score = re.search(r": ([\d.]+)/(\d+) \([\d.]+%\)\s+W (\d+)\s+D (\d+)\s+L (\d+)", text)
    if score is None:
        figures.failed = "no summary"
        return
    figures.points = float(score.group(1))
    figures.games = int(score.group(2))
    figures.wins, figures.draws, figures.losses = (int(score.group(i)) for i in (3, 4, 5))
    elo = re.search(r"Elo (\S+) \+/- \S+ \(95%\) (\[[^]]*\])\s+LOS ([\d.]+%)", text)
    if elo is not None:
        figures.elo, figures.los = f"{elo.group(1)} {elo.group(2)}", elo.group(3)
    penta = re.search(r"pentanomial: LL (\d+) LD (\d+) DD/WL (\d+) WD (\d+) WW (\d+)", text)
    if penta is not None:
        figures.penta = " ".join(penta.groups())


def run(label: str, engines: list[str], games: int, args: argparse.Namespace, name: str) -> Figures:
    records = args.out / f"{name}.egn"
    command = [*emergo_command(), "match", "-n", str(games), "-c", str(args.concurrency)]
    for spec in engines:
        command += ["-e", spec]
    command += ["--records", str(records), "-q"]
    if args.variant in BALLOTS_FILES:
        command += ["--openings", str(BALLOTS_FILES[args.variant])]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    figures = Figures(label, command)
    print(f"== {label}\n$ {shlex.join(command)}", flush=True)
    start = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    figures.seconds = time.monotonic() - start
    print(proc.stdout, end="", flush=True)
    if proc.returncode != 0:
        figures.failed = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        print(proc.stderr, file=sys.stderr)
        return figures
    parse_summary(proc.stdout, figures)
    figures.white = colour_count(records)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("proof"), help="records and summary")
    parser.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (9x9)")
    parser.add_argument("--only", default="abc", help="which matches, e.g. abcde (default abc)")
    parser.add_argument("--games", type=int, default=200, help="games of a, b, c (200)")
    parser.add_argument("-c", "--concurrency", type=int, default=2, help="games at once (2)")
    parser.add_argument("--engine-time", type=float, default=0.02, help="engine s/move (0.02)")
    parser.add_argument("--mcts-factor", type=float, default=10.0, help="MCTS time factor (10)")
    parser.add_argument("--long-games", type=int, default=200, help="games of d (200)")
    parser.add_argument("--long-time", type=float, default=1.0, help="d: long s/move (1)")
    parser.add_argument("--short-time", type=float, default=0.1, help="d: short s/move (0.1)")
    parser.add_argument("--ladder-games", type=int, default=40, help="games per rung of e (40)")
    parser.add_argument("--ladder-time", type=float, default=1.0, help="e: s/move cap (1)")
    parser.add_argument("--levels", default="1-11", help="e: the levels, e.g. 1-11 or 8-11")
    parser.add_argument("--seed", type=int, help="shuffle the openings with this seed")
    parser.add_argument("--quick", action="store_true", help="smoke test: 2 games each")
    args = parser.parse_args(argv)
    if args.variant != "9x9" and args.variant not in BALLOTS_FILES:
        parser.error(f"no ballots for {args.variant} (tools/fair_starts.py make --variant)")
    if not set(args.only) <= set(MATCHES):
        parser.error(f"--only takes letters of {MATCHES}")
    if args.quick:
        args.games = args.long_games = args.ladder_games = 2
        args.long_time, args.short_time = 0.1, 0.02
        args.ladder_time = 0.05
    low, _, high = args.levels.partition("-")
    levels = list(range(int(low), int(high or low) + 1))
    args.out.mkdir(parents=True, exist_ok=True)

    t = args.engine_time
    mcts = round(t * args.mcts_factor, 4)
    results: list[Figures] = []
    if "a" in args.only:
        results.append(run(f"a. engine {t}s vs random", [f"engine move-time={t}", "random"],
                           args.games, args, "a-engine-random"))  # fmt: skip
    if "b" in args.only:
        results.append(run(f"b. engine {t}s vs greedy", [f"engine move-time={t}", "greedy"],
                           args.games, args, "b-engine-greedy"))  # fmt: skip
    if "c" in args.only:
        results.append(run(f"c. engine {t}s vs MCTS {mcts}s",
                           [f"engine move-time={t}", f"mcts move-time={mcts} timeout=60"],
                           args.games, args, "c-engine-mcts"))  # fmt: skip
    if "d" in args.only:
        long, short = args.long_time, args.short_time
        results.append(run(
            f"d. engine {long}s vs engine {short}s",
            [f"engine name=engine-{long}s move-time={long}",
             f"engine name=engine-{short}s move-time={short}"],
            args.long_games, args, "d-long-short",
        ))  # fmt: skip
    if "e" in args.only:
        lt = args.ladder_time
        for level in levels[1:]:
            results.append(run(
                f"e. level {level} vs level {level - 1} ({lt}s cap)",
                [f"engine name=L{level} option.Level={level} move-time={lt}",
                 f"engine name=L{level - 1} option.Level={level - 1} move-time={lt}"],
                args.ladder_games, args, f"e-level-{level:02}-{level - 1:02}",
            ))  # fmt: skip

    table = "\n".join([HEADER, *(f.row() for f in results)])
    commands = "\n".join(f"    {shlex.join(f.command)}" for f in results)
    summary = f"{table}\n\nCommands:\n\n{commands}\n"
    (args.out / "summary.md").write_text(summary, encoding="utf-8")
    print("\n" + summary)
    print(f"records and summary in {args.out}/")
    return 1 if any(f.failed for f in results) else 0


if __name__ == "__main__":
    sys.exit(main())
