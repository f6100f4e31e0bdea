"""A client for engines speaking the emergo engine protocol (python-chess style).

>>> from emergo import Board                                   # doctest: +SKIP
>>> from emergo.engine import SimpleEngine, Limit              # doctest: +SKIP
>>> with SimpleEngine.popen(["emergo-engine"]) as engine:      # doctest: +SKIP
...     result = engine.play(Board(), Limit(depth=3))
...     info = engine.analyse(Board(), Limit(time=0.5), multipv=3)

The engine runs as a child process; a thread reads its stdout into a queue, so
every wait has a timeout (:class:`EngineTimeoutError`) and a dying engine is
noticed at once (:class:`EngineTerminatedError`).  Positions are sent as the
board's root position plus its moves, so the engine knows the history (R19b).
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, NamedTuple, TypedDict

from emergo.board import Board, Move
from emergo.search import GuardedSearcher, InfoCallback, Limit, Score, SearchInfo, SearchResult
from emergo.wire import Option, ProtocolError, format_line, limit_fields, parse_line

__all__ = [
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "InfoDict",
    "Limit",
    "Option",
    "PlayResult",
    "ProtocolSearcher",
    "Score",
    "SimpleEngine",
]


class EngineError(RuntimeError):
    """The engine misbehaved: it answered with an error, sent an illegal move or a bad option."""


class EngineTerminatedError(EngineError):
    """The engine process ended while the client still needed it."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time."""


class InfoDict(TypedDict, total=False):
    """What an engine said about its search; keys are present only when reported."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    """From the point of view of the player to move."""
    nodes: int
    nps: int
    time: float
    pv: list[Move]
    string: str
    tbhits: int
    source: str
    """``tablebase`` when the endgame tables valued the position (the score is exact)."""


@dataclass(frozen=True)
class PlayResult:
    """The engine's move (``None`` when the position has no legal move) and its last report."""

    move: Move | None
    ponder: Move | None = None
    info: InfoDict = field(default_factory=lambda: InfoDict())


class _Deadline(NamedTuple):
    at: float | None
    seconds: float | None


class _Default:
    """Marks a keyword argument left at its default."""


_DEFAULT = _Default()
_EOF = None


DEFAULT_COMMAND = (sys.executable, "-m", "emergo.cli.engine")
"""The built-in engine (``emergo-engine``) run by this very Python: :meth:`SimpleEngine.popen`'s
default command."""


