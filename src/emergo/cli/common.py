"""What the command modules share: exit statuses, errors, the parser style, positions, pictures.

Exit status: 0 success; 1 the content is bad (a broken game record) or a needed
part of the package is missing; 2 usage or input errors (a bad option, position,
move or missing file); 130 interrupted (Ctrl-C); 141 the reader of our output went
away (``emergo moves | head``).  Errors go to standard error as ``PROG: <message>``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import NoReturn, TextIO

from emergo.board import Board
from emergo.diagram import diagram
from emergo.geometry import NAMINGS, VARIANTS, Names
from emergo.notation import position_variant
from emergo.players import backend, kernel_missing
from emergo.search import Searcher
from emergo.svg import VIEWS, View, board_svg

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

PROG = "emergo"


class CliError(Exception):
    """An error to report as ``PROG: <message>`` with an exit status (no traceback)."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


class Parser(argparse.ArgumentParser):
    """argparse with our error format: the usage line, then ``PROG: <message>``, status 2.

    The message of a bad option names it (``argument --level: ...``).
    """

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog.split()[0]}: {message}\n")


# --- positions and moves ----------------------------------------------------------------------


def parse_board(text: str, variant: str | None = None) -> Board:
    """A board at an R22 position; ``variant`` applies only when the text has no prefix (R22)."""
    return Board(text, variant=position_variant(text, variant))


def start_or(words: Sequence[str] | None, variant: str | None) -> Board:
    """The board of a position given as one or several argv words, else the start (R5)."""
    if words:
        return parse_board(" ".join(words), variant)
    return Board(variant=variant)


def sorted_move_texts(board: Board, names: Names = "oblique") -> list[str]:
    """The legal moves' R21 texts in the chosen naming, in plain string order."""
    moves = board.moves()
    if names == "oblique":
        return sorted(str(m) for m in moves)
    return sorted(board.move_text(m, names) for m in moves)


def play_texts(board: Board, texts: Iterable[str], names: Names) -> None:
    """Play moves given as texts; a bad one is a usage error naming it and its number."""
    for number, text in enumerate(texts, 1):
        try:
            board.push_move(text, names)
        except ValueError as e:
            raise CliError(f"move {number} ({text}, {names} square names): {e}") from None


def view_names(args: argparse.Namespace) -> Names:
    """``--names``, by default the naming of the ``--view`` (R1, R3)."""
    if args.names is not None:
        names: Names = args.names
        return names
    return "checker" if args.view == "checker" else "oblique"


def add_common(p: argparse.ArgumentParser, *, view: bool = False) -> None:
    """``--variant``, ``--names`` and, for commands that draw, ``--view`` and ``--ascii``."""
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        help="board for a position without a variant prefix, and for the start (R4)",
    )
    if view:
        p.add_argument(
            "--view",
            choices=VIEWS,
            default="diamond",
            help="diamond: the oblique lines (R1); checker: the upright checkerboard (R3)",
        )
        p.add_argument("--ascii", action="store_true", help="draw with ASCII only")
    p.add_argument(
        "--names",
        choices=NAMINGS,
        default=None if view else "oblique",
        help=(
            "square names of the moves printed and read (R3; default: "
            + ("the naming of the view" if view else "oblique")
            + "); position strings stay R22, which always uses the oblique names"
        ),
    )


def open_text(path: str) -> TextIO:
    """A text file to read, or a usage error naming it."""
    try:
        return open(path, encoding="utf-8")
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None


def search_backend(kind: str, hash_mb: int) -> Searcher:
    """The search backend ``kind`` (players.backend); a missing kernel exits with status 1."""
    if kind == "auto":
        check_kernel(["engine"])
    try:
        return backend(kind, hash_mb=hash_mb)
    except ValueError as e:
        raise CliError(str(e), EXIT_FAILURE) from None


NOT_BUILT = "the C kernel is not built (no C compiler at install time?)"


def kernel_problem() -> str | None:
    """Why the C kernel cannot be used, in a few words (the kernel's ImportError when it is
    built but does not load); None when it is built."""
    why = kernel_missing()
    if why is None:
        return None
    return NOT_BUILT if "is not built" in why else why


_noticed: set[str] = set()


def check_kernel(players: Iterable[str], backend_kind: str = "auto", prog: str = PROG) -> None:
    """Before computers play: without the C kernel, one notice line on stderr (once per run)
    when ``engine`` is among ``players`` on the ``auto`` backend, and a clean error (status 1)
    for ``mcts`` or the ``kernel`` backend."""
    why = kernel_problem()
    if why is None:
        return
    kinds = set(players)
    if "mcts" in kinds:
        raise CliError(f"mcts needs the C kernel: {why}", EXIT_FAILURE)
    if "engine" in kinds and backend_kind == "kernel":
        raise CliError(f"the kernel backend needs the C kernel: {why}", EXIT_FAILURE)
    if "engine" in kinds and backend_kind == "auto" and prog not in _noticed:
        _noticed.add(prog)
        print(f"{prog}: note: {why}: the engine searches in pure Python, slower", file=sys.stderr)


# --- pictures -----------------------------------------------------------------------------------


def _encodable(text: str, stream: TextIO) -> bool:
    try:
        text.encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def render(
    board: Board,
    *,
    view: View = "diamond",
    names: Names | None = None,
    ascii_only: bool = False,
    stream: TextIO | None = None,
    flipped: bool = False,
    colour: bool = False,
    cell: int = 5,
) -> str:
    """The terminal picture of a board (emergo.diagram), ASCII when the stream cannot show more.

    The last move of the board's move stack is marked; ``names`` defaults to the view's naming;
    ``flipped``, ``colour`` and ``cell`` are :func:`emergo.diagram.diagram`'s.
    """

    def draw(unicode: bool) -> str:
        return diagram(
            board,
            view=view,
            names=names,
            unicode=unicode,
            flipped=flipped,
            colour=colour,
            cell=cell,
        )

    text = draw(not ascii_only)
    if not ascii_only and not _encodable(text, stream or sys.stdout):
        text = draw(False)
    return text


def write_svg(board: Board, path: str, *, view: View, names: Names | None) -> None:
    """The SVG picture of a board to a file, or to standard output for ``-``."""
    picture = board_svg(board, view=view, names=names)
    if path == "-":
        sys.stdout.write(picture)
        return
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(picture)


# --- running a command --------------------------------------------------------------------------


def fail(prog: str, message: str, status: int) -> int:
    """Report an error as ``prog: message`` and return the status."""
    quiet_flush()
    print(f"{prog}: {message}", file=sys.stderr)
    return status


def quiet_flush() -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()


def broken_pipe() -> int:
    """The reader went away (emergo moves | head): leave quietly with status 141."""
    # Point stdout at devnull so that the interpreter's final flush does not complain.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE
