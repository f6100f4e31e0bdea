"""The engine's text protocol on stdin/stdout: ``emergo-engine`` (docs/engine-protocol.md).

Line based, in the spirit of UCI and Scan's Hub protocol: every line is a command
word followed by ``key=value`` pairs or bare flags; a value holding spaces is
double-quoted.  Both sides ignore commands and keys they do not understand.  The
search runs in a worker thread, so ``stop``, ``ping`` and ``quit`` are answered
while it thinks.  This module translates; it decides nothing about the rules
(the board does) or about search (the :class:`~emergo.search.Searcher` does).

The line syntax helpers (:func:`parse_line`, :func:`format_line`) are shared with
the client, :mod:`emergo.engine`.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, TextIO

from emergo import players
from emergo.board import Board, Move
from emergo.levels import LEVEL_MAX, LevelSearcher
from emergo.search import Limit, Searcher, SearchInfo

PROTOCOL_VERSION = 1
ENGINE_NAME = "Emergo"
AUTHOR = "the emergo project"
DEFAULT_LEVEL = Limit(time=1.0)
"""What ``go`` does when neither it nor ``level`` sets a limit: think one second."""

# --- line syntax ----------------------------------------------------------------------------

_SPECIAL = set(' \t"\\=')


def split_line(line: str) -> list[str]:
    """The tokens of a line: words, ``key=value`` and ``key="quoted value"`` (quotes removed).

    Inside quotes ``\\"`` is a quote and ``\\\\`` a backslash; an unterminated quote
    runs to the end of the line.
    """
    tokens: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if line[i] in " \t\r\n":
            i += 1
            continue
        buf: list[str] = []
        while i < n and line[i] not in " \t\r\n":
            c = line[i]
            if c == '"':
                i += 1
                while i < n and line[i] != '"':
                    if line[i] == "\\" and i + 1 < n:
                        i += 1
                    buf.append(line[i])
                    i += 1
                i += 1  # the closing quote
                continue
            buf.append(c)
            i += 1
        tokens.append("".join(buf))
    return tokens


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``(command, args)``: ``key=value`` pairs, and bare words as keys with the value ``""``.

    >>> parse_line('pos pos="b 11/12 d4:w" moves="e5 f4"')
    ('pos', {'pos': 'b 11/12 d4:w', 'moves': 'e5 f4'})
    >>> parse_line("go depth=3 infinite")
    ('go', {'depth': '3', 'infinite': ''})
    """
    tokens = split_line(line)
    if not tokens:
        return "", {}
    args: dict[str, str] = {}
    for token in tokens[1:]:
        key, _, value = token.partition("=")
        args[key.lower()] = value
    return tokens[0].lower(), args


def quote(value: str) -> str:
    """A value as it must be written: bare when it can be, else double-quoted."""
    if value and not _SPECIAL.intersection(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


Field = tuple[str, object]


def format_line(command: str, fields: Iterable[Field] = ()) -> str:
    """A command line: ``None`` and ``False`` values are left out, ``True`` is a bare flag.

    >>> format_line("info", [("depth", 3), ("pv", "d4 e5"), ("infinite", True), ("x", None)])
    'info depth=3 pv="d4 e5" infinite'
    """
    parts = [command]
    for key, value in fields:
        if value is None or value is False:
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, float):
            parts.append(f"{key}={value:.3f}")
        else:
            parts.append(f"{key}={quote(str(value))}")
    return " ".join(parts)


def format_seconds(seconds: float) -> str:
    """Seconds with at most millisecond precision and no trailing zeros: ``1.5``, ``0.25``."""
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return text or "0"


class ProtocolError(ValueError):
    """A command the engine understood but cannot carry out; its message goes in ``error``."""


def _int(args: dict[str, str], key: str, minimum: int = 1) -> int | None:
    if key not in args:
        return None
    try:
        value = int(args[key])
    except ValueError:
        raise ProtocolError(f"{key}={args[key]!r} is not a whole number") from None
    if value < minimum:
        raise ProtocolError(f"{key}={value} must be at least {minimum}")
    return value


def _seconds(args: dict[str, str], key: str) -> float | None:
    if key not in args:
        return None
    try:
        value = float(args[key])
    except ValueError:
        raise ProtocolError(f"{key}={args[key]!r} is not a number of seconds") from None
    if not value >= 0 or value == float("inf"):
        raise ProtocolError(f"{key}={args[key]} must be a number of seconds >= 0")
    return value


LIMIT_KEYS = (
    "depth",
    "nodes",
    "move-time",
    "time",
    "inc",
    "wtime",
    "btime",
    "winc",
    "binc",
    "moves-to-go",
    "infinite",
    "analyse",
    "analyze",
)


