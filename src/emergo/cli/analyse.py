"""``emergo analyse``: a position's evaluation and best lines, or a review of a record's games.

The analysis is :mod:`emergo.analyse`; this module reads the options and writes the reports.
"""

from __future__ import annotations

import argparse
import sys

from emergo import analyse
from emergo.analyse import (
    MARKS,
    GameReview,
    eval_token,
    final_score,
    format_score,
    line_text,
    white_view,
)
from emergo.board import COLOR_NAMES, WHITE, Board
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    CliError,
    add_common,
    open_text,
    play_texts,
    search_backend,
    start_or,
)
from emergo.geometry import Names
from emergo.players import BACKENDS
from emergo.record import Game, RecordError, read_games, write_games
from emergo.search import Limit, SearchInfo


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="evaluate a position (best lines) or review the games of a record file",
        description=(
            "With POSITION (default: the start) and --moves: the evaluation and the best "
            "line(s).  With --record FILE: every position of every game is searched, each "
            "move's loss against the best move is measured, the biggest mistakes of each side "
            "are listed, and --annotate OUT writes the games with the evaluations as comments "
            "({+1.35/12}: White's view in men / depth; ?! ? ?? mark moves that lost half a "
            "man, a man, three men).  Scores are from White's point of view.  Default limit: "
            "2 s a position, 0.2 s a position of a record."
        ),
    )
    p.add_argument("position", nargs="*", metavar="POSITION", help="an R22 position (quote it)")
    p.add_argument("--moves", help="moves to play from the position first, e.g. 'd4 e6'")
    p.add_argument("--record", metavar="FILE", help="review the games of this record file")
    p.add_argument("--annotate", metavar="OUT", help="write the annotated games to OUT")
    p.add_argument("--game", type=int, metavar="N", help="only the N-th game of the record")
    p.add_argument("--depth", type=int, metavar="N", help="search N plies")
    p.add_argument("--nodes", type=int, metavar="N", help="search N nodes")
    p.add_argument("--movetime", type=float, metavar="S", help="search S seconds a position")
    p.add_argument("--multipv", type=int, metavar="K", help="show the best K lines (default 1)")
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="search backend (default auto: the C kernel's search when it has one)",
    )
    p.add_argument("--hash", type=int, default=64, metavar="MB", help="search tables (64 MB)")
    add_common(p)
    p.set_defaults(run=run)


def analysis_limit(args: argparse.Namespace, default_time: float) -> Limit:
    """The limit of ``--depth``/``--nodes``/``--movetime``; a time by default."""
    if args.movetime is not None and args.movetime <= 0:
        raise CliError(f"--movetime must be more than 0 seconds, not {args.movetime}")
    for name in ("depth", "nodes", "multipv"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise CliError(f"--{name} must be at least 1, not {value}")
    time_limit = args.movetime
    if time_limit is None and args.depth is None and args.nodes is None:
        time_limit = default_time
    return Limit(depth=args.depth, nodes=args.nodes, time=time_limit)


def run(args: argparse.Namespace) -> int:
    names: Names = args.names
    if args.record is None:
        if args.annotate:
            raise CliError("--annotate goes with --record FILE")
        limit = analysis_limit(args, 2.0)
        board = start_or(args.position, args.variant)
        if args.moves:
            play_texts(board, args.moves.split(), names)
        searcher = search_backend(args.backend, args.hash)
        infos = analyse.analyse_position(board, searcher, limit, multipv=args.multipv or 1)
        print(position_report(board, infos, names=names))
        return EXIT_OK
    if args.position or args.moves:
        raise CliError("give either a POSITION (with --moves) or --record FILE, not both")
    if args.multipv:
        raise CliError("--multipv is for a position, not for --record")
    limit = analysis_limit(args, 0.2)
    with open_text(args.record) as handle:
        try:
            games = list(read_games(handle, names=names))
        except RecordError as e:
            raise CliError(f"{args.record}: {e}", EXIT_FAILURE) from None
    if not games:
        raise CliError(f"{args.record}: no game in the file", EXIT_FAILURE)
    searcher = search_backend(args.backend, args.hash)
    annotated: list[Game] = []
    show_progress = sys.stderr.isatty()
    for number, game in enumerate(games, 1):
        if args.game is not None and number != args.game:
            continue

        def progress(done: int, total: int, number: int = number) -> None:
            if show_progress:
                sys.stderr.write(f"\rgame {number}: position {done}/{total}")
                sys.stderr.flush()

        review = analyse.review_game(game, searcher, limit, progress=progress)
        if show_progress:
            sys.stderr.write("\n")
        print(f"game {number}: {review_summary(review, names)}")
        annotated.append(review.annotated(names))
    if args.game is not None and not annotated:
        raise CliError(f"--game {args.game}: the file holds {len(games)} games")
    if args.annotate:
        try:
            with open(args.annotate, "w", encoding="utf-8") as out:
                write_games(annotated, out, names=names)
        except OSError as e:
            raise CliError(f"{args.annotate}: {e.strerror or e}") from None
        print(f"annotated record written to {args.annotate}")
    return EXIT_OK


# --- the reports ----------------------------------------------------------------------------------
def position_report(
    board: Board, infos: tuple[SearchInfo, ...], *, names: Names = "oblique"
) -> str:
    """What ``emergo analyse POSITION`` prints: the position, the evaluation and the lines."""
    mover = COLOR_NAMES[board.turn]
    lines = [f"position: {board.position()} ({mover} to move)"]
    final = final_score(board)
    outcome = board.outcome()
    if final is not None and outcome is not None:
        lines.append(f"game over: {outcome.result()} ({outcome.reason()})")
        return "\n".join(lines)
    if not infos:
        lines.append("no analysis (the search reported no line)")
        return "\n".join(lines)
    best = infos[0]
    lines.append(
        f"evaluation: {format_score(white_view(best.score, board.turn))} (White's view)  "
        f"depth {best.depth}  nodes {best.nodes}  time {best.time:.2f} s"
    )
    for info in infos:
        score = eval_token(white_view(info.score, board.turn), info.depth)
        lines.append(f"{info.multipv:>2}. {score:>12}  {line_text(board, info.pv, names)}")
    return "\n".join(lines)


def review_summary(review: GameReview, names: Names = "oblique", count: int = 3) -> str:
    """Per side: the marks counted, the mean loss, and the biggest mistakes."""
    headers = review.game.headers
    lines = [
        f"{headers.get('White', '?')} (White) vs {headers.get('Black', '?')} (Black): "
        f"{headers.get('Result', '*')}, {len(review.game.moves)} plies"
    ]
    for color in (WHITE, not WHITE):
        own = [r for r in review.moves if r.mover == color]
        counts = {name: sum(r.kind == name for r in own) for _, _, name in MARKS}
        mean = sum(r.loss for r in own) / len(own) if own else 0.0
        tally = ", ".join(f"{n} {_plural(name, n)}" for name, n in counts.items())
        lines.append(f"  {COLOR_NAMES[color]}: {tally}; mean loss {mean:.0f} centi-men")
        for r in review.mistakes(color, count):
            board = review.position_before(r.ply)
            best = board.move_text(r.best, names) if r.best is not None else "?"
            lines.append(
                f"    {review.label(r, names)} {r.mark} lost {r.loss / 100:.2f} "
                f"(best {best}, {format_score(white_view(r.before, r.mover))} -> "
                f"{format_score(white_view(r.after, r.mover))})"
            )
    return "\n".join(lines)


def _plural(name: str, n: int) -> str:
    if n == 1:
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"
