"""``emergo play``: a game at the terminal between humans and/or the built-in computers.

:class:`PlaySession` drives the game from input lines (moves in any notation and
a few commands, :data:`HELP`); the computers come from :data:`emergo.players.PLAYERS`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from typing import TextIO

from emergo.analyse import format_score, line_text
from emergo.board import COLOR_NAMES, Board, Color, Outcome, Termination
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_OK,
    CliError,
    add_common,
    check_kernel,
    parse_board,
    render,
    search_backend,
    sorted_move_texts,
    view_names,
)
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.geometry import Names
from emergo.levels import LEVEL_MAX, LEVELS, LevelSearcher
from emergo.players import BACKENDS, PLAYERS, searcher
from emergo.pysearch import material
from emergo.record import Game, write_game
from emergo.search import Limit, Searcher
from emergo.svg import View


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    kinds = ("human", *PLAYERS)
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
    p.add_argument("--opponent", choices=list(PLAYERS), help="play against this computer")
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
    add_common(p, view=True)
    p.set_defaults(run=run)


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
            self._backend = search_backend(self.backend_kind, 16)
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


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.level <= LEVEL_MAX:
        raise CliError(f"--level must be in 1..{LEVEL_MAX}, not {args.level}")
    if not args.movetime > 0:
        raise CliError(f"--movetime must be more than 0 seconds, not {args.movetime}")
    board = (
        parse_board(args.position, args.variant) if args.position else Board(variant=args.variant)
    )
    players = _players(args)
    check_kernel(players.values(), args.backend)  # without the kernel: a notice, or an error
    seed = args.seed
    if seed is None and any(kind != "human" for kind in players.values()):
        seed = random.randrange(1 << 31)
        print(f"seed {seed} (replay this game with --seed {seed})")
    session = PlaySession(
        board,
        players,
        rng=random.Random(seed),
        names=view_names(args),
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
