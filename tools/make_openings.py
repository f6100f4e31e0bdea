"""Generate the balanced opening suite of engine matches: ``src/emergo/data/openings.txt``.

Each opening is a random sequence of entering moves (R13) from the start, 4 to 8
plies long, kept when a shallow search of the interim Python searcher
(:class:`emergo.search.PythonSearcher`) scores it near balance for the player to
move, when the game is still in the entering phase and no capture is pending
(R8), and when its position is new.  Run again (with the same seed) to rebuild
the same file; when the C kernel search exists, regenerate with it:

    python tools/make_openings.py [--count 120] [--depth 3] [--margin 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from emergo.board import Board, MoveKind
from emergo.search import Limit, PythonSearcher

OUT = Path(__file__).resolve().parent.parent / "src" / "emergo" / "data" / "openings.txt"


def candidate(rng: random.Random, plies: int) -> Board | None:
    """A board after ``plies`` random entries, or ``None`` if it left the entering phase (R8)."""
    board = Board()
    for _ in range(plies):
        moves = board.moves()
        if not moves or moves[0].kind is not MoveKind.ENTER:
            return None
        board.push(rng.choice(moves))
    if board.outcome() is not None or not board.is_entering():
        return None
    return board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--margin", type=int, default=50, help="largest |score| kept, centi-men")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    searcher = PythonSearcher()
    seen: set[str] = set()
    kept: list[str] = []
    tried = 0
    while len(kept) < args.count:
        tried += 1
        board = candidate(rng, rng.randint(4, 8))
        if board is None or board.position() in seen:
            continue
        result = searcher.search(board, Limit(depth=args.depth))
        score = result.infos[0].score if result.infos else None
        if score is None or score.kind != "cp" or abs(score.value) > args.margin:
            continue
        seen.add(board.position())
        kept.append(" ".join(str(m) for m in board.move_stack))
        print(f"\r{len(kept)}/{args.count} kept of {tried} tried", end="", file=sys.stderr)
    print(file=sys.stderr)
    header = [
        "# Balanced openings for engine matches (emergo match), one per line: entering moves",
        "# from the start (R13, R21).  Each game pair plays one opening with colours swapped.",
        f"# Made by tools/make_openings.py --count {args.count} --depth {args.depth} "
        f"--margin {args.margin} --seed {args.seed}:",
        "# random entries of 4-8 plies kept when the interim Python search scored them within",
        f"# {args.margin} centi-men at depth {args.depth}, no capture pending, positions distinct.",
    ]
    args.out.write_text("\n".join(header + kept) + "\n", encoding="utf-8")
    print(f"wrote {len(kept)} openings to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
