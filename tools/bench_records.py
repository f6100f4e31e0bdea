"""Records: reading, writing and the JSON form of the 50 AbstractPlay games, in milliseconds.

    python tools/bench_records.py
    git show cb88cda:src/emergo/record.py > /tmp/record_old.py
    python tools/bench_records.py --against /tmp/record_old.py   # and the ratios to that one

Each figure is the best of ``--runs`` runs (a busy machine shows in the worst, not the best).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import emergo.record as record
from emergo import Board

DATA = Path(__file__).parent.parent / "tests" / "data" / "abstractplay-dev.jsonl"


def best(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def all_headers(module: ModuleType, text: str) -> list[object]:
    stream = io.StringIO(text)
    return list(iter(lambda: module.read_headers(stream), None))


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("record_against", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", help="another record module (a file) to compare with")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    boards = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        board = Board()
        for ply in json.loads(line)["plies"]:
            board.push_move(ply["played"])
        boards.append(board)
    text = "\n".join(record.write_game(record.Game.from_board(b)) for b in boards)
    games = list(record.read_games(text))
    figures = {
        "read (the tree)": lambda: list(record.read_games(text)),
        "read headers": lambda: all_headers(record, text),
        "write as read": lambda: [record.write_game(g) for g in games],
        "write canonically": lambda: [record.write_game(g, canonical=True) for g in games],
        "to_json": lambda: [g.to_json() for g in games],
        "from_json": lambda: [record.Game.from_json(g.to_json()) for g in games],
    }
    other: dict[str, Callable[[], object]] = {}
    if args.against:
        old = load(args.against)
        old_games = list(old.read_games(text))
        other = {
            "read (the tree)": lambda: list(old.read_games(text)),
            "read headers": lambda: all_headers(old, text),
            "write as read": lambda: [old.write_game(g) for g in old_games],
            "write canonically": lambda: [old.write_game(g) for g in old_games],
        }
    plies = sum(len(b.move_stack) for b in boards)
    print(f"{len(boards)} games, {plies} plies, {len(text)} characters; best of {args.runs} runs")
    for name, work in figures.items():
        ms = best(work, args.runs)
        line = f"{name:18} {ms:8.1f} ms"
        if name in other:
            then = best(other[name], args.runs)
            line += f"   against {then:8.1f} ms: x{ms / then:.2f}"
        print(line)


if __name__ == "__main__":
    main()
