"""Analysis: a position's evaluation and best lines, and reviews of whole games (data only).

Scores for people are written from **White's point of view** (as in annotated
chess games), in men with two decimals: ``+1.35`` means White is ahead by about
one man and a third; ``+win7`` means White wins in 7 plies (R18), ``-win7``
that Black does, ``draw`` a proven draw (a blocked position, R19a, or the endgame
tables' draw: never a repetition the search met on its own line, which is ``0.00``).
The search reports scores for the player to move (:class:`~emergo.search.Score`);
:func:`white_view` turns them, :func:`result_text` says an exact one in words.

A review (:func:`review_game`) searches every position of a game with the same
limit and compares, for each move, the value of the best move with the value of
the move played: the difference is the *loss*, in centi-men, and big losses are
marked as in annotated chess games: ``?!`` an inaccuracy, ``?`` a mistake, ``??``
a blunder (:data:`MARKS`).  :meth:`GameReview.annotated` is the record with them: the value
after each move as ``[%eval 1.35,12]`` (White's view in men, the depth), the marks as NAGs,
and the engine's better line as a variation where a move lost (docs/engine.md).
The terminal reports of ``emergo analyse`` are made in :mod:`emergo.cli.analyse`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from emergo.board import WHITE, Board, Color, Move
from emergo.geometry import Names
from emergo.record import NAG_OF_MARK, Eval, Game
from emergo.search import MULTIPV_MAX, InfoCallback, Limit, Score, Searcher, SearchInfo

MARKS: tuple[tuple[int, str, str], ...] = (
    (300, "??", "blunder"),
    (100, "?", "mistake"),
    (50, "?!", "inaccuracy"),
)
"""``(least centi-men lost, mark, name)``, worst first: three men, one man, half a man."""
CLIP = 2000
"""Centi-men a proven win or loss counts as when losses are measured."""


# --- scores for people --------------------------------------------------------------------------


def white_view(score: Score, turn: Color) -> Score:
    """A score for the player to move (``turn``) seen from White's side."""
    return score if turn == WHITE else -score


def format_score(score: Score) -> str:
    """A score from White's view for people: ``+1.35``, ``-0.50``, ``0.00``, ``+win7``, ``draw``.

    >>> [format_score(s) for s in (Score.cp(135), Score.cp(-50), Score.win(7), Score.loss(4))]
    ['+1.35', '-0.50', '+win7', '-win4']
    """
    if score.kind == "cp":
        return "0.00" if score.value == 0 else f"{score.value / 100:+.2f}"
    if score.kind == "win":
        return f"+win{score.value}"
    if score.kind == "loss":
        return f"-win{score.value}"
    return "draw"


def result_text(score: Score) -> str | None:
    """An exact score from White's view in words; ``None`` for centi-men.

    >>> result_text(Score.win(37)), result_text(Score.loss(4)), result_text(Score.draw())
    ('White wins in 37 plies', 'Black wins in 4 plies', 'a draw')
    >>> result_text(Score.cp(0)) is None
    True
    """
    if score.kind == "draw":
        return "a draw"
    if score.kind not in ("win", "loss"):
        return None
    winner = "White" if score.kind == "win" else "Black"
    return f"{winner} wins in {score.value} {'ply' if score.value == 1 else 'plies'}"


def eval_token(score: Score, depth: int | None) -> str:
    """The annotation of an evaluation (White's view) and its depth: ``+1.35/12``."""
    return format_score(score) + (f"/{depth}" if depth is not None else "")


def score_eval(score: Score, depth: int | None) -> Eval:
    """A score from White's view as a record's evaluation (``[%eval ...]``)."""
    return Eval(score.kind, score.value if score.kind != "draw" else 0, depth)


def clipped(score: Score) -> int:
    """The score as centi-men, proven results counted as :data:`CLIP`."""
    return max(-CLIP, min(CLIP, score.to_value()))


def mark_of(loss: int) -> tuple[str, str]:
    """``(mark, name)`` of a loss in centi-men, ``("", "")`` when it is small."""
    for least, mark, name in MARKS:
        if loss >= least:
            return mark, name
    return "", ""


def final_score(board: Board) -> Score | None:
    """The exact score, for the player to move, of a position the rules have ended (R18, R19)."""
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return Score.draw()
    return Score.win(0) if outcome.winner == board.turn else Score.loss(0)


# --- one position -------------------------------------------------------------------------------


MAX_FORCED = 200
"""Forced moves :func:`analyse_position` plays through before it searches."""


