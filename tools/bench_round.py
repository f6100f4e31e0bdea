"""Benchmark of the round (emergo.round): one command applied as an online server applies it.

    .venv/bin/python tools/bench_round.py [--repeat 30] [--seed 1]

The server reads a game's row, builds the state (``RoundState.from_json``), applies one
command and writes the new state (``to_json``).  The board of a state comes from a cache keyed
by (variant, root, moves):

* ``fresh``: the cache does not know the game (another process served the previous move, or
  the process restarted): ``from_json`` replays and checks the moves, then ``apply`` plays one.
* ``cached``: this process served the previous move: ``from_json`` finds the board and
  ``apply`` moves it on by one ply (no copy, no replay).

Each at ply 10, 100 and 300 of a random 9x9 game under a 300+2 clock (online rules), the
median of ``--repeat`` commands (cached: consecutive plies from there), in microseconds.  Then
the ways to rebuild a board from its move texts, per ply: ``Board.parse_move`` (what a round
that parsed its texts again would pay), the round's replay of canonical texts (checked pushes),
and the C kernel's replay (it checks the moves but gives no Board with history).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from emergo.board import Board
from emergo.clock import TimeControl
from emergo.round import Move, RoundState, apply
from emergo.round.boards import BOARDS, replay

PLIES = (10, 100, 300)
CONTROL = TimeControl.fischer(300, 2)


def long_line(plies: int, seed: int) -> list[str]:
    """The canonical texts of a random 9x9 game that lasts at least ``plies`` plies."""
    while True:
        rng = random.Random(seed)
        board = Board()
        while len(board.move_stack) < plies and board.outcome() is None:
            board.push(rng.choice(board.moves()))
        if len(board.move_stack) == plies:
            return [str(m) for m in board.move_stack]
        seed += 1


def states(line: list[str], upto: int) -> list[dict[str, object]]:
    """The rows (``to_json``) of the game after each ply, one second a move."""
    state = RoundState.new(time_control=CONTROL, now=0.0)
    rows = [state.to_json()]
    for ply, text in enumerate(line[:upto]):
        state, _ = apply(state, Move(state.turn, text), now=float(ply + 1))
        rows.append(state.to_json())
    return rows


def command(row: dict[str, object], text: str, now: float) -> dict[str, object]:
    """One request: the state from its row, one move, the new row."""
    state = RoundState.from_json(row)
    new, _ = apply(state, Move(state.turn, text), now)
    return new.to_json()


def micros(
    run: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repeat = args.repeat
    line = long_line(max(PLIES) + repeat + 1, args.seed)
    rows = states(line, max(PLIES) + repeat)
    print(f"apply of one move as a server does it (from_json + apply + to_json), {CONTROL.tag()}")
    print(
        f"{'ply':>5} {'fresh µs':>10} {'cached µs':>10} {'from_json fresh':>16} {'board() hit':>12}"
    )
    for ply in PLIES:
        fresh = micros(
            lambda ply=ply: command(rows[ply], line[ply], ply + 1.5),
            repeat,
            setup=BOARDS.clear,
        )
        parse = micros(lambda ply=ply: RoundState.from_json(rows[ply]), repeat, BOARDS.clear)
        # cached: consecutive plies, each row's board left in the cache by the command before
        BOARDS.clear()
        RoundState.from_json(rows[ply])
        times = []
        for i in range(ply, ply + repeat):
            start = time.perf_counter()
            command(rows[i], line[i], i + 1.5)
            times.append(time.perf_counter() - start)
        cached = statistics.median(times) * 1e6
        state = RoundState.from_json(rows[ply])
        state.board()
        hit = micros(state.board, repeat)
        print(f"{ply:>5} {fresh:>10.0f} {cached:>10.0f} {parse:>16.0f} {hit:>12.1f}")

    print("\nrebuilding a board from move texts, µs a ply (300 plies)")
    texts = line[:300]

    def parsed() -> Board:
        board = Board()
        for text in texts:
            board.push(board.parse_move(text))
        return board

    results = {
        "Board.parse_move replay": micros(parsed, 5),
        "round replay (canonical texts, checked push)": micros(
            lambda: replay("9x9", "w 12/12", texts), 5
        ),
        "Board.copy() (unchecked replay of a board)": micros(parsed().copy, 5),
    }
    try:
        from emergo import kernel

        results["kernel.replay (checks only, no Board)"] = micros(
            lambda: kernel.replay(None, texts), 5
        )
    except ImportError:
        results["kernel.replay"] = float("nan")
    for name, total in results.items():
        print(f"  {name:<48} {total / len(texts):6.2f}")


if __name__ == "__main__":
    main()