def limit_from_args(args: dict[str, str], white_to_move: bool) -> Limit | None:
    """The limit a ``go`` or ``level`` line sets, or ``None`` when it names none.

    ``time``/``inc`` are the clock of the player to move; ``wtime``/``btime`` and
    ``winc``/``binc`` name the clocks by colour.
    """
    if not any(k in args for k in LIMIT_KEYS):
        return None
    clock, inc = _seconds(args, "time"), _seconds(args, "inc")
    wtime, btime = _seconds(args, "wtime"), _seconds(args, "btime")
    winc, binc = _seconds(args, "winc"), _seconds(args, "binc")
    if white_to_move:
        wtime, winc = (clock if clock is not None else wtime), (inc if inc is not None else winc)
    else:
        btime, binc = (clock if clock is not None else btime), (inc if inc is not None else binc)
    return Limit(
        depth=_int(args, "depth"),
        nodes=_int(args, "nodes"),
        time=_seconds(args, "move-time"),
        wtime=wtime,
        btime=btime,
        winc=winc,
        binc=binc,
        movestogo=_int(args, "moves-to-go"),
        infinite=any(k in args for k in ("infinite", "analyse", "analyze")),
    )


def limit_fields(limit: Limit) -> list[Field]:
    """The ``go`` fields that ask for ``limit`` (the inverse of :func:`limit_from_args`)."""

    def sec(x: float | None) -> str | None:
        return None if x is None else format_seconds(x)

    return [
        ("depth", limit.depth),
        ("nodes", limit.nodes),
        ("move-time", sec(limit.time)),
        ("wtime", sec(limit.wtime)),
        ("btime", sec(limit.btime)),
        ("winc", sec(limit.winc)),
        ("binc", sec(limit.binc)),
        ("moves-to-go", limit.movestogo),
        ("infinite", limit.infinite),
    ]


