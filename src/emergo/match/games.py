"""One game (and one colour-swapped pair) of a match between two engines: adjudication,
results, records."""

from __future__ import annotations

import atexit
import contextlib
import datetime
import random
import threading
import time
from dataclasses import dataclass, replace

from emergo.ballots import Ballot, FairStart
from emergo.board import WHITE, Board, Color
from emergo.engine import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InfoDict,
    SimpleEngine,
)
from emergo.match.engines import EngineSpec
from emergo.search import Score

PLIES_MAX = 100_000
"""The longest ``max_plies`` and the other ply and move counts of :class:`Adjudication`."""
SCORE_MAX = 100_000
"""The largest adjudication threshold in centi-men (a thousand men: beyond any evaluation)."""


@dataclass(frozen=True)
class Adjudication:
    """When the match ends a game the rules have not ended.

    ``score``: a win for a side when both engines reported ``|score| >= score``
    centi-men in its favour on each of their last ``moves`` moves (win/loss
    scores count as beyond any threshold); ``None`` turns it off.
    ``draw_score``: a draw when both engines reported ``|score| <= draw_score``
    centi-men on each of their last ``draw_moves`` moves, once the game is at
    least ``draw_after`` plies long; ``None`` turns it off.
    ``max_plies``: a draw after this many plies (the opening included).
    """

    score: int | None = None
    moves: int = 4
    draw_score: int | None = None
    draw_moves: int = 8
    draw_after: int = 60
    max_plies: int | None = 400

    def __post_init__(self) -> None:
        bounds = {
            "score": (1, SCORE_MAX),
            "moves": (1, PLIES_MAX),
            "draw_score": (0, SCORE_MAX),
            "draw_moves": (1, PLIES_MAX),
            "draw_after": (0, PLIES_MAX),
            "max_plies": (1, PLIES_MAX),
        }
        for name, (low, high) in bounds.items():
            value = getattr(self, name)
            if value is None and name in ("score", "draw_score", "max_plies"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"Adjudication {name} must be in {low}..{high}, not {value!r}")


@dataclass
class GameResult:
    """One finished game."""

    number: int
    pair: int
    white: int
    """Index of the engine playing White."""
    black: int
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2`` (R20)."""
    reason: str
    plies: int
    opening: int
    record: str = ""

    def points(self, engine: int) -> float:
        """The points ``engine`` scored in this game."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if (engine == self.white) == white_won else 0.0


class MatchError(RuntimeError):
    """The match cannot go on (an engine does not start, a bad setting)."""


