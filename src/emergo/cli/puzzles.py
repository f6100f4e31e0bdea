"""``emergo puzzles``: generate puzzles from games, and verify a set (:mod:`emergo.puzzles`).

emergo puzzles generate --variant 7x7 --count 700 -o puzzles-7x7.txt   # self-play games
emergo puzzles generate --records games.egn -o mine.txt                # a records file
emergo puzzles verify src/emergo/data/puzzles-7x7.txt                  # every check again
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    Progress,
    add_concurrency,
    add_force,
    add_quiet,
    add_ray,
    add_seed,
    add_variant,
    close_runner,
    int_range,
    kernel_problem,
    ray_runner,
    read_text,
)
from emergo.levels import LEVEL_MAX
from emergo.parallel import WORKERS_MAX, Runner, ThreadRunner
from emergo.wire import NODES_MAX

COUNT_MAX = 10_000_000
BUDGET, SCREEN, LEVELS = 100_000, 5_000, "1,2,1,3"  # emergo.puzzles.generate's (checked in tests)

GENERATE = """Mine puzzles from games: self-play games of the engine at the --levels (game N
plays the N-th level of the list, cyclically), or the games of a records file (--records).
A position is a candidate when the player to move stands to win and did not a move before;
its line is the engine's only moves (at --budget nodes, checked again at twice that; the
endgame tables where they hold) until the solver has won the game or men (docs/puzzles.md).
Puzzles are written to the output file as the games are done, in the order of the games;
a run stopped (Ctrl-C, exit status 130) or finished goes on from that file when started
again with the same settings (--force starts the file again).  Progress shows on standard
error."""

VERIFY = """Check every puzzle of a file again: its fields, its line (legal, no repetition, the
gain, the themes), every position the endgame tables hold exactly, and (unless --quick) the
engine's checks at the file's budget and at twice it: each solver move the only move, each
reply the best, the candidate's condition and the rating.  Exit status 1 when a puzzle fails
(each failure is listed), 0 when all hold."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "puzzles",
        help="generate puzzles from games, verify a set",
        description="Puzzles mined from games and proven (docs/puzzles.md).",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    gen = actions.add_parser(
        "generate",
        help="mine puzzles from self-play games or a records file",
        description=GENERATE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gen.add_argument(
        "-o",
        "--output",
        default="puzzles.txt",
        metavar="FILE",
        help="the puzzle file (default puzzles.txt; resumed when it exists)",
    )
    add_force(gen)
    add_variant(gen, "board of the self-play games (R4; default 9x9)", default="9x9")
    gen.add_argument(
        "-n",
        "--count",
        type=int_range(1, COUNT_MAX),
        default=100,
        help="stop once the file holds this many puzzles (default 100)",
    )
    gen.add_argument(
        "--budget",
        type=int_range(1000, NODES_MAX),
        default=BUDGET,
        metavar="NODES",
        help=f"nodes a search of the only-move check (default {BUDGET:,}; re-checked at twice)",
    )
    gen.add_argument(
        "--screen",
        type=int_range(100, NODES_MAX),
        default=SCREEN,
        metavar="NODES",
        help=f"nodes each position of a game is valued at first (default {SCREEN:,})",
    )
    gen.add_argument(
        "--levels",
        default=LEVELS,
        metavar="LIST",
        help=f"levels of the self-play games, e.g. 1,2,3 (1..{LEVEL_MAX - 1}; default {LEVELS})",
    )
    add_seed(gen, "the self-play run's seed", default=0)
    gen.add_argument("--records", metavar="FILE", help="mine the games of this records file")
    _add_tables(gen)
    add_concurrency(gen, WORKERS_MAX, "games at once in this process")
    add_ray(gen)
    add_quiet(gen)
    gen.set_defaults(run=run_generate)

    ver = actions.add_parser(
        "verify",
        help="check every puzzle of a file again",
        description=VERIFY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ver.add_argument("file", metavar="FILE", help="a puzzle file")
    ver.add_argument(
        "--quick", action="store_true", help="no engine: the checks that need no search"
    )
    _add_tables(ver)
    add_quiet(ver)
    ver.set_defaults(run=run_verify)


def _add_tables(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tables",
        metavar="DIR",
        help="the endgame tables' directory (default $EMERGO_TABLEBASES or the data directory)",
    )


def _levels(text: str) -> tuple[int, ...]:
    try:
        levels = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise CliError(f"--levels {text!r}: whole numbers separated by commas") from None
    if not levels or any(not 1 <= lv < LEVEL_MAX for lv in levels):
        raise CliError(f"--levels {text!r}: each level in 1..{LEVEL_MAX - 1}")
    return levels


def _need_kernel(what: str) -> None:
    why = kernel_problem()
    if why is not None:
        raise CliError(f"{what} needs the C kernel's search: {why}", EXIT_FAILURE)


def _tables_dir(text: str | None) -> str | None:
    if text is not None and not os.path.isdir(text):
        raise CliError(f"--tables {text}: no such folder")
    return text


def run_generate(args: argparse.Namespace) -> int:
    """Exit status 0 done, 1 no kernel or Ray, 2 bad usage, 130 interrupted (the file kept)."""
    _need_kernel("puzzle generation")
    from emergo.puzzles.generate import Settings, record_game
    from emergo.puzzles.run import Interrupted, Summary, run
    from emergo.record import RecordError, read_games

    output = args.output
    if os.path.isdir(output):
        raise CliError(f"--output {output}: is a folder")
    folder = os.path.dirname(output) or "."
    if not os.path.isdir(folder):
        raise CliError(f"--output {output}: no such folder {folder}")
    records = None
    source = "selfplay"
    variant = args.variant
    if args.records is not None:
        import io

        text = read_text(args.records)
        try:
            games = list(read_games(io.StringIO(text)))
        except RecordError as e:
            raise CliError(f"{args.records}: {e}", EXIT_FAILURE) from None
        if not games:
            raise CliError(f"{args.records}: no game in it", EXIT_FAILURE)
        variants = {g.variant for g in games}
        if len(variants) > 1:
            raise CliError(
                f"{args.records}: games of several boards ({', '.join(sorted(variants))})"
            )
        (variant,) = variants
        records = [record_game(i, g) for i, g in enumerate(games)]
        source = f"records:{Path(args.records).name}"
    settings = Settings(
        variant=variant,
        budget=args.budget,
        screen=args.screen,
        seed=args.seed,
        levels=_levels(args.levels),
        tables=_tables_dir(args.tables),
    )
    if args.force and os.path.exists(output):
        os.remove(output)
    runner: Runner = ray_runner(args.ray) if args.ray else ThreadRunner(args.concurrency)
    started = time.monotonic()
    with Progress(
        "puzzles", args.count, unit="puzzles", enabled=not args.quiet, interval=5.0
    ) as bar:
        shown = [0]

        def on_game(game: object, summary: Summary) -> None:
            bar.update(
                summary.total - shown[0], f"{summary.games} games, {summary.candidates} candidates"
            )
            shown[0] = summary.total

        try:
            summary = run(
                settings,
                output,
                args.count,
                records=records,
                source=source,
                runner=runner,
                on_game=on_game,
            )
        except Interrupted as e:
            bar.close()
            raise CliError(
                f"interrupted: {e.summary.total} puzzles in {output} "
                "(the same command goes on from there)",
                EXIT_INTERRUPTED,
            ) from None
        finally:
            close_runner(runner)
    elapsed = time.monotonic() - started
    per = f", {elapsed / summary.kept:.1f} s a puzzle" if summary.kept else ""
    print(
        f"{summary.total} puzzles in {output}: {summary.kept} new from {summary.games} games "
        f"({summary.positions} positions, {summary.candidates} candidates) in {elapsed:.1f} s{per}"
    )
    return EXIT_OK


def run_verify(args: argparse.Namespace) -> int:
    """Exit status 0 every puzzle holds, 1 one fails (or no kernel), 2 bad usage, 130 Ctrl-C."""
    _need_kernel("verification")
    from emergo.puzzles.generate import Settings
    from emergo.puzzles.judge import Judge
    from emergo.puzzles.model import PuzzleFileError, read_puzzles, settings_line
    from emergo.puzzles.verify import check_puzzle, parse_settings, table_columns
    from emergo.tablebase import Tablebase

    path = args.file
    if not os.path.isfile(path):
        raise CliError(f"{path}: no such file")
    try:
        puzzles = list(read_puzzles(path))
        header = settings_line(path)
        settings: Settings = parse_settings(header)
    except (PuzzleFileError, UnicodeDecodeError, OSError, ValueError) as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    tables = Tablebase(_tables_dir(args.tables))
    if not args.quick and table_columns(header) == 3 and not tables.has(settings.variant, 3):
        raise CliError(
            f"{path} was made with the 3-column tables of {settings.variant}, which the engine "
            "searches with: build them ('emergo tablebase build --variant "
            f"{settings.variant} --columns 3') or check --quick"
        )
    judge = Judge(tables, hash_mb=settings.hash_mb)
    failed = skipped = exact = 0
    with Progress(
        "verify", len(puzzles), unit="puzzles", enabled=not args.quiet, interval=5.0
    ) as bar:
        try:
            for puzzle in puzzles:
                checked = check_puzzle(puzzle, settings, judge, engine=not args.quick)
                exact += checked.exact
                if checked.skipped:
                    skipped += 1
                for problem in checked.problems:
                    print(f"{puzzle.id}: {problem}", flush=True)
                failed += bool(checked.problems)
                bar.update(1, f"{failed} failed")
        except KeyboardInterrupt:
            bar.close()
            raise CliError(
                f"interrupted after {bar.done} puzzles, {failed} failed", EXIT_INTERRUPTED
            ) from None
    note = f"; {skipped} not checked exactly (a table not built)" if skipped else ""
    print(
        f"{len(puzzles) - failed} of {len(puzzles)} puzzles hold ({exact} proven by the tables"
        f"{', engine checks left out' if args.quick else ''}){note}"
    )
    return EXIT_FAILURE if failed else EXIT_OK
