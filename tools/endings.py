#!/usr/bin/env python3
"""Can the engine convert won endings? Endings from drawn games, played out against greedy.

``collect`` reads match records (``emergo match --records``) and keeps, from every
drawn game between ``--engine`` and another player, the first position from
``--from-ply`` on where the engine is to move in the movement phase (both hands
empty, R17) at least ``--lead`` men ahead (caps and prisoners, R6): an ending it
should win.  ``play`` plays each such position ``--seeds`` times, the kernel
search at ``--nodes`` nodes a move (fixed nodes: the same command replays the
same games) against ``greedy`` (seeded), at most ``--plies`` more plies, and
counts the engine's wins, draws and losses.  ``--weights`` replaces the shipped
evaluation weights (docs/engine.md, "Endings on the hexagon"):

  tools/endings.py collect proof-hex/b-engine-greedy.egn > endings.txt
  tools/endings.py play endings.txt --nodes 20000 --seeds 6
  tools/endings.py play endings.txt --nodes 20000 --seeds 6 --weights my_weights.txt
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from emergo import kernel
from emergo.board import WHITE, Board
from emergo.players import greedy_player
from emergo.record import read_games
from emergo.search import Limit


def collect(records: Path, engine: str, lead: int, from_ply: int) -> list[str]:
    """The endings of the drawn games of ``records`` (see the module's doc)."""
    found = []
    with records.open(encoding="utf-8") as handle:
        games = list(read_games(handle))
    for game in games:
        if game.headers.get("Result") != "1/2-1/2" or engine not in (
            game.headers.get("White"),
            game.headers.get("Black"),
        ):
            continue
        engine_white = game.headers.get("White") == engine
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), 1):
            board.push(move)
            if ply < from_ply or (board.turn == WHITE) != engine_white:
                continue
            if board.hand(WHITE) or board.hand(not WHITE):
                continue
            if kernel.eval_features(board.position())["men"] >= lead:
                found.append(board.position())
                break
    return found


def play(positions: list[str], nodes: int, seeds: int, plies: int, weights: Path | None) -> str:
    searcher = kernel.Searcher(weights=weights) if weights else kernel.Searcher()
    wins = draws = losses = 0
    lengths: list[int] = []
    start = time.monotonic()
    for position in positions:
        for seed in range(seeds):
            board = Board(position)
            engine, rng = board.turn, random.Random(seed)
            searcher.clear()
            for _ in range(plies):
                if board.is_game_over():
                    break
                if board.turn == engine:
                    move = searcher.search(board, Limit(nodes=nodes)).move
                    assert move is not None
                else:
                    move = greedy_player(board, rng)
                board.push(move)
            outcome = board.outcome()
            if outcome is None or outcome.winner is None:
                draws += 1
            elif outcome.winner == engine:
                wins += 1
                lengths.append(len(board.move_stack) - len(Board(position).move_stack))
            else:
                losses += 1
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    return (
        f"{len(positions)} endings x {seeds} seeds, {nodes} nodes a move: engine W/D/L "
        f"{wins}/{draws}/{losses}, {mean:.0f} plies a win on average, "
        f"{time.monotonic() - start:.0f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="endings of drawn games, one position a line")
    c.add_argument("records", type=Path)
    c.add_argument("--engine", default="engine", help="the engine's player name (engine)")
    c.add_argument("--lead", type=int, default=4, help="men ahead at least (4)")
    c.add_argument("--from-ply", type=int, default=100, help="not before this ply (100)")
    p = sub.add_parser("play", help="play the endings of a file against greedy")
    p.add_argument("endings", type=Path)
    p.add_argument("--nodes", type=int, default=20_000, help="nodes a move (20000)")
    p.add_argument("--seeds", type=int, default=6, help="games an ending (6)")
    p.add_argument("--plies", type=int, default=300, help="plies at most (300)")
    p.add_argument("--weights", type=Path, help="evaluation weights (default: shipped)")
    args = parser.parse_args(argv)
    if args.command == "collect":
        for position in collect(args.records, args.engine, args.lead, args.from_ply):
            print(position)
        return 0
    text = args.endings.read_text(encoding="utf-8").splitlines()
    positions = [line.strip() for line in text if line.strip() and not line.startswith("#")]
    print(play(positions, args.nodes, args.seeds, args.plies, args.weights))
    return 0


if __name__ == "__main__":
    sys.exit(main())
