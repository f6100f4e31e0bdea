"""A puzzle, its themes' names, and the text file that holds a set of them (docs/puzzles.md).

One puzzle a line, its fields separated by tabs; lines starting with ``#`` are the file's
header and the generator's notes (the settings it ran with, one line per game it examined).
The shipped set is ``src/emergo/data/puzzles-<variant>.txt.gz`` (the files the generator wrote,
compressed with ``gzip -n``): :func:`load` reads it.

>>> fields = ["kk4871", "9x9", "1500", "feed,liberation,feederCombination", "2", "engine",
...     "record:demo", "0", "w 0/0 c5:w d5:w e5:w e7:b g3:b", "e5-e6 e7xe5 d5xf5", "", "-"]
>>> line = "\\t".join(fields)
>>> puzzle = parse_line(line)
>>> puzzle.solution, puzzle.moves, puzzle.last_move
(('e5-e6', 'e7xe5', 'd5xf5'), 2, None)
>>> format_line(puzzle) == line
True
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from emergo.board import Board
from emergo.geometry import VARIANTS

__all__ = [
    "DATA_DIR",
    "FORMAT",
    "PROOFS",
    "THEMES",
    "Puzzle",
    "PuzzleFileError",
    "data_file",
    "format_line",
    "load",
    "open_text",
    "parse_line",
    "puzzle_id",
    "read_puzzles",
    "settings_line",
]

FORMAT = "emergo puzzles 1"
"""The first line of a puzzle file (``# emergo puzzles 1``): the format and its version."""

THEMES: dict[str, str] = {
    "feed": (
        "a solver's move that is no capture gives the opponent a capture (or a longer one) "
        "he must make (R8, R11)"
    ),
    "decapitation": "a solver's capture takes a guard off an enemy piece holding prisoners (R9)",
    "liberation": "a solver's capture takes the last guard: the prisoners are free again (R9)",
    "feederCombination": (
        "a feed, then a capture that liberates the very piece that took the fed men"
    ),
    "majorityCapture": (
        "a solver's capture chosen among majority routes that end in different positions (R11)"
    ),
    "shadowpiece": "a shadowpiece is entered on the line (R14)",
    "entering": "the puzzle is set in the entering phase: men are still in hand (R8, R13)",
    "blockade": (
        "a solver's quiet move leaves the opponent, not capturing, at most three legal moves"
    ),
    "longCapture": ("a solver's capture lands on a square twice or jumps a piece twice (R10)"),
    "endgame": "no men in hand and at most five pieces on the board at the start",
    "quietMove": "a solver's move, not forced, that neither captures nor feeds",
    "win": "the line ends the game: the opponent has no piece left (R18)",
    "oneMove": "the solution is one move",
    "short": "the solution is two moves of the solver",
    "long": "the solution is three moves of the solver or more",
}
"""Every theme's name (lichess's camelCase style) and what it means; the taggers are in
:mod:`emergo.puzzles.themes`."""

PROOFS = ("engine", "tables")
"""How a puzzle's moves were proven: ``engine`` (the search at the stated budget, re-checked at
twice it) or ``tables`` (some position of the line has two or three columns and every such
position was checked by the endgame tables, the others by the engine)."""

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read: the message names the file and the line."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position the solver faces and the line that solves it.

    ``solution`` alternates the solver's moves and the opponent's replies, starting and ending
    with the solver's (an odd number of canonical R21 texts).  ``game`` holds the moves of the
    game it came from, from the game's start (``start``, ``None`` for the variant's initial
    position) to ``position``: ``initial_ply`` of them, the last one (:attr:`last_move`) the
    opponent's move the solver answers.  ``source`` names the game: ``selfplay:VARIANT:LEVEL:
    SEED:GAME`` (a game of ``emergo selfplay --level LEVEL --seed SEED``, its number GAME) or
    ``record:ID`` (a game of a records file: its ``Site`` tag's game id, else its number in the
    file).  ``gain`` is the men won (docs/puzzles.md, "Material"); ``rating`` the generator's
    estimate; ``proof`` one of :data:`PROOFS`.
    """

    id: str
    variant: str
    position: str
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    rating: int
    gain: int
    proof: str
    source: str
    initial_ply: int
    game: tuple[str, ...] = field(default=(), repr=False)
    start: str | None = None

    def board(self) -> Board:
        """A new board at the puzzle's position (no history: the game's moves are not needed)."""
        return Board(self.position)

    @property
    def last_move(self) -> str | None:
        """The opponent's move that led to the position (the game's last move), if any."""
        return self.game[-1] if self.game else None

    @property
    def moves(self) -> int:
        """The solver's moves in the solution."""
        return (len(self.solution) + 1) // 2

    def game_board(self) -> Board:
        """The game's start with the moves up to the puzzle's position played (its history)."""
        board = Board(self.start) if self.start else Board(variant=self.variant)
        for text in self.game:
            board.push_move(text)
        return board


def puzzle_id(variant: str, position: str, solution: Sequence[str]) -> str:
    """A puzzle's id: 6 letters and digits from a hash of what the puzzle is (the same puzzle
    always has the same id)."""
    text = "\t".join([variant, position, *solution]).encode()
    digest = int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = []
    for _ in range(6):
        digest, digit = divmod(digest, 36)
        out.append(alphabet[digit])
    return "".join(out)


