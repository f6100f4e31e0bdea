"""The session of ``emergo play``: one or more games at the terminal (:class:`PlaySession`).

The game flow is :class:`emergo.game.Game`'s; the session turns input lines into calls on
it and its events (the round's, :mod:`emergo.round`) into lines of text.
"""

from __future__ import annotations

import contextlib
import queue
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from emergo.analyse import format_score, line_text
from emergo.board import BLACK, COLOR_NAMES, WHITE, Board, Color, Outcome
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    render,
    sorted_move_texts,
)
from emergo.cli.play.console import Console, clock_text
from emergo.diagram import stack_text
from emergo.game import (
    Computer,
    ComputerFailed,
    Event,
    Game,
    Human,
    Player,
    TimeControl,
)
from emergo.geometry import Names
from emergo.levels import LEVEL_MAX, default_movetime
from emergo.players import PLAYERS, searcher
from emergo.record import Game as Record
from emergo.record import read_game, write_game
from emergo.round import DrawDeclined, DrawOffered, GameOver, MovePlayed, TakenBack
from emergo.search import Limit, Searcher
from emergo.svg import View

__all__ = [
    "HELP",
    "HUMAN",
    "Leave",
    "PlaySession",
    "Seats",
    "load_game",
    "looks_like_move",
    "resume",
]

HUMAN = "human"
"""The seat of a person (``--white human``); the other seats are the registry's computers."""

HELP = """\
Type a move to play it, in any usual notation: a square to bring a man in (d4),
from-to for a step (e4-e5), the squares of a capture joined by x (h4xf4xd4).
Other words:
  moves       the moves you may play now
  hint        the engine's advice, with its score and the line it expects
  undo        take back your last move (and the computer's reply to it)
  draw        offer a draw: a computer answers from the engine's evaluation (it
              accepts when it stands worse, or when the game is a dead draw);
              a person is asked
  resign      give up the game (asks first at a terminal)
  board       draw the board again       flip        turn the board round
  position    the position as text (R22), to paste into other commands
  save FILE   write the game to FILE     load FILE   go on with a saved game
  go          let a stopped computer think again (after Ctrl-C)
  new         start again with the same players
  quit        leave the game
Ctrl-C stops a computer's thought; at the prompt it offers to save before leaving.
Messages about moves cite the rules (R15 is rule 15 of docs/rules.md)."""

COMMANDS = frozenset(
    {"help", "?", "moves", "hint", "undo", "takeback", "draw", "resign", "board", "flip"}
    | {"position", "save", "load", "go", "new", "quit", "exit"}
)


def looks_like_move(text: str) -> bool:
    """Every square name has a digit (R3, R21): a word without one is not a move."""
    return any(ch.isdigit() for ch in text)


@dataclass
class Seats:
    """Who plays: ``human`` or a registry name per colour, and how to build the computers."""

    kinds: dict[Color, str]
    level: int = LEVEL_MAX
    movetime: float | None = None
    seed: int = 0
    backend: str = "auto"

    def player(self, color: Color) -> Player:
        kind = self.kinds[color]
        if kind == HUMAN:
            return Human()
        seed = self.seed + (0 if color == WHITE else 1)
        entry = PLAYERS[kind]
        try:
            if entry.backend is not None:  # the engine's search at a level
                backend = self.backend if entry.backend == "auto" else entry.backend
                name = None if kind == "engine" else f"{kind} search, level {self.level}"
                return Computer.engine(
                    self.level, movetime=self.movetime, seed=seed, backend=backend, name=name
                )
            limit = Limit(time=self.movetime) if self.movetime is not None else None
            return Computer(searcher(kind, seed=seed, level=self.level), limit, name=kind)
        except ValueError as e:  # mcts or --backend kernel without the C kernel
            raise CliError(str(e), EXIT_FAILURE) from None

    def humans(self) -> list[Color]:
        return [c for c in (WHITE, BLACK) if self.kinds[c] == HUMAN]