class SimpleEngine:
    """A synchronous handle on an engine process.  Use :meth:`popen` to start one."""

    def __init__(
        self,
        process: subprocess.Popen[str],
        command: list[str],
        *,
        timeout: float | None = 10.0,
    ) -> None:
        self.process = process
        self.command = command
        self.timeout = timeout
        """Seconds an answer may take (beyond the search's own time, for a timed search)."""
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._dead = False
        self._lost: str | None = None  # set when the engine's answers no longer match our asks
        self._ping_id = 0
        self._write_lock = threading.Lock()
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(
            target=self._pump, args=(process.stdout, True), name="engine-stdout", daemon=True
        ).start()
        self._stderr_reader = threading.Thread(
            target=self._pump, args=(process.stderr, False), name="engine-stderr", daemon=True
        )
        self._stderr_reader.start()

    # --- starting and stopping ----------------------------------------------------------

    @classmethod
    def popen(
        cls,
        command: list[str] | str | None = None,
        *,
        timeout: float | None = 10.0,
        cwd: str | None = None,
    ) -> SimpleEngine:
        """Start an engine and do the handshake; ``command`` is an argv list or a shell-like line.

        Without ``command``: this package's own engine (:data:`DEFAULT_COMMAND`, the
        ``emergo-engine`` of this Python, found without PATH, so an unactivated venv works).
        Raises :class:`EngineError` when the command cannot be started and
        :class:`EngineTimeoutError` / :class:`EngineTerminatedError` when it does
        not complete the handshake.
        """
        if command is None:
            command = list(DEFAULT_COMMAND)
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise EngineError("empty engine command")
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                cwd=cwd,
            )
        except OSError as e:
            raise EngineError(f"cannot start engine {shlex.join(argv)!r}: {e}") from None
        engine = cls(process, argv, timeout=timeout)
        try:
            engine._handshake()
        except BaseException:
            engine.close()
            raise
        return engine

    def _handshake(self) -> None:
        self.send("emergo")
        deadline = self._deadline(self.timeout)
        while True:
            command, args = self._read(deadline, "the handshake (emergo -> wait)")
            if command == "id":
                self.id.update(args)
            elif command == "option" and "name" in args:
                self.options[args["name"]] = Option.from_fields(args)
            elif command == "wait":
                break
        self.send("init")
        deadline = self._deadline(self.timeout)
        while True:
            command, args = self._read(deadline, "init (waiting for ready)")
            if command == "ready":
                return
            if command == "error":
                raise EngineError(f"{self.name} failed to initialise: {args.get('message', '')}")

    def quit(self) -> None:
        """Ask the engine to quit and wait for it (killing it if it does not go)."""
        if self._lost is not None:
            self.process.kill()
        elif self.process.poll() is None:
            with contextlib.suppress(EngineError, OSError):
                self.send("quit")
        self.close()

    def close(self) -> None:
        """End the process without ceremony (after :meth:`quit` was tried, or on failure)."""
        try:
            self.process.wait(timeout=self.timeout if self.timeout is not None else 5.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.quit()
        else:
            self.process.kill()
            self.close()

    @property
    def name(self) -> str:
        return self.id.get("name") or shlex.join(self.command)

    # --- the commands -------------------------------------------------------------------

    def configure(self, options: Mapping[str, object]) -> None:
        """Set options (names as declared, case-insensitive); errors name the option."""
        known = {name.lower(): opt for name, opt in self.options.items()}
        texts: list[tuple[str, str]] = []
        for name, value in options.items():
            opt = known.get(name.lower())
            if opt is None:
                have = ", ".join(self.options) or "none"
                raise EngineError(f"{self.name} has no option {name!r} (it has: {have})")
            try:
                texts.append((opt.name, opt.text(value)))
            except ProtocolError as e:
                raise EngineError(str(e)) from None
        for name, text in texts:
            self.send(format_line("set-option", [("name", name), ("value", text)]))
        errors = self.ping()
        if errors:
            raise EngineError(f"{self.name} rejected an option: {'; '.join(errors)}")

    def ping(self, timeout: float | _Default | None = _DEFAULT) -> list[str]:
        """Round trip to the engine; returns the messages of ``error`` lines seen meanwhile."""
        self._ping_id += 1
        token = str(self._ping_id)
        self.send(format_line("ping", [("id", token)]))
        deadline = self._deadline(self.timeout if isinstance(timeout, _Default) else timeout)
        errors: list[str] = []
        while True:
            command, args = self._read(deadline, "ping (waiting for pong)")
            if command == "pong" and args.get("id", token) == token:
                return errors
            if command == "error":
                errors.append(args.get("message", ""))

    def new_game(self) -> None:
        """Tell the engine a new game starts (it may forget what it learnt)."""
        self.send("new-game")

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        timeout: float | _Default | None = _DEFAULT,
    ) -> PlayResult:
        """The engine's move in ``board``'s position (its history included).

        ``timeout`` is the wait for ``done`` beyond the limit's own time; by
        default :attr:`timeout` for a timed limit and unbounded for a depth or
        node limit.
        """
        if limit.infinite:
            raise ValueError("play() needs a finite limit, not infinite")
        infos = self._go(board, limit, 1, timeout)
        move, ponder, info = infos
        return PlayResult(move, ponder, info.get(1, InfoDict()))

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        timeout: float | _Default | None = _DEFAULT,
    ) -> InfoDict | list[InfoDict]:
        """Analyse the position: one :class:`InfoDict`, or ``multipv`` of them, best line first."""
        if limit.infinite:
            raise ValueError("analyse() needs a finite limit, not infinite")
        if multipv is not None and multipv < 1:
            raise ValueError(f"multipv must be at least 1, not {multipv}")
        _, _, infos = self._go(board, limit, multipv or 1, timeout)
        lines = [infos[k] for k in sorted(infos)]
        if multipv is None:
            return lines[0] if lines else InfoDict()
        return lines[:multipv]

    def _go(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        timeout: float | _Default | None,
    ) -> tuple[Move | None, Move | None, dict[int, InfoDict]]:
        root = board.root()
        moves = " ".join(str(m) for m in board.move_stack)
        self.send(format_line("pos", [("pos", root.position()), ("moves", moves or None)]))
        self.send(
            format_line("go", [*limit_fields(limit), ("multipv", multipv if multipv > 1 else None)])
        )
        if isinstance(timeout, _Default):
            timeout = self.timeout if limit.is_timed() else None
        budget = None
        if timeout is not None:
            own = limit.time if limit.time is not None else None
            clock = limit.wtime if board.turn else limit.btime
            if clock is not None:
                own = clock if own is None else min(own, clock)
            budget = timeout + (own or 0.0)
        deadline = self._deadline(budget)
        infos: dict[int, InfoDict] = {}
        errors: list[str] = []
        while True:
            try:
                command, args = self._read(deadline, f"go ({_describe(limit)})")
            except EngineTimeoutError:
                self._recover()
                raise
            if command == "info":
                info = _info(args, board)
                infos[info.get("multipv", 1)] = info
            elif command == "error":
                errors.append(args.get("message", ""))
            elif command == "done":
                break
        text = args.get("move", "")
        if not text:
            if board.outcome() is not None:
                return None, None, infos
            why = "; ".join(errors) or "it sent no move"
            raise EngineError(f"{self.name} did not move in {board.position()!r}: {why}")
        try:
            move = board.parse_move(text)
        except ValueError as e:
            raise EngineError(f"{self.name} sent an illegal move {text!r}: {e}") from None
        ponder = None
        if args.get("ponder"):
            board.push(move)
            try:
                ponder = board.parse_move(args["ponder"])
            except ValueError:
                ponder = None
            finally:
                board.pop()
        return move, ponder, infos

    # --- the wire -----------------------------------------------------------------------

    def _recover(self, grace: float = 1.0) -> None:
        """After a timeout: stop the search and read up to its ``done``, or give the engine up."""
        try:
            self.send("stop")
            deadline = self._deadline(grace)
            while self._read(deadline, "stop (after a timeout)")[0] != "done":
                pass
        except EngineError as e:
            self._lost = str(e)

    def send(self, line: str) -> None:
        """Write one command line to the engine."""
        if self._lost is not None:
            raise EngineError(
                f"{self.name} is out of step after a timeout ({self._lost}): restart it"
            )
        stdin = self.process.stdin
        assert stdin is not None
        try:
            with self._write_lock:
                stdin.write(line + "\n")
                stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._terminated(f"sending {line.split()[0] if line else 'a line'}") from None

    def _pump(self, stream: IO[str], is_stdout: bool) -> None:
        try:
            for line in stream:
                if is_stdout:
                    self._lines.put(line.rstrip("\r\n"))
                else:
                    self._stderr.append(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            if is_stdout:
                self._lines.put(_EOF)

    @staticmethod
    def _deadline(seconds: float | None) -> _Deadline:
        return _Deadline(None if seconds is None else time.monotonic() + seconds, seconds)

    def _read(self, deadline: _Deadline, waiting_for: str) -> tuple[str, dict[str, str]]:
        """The next non-empty line, parsed; raises on timeout or engine death."""
        while True:
            if self._dead:
                raise self._terminated(waiting_for)
            wait = None if deadline.at is None else max(deadline.at - time.monotonic(), 0.0)
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                raise EngineTimeoutError(
                    f"{self.name} did not answer {waiting_for} within {deadline.seconds:g} s"
                ) from None
            if line is _EOF:
                self._dead = True
                raise self._terminated(waiting_for)
            command, args = parse_line(line)
            if command:
                return command, args

    def _terminated(self, doing: str) -> EngineTerminatedError:
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exit code {code}" if code is not None else "its output closed"
        self._stderr_reader.join(timeout=1.0)  # its last words explain the death
        tail = "\n".join(self._stderr)
        detail = f"; its last error output:\n{tail}" if tail else ""
        return EngineTerminatedError(f"{self.name} terminated ({status}) during {doing}{detail}")


def _info(args: dict[str, str], board: Board) -> InfoDict:
    """An ``info`` line as an :class:`InfoDict`; fields that do not parse are left out."""
    info = InfoDict()
    for key in ("depth", "seldepth", "multipv", "nodes", "nps", "tbhits"):
        if key in args:
            with contextlib.suppress(ValueError):
                info[key] = int(args[key])
    if "time" in args:
        with contextlib.suppress(ValueError):
            info["time"] = float(args["time"])
    if "score" in args:
        with contextlib.suppress(ValueError):
            info["score"] = Score.parse(args["score"])
    if "string" in args:
        info["string"] = args["string"]
    if "source" in args:
        info["source"] = args["source"]
    if "pv" in args:
        pv: list[Move] = []
        scratch = board.copy()
        for text in args["pv"].split():
            try:
                pv.append(scratch.push_move(text))
            except ValueError:
                break  # keep the legal start of a faulty line
        info["pv"] = pv
    return info


def _describe(limit: Limit) -> str:
    return " ".join(f"{k}={v}" for k, v in limit_fields(limit) if v not in (None, False)) or "go"


# --- an engine over the protocol as a Searcher ------------------------------------------------


class ProtocolSearcher(GuardedSearcher):
    """An engine process speaking the protocol, as an :class:`emergo.search.Searcher`.

    The game flow (:class:`emergo.game.Computer`), matches and analysis can then use an
    external engine like any built-in searcher: ``on_info`` gets the engine's ``info``
    lines as they come, and setting ``stop`` sends ``stop`` (the engine then answers
    ``done`` with its best move so far).  One search at a time, as every searcher
    (:class:`~emergo.search.GuardedSearcher`): a second one at once is a RuntimeError.
    """

    def __init__(self, engine: SimpleEngine) -> None:
        super().__init__()
        self.engine = engine

    @classmethod
    def popen(
        cls,
        command: list[str] | str | None = None,
        *,
        timeout: float | None = 10.0,
        options: Mapping[str, object] | None = None,
    ) -> ProtocolSearcher:
        """Start an engine (:meth:`SimpleEngine.popen`) and set ``options``."""
        engine = SimpleEngine.popen(command, timeout=timeout)
        try:
            if options:
                engine.configure(options)
        except BaseException:
            engine.quit()
            raise
        return cls(engine)

    @property
    def name(self) -> str:
        return self.engine.name

    def clear(self) -> None:
        self.engine.new_game()

    def close(self) -> None:
        """Quit the engine process."""
        self.engine.quit()

    def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: InfoCallback | None,
        stop: threading.Event | None,
    ) -> SearchResult:
        multipv = max(1, multipv)
        engine = self.engine
        if board.outcome() is not None:
            return SearchResult(None)
        moves = " ".join(str(m) for m in board.move_stack)
        engine.send(
            format_line("pos", [("pos", board.root().position()), ("moves", moves or None)])
        )
        engine.send(
            format_line("go", [*limit_fields(limit), ("multipv", multipv if multipv > 1 else None)])
        )
        done = threading.Event()
        if stop is not None:
            threading.Thread(
                target=self._stopper, args=(stop, done), name="engine-stop", daemon=True
            ).start()
        budget = None
        if engine.timeout is not None and limit.is_timed():
            own = [t for t in (limit.time, limit.wtime if board.turn else limit.btime) if t]
            budget = engine.timeout + (min(own) if own else 0.0)
        deadline = engine._deadline(budget)
        lines: dict[int, SearchInfo] = {}
        try:
            while True:
                try:
                    command, args = engine._read(deadline, f"go ({_describe(limit)})")
                except EngineTimeoutError:
                    engine._recover()
                    raise
                if command == "done":
                    break
                if command == "info":
                    info = _search_info(_info(args, board))
                    if info is not None:
                        lines[info.multipv] = info
                        if on_info is not None:
                            on_info(info)
        finally:
            done.set()
        infos = tuple(lines[k] for k in sorted(lines))
        text = args.get("move", "")
        if not text:
            raise EngineError(f"{engine.name} did not move in {board.position()!r}")
        try:
            move = board.parse_move(text)
        except ValueError as e:
            raise EngineError(f"{engine.name} sent an illegal move {text!r}: {e}") from None
        pv = infos[0].pv if infos else ()
        ponder = pv[1] if len(pv) > 1 and pv[0] == move else None
        return SearchResult(move, ponder, infos)

    def _stopper(self, stop: threading.Event, done: threading.Event) -> None:
        """Send ``stop`` when the caller asks, unless the search is over by then."""
        while not done.is_set():
            if stop.wait(0.05):
                if not done.is_set():
                    with contextlib.suppress(EngineError):
                        self.engine.send("stop")
                return


def _search_info(info: InfoDict) -> SearchInfo | None:
    """An engine's report as a SearchInfo (``None`` when it has no score)."""
    if "score" not in info:
        return None
    return SearchInfo(
        depth=info.get("depth", 0),
        score=info["score"],
        pv=tuple(info.get("pv", [])),
        nodes=info.get("nodes", 0),
        time=info.get("time", 0.0),
        seldepth=info.get("seldepth"),
        multipv=info.get("multipv", 1),
        source="tablebase" if info.get("source") == "tablebase" else "search",
        tbhits=info.get("tbhits", 0),
    )
