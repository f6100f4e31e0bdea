"""The ``emergo`` command line: moves, perft, show, play, analyse, replay, match and bench.

The interface translates, it does not decide rules: every legality question goes
to :class:`emergo.Board`, whose error messages (citing RULES.md) are shown as they are.

Exit status: 0 success; 1 the content is bad (a broken game record) or a needed
part of the package is missing; 2 usage or input errors (a bad option, position,
move or missing file); 130 interrupted (Ctrl-C); 141 the reader of our output went
away (``emergo moves | head``).  Errors go to standard error as ``emergo: <message>``.

Square names (R3): ``--names checker`` switches the squares of the moves we print
and read; position strings are always R22, which uses the oblique names.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import random
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import NoReturn, TextIO

from emergo import __version__
from emergo.board import COLOR_NAMES, Board, Color, Outcome, Termination
from emergo.diagram import diagram
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.geometry import NAMINGS, VARIANTS, Names
from emergo.levels import LEVEL_MAX, LEVELS, LevelSearcher
from emergo.perft import perft, perft_divide
from emergo.players import BACKENDS, PLAYERS, backend, material, searcher
from emergo.record import Game, RecordError, read_games, write_game, write_games
from emergo.search import Limit, Searcher
from emergo.svg import VIEWS, View, board_svg

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

PROG = "emergo"


class CliError(Exception):
    """An error to report as ``emergo: <message>`` with an exit status (no traceback)."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse with our error format: the usage line, then ``emergo: <message>``, status 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{PROG}: {message}\n")


# --- positions and moves ----------------------------------------------------------------------


def parse_board(text: str, variant: str | None = None) -> Board:
    """A board at an R22 position; ``variant`` applies only when the text has no prefix (R22)."""
    fields = text.split()
    if fields and (fields[0] in VARIANTS or fields[0] == "hex"):
        variant = None  # the prefix says which board
    return Board(text, variant=variant)


def _start_or(words: Sequence[str] | None, variant: str | None) -> Board:
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


# --- perft --------------------------------------------------------------------------------------


def _kernel() -> ModuleType | None:
    """The C kernel (:mod:`emergo.kernel`), or None when its extension is not built."""
    try:
        from emergo import kernel
    except ImportError:
        return None
    return kernel


def count_perft(board: Board, depth: int, *, reference: bool = False) -> int:
    """:func:`perft` by the C kernel when it is built (and not ``reference``), else in Python."""
    kernel = None if reference else _kernel()
    return int(kernel.perft(board, depth)) if kernel is not None else perft(board, depth)


def count_divide(board: Board, depth: int, *, reference: bool = False) -> dict[str, int]:
    """:func:`perft_divide` as ``{canonical move text: count}``, by the kernel when built."""
    kernel = None if reference else _kernel()
    if kernel is not None:
        return dict(kernel.perft_divide(board, depth))
    return {str(move): n for move, n in perft_divide(board, depth)}


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
) -> str:
    """The terminal picture of a board (emergo.diagram), ASCII when the stream cannot show more.

    The last move of the board's move stack is marked; ``names`` defaults to the view's naming.
    """
    text = diagram(board, view=view, names=names, unicode=not ascii_only)
    if not ascii_only and not _encodable(text, stream or sys.stdout):
        text = diagram(board, view=view, names=names, unicode=False)
    return text


def _write_svg(board: Board, path: str, *, view: View, names: Names | None) -> None:
    picture = board_svg(board, view=view, names=names)
    if path == "-":
        sys.stdout.write(picture)
        return
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(picture)


# --- commands -----------------------------------------------------------------------------------


def cmd_moves(args: argparse.Namespace) -> int:
    names: Names = args.names
    out = sys.stdout
    if args.position:
        board = parse_board(" ".join(args.position), args.variant)
        for text in sorted_move_texts(board, names):
            out.write(text + "\n")
        return EXIT_OK
    if sys.stdin.isatty():
        print(f"{PROG}: reading positions, one per line (end with Ctrl-D)", file=sys.stderr)
    for number, line in enumerate(sys.stdin, 1):
        try:
            board = parse_board(line.strip(), args.variant)
        except ValueError as e:
            raise CliError(f"line {number}: {e}") from None
        out.write(" ".join(sorted_move_texts(board, names)) + "\n")
    return EXIT_OK