def earlier(score: Score, plies: int) -> Score:
    """The score of a position ``plies`` moves before, through forced moves, for its mover.

    >>> earlier(Score.cp(40), 1), earlier(Score.loss(0), 1), earlier(Score.win(3), 2)
    (Score(kind='cp', value=-40), Score(kind='win', value=1), Score(kind='win', value=5))
    """
    if score.kind in ("win", "loss"):
        score = Score(score.kind, score.value + plies)
    return -score if plies % 2 else score


def analyse_position(
    board: Board,
    searcher: Searcher,
    limit: Limit,
    *,
    multipv: int = 1,
    on_info: InfoCallback | None = None,
    stop: threading.Event | None = None,
) -> tuple[SearchInfo, ...]:
    """The best ``multipv`` lines of the position (scores for the player to move), best first.

    Empty when the game is over.  ``board`` is not changed.  A forced move (the only
    legal one, as in a capture sequence, R8) is played through first: a timed search
    answers a forced move at once, without looking at what it leads to, so the
    position where there is a choice again (or the end of the game) is searched and
    its line is given with the forced moves in front.  ``on_info`` hears each line as
    the search finds it (as it will be returned: forced moves in front), and setting
    ``stop`` ends the search with what it has (:class:`~emergo.search.Searcher`).
    """
    if isinstance(multipv, bool) or not isinstance(multipv, int):
        raise TypeError(f"multipv must be an int, not {type(multipv).__name__}")
    if not 1 <= multipv <= MULTIPV_MAX:
        raise ValueError(f"multipv must be in 1..{MULTIPV_MAX}, not {multipv}")
    if board.outcome() is not None:
        return ()
    scratch = board.copy()
    forced: list[Move] = []
    while len(forced) < MAX_FORCED and scratch.outcome() is None:
        moves = scratch.moves()
        if len(moves) != 1:
            break
        forced.append(moves[0])
        scratch.push(moves[0])
    if not forced:
        result = searcher.search(board, limit, multipv=multipv, on_info=on_info, stop=stop)
        return tuple(sorted(result.infos, key=lambda info: info.multipv))
    n = len(forced)
    final = final_score(scratch)
    if final is not None:
        return (SearchInfo(depth=n, score=earlier(final, n), pv=tuple(forced)),)

    def through(info: SearchInfo) -> SearchInfo:
        return replace(info, score=earlier(info.score, n), pv=(*forced, *info.pv), multipv=1)

    def hear(info: SearchInfo) -> None:
        if on_info is not None and info.multipv == 1:
            on_info(through(info))

    infos = analyse_position(scratch, searcher, limit, on_info=hear, stop=stop)
    if not infos:
        return ()
    return (through(infos[0]),)


def line_text(board: Board, pv: tuple[Move, ...], names: Names = "oblique") -> str:
    """A line of moves from ``board`` (left unchanged) as move texts (R21), space-separated."""
    scratch = board.copy()
    texts = []
    for move in pv:
        texts.append(scratch.move_text(move, names))
        scratch.push(move)
    return " ".join(texts)


# --- whole games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game; ``before`` and ``after`` are for the player who made it."""

    ply: int
    """1 for the first move of the record."""
    mover: Color
    move: Move
    best: Move | None
    """The search's choice in the position before the move."""
    before: Score
    """Value of the position before the move (best play)."""
    after: Score
    """Value of the position after the move played."""
    depth: int | None
    """Depth of the search after the move (``None`` when the game ended with it)."""
    loss: int
    """Centi-men the move gave away against the best move (0 when it is the best move)."""
    line: tuple[Move, ...] = ()
    """The search's best line from the position before the move (``best`` first)."""

    @property
    def mark(self) -> str:
        return mark_of(self.loss)[0]

    @property
    def kind(self) -> str:
        """``blunder``, ``mistake``, ``inaccuracy`` or ``""``."""
        return mark_of(self.loss)[1]