FIELDS = (
    "id",
    "variant",
    "rating",
    "themes",
    "gain",
    "proof",
    "source",
    "initial_ply",
    "position",
    "solution",
    "game",
    "start",
)
"""The fields of a line, in order (tab-separated; lists are space- or comma-separated)."""


def format_line(puzzle: Puzzle) -> str:
    """The puzzle as one line of a puzzle file (no newline)."""
    return "\t".join(
        [
            puzzle.id,
            puzzle.variant,
            str(puzzle.rating),
            ",".join(puzzle.themes),
            str(puzzle.gain),
            puzzle.proof,
            puzzle.source,
            str(puzzle.initial_ply),
            puzzle.position,
            " ".join(puzzle.solution),
            " ".join(puzzle.game),
            puzzle.start or "-",
        ]
    )


def parse_line(line: str) -> Puzzle:
    """A puzzle from one line of a puzzle file; ValueError saying which field is wrong.

    Only the syntax is checked (fast: a set loads without playing a move); ``emergo puzzles
    verify`` checks what the moves do.
    """
    parts = line.rstrip("\n").split("\t")
    if len(parts) != len(FIELDS):
        raise ValueError(f"{len(parts)} tab-separated fields, expected {len(FIELDS)}")
    values = dict(zip(FIELDS, parts, strict=True))
    variant = values["variant"]
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: one of {', '.join(VARIANTS)}")
    numbers = {}
    for name in ("rating", "gain", "initial_ply"):
        try:
            numbers[name] = int(values[name])
        except ValueError:
            raise ValueError(f"{name} {values[name]!r} is not a whole number") from None
    themes = tuple(t for t in values["themes"].split(",") if t)
    unknown = [t for t in themes if t not in THEMES]
    if unknown:
        raise ValueError(f"unknown theme {unknown[0]!r}")
    if values["proof"] not in PROOFS:
        raise ValueError(f"proof {values['proof']!r}: one of {', '.join(PROOFS)}")
    solution = tuple(values["solution"].split())
    if len(solution) % 2 != 1:
        raise ValueError(f"the solution has {len(solution)} moves: an odd number expected")
    game = tuple(values["game"].split())
    if len(game) != numbers["initial_ply"]:
        raise ValueError(f"initial_ply {numbers['initial_ply']} but {len(game)} game moves")
    return Puzzle(
        id=values["id"],
        variant=variant,
        position=values["position"],
        solution=solution,
        themes=themes,
        rating=numbers["rating"],
        gain=numbers["gain"],
        proof=values["proof"],
        source=values["source"],
        initial_ply=numbers["initial_ply"],
        game=game,
        start=None if values["start"] == "-" else values["start"],
    )


def read_puzzles(path: str | Path) -> Iterator[Puzzle]:
    """The puzzles of a file (gzip-compressed when its name ends in ``.gz``), in order;
    :class:`PuzzleFileError` names the file and the line of a problem."""
    with open_text(path) as handle:
        yield from _puzzles(handle, str(path))


def settings_line(path: str | Path) -> str:
    """A puzzle file's settings line (its second, ``settings variant=...``, without the ``#``);
    :class:`PuzzleFileError` when the file has none."""
    with open_text(path) as handle:
        first, second = handle.readline(), handle.readline()
    if first.strip() != f"# {FORMAT}" or not second.startswith("# settings "):
        raise PuzzleFileError(f"{path}: not a puzzle file with its settings line")
    return second[2:].strip()


def open_text(path: str | Path) -> TextIO:
    """A puzzle file opened to read its text, gzip-compressed when its name ends in ``.gz``."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _puzzles(lines: Iterable[str], name: str) -> Iterator[Puzzle]:
    for number, line in enumerate(lines, 1):
        if number == 1 and line.strip() != f"# {FORMAT}":
            raise PuzzleFileError(f"{name}: line 1: not a puzzle file (expected '# {FORMAT}')")
        if not line.strip() or line.startswith("#"):
            continue
        try:
            yield parse_line(line)
        except ValueError as e:
            raise PuzzleFileError(f"{name}: line {number}: {e}") from None


def data_file(variant: str) -> Path:
    """The shipped set of a variant: ``src/emergo/data/puzzles-<variant>.txt.gz`` (the
    generator's file, compressed)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: one of {', '.join(VARIANTS)}")
    return DATA_DIR / f"puzzles-{variant}.txt.gz"


_LOADED: dict[str, tuple[Puzzle, ...]] = {}


def load(variant: str | None = None, theme: str | None = None) -> list[Puzzle]:
    """The shipped puzzles, in file order: all boards (9x9, 7x7, hex) or ``variant``'s, all or
    those tagged ``theme`` (one of :data:`THEMES`).  Read once per process, then kept."""
    if theme is not None and theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: one of {', '.join(THEMES)}")
    variants = VARIANTS if variant is None else (variant,)
    out: list[Puzzle] = []
    for name in variants:
        if name not in _LOADED:
            path = data_file(name)
            _LOADED[name] = tuple(read_puzzles(path)) if path.is_file() else ()
        out.extend(p for p in _LOADED[name] if theme is None or theme in p.themes)
    return out