def cmd_perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CliError(f"perft depth must be at least 0, not {args.depth}")
    if args.divide and args.depth < 1:
        raise CliError("--divide needs a depth of at least 1")
    board = _start_or(args.position, args.variant)
    if not args.divide:
        print(count_perft(board, args.depth, reference=args.reference))
        return EXIT_OK
    names: Names = args.names
    counts = count_divide(board, args.depth, reference=args.reference)
    shown = {str(m): board.move_text(m, names) for m in board.moves()}  # R3
    rows = sorted((shown[text], n) for text, n in counts.items())
    for text, n in rows:
        print(f"{text} {n}")
    print(sum(n for _, n in rows))
    return EXIT_OK


def _play_texts(board: Board, texts: Iterable[str], names: Names) -> None:
    for number, text in enumerate(texts, 1):
        try:
            board.push_move(text, names)
        except ValueError as e:
            raise CliError(f"move {number} ({text}, {names} square names): {e}") from None


def _view_names(args: argparse.Namespace) -> Names:
    """``--names``, by default the naming of the ``--view`` (R1, R3)."""
    if args.names is not None:
        names: Names = args.names
        return names
    return "checker" if args.view == "checker" else "oblique"


def cmd_show(args: argparse.Namespace) -> int:
    names = _view_names(args)
    board = _start_or(args.position, args.variant)
    if args.moves:
        _play_texts(board, args.moves.split(), names)
    if args.svg:
        _write_svg(board, args.svg, view=args.view, names=names)
        if args.svg == "-":
            return EXIT_OK
    print(render(board, view=args.view, names=names, ascii_only=args.ascii))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    names: Names = args.names
    broken = 0
    for path in args.files:
        try:
            handle = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as e:
            raise CliError(f"{path}: {e.strerror or e}") from None
        with handle:
            # "collect": a broken game is reported and the next one is still read.
            for number, game in enumerate(read_games(handle, names=names, errors="collect"), 1):
                label = f"{path}: game {number}"
                if game.errors:
                    broken += 1
                    for error in game.errors:
                        print(f"{PROG}: {label}: {error}", file=sys.stderr)
                    continue
                try:
                    print(f"{label}: {_game_summary(game)}")
                except RecordError as e:
                    broken += 1
                    print(f"{PROG}: {label}: {e}", file=sys.stderr)
    return EXIT_FAILURE if broken else EXIT_OK


def _game_summary(game: Game) -> str:
    """``result (how it ended), N plies, final: <R22 position>`` of a replayed game."""
    board = game.end()
    outcome = game.outcome()
    result = game.headers.get("Result", "*")
    reason = outcome.reason() if outcome is not None else "unfinished"
    return f"{result} ({reason}), {len(game.moves)} plies, final: {board.position()}"


def cmd_bench(rest: list[str]) -> int:
    """``emergo bench ...``: everything after ``bench`` goes to :func:`emergo.bench.main`."""
    try:
        bench = importlib.import_module("emergo.bench")
    except ImportError as e:
        raise CliError(f"bench needs emergo.bench, not available: {e}", EXIT_FAILURE) from None
    return int(bench.main(rest))


def cmd_match(rest: list[str]) -> int:
    """``emergo match ...``: everything after ``match`` goes to :func:`emergo.match.main`."""
    from emergo import match

    return match.main(rest)


# --- analyse ------------------------------------------------------------------------------------


def _searcher(kind: str, hash_mb: int) -> Searcher:
    try:
        return backend(kind, hash_mb=hash_mb)
    except ValueError as e:
        raise CliError(str(e), EXIT_FAILURE) from None


def _analysis_limit(args: argparse.Namespace, default_time: float) -> Limit:
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


