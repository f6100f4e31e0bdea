"""``emergo play``: a game at the terminal -- a thin front end over :class:`emergo.game.Game`.

The game flow (turns, takebacks, draw offers, clocks, the result) is the
:class:`~emergo.game.Game`'s; this module only turns input lines into calls on it and
its events into lines of text.  The computers are the registry's
(:data:`emergo.players.PLAYERS`).

At a terminal the input has line editing and history (readline); Ctrl-C stops a
computer's thought and returns to the prompt, and at the prompt offers to save and leave.
The session asks before ``resign``, before overwriting a file, whether to save an unsaved
game when it ends, and whether to play again.  Read from a pipe the input is a script: its
lines are echoed (a transcript reads like a terminal session), ``resign`` resigns at once,
nothing is asked except what a person would answer in the game itself (a draw offered to a
person), and an existing file is only overwritten with ``--force``.

The command (its options, :func:`run`) is here; :mod:`emergo.cli.play.session` is the
session (:class:`PlaySession`, :class:`Seats`), :mod:`emergo.cli.play.console` the terminal
(:class:`Console`).
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

from emergo.board import BLACK, WHITE, Board, Color
from emergo.cli.common import (
    CliError,
    add_backend,
    add_common,
    add_seed,
    check_kernel,
    int_range,
    parse_board,
    search_backend,
    seconds,
    view_names,
)
from emergo.cli.play.console import Console
from emergo.cli.play.session import HELP, HUMAN, PlaySession, Seats, load_game
from emergo.game import DEFAULT_MOVETIME, Game, TimeControl
from emergo.levels import LEVEL_MAX, LEVELS, default_movetime
from emergo.players import PLAYERS
from emergo.wire import SECONDS_MAX


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    kinds = (HUMAN, *PLAYERS)
    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description=(
            "A game between people (at one keyboard) and/or computers: "
            + "; ".join(f"{e.name} ({e.description})" for e in PLAYERS.values())
            + ".  Type moves in any notation, 'hint' for the engine's advice, 'help' for the "
            "commands.  A computer answers a draw offer from the engine's evaluation: it "
            "accepts when it stands worse or the game is a dead draw.  Input may come from a "
            "pipe (a script: its lines are echoed, 'resign' needs no confirmation); end of "
            "input leaves the game unfinished (status 0).  Ctrl-C stops a computer's thought; "
            "at the prompt it offers to save, and a second Ctrl-C leaves (status 130)."
        ),
    )
    p.add_argument("--white", choices=kinds, help="who plays White (default human)")
    p.add_argument("--black", choices=kinds, help="who plays Black (default human)")
    p.add_argument("--opponent", choices=list(PLAYERS), help="play against this computer")
    p.add_argument(
        "--color", choices=("white", "black"), help="your colour against --opponent (white)"
    )
    p.add_argument(
        "--level",
        type=int_range(1, LEVEL_MAX),
        default=LEVEL_MAX,
        metavar="N",
        help=f"strength of the engine, 1 (beginner) to {LEVEL_MAX} (full, the default): "
        + ", ".join(f"{s.level} {s.label.split(':')[0]}" for s in LEVELS[::4]),
    )
    p.add_argument(
        "--movetime",
        type=seconds(0.001, SECONDS_MAX),
        metavar="S",
        help=f"seconds a computer thinks per move, and hint (default {DEFAULT_MOVETIME:g}, "
        f"{default_movetime('hex'):g} on hex; "
        "with --time-control the clock decides unless this is given)",
    )
    p.add_argument(
        "--time-control",
        metavar="TC",
        help="clocks: BASE+INC Fischer seconds (300+2), S/move (10/move) or Nd (days a move); "
        "who runs out of time loses (R20)",
    )
    add_backend(p, "search backend of the engine and hint")
    add_seed(p, "seed of the computer players' random choices")
    p.add_argument("--position", help="start from this R22 position (quote it)")
    p.add_argument("--load", metavar="FILE", help="go on with the (first) game saved in FILE")
    p.add_argument(
        "--save",
        metavar="FILE",
        help="write the game record to FILE when it ends, however it ends (every game of "
        "the session, when you play again)",
    )
    p.add_argument("--force", action="store_true", help="let --save and save overwrite a file")
    p.add_argument("--no-board", action="store_true", help="do not draw the board")
    add_common(p, view=True)
    p.set_defaults(run=run)


def _kinds(args: argparse.Namespace) -> dict[Color, str]:
    if args.opponent is not None:
        if args.white is not None or args.black is not None:
            raise CliError("use either --opponent/--color or --white/--black, not both")
        human: Color = (args.color or "white") == "white"
        return {human: HUMAN, not human: args.opponent}
    if args.color is not None:
        raise CliError("--color goes with --opponent (the colour you play against it)")
    return {WHITE: args.white or HUMAN, BLACK: args.black or HUMAN}


def check_save_path(path: str, *, force: bool, console: Console) -> None:
    """Refuse a --save path that cannot be written, before a game is played for nothing."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise CliError(f"--save {path}: no such directory {str(folder)!r}")
    if target.is_dir():
        raise CliError(f"--save {path}: is a directory")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise CliError(f"--save {path}: permission denied")
    if target.exists() and not force:
        if console.interactive and console.confirm(f"{path} exists: overwrite it at the end?"):
            return
        raise CliError(f"--save {path}: the file exists (add --force to overwrite it)")


def run(args: argparse.Namespace) -> int:
    if args.position is not None and args.load is not None:
        raise CliError("use either --position or --load, not both")
    time_control = TimeControl.parse(args.time_control) if args.time_control else None
    kinds = _kinds(args)
    check_kernel(kinds.values(), args.backend)  # without the kernel: a notice, or an error
    computers = any(kind != HUMAN for kind in kinds.values())
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    seats = Seats(kinds, level=args.level, movetime=args.movetime, seed=seed, backend=args.backend)
    console = Console()
    if args.save is not None:
        check_save_path(args.save, force=args.force, console=console)
    analyser = search_backend(args.backend, 16)

    def start(seats: Seats) -> Game:
        if args.load is not None:
            return load_game(args.load, seats, analyser=analyser, time_control=time_control)
        board = (
            parse_board(args.position, args.variant)
            if args.position
            else Board(variant=args.variant)
        )
        return Game(
            seats.player(WHITE),
            seats.player(BLACK),
            board=board,
            time_control=time_control,
            analyser=analyser,
            tags={"Event": "emergo play"},
        )

    session = PlaySession(
        seats,
        console,
        start=start,
        time_control=time_control,
        analyser=analyser,
        names=view_names(args),
        view=args.view,
        ascii_only=args.ascii,
        show_board=not args.no_board,
        flipped=seats.humans() == [BLACK],
        save=args.save,
        force=args.force,
        seed_note=(
            f"Seed {seed}: replay the computers' choices with --seed {seed}."
            if computers and args.seed is None
            else ""
        ),
    )
    return session.run()


__all__ = ["HELP", "Console", "PlaySession", "Seats", "add_parser", "run"]
