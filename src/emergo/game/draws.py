"""A computer's answer to a draw offer (R19c): from a short full-strength search.

The same rule answers for the terminal game and for a bot (:mod:`emergo.botclient`).
"""

from __future__ import annotations

from emergo.board import BLACK, WHITE, Board, Color
from emergo.search import Limit, Score, Searcher

__all__ = [
    "DEAD_DRAW_WINDOW",
    "DRAW_ACCEPT_BELOW",
    "DRAW_THINK_TIME",
    "accepts_draw",
    "computer_accepts",
]

DRAW_THINK_TIME = 0.25
"""Seconds a computer thinks about a draw offer."""
DRAW_ACCEPT_BELOW = -50
"""A computer accepts a draw when its score is below this many centi-men (half a man down)."""
DEAD_DRAW_WINDOW = 10
"""In the movement phase a score within this many centi-men of 0 is a dead draw."""


def accepts_draw(score: Score, board: Board) -> bool:
    """Does a computer whose search scores ``score`` (its own view) accept a draw here?

    The rule: it accepts a proven draw, and it accepts when it stands clearly worse
    (below :data:`DRAW_ACCEPT_BELOW` centi-men, half a man, or a proven loss); in the
    movement phase (no men in hand, R17) it also accepts a dead level score (within
    :data:`DEAD_DRAW_WINDOW`).  Otherwise it plays on -- in the opening, where scores
    sit near 0, it always declines.

    >>> from emergo.board import Board
    >>> accepts_draw(Score.cp(0), Board()), accepts_draw(Score.cp(-120), Board())
    (False, True)
    >>> accepts_draw(Score.cp(5), Board("b 0/0 a5:w i5:b"))
    True
    """
    if score.kind == "draw" or score < Score.cp(DRAW_ACCEPT_BELOW):
        return True
    late = board.hand(WHITE) == 0 and board.hand(BLACK) == 0
    return late and score.kind == "cp" and abs(score.value) <= DEAD_DRAW_WINDOW


def computer_accepts(analyser: Searcher, board: Board, color: Color) -> bool:
    """Does ``color``, a computer, accept a draw in ``board``?  ``analyser`` searches it
    :data:`DRAW_THINK_TIME` seconds; one that reports no score counts the men each side
    controls (R5, R9)."""
    result = analyser.search(board, Limit(time=DRAW_THINK_TIME))
    if result.infos:
        score = result.infos[0].score
    else:

        def men(c: Color) -> int:
            return board.hand(c) + sum(s.size for s in board.stacks().values() if s.owner == c)

        score = Score.cp(100 * (men(board.turn) - men(not board.turn)))
    return accepts_draw(score if board.turn == color else -score, board)