class Leave(Exception):
    """The player leaves the session: ``status`` is the exit status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class PlaySession:
    """One or more games at the terminal between ``seats``, each a :class:`Game`.

    ``start`` makes the first game's :class:`Game` (from a position or a record); the
    session subscribes to it, shows its events and passes on what the players type.
    """

    def __init__(
        self,
        seats: Seats,
        console: Console,
        *,
        start: Callable[[Seats], Game],
        time_control: TimeControl | None = None,
        analyser: Searcher | None = None,
        names: Names = "oblique",
        view: View = "diamond",
        ascii_only: bool = False,
        show_board: bool = True,
        flipped: bool = False,
        save: str | None = None,
        force: bool = False,
        seed_note: str = "",
    ) -> None:
        self.seats = seats
        self.console = console
        self.time_control = time_control
        self.analyser = analyser
        self.names: Names = names
        self.view: View = view
        self.ascii_only = ascii_only
        self.show_board = show_board
        self.flipped = flipped
        self.save_path = save
        self.force = force
        self.seed_note = seed_note
        self.cell = 7  # columns per square: "[W3/2]" fits
        self.at_prompt = False  # waiting for a line (another thread may end the game)
        self.archive: list[str] = []  # the session's earlier games, for --save
        self.events: queue.Queue[Event] = queue.Queue()
        self.game = self._attach(start(seats))

    # --- games

    def _attach(self, game: Game) -> Game:
        """Follow ``game``: its events queue up for the main thread, which alone prints."""
        self.mirror = game.board  # the board as the events told it so far
        self.white_starts = self.mirror.root().turn == WHITE
        self.drawn: tuple[object, ...] | None = None  # the moves whose board was drawn last
        self.saved = -1 if game.moves else game.version  # the version saved last
        self.unsubscribe = game.subscribe(self._on_event)
        return game

    def _on_event(self, event: Event) -> None:
        self.events.put(event)
        if isinstance(event, GameOver) and self.at_prompt:  # the clock ended it (R20)
            self.console.out.write("\nThe game is over: press Enter.\n")
            self.console.out.flush()

    def new_game(self, game: Game) -> None:
        if self.save_path is not None and self.game.moves:
            self.archive.append(write_game(self.game.record()))
        self.unsubscribe()
        self.game.close()
        self.events = queue.Queue()
        self.game = self._attach(game)

    def fresh_game(self) -> Game:
        return Game(
            self.seats.player(WHITE),
            self.seats.player(BLACK),
            board=self.mirror.root(),
            time_control=self.time_control,
            analyser=self.analyser,
            tags={"Event": "emergo play"},
        )

    # --- words for people

    def label(self, color: Color) -> str:
        """``White``, ``White (you)`` against a computer, ``Black (random)`` for a computer."""
        name = COLOR_NAMES[color]
        player = self.game.players[color]
        if isinstance(player, Computer):
            return f"{name} ({player.name})"
        if len(self.seats.humans()) == 1:
            return f"{name} (you)"
        return name

    def number(self, ply: int) -> str:
        """The record's move number of the ``ply``-th move (0-based): ``1.`` or ``1...``."""
        offset = 0 if self.white_starts else 1
        return f"{(ply + offset) // 2 + 1}." + ("" if (ply + offset) % 2 == 0 else "..")

    def result_text(self, outcome: Outcome) -> str:
        """``Black wins (0-1): White resigned (R20)``, ``Draw (1/2-1/2): ...``."""
        if outcome.winner is None:
            return f"Draw ({outcome.result()}): {outcome.reason()}"
        return f"{self.label(outcome.winner)} wins ({outcome.result()}): {outcome.reason()}"

    def welcome(self) -> None:
        humans = self.seats.humans()
        if len(humans) == 2:
            who = "two players at one keyboard: White and Black take turns"
        elif len(humans) == 1:
            you = humans[0]
            who = (
                f"you play {COLOR_NAMES[you]}, the computer plays {COLOR_NAMES[not you]} "
                f"({self.game.name(not you)})"
            )
        else:
            who = (
                f"{self.game.name(WHITE)} (White) against {self.game.name(BLACK)} (Black); "
                "Ctrl-C stops them"
            )
        self.console.say(f"Emergo: {who}.")
        tc = self.game.time_control
        if tc is not None and tc.kind == "per-move":
            self.console.say(f"Clocks: {tc.base:g} seconds a move; who runs out loses (R20).")
        elif tc is not None and tc.days is not None:
            self.console.say(f"Clocks: {tc.days:g} days a move; who runs out loses (R20).")
        elif tc is not None:
            extra = f", +{tc.increment:g} s a move" if tc.increment else ""
            self.console.say(
                f"Clocks: {clock_text(tc.base)} each{extra}; who runs out loses (R20)."
            )
        if humans:
            self.console.say("Type a move (such as d4), or help for the commands.")
        if self.seed_note:
            self.console.say(self.seed_note)

    # --- output

    def show(self, force: bool = False) -> None:
        """Draw the board, once per position unless ``force``."""
        moves = tuple(self.mirror.move_stack)
        if not self.show_board or (self.drawn == moves and not force):
            return
        self.drawn = moves
        self.draw(self.mirror)

    def draw(self, board: Board) -> None:
        if not self.show_board:
            return
        # The width of a square only grows, so that the game's pictures keep one width.
        widest = max((len(stack_text(s)) for s in board.stacks().values()), default=1) + 3
        self.cell = max(self.cell, widest + 1 - widest % 2)
        try:
            picture = render(
                board,
                view=self.view,
                names=self.names,
                ascii_only=self.ascii_only,
                stream=self.console.out,
                flipped=self.flipped,
                colour=self.console.colour,
                cell=self.cell,
            )
        except UnicodeError:  # a terminal that cannot show even the ASCII picture
            picture = board.position()
        clocks = self.clocks()
        self.console.say()
        self.console.say(picture + (f"\nClocks: {clocks}" if clocks else ""))

    def clocks(self) -> str:
        white, black = self.game.clock(WHITE), self.game.clock(BLACK)
        if white is None or black is None:
            return ""
        return f"White {clock_text(white)}  Black {clock_text(black)}"

    def drain(self) -> None:
        """Print the events so far, in order (the main thread only)."""
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return
            self.report(event)

    def report(self, event: Event) -> None:
        say = self.console.say
        if isinstance(event, MovePlayed):
            before = self.mirror
            move = before.parse_move(event.text)  # canonical (R21): the move itself
            text = before.move_text(move, self.names)
            say(f"{self.number(event.ply - 1)} {self.label(event.color)} plays {text}")
            before.push(move)
            if not self.seats.humans():  # computers alone: a board after every move
                self.draw(before)
        elif isinstance(event, TakenBack):
            texts = []
            for _ in event.moves:
                move = self.mirror.pop()
                texts.append(self.mirror.move_text(move, self.names))
            say(f"taken back: {' '.join(reversed(texts))}")
        elif isinstance(event, DrawOffered):
            say(f"{self.label(event.color)} offers a draw")
        elif isinstance(event, DrawDeclined):
            say(f"{self.label(event.color)} declines the draw")
        elif isinstance(event, GameOver):
            if self.seats.humans():
                self.show()  # the final position, then the result
            say(self.console.style(self.result_text(event.outcome), "1"))
        elif isinstance(event, ComputerFailed):
            self.console.error(f"{event.message} (type go to try again, or undo)")

    def prompt(self) -> str:
        game = self.game
        turn = game.turn
        who = COLOR_NAMES[turn]
        if isinstance(game.players[turn], Computer):
            who += " (stopped: go, undo...)"
        clock = game.clock(turn)
        if clock is not None:
            who += f" {clock_text(clock)}"
        return f"{self.number(len(self.mirror.move_stack))} {who}> "

    # --- running

    def run(self) -> int:
        """Play games until the players leave; the exit status."""
        self.welcome()
        try:
            while True:
                self.play()
                self.finish()
                if not (self.console.interactive and self.console.confirm("Play again?")):
                    return EXIT_OK
                self.new_game(self.fresh_game())
        except Leave as leave:
            return leave.status
        except KeyboardInterrupt:  # between two prompts: leave as from the prompt
            self.console.say()
            if self.save_path is not None:
                self.save(self.save_path, overwrite=True)
            return EXIT_INTERRUPTED
        finally:
            self.game.close()

    def play(self) -> None:
        """The current game until it is over (Leave when the players leave first)."""
        game = self.game
        if game.is_over():  # from a finished position or record
            self.show()
            outcome = game.outcome
            assert outcome is not None
            self.console.say(self.console.style(self.result_text(outcome), "1"))
            return
        game.start()
        while True:
            # Until no computer thinks and every event so far is shown: only then do the
            # game's state and the board on the screen agree.
            self.await_computer()
            self.drain()
            game = self.game
            if game.is_over():
                return
            if isinstance(game.players[game.turn], Computer) and not game.paused:
                continue  # it has just begun to think
            self.show()
            try:
                self.at_prompt = True
                line = self.console.ask(self.prompt())
            except KeyboardInterrupt:
                self.interrupted()
                continue
            finally:
                self.at_prompt = False
            if line is None:
                self.console.say("end of input: the game is left unfinished (*)")
                self.leave(EXIT_OK)
            else:
                self.command(line)

    def await_computer(self) -> None:
        """Wait for a computer's move, showing the others' events; Ctrl-C stops its thought."""
        game = self.game
        try:  # from the status on: a Ctrl-C the moment it is shown must stop the thought too
            if game.thinking and self.seats.humans():
                self.console.status(f"{self.label(game.turn)} thinks... (Ctrl-C stops it)")
            while not game.wait(0.1):
                self.drain()
        except KeyboardInterrupt:
            game.pause()
            self.console.say()
            self.console.say("stopped the computer's thought: type go to let it move, or undo")

    def interrupted(self) -> None:
        """Ctrl-C at the prompt: offer to save, then leave (a second Ctrl-C leaves at once)."""
        self.console.say()
        try:
            if self.save_path is None and self.unsaved() and self.console.interactive:
                answer = self.console.ask(
                    "Save the game before leaving? File name (Enter: leave without saving): "
                )
                if answer and answer.strip():
                    self.save(answer.strip())
        except KeyboardInterrupt:
            self.console.say()
        self.leave(EXIT_INTERRUPTED, offer=False)

    def unsaved(self) -> bool:
        return bool(self.game.moves) and self.saved != self.game.version

    def leave(self, status: int, *, offer: bool = True) -> None:
        """Leave the session, saving to --save (or, at a terminal, offering to save)."""
        if self.save_path is not None:
            self.save(self.save_path, overwrite=True)
        elif offer:
            with contextlib.suppress(KeyboardInterrupt):
                self.offer_save()
        raise Leave(status)

    def offer_save(self) -> None:
        if self.console.interactive and self.unsaved():
            answer = self.console.ask("Save the game? File name (Enter: no): ")
            if answer and answer.strip():
                self.save(answer.strip())

    def finish(self) -> None:
        """The game is over: write it to --save, or offer to save it."""
        if self.save_path is not None:
            self.save(self.save_path, overwrite=True)
        else:
            with contextlib.suppress(KeyboardInterrupt):
                self.offer_save()

    # --- commands

    def command(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        word, rest = words[0].lower(), words[1:]
        if word not in COMMANDS:
            if looks_like_move(line):
                self.move(line.strip())
            else:
                self.console.error(f"unknown command {words[0]!r} (type help for the commands)")
            return
        game, say = self.game, self.console.say
        try:
            if word in ("help", "?"):
                say(HELP)
            elif word == "moves":
                say(" ".join(sorted_move_texts(game.board, self.names)))
            elif word == "hint":
                self.hint()
            elif word in ("undo", "takeback"):
                game.takeback(by=self.asker(last_mover=True))
                game.resume()
            elif word == "draw":
                self.offer_draw()
            elif word == "resign":
                by = self.asker()
                if not self.console.interactive or self.console.confirm(
                    f"{self.label(by)}: resign this game?"
                ):
                    game.resign(by=by)
            elif word == "board":
                self.show(force=True)
            elif word == "flip":
                self.flipped = not self.flipped
                self.show(force=True)
            elif word == "position":
                say(game.position())
            elif word in ("save", "load"):
                if len(rest) != 1:
                    self.console.error(f"usage: {word} FILE")
                elif word == "save":
                    self.save(rest[0])
                else:
                    self.load(rest[0])
            elif word == "go":
                game.resume()
            elif word == "new":
                self.finish()
                self.new_game(self.fresh_game())
                self.game.start()
            else:  # quit, exit
                say("game left unfinished (*)")
                self.leave(EXIT_OK)
        except KeyboardInterrupt:
            self.console.say()
            self.console.error(f"{word}: interrupted")
        except (ValueError, CliError) as e:  # GameError and the library's errors say why
            self.console.error(str(e))
        self.drain()

    def asker(self, *, last_mover: bool = False) -> Color:
        """The person who typed: the human to move, or the one who moved last (``undo``)."""
        turn = self.game.turn
        first, second = (not turn, turn) if last_mover else (turn, not turn)
        return first if self.seats.kinds[first] == HUMAN else second

    def move(self, text: str) -> None:
        try:
            self.game.play(text, by=self.game.turn, names=self.names)
        except ValueError as e:  # the board's InvalidMoveError, IllegalMoveError... and GameError
            self.console.error(str(e))
        self.drain()

    def hint(self) -> None:
        """The engine's move for the side to move, with its score and line."""
        board = self.game.board
        result = self.game.hint(Limit(time=self.seats.movetime or default_movetime(board.variant)))
        if result.move is None:
            self.console.error("no hint: there is no legal move")
            return
        text = board.move_text(result.move, self.names)
        if not result.infos:
            self.console.say(f"hint: {text}")
            return
        info = result.infos[0]
        self.console.say(
            f"hint: {text}  (score {format_score(info.score)} for {COLOR_NAMES[board.turn]}, "
            f"depth {info.depth}; line {line_text(board, info.pv, self.names)})"
        )

    def offer_draw(self) -> None:
        game = self.game
        by = self.asker()
        answer = game.offer_draw(by=by)
        self.drain()
        if answer is None:  # a person: ask them now
            other = not by
            accept = self.console.confirm(f"{self.label(other)}, do you accept the draw?")
            game.answer_draw(by=other, accept=accept)

    def save(self, path: str, *, overwrite: bool = False) -> bool:
        """Write the record to ``path``; an existing file is overwritten only when asked."""
        target = Path(path)
        if target.exists() and not (overwrite or self.force):
            if not self.console.interactive:
                self.console.error(f"{path} exists: not overwritten (start with --force)")
                return False
            if not self.console.confirm(f"{path} exists: overwrite it?"):
                return False
        try:
            text = write_game(self.game.record())
            if path == self.save_path:  # --save keeps every game of the session
                text = "\n".join([*self.archive, text])
            target.write_text(text, encoding="utf-8")
        except (OSError, ValueError) as e:
            self.console.error(f"could not save to {path}: {getattr(e, 'strerror', None) or e}")
            return False
        self.saved = self.game.version
        self.console.say(f"game saved to {path}")
        return True

    def load(self, path: str) -> None:
        """Go on with the game in ``path``, with this session's players."""
        game = load_game(path, self.seats, analyser=self.analyser, time_control=self.time_control)
        self.new_game(game)
        self.console.say(f"loaded {path}: {len(game.moves)} moves played")
        if not game.is_over():
            self.game.start()


def load_game(
    path: str,
    seats: Seats,
    *,
    analyser: Searcher | None,
    time_control: TimeControl | None,
) -> Game:
    """The first game of the record file ``path``, resumed with ``seats``' players."""
    try:
        record = read_game(Path(path))
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:  # a RecordError names the file and the line
        message = str(e) if str(e).startswith(path) else f"{path}: {e}"
        raise CliError(message, EXIT_FAILURE) from None
    if record is None:
        raise CliError(f"{path}: no game in the file")
    return resume(record, seats, analyser=analyser, time_control=time_control)


def resume(
    record: Record,
    seats: Seats,
    *,
    analyser: Searcher | None,
    time_control: TimeControl | None,
) -> Game:
    return Game.from_record(
        record,
        white=seats.player(WHITE),
        black=seats.player(BLACK),
        time_control=time_control,
        analyser=analyser,
    )
