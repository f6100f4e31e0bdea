"""``emergo analyse``: a position's evaluation and best lines, or a review of a record's games.

The analysis is :mod:`emergo.analyse`; this module reads the options and writes the reports.
"""

from __future__ import annotations

import argparse
import io
import sys
import threading
from functools import partial

from emergo import analyse
from emergo.analyse import (
    MARKS,
    GameReview,
    eval_token,
    final_score,
    format_score,
    line_text,
    result_text,
    white_view,
)
from emergo.board import COLOR_NAMES, WHITE, Board
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    Progress,
    add_backend,
    add_common,
    add_force,
    add_hash,
    add_quiet,
    check_output,
    in_background,
    int_range,
    play_texts,
    read_text,
    search_backend,
    seconds,
    start_or,
    write_file,
)
from emergo.geometry import Names
from emergo.record import Game, RecordError, read_games, write_games
from emergo.search import Limit, Searcher, SearchInfo
from emergo.wire import DEPTH_MAX, MULTIPV_MAX, NODES_MAX, SECONDS_MAX

GAMES_MAX = 10**9
"""The largest ``--game`` number."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="evaluate a position (best lines) or review the games of a record file",
        description=(
            "With POSITION (default: the start) and --moves: the evaluation and the best "
            "line(s).  With --record FILE: every position of every game is searched, each "
            "move's loss against the best move is measured, the biggest mistakes of each side "
            "are listed, and --annotate OUT writes the games back with the review in them: "
            "each move's value as [%eval 1.35,12] (White's view in men, the depth), the marks "
            "?! ? ?? on moves that lost half a man, a man, three men, and the engine's better "
            "line as a variation; the rest of the record stays as it was, variations and "
            "comments too.  Scores are from White's point of view.  Default limit: "
            "2 s a position, 0.2 s a position of a record; --infinite searches until Ctrl-C "
            "and prints each iteration as it completes.  Work longer than a second shows its "
            "progress on standard error; Ctrl-C prints the best line found so far (exit "
            "status 130).  FILE may be '-' (standard input)."
        ),
    )
    p.add_argument("position", nargs="*", metavar="POSITION", help="an R22 position (quote it)")
    p.add_argument("--moves", help="moves to play from the position first, e.g. 'd4 e6'")
    p.add_argument("--record", metavar="FILE", help="review the games of this record file")
    p.add_argument("--annotate", metavar="OUT", help="write the annotated games to OUT")
    p.add_argument(
        "--game", type=int_range(1, GAMES_MAX), metavar="N", help="only the N-th game of the record"
    )
    p.add_argument(
        "--depth",
        type=int_range(1, DEPTH_MAX),
        metavar="N",
        help=f"search N plies (1..{DEPTH_MAX})",
    )
    p.add_argument(
        "--nodes", type=int_range(1, NODES_MAX), metavar="N", help="search N nodes (1..10^15)"
    )
    p.add_argument(
        "--movetime",
        type=seconds(0.001, SECONDS_MAX),
        metavar="S",
        help="search S seconds a position (0.001 to a week)",
    )
    p.add_argument(
        "--infinite",
        action="store_true",
        help="search the position until Ctrl-C, printing each iteration as it completes",
    )
    p.add_argument(
        "--multipv",
        type=int_range(1, MULTIPV_MAX),
        metavar="K",
        help=f"show the best K lines (default 1, at most {MULTIPV_MAX})",
    )
    add_backend(p)
    add_hash(p, "megabytes of search tables", default=64)
    add_quiet(p)
    add_force(p)
    add_common(p)
    p.set_defaults(run=run)


def analysis_limit(args: argparse.Namespace, default_time: float) -> Limit:
    """The limit of ``--depth``/``--nodes``/``--movetime``; a time by default.

    The numbers were range-checked when parsed (emergo.cli.common.int_range ...)."""
    if args.infinite:
        if args.depth is not None or args.nodes is not None or args.movetime is not None:
            raise CliError("--infinite goes without --depth, --nodes and --movetime")
        return Limit(infinite=True)
    time_limit = args.movetime
    if time_limit is None and args.depth is None and args.nodes is None:
        time_limit = default_time
    return Limit(depth=args.depth, nodes=args.nodes, time=time_limit)


def run(args: argparse.Namespace) -> int:
    names: Names = args.names
    if args.record is None:
        if args.annotate:
            raise CliError("--annotate goes with --record FILE")
        if args.game is not None:
            raise CliError("--game goes with --record FILE")
        limit = analysis_limit(args, 2.0)
        board = start_or(args.position, args.variant)
        if args.moves:
            play_texts(board, args.moves.split(), names)
        searcher = search_backend(args.backend, args.hash)
        return analyse_one(board, searcher, limit, args)
    if args.position or args.moves:
        raise CliError("give either a POSITION (with --moves) or --record FILE, not both")
    if args.multipv:
        raise CliError("--multipv is for a position, not for --record")
    if args.infinite:
        raise CliError("--infinite is for a position, not for --record")
    limit = analysis_limit(args, 0.2)
    check_output(args.annotate, args.force, "--annotate")
    games = record_games(args.record, names)
    searcher = search_backend(args.backend, args.hash)
    annotated: list[Game] = []
    if args.game is not None and args.game > len(games):
        raise CliError(f"--game {args.game}: {args.record} holds {len(games)} games")
    for number, game in enumerate(games, 1):
        if args.game is not None and number != args.game:
            continue
        with Progress(
            f"game {number}",
            len(game.mainline_moves()) + 1,
            unit="positions",
            enabled=not args.quiet,
        ) as bar:

            def progress(done: int, total: int, bar: Progress = bar) -> None:
                bar.update(done - bar.done)

            try:
                review = in_background(
                    partial(analyse.review_game, game, searcher, limit, progress=progress)
                )
            except KeyboardInterrupt:
                bar.close()
                sys.stdout.flush()
                print(
                    f"emergo analyse: interrupted in game {number} "
                    f"({len(annotated)} games reviewed; nothing written)",
                    file=sys.stderr,
                )
                return EXIT_INTERRUPTED
        print(f"game {number}: {review_summary(review, names)}", flush=True)
        annotated.append(review.annotated())
    if args.annotate:
        out = io.StringIO()
        write_games(annotated, out)
        write_file(args.annotate, out.getvalue())
        print(f"annotated record written to {args.annotate}")
    return EXIT_OK


def record_games(path: str, names: Names) -> list[Game]:
    """The games of a record file (``-``: standard input); ``no games in FILE`` is an error."""
    text = read_text(path)
    label = "standard input" if path == "-" else path
    try:
        games = list(read_games(text, names=names))
    except RecordError as e:
        raise CliError(f"{label}: {e}", EXIT_FAILURE) from None
    if not games:
        raise CliError(f"no games in {label}", EXIT_FAILURE)
    return games


def analyse_one(board: Board, searcher: Searcher, limit: Limit, args: argparse.Namespace) -> int:
    """Search one position; each iteration shows as it completes (stdout with --infinite, else
    the progress line), and Ctrl-C prints the best line so far with exit status 130."""
    names: Names = args.names
    latest: dict[int, SearchInfo] = {}
    stop = threading.Event()
    bar = Progress("analyse", unit="iterations", enabled=not args.quiet and not limit.infinite)

    def hear(info: SearchInfo) -> None:
        latest[info.multipv] = info
        if info.multipv != 1:
            return
        line = iteration_line(board, info, names)
        if limit.infinite:
            print(line, flush=True)
        else:
            bar.update(1, line)

    status = EXIT_OK
    try:
        infos = in_background(
            lambda: analyse.analyse_position(
                board, searcher, limit, multipv=args.multipv or 1, on_info=hear, stop=stop
            )
        )
    except KeyboardInterrupt:
        stop.set()
        status = EXIT_INTERRUPTED
        infos = tuple(latest[k] for k in sorted(latest))
    finally:
        bar.close()
    print(position_report(board, infos, names=names))
    if status == EXIT_INTERRUPTED:
        sys.stdout.flush()
        print("emergo analyse: interrupted: the best line found so far", file=sys.stderr)
    return status


def iteration_line(board: Board, info: SearchInfo, names: Names) -> str:
    """One finished iteration: ``depth 7  +0.35  nodes 12345  0.21 s  d4 e6 ...``."""
    score = format_score(white_view(info.score, board.turn))
    return (
        f"depth {info.depth}  {score}  nodes {info.nodes}  {info.time:.2f} s  "
        f"{line_text(board, info.pv, names)}"
    )


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
    if best.source == "tablebase":  # every move valued by the endgame tables: exact
        said = result_text(white_view(best.score, board.turn)) or ""
        lines.append(f"evaluation: {said[0].upper()}{said[1:]} (endgame tables)")
    else:
        lines.append(
            f"evaluation: {format_score(white_view(best.score, board.turn))} (White's view)  "
            f"depth {best.depth}  nodes {best.nodes}  time {best.time:.2f} s"
        )
    for info in infos:
        score = format_score(white_view(info.score, board.turn)) + "/tb"
        if info.source != "tablebase":
            score = eval_token(white_view(info.score, board.turn), info.depth)
        lines.append(f"{info.multipv:>2}. {score:>12}  {line_text(board, info.pv, names)}")
    return "\n".join(lines)


def review_summary(review: GameReview, names: Names = "oblique", count: int = 3) -> str:
    """Per side: the marks counted, the mean loss, and the biggest mistakes."""
    headers = review.game.headers
    lines = [
        f"{headers.get('White', '?')} (White) vs {headers.get('Black', '?')} (Black): "
        f"{headers.get('Result', '*')}, {len(review.game.mainline_moves())} plies"
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
