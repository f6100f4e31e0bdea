"""Conditional moves: "if he plays X, I play Y", a tree a player leaves on a correspondence game.

While his opponent is to move, a player gives lines of alternating moves from the position now:
the opponent's move, his reply, the opponent's next, his reply...  :func:`build` reads them
against the board (each opponent's move legal there, each reply legal after it; any text the
parser takes, kept as canonical R21 texts), merges them into one :class:`Conditional` tree and
refuses lines that contradict each other (the same move of the opponent answered two ways).
When the opponent plays, :func:`answer` gives the reply to play at once and the tree that is left
for the position after it; a move the tree did not foresee gives no reply and an empty tree.

The server keeps the tree with the game, shows it to its owner alone, plays the reply in the
transaction that applied the opponent's move, and drops the tree when anything else changes
the game (a takeback, the end).  Nothing here touches a store.

>>> from emergo.board import Board, WHITE
>>> board = Board()
>>> board.push_move("d4")          # White entered; Black is to move and White waits
Move.from_text('d4')
>>> tree = build(board, ["e6 f4", "c6 b4 d6 c3"], WHITE)
>>> tree.to_json()["c6"]
{'reply': 'b4', 'then': {'d6': {'reply': 'c3', 'then': {}}}}
>>> answer(tree, "c6")
('b4', Conditional({'d6': ('c3', Conditional({}))}))
>>> answer(tree, "e4")
(None, Conditional({}))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from emergo.board import COLOR_NAMES, Board, Color
from emergo.server.core.errors import SiteError

__all__ = [
    "MAX_LINE_PLIES",
    "MAX_MOVES",
    "Conditional",
    "ConditionalError",
    "answer",
    "build",
    "validate",
]

MAX_LINE_PLIES = 40
"""The most moves (both sides') a line may hold: 20 of the opponent's and 20 replies."""
MAX_MOVES = 400
"""The most moves a whole tree may hold, so that checking and storing it stay cheap."""


class ConditionalError(SiteError):
    """Conditional moves that cannot be kept; the message says which line and why."""


@dataclass(frozen=True)
class Conditional:
    """For each move of the opponent (canonical text): the reply and the tree after it."""

    branches: Mapping[str, tuple[str, Conditional]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.branches)

    def __repr__(self) -> str:
        return f"Conditional({dict(self.branches)!r})"

    def __len__(self) -> int:
        """The moves in the tree, both sides'."""
        return sum(2 + len(then) for _, then in self.branches.values())

    def lines(self) -> list[list[str]]:
        """Every line from the root to a leaf, as move texts (for showing the tree again)."""
        found: list[list[str]] = []
        for move, (reply, then) in self.branches.items():
            if then:
                found.extend([move, reply, *rest] for rest in then.lines())
            else:
                found.append([move, reply])
        return found

    def to_json(self) -> dict[str, Any]:
        """``{move: {"reply": text, "then": {...}}}``: plain JSON for a database column."""
        return {m: {"reply": r, "then": t.to_json()} for m, (r, t) in self.branches.items()}

    @classmethod
    def from_json(cls, data: Any) -> Conditional:
        """The tree of :meth:`to_json`, its shape and size checked (not the moves' legality:
        :func:`validate` does that against a board)."""
        count = [0]
        tree = cls._from_json(data, 0, count)
        return tree

    @classmethod
    def _from_json(cls, data: Any, depth: int, count: list[int]) -> Conditional:
        if not isinstance(data, dict):
            raise ConditionalError(f"a conditional tree is an object, not {type(data).__name__}")
        if depth + 2 > MAX_LINE_PLIES and data:
            raise ConditionalError(f"a line of conditional moves holds at most {MAX_LINE_PLIES}")
        branches: dict[str, tuple[str, Conditional]] = {}
        for move, node in data.items():
            if not (isinstance(node, dict) and set(node) == {"reply", "then"}):
                raise ConditionalError(f"after {move!r}: a node is {{'reply': ..., 'then': ...}}")
            reply = node["reply"]
            if not (isinstance(move, str) and isinstance(reply, str) and move and reply):
                raise ConditionalError(f"moves are texts: {move!r}, {reply!r}")
            count[0] += 2
            if count[0] > MAX_MOVES:
                raise ConditionalError(f"conditional moves hold at most {MAX_MOVES} moves")
            branches[move] = (reply, cls._from_json(node["then"], depth + 2, count))
        return cls(branches)


EMPTY = Conditional()


def _split(line: str | Sequence[str], number: int) -> list[str]:
    moves = line.split() if isinstance(line, str) else list(line)
    if not all(isinstance(m, str) and m.strip() for m in moves):
        raise ConditionalError(f"line {number}: moves are texts, not {moves!r}")
    if not moves:
        raise ConditionalError(f"line {number} is empty")
    if len(moves) % 2:
        raise ConditionalError(
            f"line {number} ends with the opponent's move {moves[-1]}: say what you reply"
        )
    if len(moves) > MAX_LINE_PLIES:
        raise ConditionalError(f"line {number} has {len(moves)} moves: at most {MAX_LINE_PLIES}")
    return [m.strip() for m in moves]


def _play(board: Board, text: str, number: int, whose: str, before: list[str]) -> str:
    """Push ``text`` on ``board`` and return its canonical text; a clear error if it cannot be."""
    where = f"line {number}, " + (f"after {' '.join(before)}" if before else "first move")
    ended = board.outcome()
    if ended is not None:
        raise ConditionalError(f"{where}: the game is over there ({ended.reason()})")
    try:
        move = board.parse_move(text)
    except ValueError as e:
        raise ConditionalError(f"{where}: {whose} {text!r} cannot be played: {e}") from None
    canonical = board.move_text(move)
    board.push(move)
    return canonical


def _check_turn(board: Board, color: Color) -> None:
    ended = board.outcome()
    if ended is not None:
        raise ConditionalError(f"the game is over: {ended.reason()}")
    if board.turn == color:
        raise ConditionalError(
            f"it is {COLOR_NAMES[color]}'s turn: conditional moves are for while the opponent "
            "is to move"
        )


def build(board: Board, lines: Iterable[str | Sequence[str]], color: Color) -> Conditional:
    """The tree of ``lines`` for ``color``, who waits while his opponent is to move on ``board``.

    A line is a text of moves separated by spaces, or a list of move texts: the opponent's
    first.  ``board`` is the game's position now, with its history (R19b repetitions count).
    Raises :class:`ConditionalError` naming the line and the move at fault.
    """
    _check_turn(board, color)
    root: dict[str, Any] = {}
    total = 0
    for number, line in enumerate(lines, 1):
        moves = _split(line, number)
        play = board.copy()
        node = root
        before: list[str] = []
        for i in range(0, len(moves), 2):
            theirs = _play(play, moves[i], number, "the opponent's move", before)
            before.append(theirs)
            mine = _play(play, moves[i + 1], number, "your reply", before)
            known = node.get(theirs)
            if known is None:
                total += 2
                if total > MAX_MOVES:
                    raise ConditionalError(f"conditional moves hold at most {MAX_MOVES} moves")
                known = node[theirs] = {"reply": mine, "then": {}}
            elif known["reply"] != mine:
                raise ConditionalError(
                    f"line {number}: after {' '.join(before)} you reply both "
                    f"{known['reply']} and {mine}"
                )
            before.append(mine)
            node = known["then"]
    return Conditional.from_json(root)


def validate(board: Board, tree: Conditional, color: Color) -> None:
    """Check a stored tree against the position now: every move canonical and legal in turn.

    Raises :class:`ConditionalError` saying what no longer holds.
    """
    lines = tree.lines()
    if not lines:
        return
    rebuilt = build(board, lines, color)
    if rebuilt != tree:
        raise ConditionalError("the conditional moves are not written canonically")


def answer(tree: Conditional, played: str) -> tuple[str | None, Conditional]:
    """The reply to the opponent's move ``played`` (its canonical text) and the tree left after
    it; ``(None, empty tree)`` when the tree did not foresee the move.
    """
    branch = tree.branches.get(played)
    if branch is None:
        return None, EMPTY
    return branch
