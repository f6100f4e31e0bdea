"""What the command modules share: exit statuses, errors, the parser style, positions, pictures.

Exit status: 0 success; 1 the content is bad (a broken game record) or a needed
part of the package is missing; 2 usage or input errors (a bad option, position,
move or missing file); 130 interrupted (Ctrl-C); 141 the reader of our output went
away (``emergo moves | head``).  Errors go to standard error as ``PROG: <message>``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn, TextIO, TypeVar

from emergo.board import Board
from emergo.diagram import diagram
from emergo.geometry import NAMINGS, VARIANTS, Names
from emergo.notation import position_variant
from emergo.parallel import Runner, check_ray_address
from emergo.players import BACKENDS, backend, kernel_missing
from emergo.search import Searcher
from emergo.svg import VIEWS, View, board_svg
from emergo.wire import HASH, SEED, Option, shown

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
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")


# --- numbers on the command line ------------------------------------------------------------------
# Every numeric option is parsed by one of these, so a bad value stops at parse time with the
# option named (``emergo analyse: argument --hash: must be in 1..4096, not 0``), exit status 2.
# The bounds are emergo.wire's where the protocol has the same number (depth, nodes, Hash ...).


class Bounded:
    """An argparse ``type`` for a number in ``low..high``; ``bounds`` tells tests the range."""

    def __init__(self, kind: str, low: float, high: float, convert: Callable[[str], float]) -> None:
        self.kind, self.bounds, self._convert = kind, (low, high), convert
        self.__name__ = kind  # argparse names the type in some messages

    def __call__(self, text: str) -> float:
        low, high = self.bounds
        try:
            if len(text.strip()) > 40:  # no number we take is this long
                raise ValueError
            value = self._convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {self.kind} in {_span(low, high)}, not {shown(text)}"
            ) from None
        if not low <= value <= high:  # nan fails too
            raise argparse.ArgumentTypeError(f"must be in {_span(low, high)}, not {shown(text)}")
        return value


def _span(low: float, high: float) -> str:
    return f"{low:g}..{high:g}" if isinstance(low, float) else f"{low}..{high}"


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number in ``low..high``."""
    return Bounded("a whole number", low, high, int)  # type: ignore[return-value]


def seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type``: a finite number of seconds in ``low..high``."""

    def convert(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError
        return value

    return Bounded("seconds", float(low), float(high), convert)


def option_range(option: Option) -> Callable[[str], int]:
    """An argparse ``type`` with the bounds of a protocol option (emergo.wire.HASH ...)."""
    assert option.min is not None and option.max is not None
    return int_range(option.min, option.max)


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
    add_variant(p, "board for a position without a variant prefix, and for the start (R4)")
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


def read_text(path: str) -> str:
    """The whole text of a file (``-``: standard input), checked: a :class:`CliError` naming the
    file says why it cannot be read, is not text (binary) or not UTF-8 (with the line)."""
    label = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as e:
        raise CliError(f"{label}: {e.strerror or e}") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CliError(f"{label}: UTF-16 text; save it as UTF-8", EXIT_FAILURE)
    if b"\0" in data:
        raise CliError(f"{label}: a binary file, not text", EXIT_FAILURE)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise CliError(
            f"{label}: line {line}: not UTF-8 text (byte 0x{data[e.start]:02x})", EXIT_FAILURE
        ) from None
    return text.removeprefix("\ufeff")


def check_output(path: str | None, force: bool, option: str) -> None:
    """Check, before the work, that ``path`` (``-`` or ``None``: nothing to check) can be written:
    its folder exists, and it is not a file already there unless ``force`` (``--force``)."""
    if path is None or path == "-":
        return
    if os.path.isdir(path):
        raise CliError(f"{option} {path}: is a folder")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise CliError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK):
        raise CliError(f"{option} {path}: cannot write in {folder}")
    if os.path.isfile(path) and not force:
        raise CliError(f"{option} {path}: the file exists (--force overwrites it)")


# --- options several commands share: declared once here, each command says what it is for ------


def _with_range(what: str, low: int, high: int, default: int | None = None) -> str:
    """An option's help ending with its range and default: ``games at once (1..64, default 1)``."""
    return f"{what} ({low}..{high}" + ("" if default is None else f", default {default}") + ")"


def add_variant(p: argparse.ArgumentParser, what: str, default: str | None = None) -> None:
    """``--variant``: the board (R4)."""
    p.add_argument("--variant", choices=VARIANTS, default=default, help=what)


def add_quiet(p: argparse.ArgumentParser) -> None:
    """``-q``/``--quiet``: no progress on standard error."""
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on standard error")


def add_seed(
    p: argparse.ArgumentParser, what: str, default: int | None = None, metavar: str | None = None
) -> None:
    """``--seed``, in the range of the protocol's ``Seed`` option (emergo.wire.SEED)."""
    assert SEED.min is not None and SEED.max is not None
    p.add_argument(
        "--seed",
        type=option_range(SEED),
        default=default,
        metavar=metavar,
        help=_with_range(what, SEED.min, SEED.max, default),
    )


def add_hash(p: argparse.ArgumentParser, what: str, default: int) -> None:
    """``--hash MB``, in the range of the protocol's ``Hash`` option (emergo.wire.HASH)."""
    assert HASH.min is not None and HASH.max is not None
    p.add_argument(
        "--hash",
        type=option_range(HASH),
        default=default,
        metavar="MB",
        help=_with_range(what, HASH.min, HASH.max, default),
    )


