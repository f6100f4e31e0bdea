"""Puzzles mined from games: candidates, the solution's line, the checks, the rating estimate.

One game at a time (:func:`puzzles_of_game`), so that any runner can spread the games over
threads or a Ray cluster (:mod:`emergo.puzzles.run`):

1. **candidates.**  Every position of the game is valued by the engine at ``screen`` nodes
   (the tables' exact value where they hold it).  A position is a candidate when the player to
   move stands to win (win chance at least :data:`WINNING`) and the position before it, the
   opponent's move ago, did not already (his win chance then at least :data:`JUMP` lower: the
   opponent's last move was the mistake).  Both values are confirmed at ``budget``.
2. **the line** (:func:`solve`).  From the candidate, the solver's move is the judge's best and
   must be an only move (:mod:`emergo.puzzles.judge`); the opponent's reply is the judge's best;
   on until the solver has no only move, the game ends, a position repeats (in the line or in
   the game before it) or the solver has played ``max_moves`` moves.
3. **the end.**  The line is cut after a solver's move (an odd length): the latest where he has
   won the game (R18) or ``min_gain`` men of balance once the captures that follow by force
   are made (:func:`emergo.puzzles.line.settle`: a feed's pay-off counts, a gain the next
   capture takes back does not); an ending of the tables there must be won.  A forced last
   move must be a capture (the pay-off), never a forced entry or step.
4. **the re-check.**  Every solver move again at twice the budget: the engine's best must lead
   to the same position and still be an only move; every reply must be its best too.

The puzzle's rating is estimated from the line (:func:`estimate_rating`).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from emergo.board import Board, Move, MoveKind
from emergo.puzzles.judge import Choice, Judge, win_chance
from emergo.puzzles.line import balance, groups, result, settle
from emergo.puzzles.model import Puzzle, puzzle_id
from emergo.puzzles.themes import Line, tag
from emergo.search import Score
from emergo.tablebase import MissingTableError, Tablebase, columns_of

__all__ = [
    "BUDGET",
    "LEVELS",
    "Settings",
    "Solved",
    "SourceGame",
    "Yield",
    "estimate_rating",
    "puzzles_of_game",
    "record_game",
    "selfplay_game",
    "solve",
]

BUDGET = 100_000
"""Nodes a search of the judge (the only-move check): re-checked at twice this."""
SCREEN = 5_000
"""Nodes a position of a game is valued at when looking for candidates."""
LEVELS = (1, 2, 1, 3)
"""Playing levels of the self-play games (docs/engine.md): game n plays LEVELS[n % 4]."""
MAX_MOVES = 6
"""The solver's moves in a line at most."""
MIN_GAIN = 2
"""Men of balance a line must win when it does not win the game."""
WINNING = 0.5
"""A candidate's win chance for the player to move at least (+3 men, lichess's curve)."""
JUMP = 0.5
"""By how much the candidate's win chance exceeds that of the position before it."""


