"""Generate the balanced opening suite of engine matches: ``src/emergo/data/openings.txt``.

A pair of games from one opening (colours swapped) only tells two engines apart
when the opening does not decide the game.  Entering-phase positions of Emergo
are not all like that: from many of them the side to move (or White, who
enters first) wins almost every game between equal players.  So each opening
is chosen in three steps, all with the C kernel's search:

1. a random sequence of entering moves (R13) from the start, 4 to 8 plies long,
   still in the entering phase with no capture pending (R8), position new;
2. the kernel search at ``--nodes`` nodes scores it within ``--margin``
   centi-men of balance for the player to move;
3. ``--games`` self-play games from it, kernel against kernel at equal node
   budgets (``--play-nodes``, doubled game by game, so the games differ), are
   won by White and by Black equally often (``--games`` / 2 each).

Every search has a fixed node budget and a fresh transposition table, so the
same arguments rebuild the same file on any machine:

    python tools/make_openings.py [--count 100] [--nodes 200000] [--margin 40]
        [--games 4] [--play-nodes 8000] [--seed 1] [--jobs 2] [--variant hex]

``--variant hex`` (R4) writes ``openings_hex.txt`` and ``--variant 7x7``
``openings_7x7.txt`` (emergo.match.OPENINGS_FILES), each line from the variant's
start (``hex w 12/12 | d3 e7 ...``), searched with the variant's weights.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from emergo.board import Board, MoveKind
from emergo.geometry import VARIANTS
from emergo.kernel import Searcher
from emergo.match import OPENINGS_FILES
from emergo.search import Limit

OUT = Path(__file__).resolve().parent.parent / "src" / "emergo" / "data" / "openings.txt"
MAX_PLIES = 400
"""A self-play game this long counts as a draw (none came close when the suite was made)."""


def candidate(rng: random.Random, plies: int, variant: str) -> Board | None:
    """A board after ``plies`` random entries, or ``None`` if it left the entering phase (R8)."""
    board = Board(variant=variant)
    for _ in range(plies):
        moves = board.moves()
        if not moves or moves[0].kind is not MoveKind.ENTER:
            return None
        board.push(rng.choice(moves))
    if board.outcome() is not None or not board.is_entering():
        return None
    return board


def candidates(seed: int, variant: str) -> Iterator[str]:
    """Distinct random entering sequences (move text), an endless deterministic stream."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while True:
        board = candidate(rng, rng.randint(4, 8), variant)
        if board is None or board.position() in seen:
            continue
        seen.add(board.position())
        yield " ".join(str(m) for m in board.move_stack)


_searcher: Searcher | None = None


def _search() -> Searcher:
    global _searcher
    if _searcher is None:
        _searcher = Searcher(hash_mb=16)
    return _searcher


def self_play(board: Board, nodes: int) -> str:
    """The result ("1-0", "0-1", "1/2-1/2") of the kernel against itself at ``nodes`` a move."""
    searcher = _search()
    searcher.clear()
    board = board.copy()
    while board.outcome() is None and len(board.move_stack) < MAX_PLIES:
        move = searcher.search(board, Limit(nodes=nodes)).move
        assert move is not None  # the game is not over, so there is a legal move
        board.push(move)
    return board.result() if board.outcome() is not None else "1/2-1/2"


def judge(job: tuple[str, argparse.Namespace]) -> tuple[str, list[str]]:
    """Steps 2 and 3 for one opening: its self-play results, none if its score is off balance."""
    moves, args = job
    board = Board(variant=args.variant)
    for text in moves.split():
        board.push_move(text)
    searcher = _search()
    searcher.clear()
    result = searcher.search(board, Limit(nodes=args.nodes))
    score = result.infos[0].score if result.infos else None
    if score is None or score.kind != "cp" or abs(score.value) > args.margin:
        return moves, []
    return moves, [self_play(board, args.play_nodes << i) for i in range(args.games)]


def write(
    args: argparse.Namespace, kept: list[str], tried: int, scored: int, white: int, black: int
) -> None:
    header = [
        "# Balanced openings for engine matches (emergo match), one per line: entering moves",
        "# from the start (R13, R21).  Each game pair plays one opening with colours swapped.",
        f"# Made by tools/make_openings.py --count {args.count} --nodes {args.nodes} "
        f"--margin {args.margin} --games {args.games} --play-nodes {args.play_nodes} "
        f"--seed {args.seed}" + (f" --variant {args.variant}:" if args.variant != "9x9" else ":"),
        f"# of {tried} random entering sequences of 4-8 plies, {scored} scored within "
        f"{args.margin} centi-men by the",
        f"# kernel search at {args.nodes} nodes; of those, these are the ones where White and "
        "Black each won",
        f"# {args.games // 2} of {args.games} kernel self-play games (White won {white}, "
        f"Black {black} of all {scored * args.games}).",
    ]
    start = "" if args.variant == "9x9" else f"{Board(variant=args.variant).position()} | "
    lines = header + [start + moves for moves in kept]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="openings to keep (100)")
    parser.add_argument("--nodes", type=int, default=200_000, help="nodes of step 2 (200000)")
    parser.add_argument("--margin", type=int, default=40, help="largest |score| kept (40 cm)")
    parser.add_argument("--games", type=int, default=4, help="self-play games, even (4)")
    parser.add_argument("--play-nodes", type=int, default=8_000, help="first game's budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (9x9)")
    parser.add_argument("--out", type=Path, help="default: the variant's shipped suite")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = OPENINGS_FILES.get(args.variant, OUT)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even and at least 2")

    kept: list[str] = []
    tried = scored = white = black = 0
    stream = ((moves, args) for moves in candidates(args.seed, args.variant))
    with multiprocessing.Pool(args.jobs) as pool:
        for moves, games in pool.imap(judge, stream, chunksize=4):
            tried += 1
            if not games:
                continue
            scored += 1
            white += games.count("1-0")
            black += games.count("0-1")
            if games.count("1-0") == games.count("0-1") == args.games // 2:
                kept.append(moves)
                write(args, kept, tried, scored, white, black)  # an interrupted run keeps these
            print(
                f"\r{len(kept)}/{args.count} kept; {scored} of {tried} tried were within "
                f"the margin; White won {white}, Black {black} of their games",
                end="",
                file=sys.stderr,
            )
            if len(kept) == args.count:
                pool.terminate()
                break
    print(file=sys.stderr)
    write(args, kept, tried, scored, white, black)
    print(f"wrote {len(kept)} openings to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
