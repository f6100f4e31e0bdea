"""The engine's side of the text protocol: :class:`EngineSession` (docs/engine-protocol.md).

Line based, in the spirit of UCI and Scan's Hub protocol: every line is a command
word followed by ``key=value`` pairs or bare flags; a value holding spaces is
double-quoted.  Both sides ignore commands and keys they do not understand.  The
search runs in a worker thread, so ``stop``, ``ping`` and ``quit`` are answered
while it thinks.  This module translates; it decides nothing about the rules
(the board does) or about search (the :class:`~emergo.search.Searcher` does).

The line syntax, limits and options are the codec :mod:`emergo.wire`, shared with
the client, :mod:`emergo.engine`.  The ``emergo-engine`` command that runs a
session on stdin/stdout is :mod:`emergo.cli.engine`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import ClassVar, TextIO

from emergo.board import Board, Move
from emergo.levels import LEVEL_MAX, LevelSearcher, default_movetime
from emergo.search import Limit, Searcher, SearchInfo, TablebaseUser
from emergo.wire import (
    HASH,
    MULTIPV_MAX,
    SEED,
    Field,
    Option,
    ProtocolError,
    format_line,
    format_seconds,
    int_field,
    limit_from_args,
    parse_line,
)

PROTOCOL_VERSION = 1
ENGINE_NAME = "Emergo"
AUTHOR = "the emergo project"

# --- options (Hash and Seed are emergo.wire's: the command line shares their bounds) ----------


LEVEL = Option.spin("Level", LEVEL_MAX, 1, LEVEL_MAX)
"""Playing strength (:data:`emergo.levels.LEVELS`): below the maximum the search is capped
and a move drawn among the best lines; ignored by the built-in players."""
EXPLORATION = Option.spin("Exploration", 35, 0, 1000)
"""``--player mcts``: the UCT constant in hundredths."""
PLAYOUTS = Option.spin("Playouts", 8, 1, 1024)
"""``--player mcts``: random games per new node of the tree."""
TABLEBASES = Option("Tablebases", "check", "true")
"""The engine uses the endgame tables (:mod:`emergo.tablebase`): perfect play in them."""


def _number(option: Option, text: str | None) -> int:
    """An option's value as the session keeps it: the number, or 1 / 0 for a check."""
    if option.type == "check":
        return int(text == "true")
    return int(text or 0)


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
        if player is None:
            declared.append(TABLEBASES)
        if player == "mcts":
            declared += [EXPLORATION, PLAYOUTS]
        self.options: dict[str, Option] = {o.name.lower(): o for o in declared}
        self.values: dict[str, int] = {o.name.lower(): _number(o, o.default) for o in declared}
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
        # The engine's tables depend on Hash only (Level, Seed and Tablebases act per go); a
        # built-in player is built from all its options.
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
        self.values[option.name.lower()] = _number(option, option.text(args["value"]))

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
            multipv = int_field(args, "multipv", 1, MULTIPV_MAX) or 1
            if limit is None:
                # neither go nor level set a limit: the variant's default think time
                limit = self.level or Limit(time=default_movetime(self.board.variant))
            searcher = self.searcher()
            if isinstance(searcher, TablebaseUser):
                searcher.use_tablebase(bool(self.values.get("tablebases", True)))
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
                ("tbhits", info.tbhits or None),
                ("source", "tablebase" if info.source == "tablebase" else None),
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
