"""Fair starts: opening ballots, the swap rule, and what a game records of them.

Between equal players White, who enters first (R7), wins most games from the empty
board, and the more so the stronger the play (docs/fair-starts.md has the figures).
Draughts and checkers answer the same flaw with *ballots*: a game starts from a few
opening moves drawn at random from a list of positions found balanced, and a fair
event plays each drawn ballot twice with colours swapped (a *micro-match*).

* :class:`Ballot` is such a start: entering moves (R13) from a root position.  The
  package ships one list per board (:data:`BALLOTS_FILES`, made by
  ``tools/fair_starts.py make``); ballot ``N`` of a board's list has the id
  ``"9x9-N"`` (``"7x7-N"``, ``"hex-N"``).  :func:`load_ballots` reads a list,
  :func:`draw_ballot` draws one (seeded), :func:`find_ballot` finds one by its id.
  The match runner (:mod:`emergo.match`, ``emergo match``) plays its game pairs from
  the same lists.
* :class:`SwapRule` is the other answer, the pie rule: after White's first ``entries``
  entries, Black may take White's side.  It says when the choice is due, and what the
  engine chooses (:meth:`SwapRule.decide`, :meth:`SwapRule.balanced_entry`).
* :class:`FairStart` is what a game records of these (its record's ``Ballot`` and
  ``Swap`` tags), so that an archive can show it.

>>> ballot = find_ballot("9x9-1")
>>> ballot.id, ballot.board().is_entering()
('9x9-1', True)
>>> draw_ballot("hex", seed=7) == draw_ballot("hex", seed=7)
True
>>> FairStart.from_tags(FairStart("hex-3", SwapRule(1), swapped=True).tags())
FairStart(ballot='hex-3', swap=SwapRule(entries=1, margin=0), swapped=True)
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from emergo.board import BLACK, WHITE, Board, Move, MoveKind
from emergo.geometry import DEFAULT_VARIANT, VARIANTS
from emergo.notation import position_variant
from emergo.search import Limit, Score, Searcher

BALLOTS_FILE = Path(__file__).parent / "data" / "ballots.txt"
"""The 9x9 ballots: one a line, entering moves from the start."""
BALLOTS_FILES = {
    DEFAULT_VARIANT: BALLOTS_FILE,
    "7x7": BALLOTS_FILE.with_name("ballots_7x7.txt"),
    "hex": BALLOTS_FILE.with_name("ballots_hex.txt"),
}
"""The ballots of each variant (R4); a line of another board starts with its start
position: ``hex w 12/12 | d3 e7 ...``."""


@dataclass(frozen=True)
class Ballot:
    """A start for a game pair: a root position (``None``: the variant's start) and moves.

    ``id`` names a ballot of the shipped lists (``"hex-7"``); a ballot of any other list
    (an ``emergo match --openings`` file) has none.
    """

    moves: tuple[str, ...] = ()
    position: str | None = None
    variant: str | None = None
    id: str | None = field(default=None, compare=False)

    def board(self) -> Board:
        """A board after the ballot, with the moves on its stack (R19b knows them)."""
        board = Board(self.position, variant=self.variant)
        for text in self.moves:
            board.push_move(text)
        return board

    def __str__(self) -> str:
        moves = " ".join(self.moves)
        return f"{self.position} | {moves}" if self.position else moves


def ballots_file(variant: str | None = None) -> Path:
    """The ballots the package ships for a variant (R4; ``None``: 9x9)."""
    variant = variant or DEFAULT_VARIANT
    if variant not in BALLOTS_FILES:
        raise ValueError(
            f"no ballots ship for {variant}: give an openings file "
            f"(tools/fair_starts.py make --variant {variant} --out FILE makes one)"
        )
    return BALLOTS_FILES[variant]


def parse_ballots(
    text: str, *, source: str = "ballots", variant: str | None = None
) -> list[Ballot]:
    """Ballots from text: one a line, ``moves...`` or ``R22 position | moves...``; ``#`` comments.

    Every ballot is played through on a board, so a bad one is reported with its line;
    with ``variant`` given, so is a position of another variant.
    """
    ballots: list[Ballot] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        position: str | None = None
        if "|" in line:
            head, _, line = line.partition("|")
            position = head.strip() or None
        found = position_variant(position or "", variant)
        if variant is not None and found != variant:
            raise ValueError(f"{source}, line {number}: a {found} opening, not {variant}")
        ballot = Ballot(tuple(line.split()), position, variant)
        try:
            ballot.board()
        except ValueError as e:
            hint = "" if position else _moves_variant_hint(ballot)
            raise ValueError(f"{source}, line {number}: {e}{hint}") from None
        ballots.append(ballot)
    return ballots


def _moves_variant_hint(ballot: Ballot) -> str:
    """`` (moves of a 9x9 opening?)`` when moves that fail on their board play on another's:
    a moves-only list names no variant, so a file of another one fails on a square."""
    for other in VARIANTS:
        if other != (ballot.variant or DEFAULT_VARIANT):
            with contextlib.suppress(ValueError):
                replace(ballot, variant=other).board()
                return f" (moves of a {other} opening?)"
    return ""


def load_ballots(path: str | Path | None = None, *, variant: str | None = None) -> list[Ballot]:
    """The ballots of a file (default: the list the package ships for ``variant``, each
    with its id); an error names the file and line of a bad one."""
    if path is None:
        return list(_shipped(variant or DEFAULT_VARIANT))
    return _read(Path(path), variant)


def _read(path: Path, variant: str | None) -> list[Ballot]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read openings file {str(path)!r}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        line = e.object[: e.start].count(b"\n") + 1
        raise ValueError(f"openings file {str(path)!r}, line {line}: not UTF-8 text") from None
    ballots = parse_ballots(text, source=str(path), variant=variant)
    if not ballots:
        raise ValueError(f"openings file {str(path)!r} holds no opening")
    return ballots


@functools.cache
def _shipped(variant: str) -> tuple[Ballot, ...]:
    ballots = _read(ballots_file(variant), variant)
    return tuple(replace(b, id=f"{variant}-{n}") for n, b in enumerate(ballots, 1))


_ID = re.compile(r"(?P<variant>[^-\s]+)-(?P<number>[0-9]+)")


def find_ballot(ballot_id: str) -> Ballot:
    """The shipped ballot of an id (``"9x9-17"``); ValueError names what is wrong."""
    match = _ID.fullmatch(ballot_id.strip())
    if match is None:
        raise ValueError(f"not a ballot id: {ballot_id!r} (a board and a number: 'hex-7')")
    variant, number = match["variant"], int(match["number"])
    if variant not in BALLOTS_FILES:
        raise ValueError(f"no ballots ship for {variant!r} (boards: {', '.join(BALLOTS_FILES)})")
    ballots = _shipped(variant)
    if not 1 <= number <= len(ballots):
        raise ValueError(f"no ballot {ballot_id}: {variant} has ballots 1 to {len(ballots)}")
    return ballots[number - 1]


def draw_ballot(
    variant: str | None = None, *, seed: int | str | None = None, rng: random.Random | None = None
) -> Ballot:
    """A ballot of a board's shipped list, drawn at random: from ``rng``, else from a
    generator seeded with ``seed`` (the same seed, the same ballot), else unseeded."""
    ballots = _shipped(variant or DEFAULT_VARIANT)
    return (rng or random.Random(seed)).choice(ballots)


# --- the swap rule ------------------------------------------------------------------------------

_SWAP = re.compile(r"swap(?:-(?P<entries>[0-9]+))?(?:/(?P<margin>-?[0-9]+))?")


@dataclass(frozen=True)
class SwapRule:
    """The pie rule of the entering phase: after White's first ``entries`` entries (R13),
    Black may take White's side.

    The choice is due at ply ``2 * entries - 1`` of a game from its variant's start
    (:meth:`due`); a swap exchanges the players, not the position: the player who
    took White's side plays on with White, the other is Black and to move.  The engine
    swaps when its search scores White's side more than ``margin`` centi-men ahead
    (:meth:`decide`); as White it enters, while the choice is ahead, where its search
    scores the position nearest that margin (:meth:`balanced_entry`).  Its text (challenges,
    records) is ``swap-N`` or ``swap-N/MARGIN``: :meth:`parse`, ``str``.
    """

    entries: int = 1
    margin: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.entries, int) or not 1 <= self.entries <= 12:
            raise ValueError(f"a swap rule's entries must be 1..12, not {self.entries!r}")

    @property
    def ply(self) -> int:
        """The plies played when Black chooses: White's ``entries`` and Black's one fewer."""
        return 2 * self.entries - 1

    def due(self, board: Board) -> bool:
        """Whether Black may swap now: ``ply`` entries into a game from its start, none of
        them a capture (a game whose entering went otherwise offers no swap)."""
        return (
            len(board.move_stack) == self.ply
            and board.turn == BLACK
            and _is_start(board.root())
            and all(move.kind is MoveKind.ENTER for move in board.move_stack)
        )

    def decide(self, board: Board, searcher: Searcher, limit: Limit) -> bool:
        """The engine's choice when the swap is due: swap (True) when the search scores
        White's side more than ``margin`` ahead.  ValueError when it is not due."""
        if not self.due(board):
            raise ValueError(f"no swap is due in {board.position()} (ply {self.ply} of {self})")
        return _score_for(searcher, board, limit, WHITE) > self.margin

    def balanced_entry(self, board: Board, searcher: Searcher, limit: Limit) -> Move | None:
        """White's entry while a swap is still ahead: of the legal entries, the one after
        which the search (``limit`` each) scores White's side nearest ``margin``, where
        Black's choice is hardest (with margin 0: nearest even; the first of equals in the
        order of ``board.moves()``); ``None`` once no swap is ahead."""
        if board.turn != WHITE or len(board.move_stack) >= self.ply or not _is_start(board.root()):
            return None
        best: tuple[int, Move] | None = None
        for move in board.moves():
            if move.kind is not MoveKind.ENTER:
                return None
            child = board.copy()
            child.push(move)
            gap = abs(_score_for(searcher, child, limit, WHITE) - self.margin)
            if best is None or gap < best[0]:
                best = (gap, move)
        return best[1] if best else None

    def __str__(self) -> str:
        return f"swap-{self.entries}" + (f"/{self.margin}" if self.margin else "")

    @classmethod
    def parse(cls, text: str) -> SwapRule:
        """``swap``, ``swap-N`` or ``swap-N/MARGIN``; ValueError names what is wrong."""
        match = _SWAP.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"not a swap rule: {text!r} ('swap-1', or 'swap-2/30' with a margin)")
        return cls(int(match["entries"] or 1), int(match["margin"] or 0))