class Seat:
    """A worker's running instance of one engine, restarted after a failure."""

    def __init__(self, spec: EngineSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.engine: SimpleEngine | None = None

    def get(self) -> SimpleEngine:
        if self.engine is None:
            try:
                engine = SimpleEngine.popen(list(self.spec.command), timeout=self.spec.timeout)
            except EngineError as e:
                raise MatchError(f"engine {self.spec.name}: {e}") from None
            try:
                options = dict(self.spec.options)
                if "Seed" in engine.options and "Seed" not in options:
                    options["Seed"] = str(self.seed)
                engine.configure(options)
            except EngineError as e:
                engine.quit()
                raise MatchError(f"engine {self.spec.name}: {e}") from None
            self.engine = engine
        return self.engine

    def reseed(self, seed: int) -> None:
        """Set the engine's ``Seed`` for the next game (unless the spec sets it): each game
        gets its own, so a game is the same whichever worker plays it, after whichever games."""
        engine = self.get()
        if "Seed" in engine.options and not any(k.lower() == "seed" for k in self.spec.options):
            with contextlib.suppress(EngineError):  # a dead engine forfeits in play_game
                engine.configure({"Seed": str(seed)})

    def drop(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineError, OSError):
                self.engine.process.kill()
                self.engine.close()
            self.engine = None

    def quit(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineError, OSError):
                self.engine.quit()
            self.engine = None


def game_seed(seed: int | None, number: int, engine: int) -> int:
    """The ``Seed`` of engine ``engine`` in game ``number`` of a match with ``seed``."""
    return random.Random(f"emergo-match {seed} {number} {engine}").randrange(2**31)


@dataclass(frozen=True)
class PairSetup:
    """What every game of a match shares (sent once to a runner's workers)."""

    engines: tuple[EngineSpec, ...]
    names: tuple[str, ...]
    suite: tuple[Ballot, ...]
    adjudication: Adjudication
    event: str
    seed: int | None


Job = tuple[int, int, int, int]
"""A game pair: (pair number, first engine, second engine, opening index)."""


def play_pair(seats: list[Seat], setup: PairSetup, job: Job) -> list[GameResult]:
    """The two games of a pair, colours swapped, each from its own seeds."""
    pair, first, second, opening_index = job
    games = []
    for g, (w, b) in enumerate(((first, second), (second, first))):
        number = 2 * pair + g + 1
        for e in {w, b}:
            seats[e].reseed(game_seed(setup.seed, number, e))
        opening = setup.suite[opening_index]
        board, result, reason, comments, failed = play_game(
            seats[w].get(),
            seats[b].get(),
            (setup.engines[w], setup.engines[b]),
            opening,
            setup.adjudication,
        )
        if failed is not None:
            seats[w if failed == WHITE else b].drop()
        record = write_record(
            board,
            white=setup.names[w],
            black=setup.names[b],
            result=result,
            reason=reason,
            number=number,
            event=setup.event,
            comments=comments,
            opening=opening_index,
            ballot=opening.id,
        )
        plies = len(board.move_stack)
        games.append(GameResult(number, pair, w, b, result, reason, plies, opening_index, record))
    return games


_WORKER_SEATS: dict[tuple[int, str], list[Seat]] = {}
"""A runner worker's engines, per thread and per match setup, kept from job to job."""


def _quit_worker_seats() -> None:
    for seats in _WORKER_SEATS.values():
        for seat in seats:
            seat.quit()
    _WORKER_SEATS.clear()


def play_pair_job(setup: PairSetup, job: Job) -> list[GameResult]:
    """A pair of games on a runner's worker (:mod:`emergo.parallel`): the engines are
    started on the worker's first job and kept for the next ones."""
    key = (threading.get_ident(), repr(setup.engines))
    seats = _WORKER_SEATS.get(key)
    if seats is None:
        if not _WORKER_SEATS:
            atexit.register(_quit_worker_seats)
        seats = [Seat(spec, 0) for spec in setup.engines]
        _WORKER_SEATS[key] = seats
    return play_pair(seats, setup, job)


def _decisive_for(score: Score, threshold: int) -> int:
    """+1 / -1 when a score (for the mover) clears the threshold for / against him, else 0."""
    if score.kind == "win":
        return 1
    if score.kind == "loss":
        return -1
    if score.kind == "cp" and abs(score.value) >= threshold:
        return 1 if score.value > 0 else -1
    return 0


def _level(score: Score, threshold: int) -> int:
    """1 when a score is a plain evaluation within ``threshold`` of even, else 0."""
    return int(score.kind == "cp" and abs(score.value) <= threshold)


def _agreed(marks: dict[bool, list[int]], n: int) -> int:
    """The mark both engines gave on each of their last ``n`` moves, else 0."""
    last = marks[True][-n:] + marks[False][-n:]
    return last[0] if len(last) == 2 * n and len(set(last)) == 1 else 0


def _comment(info: InfoDict, elapsed: float) -> str:
    parts = []
    if "score" in info:
        depth = info.get("depth")
        parts.append(info["score"].token() + (f"/{depth}" if depth is not None else ""))
    parts.append(f"{elapsed:.2f}s")
    return " ".join(parts)


def play_game(
    white: SimpleEngine,
    black: SimpleEngine,
    specs: tuple[EngineSpec, EngineSpec],
    opening: Ballot,
    adjudication: Adjudication,
) -> tuple[Board, str, str, dict[int, str], Color | None]:
    """Play one game; returns the final board, result, reason, move comments and a failed side.

    The failed side is the colour whose engine crashed or timed out (its process
    should be restarted), else ``None``.
    """
    board = opening.board()
    for engine in {id(white): white, id(black): black}.values():
        # Each game on its own: no tables or trees from the last one.  A dead engine is
        # noticed by its first move below, where it forfeits.
        with contextlib.suppress(EngineError):
            engine.new_game()
    engines = {WHITE: white, not WHITE: black}
    spec_of = {WHITE: specs[0], not WHITE: specs[1]}
    clocks: dict[bool, float | None] = {}
    incs: dict[bool, float | None] = {}
    for color, spec in spec_of.items():
        tc = spec.tc
        clocks[color], incs[color] = (tc[0], tc[1]) if tc is not None else (None, None)
    verdicts: dict[bool, list[int]] = {True: [], False: []}  # per mover: +1 White ahead, -1 Black
    levels: dict[bool, list[int]] = {True: [], False: []}  # per mover: 1 the game looks even
    comments: dict[int, str] = {}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return board, outcome.result(), outcome.reason(), comments, None
        if adjudication.max_plies is not None and len(board.move_stack) >= adjudication.max_plies:
            reason = f"adjudicated: draw after {adjudication.max_plies} plies"
            return board, "1/2-1/2", reason, comments, None
        mover = board.turn
        spec = spec_of[mover]
        limit = spec.limit
        if clocks[mover] is not None or clocks[not mover] is not None:
            limit = replace(
                limit, wtime=clocks[True], btime=clocks[False], winc=incs[True], binc=incs[False]
            )
        loss = "0-1" if mover == WHITE else "1-0"
        start = time.monotonic()
        try:
            played = engines[mover].play(board, limit, timeout=spec.timeout)
        except EngineTimeoutError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, mover
        except EngineTerminatedError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, mover
        except EngineError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, None
        elapsed = time.monotonic() - start
        clock = clocks[mover]
        if clock is not None:
            left = clock - elapsed
            if left < 0:
                return board, loss, f"{spec.name} lost on time (R20)", comments, None
            clocks[mover] = left + (incs[mover] or 0.0)
        if played.move is None:  # the engine says the game is over but the rules do not
            return board, loss, f"{spec.name} forfeits: it sent no move", comments, None
        board.push(played.move)
        comments[len(board.move_stack)] = _comment(played.info, elapsed)
        score = played.info.get("score")
        if adjudication.score is not None:
            verdict = 0 if score is None else _decisive_for(score, adjudication.score)
            verdicts[mover].append(verdict if mover == WHITE else -verdict)
            agreed = _agreed(verdicts, adjudication.moves)
            if agreed:
                result = "1-0" if agreed > 0 else "0-1"
                reason = (
                    f"adjudicated: both engines scored at least {adjudication.score} for the "
                    f"winner in their last {adjudication.moves} moves"
                )
                return board, result, reason, comments, None
        if adjudication.draw_score is not None:
            levels[mover].append(0 if score is None else _level(score, adjudication.draw_score))
            n = adjudication.draw_moves
            if len(board.move_stack) >= adjudication.draw_after and _agreed(levels, n):
                reason = (
                    f"adjudicated: draw, both engines scored within {adjudication.draw_score} "
                    f"of even in their last {n} moves"
                )
                return board, "1/2-1/2", reason, comments, None


def write_record(
    board: Board,
    *,
    white: str,
    black: str,
    result: str,
    reason: str,
    number: int,
    event: str,
    comments: dict[int, str],
    opening: int,
    ballot: str | None = None,
) -> str:
    """The record of a game (:mod:`emergo.record`), each move's ``comments[ply]`` after it (the
    engine's score and time); a plain move list if that module is missing.  ``opening`` is the
    index of the game's opening in the match's suite; ``ballot`` its id when it is a shipped
    ballot (the ``Ballot`` tag, :class:`emergo.ballots.FairStart`)."""
    tags = {
        "Event": event,
        "Site": "emergo match",
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(number),
        "White": white,
        "Black": black,
        "Opening": str(opening + 1),
        "Reason": reason,
    } | FairStart(ballot).tags()
    try:
        from emergo.record import Game, write_game
    except ImportError:  # pragma: no cover - the record module ships with the package
        head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        return f'{head}[Result "{result}"]\n\n{" ".join(map(str, board.move_stack))} {result}\n'
    game = Game.from_board(board, **tags)
    if board.outcome() is None:
        game.headers["Result"] = result
        if "lost on time" in reason:
            game.headers["Termination"] = "time-forfeit"
    for ply, node in enumerate(game.mainline(), 1):
        node.comment = comments.get(ply, "")
    return write_game(game)