# --- options --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpinOption:
    """An integer option the engine declares at the handshake."""

    name: str
    default: int
    min: int
    max: int

    def declaration(self) -> str:
        fields: list[Field] = [
            ("name", self.name),
            ("type", "spin"),
            ("min", self.min),
            ("max", self.max),
            ("default", self.default),
        ]
        return format_line("option", fields)

    def parse(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ProtocolError(f"option {self.name} takes a whole number, not {text!r}") from None
        if not self.min <= value <= self.max:
            raise ProtocolError(
                f"option {self.name} must be in {self.min}..{self.max}, not {value}"
            )
        return value


HASH = SpinOption("Hash", 16, 1, 4096)
"""Megabytes of search tables."""
LEVEL = SpinOption("Level", LEVEL_MAX, 1, LEVEL_MAX)
"""Playing strength (:data:`emergo.levels.LEVELS`): below the maximum the search is capped
and a move drawn among the best lines; ignored by the built-in players."""
SEED = SpinOption("Seed", 0, 0, 2**31 - 1)
"""Random seed of the levels' draws and of the built-in players (``--player``)."""
EXPLORATION = SpinOption("Exploration", 35, 0, 1000)
"""``--player mcts``: the UCT constant in hundredths."""
PLAYOUTS = SpinOption("Playouts", 8, 1, 1024)
"""``--player mcts``: random games per new node of the tree."""

# --- the engine side ------------------------------------------------------------------------


class EngineSession:
    """One engine talking the protocol: feed it lines with :meth:`handle`; it answers via ``send``.

    ``make_searcher(hash_mb)`` builds the search backend (lazily, at ``init`` or the
    first ``go``, so the engine starts at once).
    """

    def __init__(
        self,
        send: Callable[[str], None],
        make_searcher: Callable[[int], Searcher],
        *,
        name: str = ENGINE_NAME,
        player: str | None = None,
        seed: int = 0,
    ) -> None:
        self._send_raw = send
        self._lock = threading.Lock()
        self._make_searcher = make_searcher
        self.name = name
        self.player = player
        declared = [HASH, LEVEL, SEED]
        if player == "mcts":
            declared += [EXPLORATION, PLAYOUTS]
        self.options: dict[str, SpinOption] = {o.name.lower(): o for o in declared}
        self.values: dict[str, int] = {o.name.lower(): o.default for o in declared}
        self.values["seed"] = seed
        self._searcher: Searcher | None = None
        self._searcher_key: tuple[int, ...] = ()
        self.board = Board()
        self.level: Limit | None = None
        self._thread: threading.Thread | None = None
        self._searching = False  # set by go, cleared with the done line (under the lock)
        self._stop = threading.Event()

    # output

    def send(self, command: str, fields: Iterable[Field] = ()) -> None:
        line = format_line(command, fields)
        with self._lock:  # the search thread and the reader both write
            self._send_raw(line)

    def error(self, message: str) -> None:
        self.send("error", [("message", message)])

    # input

    def handle(self, line: str) -> bool:
        """Carry out one command line; ``False`` once ``quit`` was received."""
        command, args = parse_line(line)
        handler = self._HANDLERS.get(command)
        if handler is None:
            return True  # unknown commands are ignored, so newer front ends keep working
        try:
            handler(self, args)
        except ProtocolError as e:
            self.error(str(e))
        return command != "quit"

    def searching(self) -> bool:
        """Is a search under way (a ``go`` whose ``done`` has not been sent)?"""
        with self._lock:
            return self._searching

    def searcher(self) -> Searcher:
        """The search backend, built anew when an option it was built with has changed."""
        # The engine's tables depend on Hash only (Level and Seed act per go); a built-in
        # player is built from all its options.
        keys = ["hash"] if self.player is None else sorted(set(self.values) - {"level"})
        key = tuple(self.values[k] for k in keys)
        if self._searcher is None or self._searcher_key != key:
            self._searcher = self._make_searcher(self.values["hash"])
            self._searcher_key = key
        return self._searcher

    def _hello(self, args: dict[str, str]) -> None:
        from emergo import __version__

        name = self.name if self.player is None else f"{self.name} {self.player}"
        self.send(
            "id",
            [
                ("name", name),
                ("version", __version__),
                ("author", AUTHOR),
                ("protocol", PROTOCOL_VERSION),
            ],
        )
        for option in self.options.values():
            self.send(option.declaration())
        self.send("wait")

    def _init(self, args: dict[str, str]) -> None:
        if not self.searching():
            try:
                self.searcher()
            except ValueError as e:
                raise ProtocolError(str(e)) from None
        self.send("ready")

    def _ping(self, args: dict[str, str]) -> None:
        self.send("pong", [("id", args.get("id"))])

    def _set_option(self, args: dict[str, str]) -> None:
        name = args.get("name", "")
        option = self.options.get(name.lower())
        if option is None:
            known = ", ".join(o.name for o in self.options.values())
            raise ProtocolError(f"unknown option {name!r}: this engine has {known}")
        if "value" not in args:
            raise ProtocolError(f"set-option name={option.name} needs value=...")
        self.values[option.name.lower()] = option.parse(args["value"])

    def _new_game(self, args: dict[str, str]) -> None:
        if self.searching():
            raise ProtocolError("new-game during a search: send stop first")
        self.board = Board(variant=self.board.variant)
        if self._searcher is not None:
            self._searcher.clear()

    def _pos(self, args: dict[str, str]) -> None:
        variant = args.get("variant") or None
        names = args.get("names", "oblique")
        if names not in ("oblique", "checker"):
            raise ProtocolError(f"names={names!r}: expected oblique or checker")
        try:
            board = Board(args.get("pos") or None, variant=variant)
        except ValueError as e:
            raise ProtocolError(f"bad position: {e}") from None
        for number, text in enumerate(args.get("moves", "").split(), 1):
            try:
                board.push_move(text, "checker" if names == "checker" else "oblique")
            except ValueError as e:
                raise ProtocolError(f"move {number} ({text}): {e}") from None
        self.board = board  # only a fully valid position replaces the old one

    def _level(self, args: dict[str, str]) -> None:
        self.level = limit_from_args(args, self.board.turn)

    def _go(self, args: dict[str, str]) -> None:
        if self.searching():
            raise ProtocolError("already searching: send stop first")
        try:
            limit = limit_from_args(args, self.board.turn)
            multipv = _int(args, "multipv") or 1
            if limit is None:
                limit = self.level or DEFAULT_LEVEL
            searcher = self.searcher()
            level = self.values["level"]
            if level < LEVEL_MAX and self.player is None:
                searcher = LevelSearcher(searcher, level, seed=self.values["seed"])
        except ValueError as e:  # ProtocolError too: answer done so the client stops waiting
            self.error(str(e))
            self.send("done")
            return
        outcome = self.board.outcome()
        if outcome is not None:
            self.error(f"no legal move: the game is over: {outcome.reason()}")
            self.send("done")
            return
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run,
            args=(searcher, self.board.copy(), limit, multipv, self._stop),
            name="emergo-search",
            daemon=True,
        )
        self._searching = True
        self._thread.start()

    def _run(
        self,
        searcher: Searcher,
        board: Board,
        limit: Limit,
        multipv: int,
        stop: threading.Event,
    ) -> None:
        move: Move | None = None
        ponder: Move | None = None
        try:
            result = searcher.search(board, limit, multipv=multipv, on_info=self._info, stop=stop)
            move, ponder = result.move, result.ponder
        except Exception as e:  # a failing backend must not leave the front end waiting
            self.error(f"search failed: {type(e).__name__}: {e}")
            moves = board.moves()
            move = moves[0] if moves else None
        if limit.infinite:
            stop.wait()  # analysis reports its move only when told to stop
        line = format_line("done", [("move", move), ("ponder", ponder)])
        with self._lock:  # a go arriving right after done must find the engine idle
            self._searching = False
            self._send_raw(line)

    def _info(self, info: SearchInfo) -> None:
        self.send(
            "info",
            [
                ("depth", info.depth),
                ("seldepth", info.seldepth),
                ("multipv", info.multipv),
                ("score", info.score.token()),
                ("nodes", info.nodes),
                ("nps", info.nps),
                ("time", format_seconds(info.time)),
                ("pv", " ".join(str(m) for m in info.pv)),
            ],
        )

    def _stop_search(self, args: dict[str, str]) -> None:
        self._stop.set()

    def _quit(self, args: dict[str, str]) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    _HANDLERS: ClassVar[dict[str, Callable[[EngineSession, dict[str, str]], None]]] = {
        "emergo": _hello,
        "hub": _hello,
        "init": _init,
        "ping": _ping,
        "set-option": _set_option,
        "new-game": _new_game,
        "pos": _pos,
        "level": _level,
        "go": _go,
        "stop": _stop_search,
        "quit": _quit,
    }