def add_backend(p: argparse.ArgumentParser, what: str = "search backend") -> None:
    """``--backend``: the search backend of the engine (emergo.players.BACKENDS)."""
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help=f"{what} (default auto: the C kernel's search when built, else python)",
    )


def add_concurrency(p: argparse.ArgumentParser, high: int, what: str = "games at once") -> None:
    """``-c``/``--concurrency``: how many games run at once."""
    text = _with_range(what, 1, high, 1)
    p.add_argument("-c", "--concurrency", type=int_range(1, high), default=1, help=text)


def add_force(p: argparse.ArgumentParser) -> None:
    """``--force``: overwrite output files that exist."""
    p.add_argument("--force", action="store_true", help="overwrite output files that exist")


def add_ray(p: argparse.ArgumentParser) -> None:
    """``--ray ADDRESS``: run the games on a Ray cluster (emergo.ray_runner)."""
    p.add_argument(
        "--ray",
        type=_ray_address,
        metavar="ADDRESS",
        help=(
            "play the games on a Ray cluster: auto (the one 'ray start --head' started), "
            "HOST:PORT, ray://HOST:PORT, or local:N for a new local cluster of N CPUs "
            "(needs pip install 'emergo[ray]')"
        ),
    )


def _ray_address(text: str) -> str:
    try:
        return check_ray_address(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# --- what the options choose: a runner, a search backend, the kernel -----------------------------


def ray_runner(address: str) -> Runner:
    """A runner on the Ray cluster at ``address``; a clean error (status 1) without Ray.

    The caller closes it (``close()``)."""
    try:
        from emergo.ray_runner import RayRunner
    except ImportError as e:
        raise CliError(f"--ray needs Ray: pip install 'emergo[ray]' ({e})", EXIT_FAILURE) from None
    try:
        return RayRunner(address)
    except ValueError as e:
        raise CliError(str(e), EXIT_FAILURE) from None


def close_runner(runner: Runner | None) -> None:
    """Close a runner that has a ``close`` (a Ray cluster started for the run)."""
    close = getattr(runner, "close", None)
    if close is not None:
        close()


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
    write_file(path, picture)


def write_file(path: str, text: str) -> None:
    """Write a text file; a :class:`CliError` naming it when it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None


# --- long work: Ctrl-C at once, progress as it goes ---------------------------------------------

T = TypeVar("T")


def in_background(work: Callable[[], T]) -> T:
    """``work()`` run in a daemon thread while the main thread waits for it.

    Python hears Ctrl-C only in the main thread, and only between bytecodes: a long call
    into the C kernel would hold it off until the call returns.  Waiting here instead, the
    main thread raises :class:`KeyboardInterrupt` at once; the work (left running in its
    thread) ends with the process.  ``work``'s exception, if any, is raised here.
    """
    box: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            box.append(work())
        except BaseException as e:
            failure.append(e)

    thread = threading.Thread(target=run, name="emergo-work", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.05)
    if failure:
        raise failure[0]
    return box[0]


class Progress:
    """Progress of long work on standard error: a live tqdm bar on a terminal, else plain lines.

    Nothing is shown for work that ends within ``delay`` seconds (or when not ``enabled``),
    so quick commands and their tests stay quiet.  ``update(n, status)`` marks ``n`` more
    units done; ``note(line)`` prints a line of its own (above the bar on a terminal).
    """

    def __init__(
        self,
        desc: str,
        total: int | None = None,
        *,
        unit: str = "",
        enabled: bool = True,
        delay: float = 1.0,
        interval: float = 0.0,
        stream: TextIO | None = None,
    ) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.desc, self.total, self.unit, self.delay = desc, total, unit, delay
        self.interval = interval  # plain lines: at most one each interval seconds
        self.done = 0
        self.started = time.monotonic()
        self._last_line = -math.inf
        self.bar = None
        if enabled and _isatty(self.stream):
            from tqdm import tqdm  # imported only where a bar is drawn

            self.bar = tqdm(
                total=total,
                desc=desc,
                unit=f" {unit}" if unit else "it",
                file=self.stream,
                delay=delay,
                leave=False,
                dynamic_ncols=True,
                # Without a total there is no bar to draw: the count, the time, the status.
                bar_format=None
                if total is not None
                else "{desc}: {n_fmt}{unit} [{elapsed}]{postfix}",
            )

    def update(self, n: int = 1, status: str = "") -> None:
        self.done += n
        if self.bar is not None:
            if status:
                self.bar.set_postfix_str(status, refresh=False)
            self.bar.update(n)
        elif self.enabled and self._due():
            of = f"/{self.total}" if self.total is not None else ""
            unit = f" {self.unit}" if self.unit else ""
            self._line(f"{self.desc}: {self.done}{of}{unit}" + (f"  {status}" if status else ""))

    def _due(self) -> bool:
        now = time.monotonic()
        last = self.done == self.total  # the last update always shows
        if now - self.started < self.delay or (now - self._last_line < self.interval and not last):
            return False
        self._last_line = now
        return True

    def note(self, line: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        elif time.monotonic() - self.started >= self.delay:
            self._line(line)

    def _line(self, line: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.write(line + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            with contextlib.suppress(OSError, ValueError):
                self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


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
