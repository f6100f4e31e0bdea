"""The figures of puzzle files (docs/puzzles.md, "Figures"), from their puzzles and notes.

    python tools/puzzle_figures.py src/emergo/data/puzzles-*.txt

Prints Markdown tables: per file the games examined, the positions, the candidates, the
puzzles kept and the rejections by reason; the themes; the lengths, proofs and ratings.
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import Counter
from pathlib import Path

from emergo.puzzles import THEMES, read_puzzles

REASONS = ("not confirmed", "forced", "no only move", "gain", "recheck", "tables")


def notes(path: Path) -> tuple[Counter[str], Counter[str]]:
    """The sums of a file's game notes, and its rejections by reason."""
    totals: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# game "):
            continue
        totals["games"] += 1
        for key, value in re.findall(r"(\w+)=(\d+)", line):
            totals[key] += int(value)
        why = re.search(r"rejected=(.*?)(?: duplicate=\d+)?$", line)
        if why and why.group(1) != "-":
            for part in why.group(1).split(","):
                reason, _, n = part.rpartition(":")
                rejected[reason] += int(n)
    return totals, rejected


def main(paths: list[str]) -> None:
    files = [Path(p) for p in paths]
    print(
        "| file | games | positions | candidates | kept | duplicates | "
        + " | ".join(REASONS)
        + " |"
    )
    print("|---|" + "---:|" * (5 + len(REASONS)))
    for path in files:
        totals, rejected = notes(path)
        cells = [totals["games"], totals["positions"], totals["candidates"], totals["kept"]]
        cells.append(totals["duplicate"])
        cells += [rejected[r] for r in REASONS]
        print(f"| {path.name} | " + " | ".join(f"{c:,}" for c in cells) + " |")
    print()
    print("| file | " + " | ".join(f"level {n}: games, kept" for n in range(1, 4)) + " |")
    print("|---|" + "---:|" * 3)
    for path in files:
        games: Counter[int] = Counter()
        kept: Counter[int] = Counter()
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"# game \d+ selfplay:[^:]+:(\d+):\S+ .* kept=(\d+)", line)
            if match:
                games[int(match.group(1))] += 1
                kept[int(match.group(1))] += int(match.group(2))
        cells = [f"{games[n]:,}, {kept[n]:,}" for n in range(1, 4)]
        print(f"| {path.name} | " + " | ".join(cells) + " |")
    print()
    sets = {path.name: list(read_puzzles(path)) for path in files}
    print("| theme | " + " | ".join(sets) + " |")
    print("|---|" + "---:|" * len(sets))
    for theme in THEMES:
        counts = [sum(theme in p.themes for p in puzzles) for puzzles in sets.values()]
        print(f"| `{theme}` | " + " | ".join(f"{c:,}" for c in counts) + " |")
    print()
    print("| file | puzzles | solver moves 1/2/3/4/5/6 | tables | rating min/median/max | bytes |")
    print("|---|---:|---|---:|---|---:|")
    for path, puzzles in zip(files, sets.values(), strict=True):
        lengths = Counter(p.moves for p in puzzles)
        shape = "/".join(str(lengths[n]) for n in range(1, 7))
        ratings = sorted(p.rating for p in puzzles)
        tables = sum(p.proof == "tables" for p in puzzles)
        spread = f"{ratings[0]} / {statistics.median(ratings):.0f} / {ratings[-1]}"
        print(
            f"| {path.name} | {len(puzzles):,} | {shape} | {tables:,} | {spread} | "
            f"{path.stat().st_size:,} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