def serve(session: EngineSession, stdin: TextIO) -> None:
    """Read commands until ``quit`` or the end of input."""
    while True:
        line = stdin.readline()
        if not line:
            session.handle("quit")
            return
        if not session.handle(line):
            return


USAGE = """usage: emergo-engine [--backend auto|kernel|python] [--player random|greedy|mcts]
                     [--seed N]

Speaks the emergo engine protocol on stdin/stdout (docs/engine-protocol.md).
  --backend B   search backend: auto (the C kernel's search when it has one), kernel, python
  --player P    be a built-in player instead of searching: random, greedy (emergo.players)
                or mcts (Monte-Carlo tree search on kernel playouts, emergo.mcts; options
                Exploration and Playouts)
  --seed N      random seed of the level draws and of --player (also the option Seed)
"""


def _parse_argv(argv: list[str]) -> dict[str, str]:
    # Hand-rolled: argparse alone would cost a noticeable part of the start-up time.
    opts: dict[str, str] = {}
    it = iter(argv)
    for arg in it:
        if arg in ("-h", "--help"):
            opts["help"] = ""
            continue
        key, eq, value = arg.partition("=")
        if key not in ("--backend", "--player", "--seed"):
            raise ValueError(f"unknown argument {arg!r}")
        if not eq:
            value = next(it, "")
            if not value:
                raise ValueError(f"{key} needs a value")
        opts[key[2:]] = value
    return opts


def main(argv: list[str] | None = None) -> int:
    """The ``emergo-engine`` command."""
    try:
        opts = _parse_argv(sys.argv[1:] if argv is None else argv)
        seed = int(opts.get("seed", "0"))
        if not 0 <= seed <= SEED.max:
            raise ValueError(f"--seed must be in 0..{SEED.max}")
        kind = opts.get("backend", "auto")
        if kind not in ("auto", "kernel", "python"):
            raise ValueError(f"--backend {kind!r}: expected auto, kernel or python")
        player = opts.get("player")
        if player is not None:
            if player not in players.PLAYERS:
                known = ", ".join(players.PLAYERS)
                raise ValueError(f"unknown player {player!r}: expected one of {known}")
            kind = players.PLAYERS[player].backend or kind
            if players.PLAYERS[player].backend is not None:
                player = None  # the engine's search at a level: the session applies the level
    except ValueError as e:
        print(f"emergo-engine: {e}\n{USAGE}", file=sys.stderr)
        return 2
    if "help" in opts:
        print(USAGE)
        return 0

    def make(hash_mb: int) -> Searcher:
        values = session.values
        if player is None:
            return players.backend(kind, hash_mb=hash_mb)
        return players.searcher(
            player,
            seed=values["seed"],
            hash_mb=hash_mb,
            exploration=values["exploration"] / 100 if "exploration" in values else None,
            playouts=values.get("playouts"),
        )

    out = sys.stdout

    def send(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    session = EngineSession(send, make, player=player, seed=seed)
    try:
        serve(session, sys.stdin)
    except KeyboardInterrupt:
        session.handle("quit")
    except BrokenPipeError:  # the front end went away
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