@dataclass
class GameReview:
    """The evaluations of every position of a game and the review of every move."""

    game: Game
    moves: list[MoveReview] = field(default_factory=list)

    def label(self, review: MoveReview, names: Names = "oblique") -> str:
        """``14. d5-d6`` or ``14... e4`` (the move number as the record writes it)."""
        start = self.game.board()
        offset = 0 if start.turn == WHITE else 1
        number = (review.ply - 1 + offset) // 2 + 1
        dots = "." if review.mover == WHITE else "..."
        return f"{number}{dots} {start.move_text(review.move, names)}"

    def annotation(self, review: MoveReview, names: Names = "oblique") -> str:
        """The comment written after a move: ``+1.35/12``, with ``?? best d5 +0.20`` if it lost."""
        text = eval_token(white_view(review.after, review.mover), review.depth)
        if review.mark and review.best is not None:
            board = self.position_before(review.ply)
            best = board.move_text(review.best, names)
            value = format_score(white_view(review.before, review.mover))
            text += f" {review.mark} best {best} {value}"
        return text

    def position_before(self, ply: int) -> Board:
        board = self.game.board()
        for move in self.game.mainline_moves()[: ply - 1]:
            board.push(move)
        return board

    def annotated(self) -> Game:
        """A copy of the game with the review in it: each reviewed move's value after it
        (``eval``: ``[%eval 1.35,12]``, White's view), its mark as a NAG (unless the move has
        one), and where it lost, the search's better line as a variation with its value.

        The rest of the record is kept as it was (its text too, :func:`~emergo.record.write_game`).
        """
        game = self.game.copy()
        nodes = list(game.mainline())
        for review in self.moves:
            node = nodes[review.ply - 1]
            node.eval = score_eval(white_view(review.after, review.mover), review.depth)
            if review.mark and not node.nags & set(NAG_OF_MARK.values()):
                node.nags.add(NAG_OF_MARK[review.mark])
            line = review.line or ((review.best,) if review.best is not None else ())
            if review.mark and line and not node.parent.has_variation(line[0]):
                first = node.parent.add_variation(line[0])
                first.eval = score_eval(white_view(review.before, review.mover), None)
                first.add_line(line[1:])
        game.headers["Annotator"] = "emergo analyse"
        return game

    def mistakes(self, color: Color, count: int = 3) -> list[MoveReview]:
        """The ``count`` moves of ``color`` that lost most (marked ones only), worst first."""
        marked = [r for r in self.moves if r.mover == color and r.mark]
        return sorted(marked, key=lambda r: (-r.loss, r.ply))[:count]


ProgressCallback = Callable[[int, int], None]
"""Called with ``(positions done, positions in all)`` as a review goes on."""


def review_game(
    game: Game,
    searcher: Searcher,
    limit: Limit,
    *,
    progress: ProgressCallback | None = None,
    stop: threading.Event | None = None,
    on_move: Callable[[MoveReview], None] | None = None,
) -> GameReview:
    """Search every position of ``game`` with ``limit`` and measure what each move lost.

    A move equal to the search's own choice loses nothing, whatever the deeper
    search after it says (so search noise does not blame the best move).  A
    position with one legal move is not searched: it has the value of the next one.
    ``on_move`` hears each move's review as soon as both its positions have values;
    ``stop`` (set from another thread) ends the search under way at once, and the review
    returned holds the moves reviewed until then (an interrupted search counts for nothing).
    """
    board = game.board()
    moves = game.mainline_moves()
    searcher.clear()
    total = len(moves) + 1
    # per position, for the mover: value, the search's line, depth (None: forced, not yet known)
    values: list[tuple[Score, tuple[Move, ...], int | None] | None] = []
    review = GameReview(game)
    mover = board.turn
    for ply in range(total):
        if stop is not None and stop.is_set():
            break
        if ply:
            board.push(moves[ply - 1])
        final = final_score(board)
        if final is not None:
            values.append((final, (), None))
        elif ply < total - 1 and board.generate().count() == 1:
            values.append(None)  # forced (R8): valued by the position after it
        else:
            infos = analyse_position(board, searcher, limit, stop=stop)
            if stop is not None and stop.is_set():
                break
            if infos and infos[0].pv:
                values.append((infos[0].score, infos[0].pv, infos[0].depth))
            else:  # a search that reported nothing: count the position as level
                values.append((Score.cp(0), (), None))
        back = ply  # a value found fills the forced positions before it
        while back > 0 and values[back] is not None and values[back - 1] is None:
            score, line, depth = values[back]  # type: ignore[misc]
            values[back - 1] = (earlier(score, 1), (moves[back - 1], *line), depth)
            back -= 1
        while len(review.moves) < ply:
            k = len(review.moves) + 1  # the move from position k - 1 to position k
            before_value, after_value = values[k - 1], values[k]
            if before_value is None or after_value is None:
                break
            before, line, _ = before_value
            after_for_next, _, depth = after_value
            after = -after_for_next
            move = moves[k - 1]
            best = line[0] if line else None
            loss = 0 if best == move else max(0, clipped(before) - clipped(after))
            reviewed = MoveReview(k, mover, move, best, before, after, depth, loss, line)
            mover = not mover
            review.moves.append(reviewed)
            if on_move is not None:
                on_move(reviewed)
        if progress is not None:
            progress(ply + 1, total)
    return review
