"""The themes of a puzzle, read from its line by code: one tagger a theme (docs/puzzles.md).

A :class:`Line` is the puzzle's position and its solution played out; each tagger looks at it
and says whether its theme is there.  :func:`tag` gives every theme of a line in the order of
:data:`~emergo.puzzles.model.THEMES`.

>>> line = Line.play("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b", ["e4xc4xc6xe6xe4xc4"])
>>> tag(line)
('decapitation', 'liberation', 'longCapture', 'endgame', 'win', 'oneMove')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from emergo.board import Board, Color, Move, MoveKind
from emergo.puzzles.line import groups, hops, revisits, threat
from emergo.puzzles.model import THEMES

__all__ = ["BLOCKADE_MOVES", "ENDGAME_PIECES", "TAGGERS", "Line", "tag"]

ENDGAME_PIECES = 5
"""An endgame puzzle has no men in hand and at most this many pieces on the board."""
BLOCKADE_MOVES = 3
"""A blockade leaves the opponent at most this many legal moves."""


@dataclass(frozen=True)
class Line:
    """A position and the moves played from it: ``boards[i]`` is the position before
    ``moves[i]`` (fresh boards, no history), ``boards[-1]`` the position after the last."""

    boards: tuple[Board, ...]
    moves: tuple[Move, ...]

    @classmethod
    def play(cls, position: str | Board, moves: Sequence[str | Move]) -> Line:
        """Play ``moves`` (texts any parser form, or moves) from ``position``; an illegal move
        raises as :meth:`Board.push_move` does."""
        board = Board(position if isinstance(position, str) else position.position())
        boards = [Board(board.position())]
        played = []
        for move in moves:
            if isinstance(move, Move):
                board.push(move)
            else:
                move = board.push_move(move)
            played.append(move)
            boards.append(Board(board.position()))
        return cls(tuple(boards), tuple(played))

    @property
    def solver(self) -> Color:
        return self.boards[0].turn

    def solver_moves(self) -> Iterator[tuple[int, Board, Move, Board]]:
        """``(index, before, move, after)`` of each of the solver's moves (the even ones)."""
        for i in range(0, len(self.moves), 2):
            yield i, self.boards[i], self.moves[i], self.boards[i + 1]


def _capture(move: Move) -> bool:
    return move.kind is MoveKind.CAPTURE


def is_feed(before: Board, move: Move, after: Board) -> bool:
    """A move that is no capture and gives the opponent a capture he did not have, or a longer
    one (R8, R11): he must take more men than he could before it."""
    if _capture(move) or after.outcome() is not None or not after.is_capturing():
        return False
    opponent = not before.turn
    return threat(after, opponent) > threat(before, opponent)


def feed(line: Line) -> bool:
    return any(is_feed(*m[1:]) for m in line.solver_moves())


def decapitation(line: Line) -> bool:
    return any(
        h.decapitates for _, before, move, _ in line.solver_moves() for h in hops(before, move)
    )


def liberation(line: Line) -> bool:
    return any(
        h.liberates for _, before, move, _ in line.solver_moves() for h in hops(before, move)
    )


def feeder_combination(line: Line) -> bool:
    """A feed, the opponent's capture in reply, and later a solver's capture that liberates the
    piece that made it (followed from square to square as the opponent moves it)."""
    for i, before, move, after in line.solver_moves():
        if not is_feed(before, move, after) or i + 1 >= len(line.moves):
            continue
        square = line.moves[i + 1].path[-1]  # where the feeding's captor landed
        for j in range(i + 2, len(line.moves)):
            before, later = line.boards[j], line.moves[j]
            if j % 2:  # the opponent's move: his captor may go elsewhere
                if later.path[0] == square:
                    square = later.path[-1]
            elif any(h.square == square and h.liberates for h in hops(before, later)):
                return True
    return False


def majority_capture(line: Line) -> bool:
    """A solver's capture where the majority routes (R11) end in different positions."""
    return any(
        _capture(move) and len(groups(before)) > 1 for _, before, move, _ in line.solver_moves()
    )


def shadowpiece(line: Line) -> bool:
    return any(m.kind is MoveKind.ENTER and m.entered > 1 for m in line.moves)


def entering(line: Line) -> bool:
    start = line.boards[0]
    return start.hand(True) + start.hand(False) > 0


def blockade(line: Line) -> bool:
    """A solver's move that is no capture, after which the opponent does not capture and has at
    most :data:`BLOCKADE_MOVES` legal moves (R15 forbids his other entries, or his pieces are
    hemmed in, R17)."""
    for _, _, move, after in line.solver_moves():
        if _capture(move) or after.outcome() is not None or after.is_capturing():
            continue
        if len(after.moves()) <= BLOCKADE_MOVES:
            return True
    return False


def long_capture(line: Line) -> bool:
    return any(revisits(move) for _, _, move, _ in line.solver_moves())


def endgame(line: Line) -> bool:
    start = line.boards[0]
    return not entering(line) and len(start.stacks()) <= ENDGAME_PIECES


def quiet_move(line: Line) -> bool:
    """A solver's move with a choice (not forced) that neither captures nor feeds."""
    return any(
        not _capture(move) and not is_feed(before, move, after) and len(groups(before)) > 1
        for _, before, move, after in line.solver_moves()
    )


def win(line: Line) -> bool:
    outcome = line.boards[-1].outcome()
    return outcome is not None and outcome.winner == line.solver


def _solver_moves(line: Line) -> int:
    return (len(line.moves) + 1) // 2


TAGGERS: dict[str, Callable[[Line], bool]] = {
    "feed": feed,
    "decapitation": decapitation,
    "liberation": liberation,
    "feederCombination": feeder_combination,
    "majorityCapture": majority_capture,
    "shadowpiece": shadowpiece,
    "entering": entering,
    "blockade": blockade,
    "longCapture": long_capture,
    "endgame": endgame,
    "quietMove": quiet_move,
    "win": win,
    "oneMove": lambda line: _solver_moves(line) == 1,
    "short": lambda line: _solver_moves(line) == 2,
    "long": lambda line: _solver_moves(line) >= 3,
}
"""The tagger of each theme of :data:`~emergo.puzzles.model.THEMES`."""
assert list(TAGGERS) == list(THEMES)


def tag(line: Line) -> tuple[str, ...]:
    """Every theme the line shows, in the order of :data:`~emergo.puzzles.model.THEMES`."""
    return tuple(name for name, tagger in TAGGERS.items() if tagger(line))