def cmd_analyse(args: argparse.Namespace) -> int:
    from emergo import analyse

    names: Names = args.names
    if args.record is None:
        if args.annotate:
            raise CliError("--annotate goes with --record FILE")
        limit = _analysis_limit(args, 2.0)
        board = _start_or(args.position, args.variant)
        if args.moves:
            _play_texts(board, args.moves.split(), names)
        searcher = _searcher(args.backend, args.hash)
        infos = analyse.analyse_position(board, searcher, limit, multipv=args.multipv or 1)
        print(analyse.position_report(board, infos, names=names))
        return EXIT_OK
    if args.position or args.moves:
        raise CliError("give either a POSITION (with --moves) or --record FILE, not both")
    if args.multipv:
        raise CliError("--multipv is for a position, not for --record")
    limit = _analysis_limit(args, 0.2)
    try:
        handle = open(args.record, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as e:
        raise CliError(f"{args.record}: {e.strerror or e}") from None
    with handle:
        try:
            games = list(read_games(handle, names=names))
        except RecordError as e:
            raise CliError(f"{args.record}: {e}", EXIT_FAILURE) from None
    if not games:
        raise CliError(f"{args.record}: no game in the file", EXIT_FAILURE)
    searcher = _searcher(args.backend, args.hash)
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
        print(f"game {number}: {review.summary(names)}")
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


# --- play ---------------------------------------------------------------------------------------

HELP = """\
Commands (anything else is read as a move, in any notation R21 allows):
  moves       list the legal moves
  hint        ask the engine (full strength) for a move, with its score
  undo        take back the last move (against a computer: your move and its reply)
  resign      give up the game (R20)
  draw        offer a draw (R19c)
  save FILE   write the game record to FILE
  board       show the board again
  position    print the position string (R22)
  help        this list
  quit        end the session without a result"""


class _Style:
    """ANSI emphasis only for a terminal that wants it (NO_COLOR turns it off)."""

    def __init__(self, stream: TextIO) -> None:
        self.on = stream.isatty() and not os.environ.get("NO_COLOR")

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text


COMPUTERS = tuple(PLAYERS)
"""The built-in computers (:data:`emergo.players.PLAYERS`); they get ``--movetime`` a move."""


class PlaySession:
    """A game at the terminal between humans and/or computers, driven by input lines.

    Computers are the built-in ones of :data:`emergo.players.PLAYERS`: ``engine``
    is the search backend at ``level`` (:class:`emergo.levels.LevelSearcher`); the
    searching ones think ``movetime`` seconds a move.
    ``hint`` asks the search backend at full strength.  A computer answers a draw
    offer by a simple rule: it accepts when it is not ahead in material (men in hand
    plus the whole stacks it owns, :func:`emergo.pysearch.material`).
    """

    def __init__(
        self,
        board: Board,
        players: dict[Color, str],
        *,
        rng: random.Random,
        names: Names = "oblique",
        view: View = "diamond",
        ascii_only: bool = False,
        show_board: bool = True,
        save: str | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        level: int = LEVEL_MAX,
        movetime: float = 1.0,
        seed: int = 0,
        backend_kind: str = "auto",
    ) -> None:
        self.board = board
        self.players = players
        self.rng = rng
        self.level = level
        self.movetime = movetime
        self.seed = seed
        self.backend_kind = backend_kind
        self._backend: Searcher | None = None
        self._searchers: dict[str, Searcher] = {}
        self.names: Names = names
        self.view: View = view
        self.ascii_only = ascii_only
        self.show_board = show_board
        self.save_path = save
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.interactive = self.stdin.isatty()
        self.style = _Style(self.out)
        self.start_turn = board.turn if not board.move_stack else board.root().turn
        self.ended: Outcome | None = None

    # output

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.say(self.style(text, "31"))

    def show(self) -> None:
        if not self.show_board:
            return
        try:
            self.say(
                render(
                    self.board,
                    view=self.view,
                    names=self.names,
                    ascii_only=self.ascii_only,
                    stream=self.out,
                )
            )
        except UnicodeError:  # a terminal that cannot show even the ASCII picture
            self.say(self.board.position())

    def _name(self, color: Color) -> str:
        kind = self.players[color]
        if kind == "engine" and self.level != LEVEL_MAX:
            kind = f"engine, level {self.level}"
        return COLOR_NAMES[color] if kind == "human" else f"{COLOR_NAMES[color]} ({kind})"

    # searchers

    def backend(self) -> Searcher:
        """The search backend, shared by the engine player and ``hint``."""
        if self._backend is None:
            self._backend = _searcher(self.backend_kind, 16)
        return self._backend

    def searcher(self, kind: str) -> Searcher:
        """The searcher of a computer (:data:`emergo.players.PLAYERS`), one per kind."""
        if kind not in self._searchers:
            if kind == "engine":  # the backend of --backend, shared with hint
                self._searchers[kind] = LevelSearcher(self.backend(), self.level, seed=self.seed)
            else:
                try:
                    made = searcher(kind, seed=self.seed, level=self.level)
                except ValueError as e:
                    raise CliError(str(e), EXIT_FAILURE) from None
                self._searchers[kind] = made
        return self._searchers[kind]

    # input

    def ask(self, prompt: str) -> str | None:
        """One input line, or None at end of input; echoed when stdin is not a terminal."""
        if self.interactive:
            self.out.flush()
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.out.write(prompt)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        text = line.rstrip("\r\n")
        self.say(text)  # echo, so a piped transcript reads like a terminal session
        return text

    # the game

    def run(self) -> int:
        """Play until the game ends or the input does; ``--save`` writes the record then."""
        status = self.loop()
        if self.save_path:
            self.save(self.save_path)
        return status

    def loop(self) -> int:
        self.show()
        while True:
            outcome = self.ended or self.board.outcome()
            if outcome is not None:
                self.finish(outcome)
                return EXIT_OK
            kind = self.players[self.board.turn]
            if kind != "human":
                self.searching_move(kind)
                continue
            status = self.human_turn()
            if status is not None:
                return status

    def searching_move(self, kind: str) -> None:
        mover = self.board.turn
        result = self.searcher(kind).search(self.board, Limit(time=self.movetime))
        if result.move is None:  # cannot happen while the game goes on; be safe
            self.ended = self.board.outcome()
            return
        text = self.board.move_text(result.move, self.names)
        self.board.push(result.move)
        self.say(f"{self._name(mover)} plays {text}")
        self.show()

    def hint(self) -> None:
        """The search backend's move for the player to move, with its score and line."""
        from emergo.analyse import format_score, line_text

        board = self.board
        result = self.backend().search(board, Limit(time=self.movetime))
        if result.move is None:
            self.error("no hint: there is no legal move")
            return
        text = board.move_text(result.move, self.names)
        if not result.infos:
            self.say(f"hint: {text}")
            return
        info = result.infos[0]
        score = format_score(info.score)  # the mover's view: + is good for the one asking
        self.say(
            f"hint: {text}  (score {score} for {COLOR_NAMES[board.turn]}, depth {info.depth}; "
            f"line {line_text(board, info.pv, self.names)})"
        )

    def human_turn(self) -> int | None:
        """Read lines until a move is played or the game ends; a status ends the session."""
        mover = self.board.turn
        number = len(self.board.move_stack) + 1
        line = self.ask(f"{number}. {COLOR_NAMES[mover]}> ")
        if line is None:
            self.say("end of input: the game is left unfinished (*)")
            return EXIT_OK
        words = line.split()
        if not words:
            return None
        command, rest = words[0].lower(), words[1:]
        if command in ("quit", "exit"):
            self.say("game abandoned: unfinished (*)")
            return EXIT_OK
        if command in ("help", "?"):
            self.say(HELP)
        elif command == "moves":
            self.say(" ".join(sorted_move_texts(self.board, self.names)))
        elif command == "hint":
            self.hint()
        elif command == "board":
            self.show()
        elif command == "position":
            self.say(self.board.position())
        elif command == "undo":
            self.undo()
        elif command == "resign":
            self.ended = Outcome(Termination.RESIGNATION, not mover)
        elif command == "draw":
            self.offer_draw(mover)
        elif command == "save":
            if len(rest) != 1:
                self.error("usage: save FILE")
            else:
                self.save(rest[0])
        else:
            self.human_move(line.strip(), mover)
        return None

    def human_move(self, text: str, mover: Color) -> None:
        try:
            self.board.push_move(text, self.names)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
            self.error(str(e))
            return
        text = self.board.move_text(self.board.peek(), self.names)
        self.say(f"{COLOR_NAMES[mover]} plays {text}")
        self.show()

    def _mover(self, ply: int) -> Color:
        return self.start_turn if ply % 2 == 0 else not self.start_turn

    def undo(self) -> None:
        """Take back the last move made by a human and every computer reply after it."""
        stack = self.board.move_stack
        human = [i for i in range(len(stack)) if self.players[self._mover(i)] == "human"]
        if not human:
            self.error("nothing to undo")
            return
        taken = []
        while len(stack) > human[-1]:
            taken.append(self.board.move_text(self.board.pop(), self.names))
        self.say(f"taken back: {' '.join(reversed(taken))}")
        self.show()

    def offer_draw(self, mover: Color) -> None:
        other = not mover
        if self.players[other] == "human":
            answer = self.ask(f"{COLOR_NAMES[mover]} offers a draw. {COLOR_NAMES[other]}, accept? ")
            accepted = answer is not None and answer.strip().lower() in ("y", "yes")
        else:
            # The computer's rule: accept unless it is ahead in material.
            accepted = material(self.board, other) <= material(self.board, mover)
        if accepted:
            self.say(f"{self._name(other)} accepts the draw")
            self.ended = Outcome(Termination.AGREEMENT, None)
        else:
            self.say(f"{self._name(other)} declines the draw")

    def record_text(self) -> str:
        """The game so far as a record; resignation and agreement are tagged (R19c, R20)."""
        tags = {"Event": "emergo play", "White": self.players[True], "Black": self.players[False]}
        if self.ended is not None:  # ended by the players, not by the rules
            tags["Result"] = self.ended.result()
            tags["Termination"] = self.ended.termination.value
        return write_game(Game.from_board(self.board, **tags))

    def save(self, path: str) -> bool:
        try:
            text = self.record_text()
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except (OSError, ValueError) as e:
            self.error(f"could not save to {path}: {e}")
            return False
        self.say(f"game saved to {path}")
        return True

    def finish(self, outcome: Outcome) -> None:
        self.ended = outcome
        self.say(self.style(f"Result: {outcome.result()} ({outcome.reason()})", "1"))


def _players(args: argparse.Namespace) -> dict[Color, str]:
    if args.opponent is not None:
        if args.white is not None or args.black is not None:
            raise CliError("use either --opponent/--color or --white/--black, not both")
        human: Color = (args.color or "white") == "white"
        return {human: "human", not human: args.opponent}
    if args.color is not None:
        raise CliError("--color goes with --opponent (the colour you play against it)")
    return {True: args.white or "human", False: args.black or "human"}


def cmd_play(args: argparse.Namespace) -> int:
    if not 1 <= args.level <= LEVEL_MAX:
        raise CliError(f"--level must be in 1..{LEVEL_MAX}, not {args.level}")
    if not args.movetime > 0:
        raise CliError(f"--movetime must be more than 0 seconds, not {args.movetime}")
    board = (
        parse_board(args.position, args.variant) if args.position else Board(variant=args.variant)
    )
    players = _players(args)
    seed = args.seed
    if seed is None and any(kind != "human" for kind in players.values()):
        seed = random.randrange(1 << 31)
        print(f"seed {seed} (replay this game with --seed {seed})")
    session = PlaySession(
        board,
        players,
        rng=random.Random(seed),
        names=_view_names(args),
        view=args.view,
        ascii_only=args.ascii,
        show_board=not args.no_board,
        save=args.save,
        level=args.level,
        movetime=args.movetime,
        seed=seed or 0,
        backend_kind=args.backend,
    )
    return session.run()


# --- the parser ---------------------------------------------------------------------------------


def _add_common(p: argparse.ArgumentParser, *, view: bool = False) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Emergo: legal moves, perft, board pictures, games and records.",
        epilog="Exit status: 0 ok, 1 broken content, 2 usage or input error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "moves",
        help="legal moves of a position (or of many, read from standard input)",
        description=(
            "With POSITION: its legal moves, one per line, in plain string order of the "
            "printed texts.  Without: read R22 "
            "positions from standard input, one per line, and print for each a line with "
            "its sorted legal moves separated by spaces (an empty line when there are none). "
            "A bad line stops with an error naming it (exit status 2)."
        ),
    )
    p.add_argument("position", nargs="*", metavar="POSITION", help="an R22 position (quote it)")
    _add_common(p)
    p.set_defaults(run=cmd_moves)

    p = sub.add_parser(
        "perft",
        help="count the move sequences of a given length",
        description=(
            "Leaf count of whole moves (a capture route is one move, repetition is ignored, "
            "a finished game has no moves).  Uses the C kernel when built, else Python."
        ),
    )
    p.add_argument("depth", type=int, metavar="DEPTH")
    p.add_argument("position", nargs="*", metavar="POSITION", help="default: the start")
    p.add_argument("--divide", action="store_true", help="one line per first move, then total")
    p.add_argument("--reference", action="store_true", help="use the pure Python reference")
    _add_common(p)
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("show", help="draw a position in the terminal or as SVG")
    p.add_argument("position", nargs="*", metavar="POSITION", help="default: the start")
    p.add_argument("--moves", help="moves to play from the position first, e.g. 'd4 e6'")
    p.add_argument("--svg", metavar="FILE", help="also write an SVG picture ('-': stdout only)")
    _add_common(p, view=True)
    p.set_defaults(run=cmd_show)

    kinds = ("human", *COMPUTERS)
    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description=(
            "A game between humans (hot seat) and/or computers: "
            + "; ".join(f"{e.name} ({e.description})" for e in PLAYERS.values())
            + ".  "
            "Type moves in any notation of R21, 'hint' for the engine's advice, or 'help' for "
            "the commands.  Reads lines from standard input, so it can be driven through a "
            "pipe; end of input ends the session (status 0).  A computer accepts a draw offer "
            "when it is not ahead in material."
        ),
    )
    p.add_argument("--white", choices=kinds, help="who plays White (default human)")
    p.add_argument("--black", choices=kinds, help="who plays Black (default human)")
    p.add_argument("--opponent", choices=COMPUTERS, help="play against this computer")
    p.add_argument(
        "--color", choices=("white", "black"), help="your colour against --opponent (white)"
    )
    p.add_argument(
        "--level",
        type=int,
        default=LEVEL_MAX,
        metavar="N",
        help=f"strength of the engine, 1 (beginner) to {LEVEL_MAX} (full, the default): "
        + ", ".join(f"{s.level} {s.label.split(':')[0]}" for s in LEVELS[::4]),
    )
    p.add_argument(
        "--movetime",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds the engine and mcts think per move, and hint (default 1)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="search backend of the engine and hint (default auto: the C kernel's if built)",
    )
    p.add_argument("--seed", type=int, help="seed of the computer players' random choices")
    p.add_argument("--position", help="start from this R22 position (quote it)")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    p.add_argument("--no-board", action="store_true", help="do not draw the board after moves")
    _add_common(p, view=True)
    p.set_defaults(run=cmd_play)

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
    _add_common(p)
    p.set_defaults(run=cmd_analyse)

    p = sub.add_parser(
        "replay",
        help="check game record files and print each game's final position and result",
        description="Exit status 1 when any game is broken (the error names its line and move).",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--names",
        choices=NAMINGS,
        default="oblique",
        help="square naming of games without a Names tag (R3)",
    )
    p.set_defaults(run=cmd_replay)

    sub.add_parser(
        "bench", help="benchmark (see 'emergo bench --help')", add_help=False
    ).set_defaults(run=None)
    sub.add_parser(
        "match", help="engine matches with statistics (see 'emergo match --help')", add_help=False
    ).set_defaults(run=None)
    return parser


def _run(argv: list[str]) -> int:
    if argv and argv[0] == "bench":
        return cmd_bench(argv[1:])
    if argv and argv[0] == "match":
        return cmd_match(argv[1:])
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # a position may follow the options: "emergo perft 4 --divide 7x7 w 8/8"
        if not hasattr(args, "position") or any(word.startswith("-") for word in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.position = [*args.position, *extra]
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    status: int = args.run(args)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors never show a traceback)."""
    try:
        status = _run(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()
        return status
    except CliError as e:
        return _fail(str(e), e.status)
    except BrokenPipeError:
        return _broken_pipe()
    except (ValueError, OSError) as e:
        return _fail(str(e), EXIT_USAGE)
    except KeyboardInterrupt:
        _quiet_flush()
        return EXIT_INTERRUPTED


def _fail(message: str, status: int) -> int:
    _quiet_flush()
    print(f"{PROG}: {message}", file=sys.stderr)
    return status


def _quiet_flush() -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()


def _broken_pipe() -> int:
    # The reader went away (emergo moves | head): point stdout at devnull so that the
    # interpreter's final flush does not complain, and leave quietly.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