@dataclass(frozen=True)
class Settings:
    """How puzzles are generated (the defaults made the shipped set: docs/puzzles.md).

    ``tables``: the directory of the endgame tables (``None``: :func:`emergo.tablebase.
    tables_dir`); a position of three columns whose table is not built there cannot be checked
    exactly, and a candidate whose line meets one is dropped.
    """

    variant: str = "9x9"
    budget: int = BUDGET
    screen: int = SCREEN
    seed: int = 0
    levels: tuple[int, ...] = LEVELS
    max_moves: int = MAX_MOVES
    min_gain: int = MIN_GAIN
    tables: str | None = None
    hash_mb: int = 4

    def __post_init__(self) -> None:
        from emergo.levels import LEVEL_MAX

        if isinstance(self.levels, str):
            raise TypeError("levels is a tuple of ints")
        for name in ("budget", "screen", "max_moves", "min_gain", "hash_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        if not self.levels or any(not 1 <= lv < LEVEL_MAX for lv in self.levels):
            raise ValueError(f"levels must be in 1..{LEVEL_MAX - 1}, not {self.levels!r}")
        Board(variant=self.variant)  # the variant's check

    def header(self, source: str) -> str:
        """The settings as the file's second line records them (a resumed run must match)."""
        levels = ",".join(map(str, self.levels))
        return (
            f"settings variant={self.variant} budget={self.budget} screen={self.screen} "
            f"seed={self.seed} levels={levels} moves={self.max_moves} gain={self.min_gain} "
            f"tables={self.table_columns()} source={source}"
        )

    def table_columns(self) -> int:
        """The largest tables of the variant there are: 2 (always) or 3 (built)."""
        return 3 if _tables(self).has(self.variant, 3) else 2


# --- a judge per thread ----------------------------------------------------------------------

_JUDGES: dict[tuple[int, str | None, int], Judge] = {}
_TABLES: dict[str | None, Tablebase] = {}
_LOCK = threading.Lock()


def _tables(settings: Settings) -> Tablebase:
    with _LOCK:
        tables = _TABLES.get(settings.tables)
        if tables is None:
            tables = _TABLES[settings.tables] = Tablebase(settings.tables)
        return tables


def _judge(settings: Settings) -> Judge:
    key = (threading.get_ident(), settings.tables, settings.hash_mb)
    judge = _JUDGES.get(key)
    if judge is None:
        judge = _JUDGES[key] = Judge(_tables(settings), hash_mb=settings.hash_mb)
    return judge


# --- games -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceGame:
    """A game to mine: its job number, its source name (:attr:`Puzzle.source`), its start
    (``None``: the variant's initial position) and its moves (R21 texts)."""

    number: int
    source: str
    variant: str
    start: str | None
    moves: tuple[str, ...]


def selfplay_game(settings: Settings, number: int) -> SourceGame:
    """Game ``number`` of ``emergo selfplay --level L --seed SEED --variant V`` with the level
    ``settings.levels[number % len(levels)]`` (the same game for the same arguments)."""
    from emergo.selfplay import SelfplayConfig, play_game

    level = settings.levels[number % len(settings.levels)]
    config = SelfplayConfig(nodes=None, level=level, variant=settings.variant, seed=settings.seed)
    game = play_game(config, number)
    moves = (*game.opening, *(row.move for row in game.rows))
    source = f"selfplay:{settings.variant}:{level}:{settings.seed}:{number}"
    return SourceGame(number, source, settings.variant, None, moves)


def record_game(number: int, game: object) -> SourceGame:
    """A game of a records file (an :class:`emergo.record.Game`) as a source: named by its
    ``Site`` tag's last part (the site's game id), else ``N`` its number in the file."""
    from emergo.record import Game

    assert isinstance(game, Game)
    site = game.headers.get("Site", "?")
    name = site.rstrip("/").rsplit("/", 1)[-1] if site not in ("", "?") else str(number)
    start = game.headers.get("Position")
    return SourceGame(
        number, f"record:{name}", game.variant, start, tuple(str(m) for m in game.mainline_moves())
    )


# --- one line --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solved:
    """A line found from a position: the moves (solver first), the judge's view of each solver
    move, the material won and whether a table position lies on it."""

    moves: tuple[Move, ...]
    steps: tuple[Choice, ...]
    gain: int
    won: bool
    exact: bool


class Rejected(Exception):
    """A candidate that makes no puzzle; the message is the reason (counted in the notes)."""


def solve(
    judge: Judge,
    position: str,
    settings: Settings,
    history: frozenset[str] = frozenset(),
    first: Choice | None = None,
) -> Solved:
    """The line from ``position`` (steps 2 and 3 of the module); :class:`Rejected` says why
    there is none.  ``history``: the game's positions before it (none may recur); ``first``:
    the judge's choice at ``position``, when it is known already."""
    board = Board(position)
    solver = board.turn
    seen = set(history) | {position}
    moves: list[Move] = []
    steps: list[Choice] = []
    budget = settings.budget
    try:
        while len(steps) < settings.max_moves:
            choice = first if first is not None and not steps else judge.choice(board, budget)
            if not steps and choice.forced:
                raise Rejected("forced")
            if not (choice.only or choice.only_last):
                break
            board.push(choice.best)
            if board.position() in seen:
                board.pop()
                break
            seen.add(board.position())
            moves.append(choice.best)
            steps.append(choice)
            if board.outcome() is not None or not choice.only:
                break
            reply = judge.reply(board, budget)
            board.push(reply)
            if board.position() in seen or board.outcome() is not None:
                break
            seen.add(board.position())
            moves.append(reply)
        if not steps:
            raise Rejected("no only move")
        return _cut(judge, Board(position), solver, moves, steps, settings)
    except MissingTableError:
        raise Rejected("tables") from None


def _cut(
    judge: Judge,
    start: Board,
    solver: bool,
    moves: list[Move],
    steps: list[Choice],
    settings: Settings,
) -> Solved:
    """The latest end of the line that is a puzzle (step 3 of the module)."""
    before = balance(start, solver)
    boards = [start]
    for move in moves:
        board = Board(boards[-1].position())
        board.push(move)
        boards.append(board)
    for k in range(len(steps), 0, -1):
        if steps[k - 1].forced and moves[2 * k - 2].kind is not MoveKind.CAPTURE:
            continue  # a forced entry or step: nothing to find, nothing won
        end = boards[2 * k - 1]
        outcome = end.outcome()
        won = outcome is not None and outcome.winner == solver
        if outcome is not None and not won:
            continue
        total, where = settle(end, solver)
        gain = total - before
        if not won and (gain < settings.min_gain or not endings_won(judge, solver, end, where)):
            continue  # too little won, or material won in an ending drawn (or lost)
        exact = any(columns_of(b) is not None for b in boards[: 2 * k])
        return Solved(tuple(moves[: 2 * k - 1]), tuple(steps[:k]), gain, won, exact)
    raise Rejected("gain")


def endings_won(judge: Judge, solver: bool, *boards: Board) -> bool:
    """Each of ``boards`` the tables hold (a game not over) is won for ``solver``
    (:class:`~emergo.tablebase.MissingTableError` when one needs a table not built)."""
    for board in boards:
        if board.outcome() is None and judge.in_tables(board):
            assert judge.tables is not None
            if (judge.tables.probe_wdl(board) > 0) != (board.turn == solver):
                return False
    return True


def recheck(judge: Judge, position: str, moves: Sequence[Move], nodes: int) -> list[Choice]:
    """Step 4 of the module at ``nodes``: the judge's choice at each solver move, checked to be
    that move (or one to the same position, or at the last move an equal win) and an only
    move, and each reply checked to be the judge's best; :class:`Rejected` ("recheck") when one
    is not."""
    board = Board(position)
    last = len(moves) - 1
    steps = []
    for i, move in enumerate(moves):
        if i % 2 == 0:
            choice = judge.choice(board, nodes)
            text = str(move)
            right = text in choice.equal or (i == last and text in choice.last_equal)
            if not (right and (choice.only or (i == last and choice.only_last))):
                raise Rejected("recheck")
            steps.append(choice)
        elif len(board.moves()) > 1 and result(board, judge.reply(board, nodes)) != result(
            board, move
        ):
            raise Rejected("recheck")
        board.push(move)
    return steps


# --- the rating estimate ---------------------------------------------------------------------

RATING_BASE = 1500
"""lichess's starting rating of a puzzle (and Glicko-2's of anyone): the estimate's centre."""
RATING_MIN, RATING_MAX = 600, 2800


def estimate_rating(line: Line, steps: Sequence[Choice]) -> int:
    """The generator's guess at a puzzle's rating (docs/puzzles.md, "Rating"): 1500, plus 150
    for each of the solver's choices (moves not forced) past two, up to 150 the later the
    engine settled on the first move in its search (the depth it kept it from, over the depth
    it reached; 0.6 for the tables), 150 when the first move gives a man away or captures
    nothing, and 50 for each doubling of the choices at the start past eight."""
    choices = sum(not step.forced for step in steps)
    first = steps[0]
    late = 0.6 if first.exact else first.depth / max(first.reached, 1)
    _, _, move, _ = next(line.solver_moves())
    score = (
        RATING_BASE
        + 150 * (choices - 2)
        + 300 * (late - 0.5)
        + (150 if move.kind is not MoveKind.CAPTURE else 0)
        + 50 * math.log2(max(first.choices, 1) / 8)
    )
    return int(min(RATING_MAX, max(RATING_MIN, round(score / 10) * 10)))


# --- a whole game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Yield:
    """What a game gave: its puzzles and the figures of the notes (docs/puzzles.md)."""

    number: int
    source: str
    puzzles: tuple[Puzzle, ...]
    positions: int
    candidates: int
    rejected: tuple[tuple[str, int], ...] = ()
    seconds: float = field(default=0.0, compare=False)
    worker: int = field(default=0, compare=False)

    def note(self) -> str:
        """The line the file keeps for the game (``# game 12 positions=... kept=...``)."""
        why = ",".join(f"{reason}:{n}" for reason, n in self.rejected) or "-"
        return (
            f"game {self.number} {self.source} positions={self.positions} "
            f"candidates={self.candidates} kept={len(self.puzzles)} rejected={why}"
        )


def is_candidate(before: Score | None, now: Score | None) -> bool:
    """``now`` (for the player to move) wins and the position a move ago (``before``, for the
    opponent then) did not already (see the module)."""
    if before is None or now is None:
        return False
    chance = win_chance(now)
    return chance >= WINNING and chance - win_chance(-before) >= JUMP


def _screen(judge: Judge, board: Board, nodes: int) -> Score | None:
    """A position's value for the player to move at ``nodes``; ``None`` where no candidate
    can start or end: the game is over, the move is forced, the table is missing."""
    if board.outcome() is not None or len(groups(board)) < 2:
        return None
    try:
        return judge.value(board, nodes)
    except MissingTableError:
        return None


def puzzles_of_game(settings: Settings, game: SourceGame) -> Yield:
    """Every puzzle of a game (the module's steps); none overlaps another."""
    started = time.monotonic()
    judge = _judge(settings)
    board = Board(game.start) if game.start else Board(variant=game.variant)
    positions = [board.position()]
    for text in game.moves:
        board.push_move(text)
        positions.append(board.position())
    boards = [Board(p) for p in positions]
    values = [_screen(judge, b, settings.screen) for b in boards]
    puzzles: list[Puzzle] = []
    rejected: Counter[str] = Counter()
    candidates = 0
    free_from = 1
    for i in range(1, len(boards)):
        if i < free_from or not is_candidate(values[i - 1], values[i]):
            continue
        candidates += 1
        try:
            first = judge.choice(boards[i], settings.budget)
            before = judge.value(boards[i - 1], settings.budget)
            if not is_candidate(before, first.score):
                raise Rejected("not confirmed")
            solved = solve(judge, positions[i], settings, frozenset(positions[:i]), first)
            recheck(judge, positions[i], solved.moves, 2 * settings.budget)
        except MissingTableError:
            rejected["tables"] += 1
            continue
        except Rejected as e:
            rejected[str(e)] += 1
            continue
        puzzles.append(_puzzle(game, i, positions[i], solved))
        free_from = i + len(solved.moves) + 1
    return Yield(
        game.number,
        game.source,
        tuple(puzzles),
        len(boards),
        candidates,
        tuple(sorted(rejected.items())),
        time.monotonic() - started,
        os.getpid(),
    )


def _puzzle(game: SourceGame, ply: int, position: str, solved: Solved) -> Puzzle:
    texts = tuple(str(m) for m in solved.moves)
    line = Line.play(position, solved.moves)
    return Puzzle(
        id=puzzle_id(game.variant, position, texts),
        variant=game.variant,
        position=position,
        solution=texts,
        themes=tag(line),
        rating=estimate_rating(line, solved.steps),
        gain=solved.gain,
        proof="tables" if solved.exact else "engine",
        source=game.source,
        initial_ply=ply,
        game=game.moves[:ply],
        start=game.start,
    )