SCORE_WON = 100_000
"""The centi-men a found win counts for when the swap compares scores."""


def _score_for(searcher: Searcher, board: Board, limit: Limit, color: bool) -> int:
    """The search's score of ``board`` for ``color`` in centi-men (a found win: +-SCORE_WON)."""
    infos = searcher.search(board, limit).infos
    score: Score | None = infos[0].score if infos else None
    value = 0  # no score, or a proven draw
    if score is not None and score.kind == "cp":
        value = score.value
    elif score is not None and score.kind in ("win", "loss"):
        value = SCORE_WON if score.kind == "win" else -SCORE_WON
    return value if board.turn == color else -value


def _is_start(board: Board) -> bool:
    return board.position() == Board(variant=board.variant).position()


# --- what a game records ------------------------------------------------------------------------


@dataclass(frozen=True)
class FairStart:
    """What a game records of its fair start: the ballot it was drawn (its id), the swap
    rule it was played under and whether the swap was taken (``None``: not decided, or
    no swap rule).  :meth:`tags` are its record's tags, :meth:`from_tags` reads them."""

    ballot: str | None = None
    swap: SwapRule | None = None
    swapped: bool | None = None

    def tags(self) -> dict[str, str]:
        """``Ballot`` (the id) and ``Swap`` (``swap-1 taken``, ``swap-1 declined``, or the
        rule alone while undecided), each only when there is one."""
        tags = {}
        if self.ballot is not None:
            tags["Ballot"] = self.ballot
        if self.swap is not None:
            choice = {True: " taken", False: " declined", None: ""}[self.swapped]
            tags["Swap"] = f"{self.swap}{choice}"
        return tags

    @classmethod
    def from_tags(cls, tags: Mapping[str, str]) -> FairStart:
        """The fair start a record's tags tell (none: ``FairStart()``)."""
        swap = swapped = None
        words = tags.get("Swap", "").split()
        if words:
            swap = SwapRule.parse(words[0])
            choices = {"taken": True, "declined": False}
            if len(words) > 2 or (len(words) == 2 and words[1] not in choices):
                raise ValueError(f"not a swap tag: {tags['Swap']!r} ('swap-1 taken', 'swap-1')")
            swapped = choices[words[1]] if len(words) == 2 else None
        return cls(tags.get("Ballot"), swap, swapped)


def board_of(start: FairStart, variant: str | None = None) -> Board:
    """The board a game of ``start`` begins from: after its ballot, else the variant's start."""
    if start.ballot is None:
        return Board(variant=variant)
    return find_ballot(start.ballot).board()


__all__: Sequence[str] = (
    "BALLOTS_FILE",
    "BALLOTS_FILES",
    "Ballot",
    "FairStart",
    "SwapRule",
    "ballots_file",
    "board_of",
    "draw_ballot",
    "find_ballot",
    "load_ballots",
    "parse_ballots",
)
