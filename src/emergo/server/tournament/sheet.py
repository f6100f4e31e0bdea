"""The arena's scores and standings: a pure recount from the event's games (lila's
``ArenaSheet``, our code; the rules in docs/tournaments.md, "Arena").

A game scores 2 for a win, 1 for a draw, 0 for a loss; after two wins in a row a player is
*on fire* and scores double (4 a win, 2 a draw) until a game is not won; a berserk win (the
player gave up half the clock) scores 1 more.  What is a "short" game is counted in the
**movement phase**, the plies played once both hands are empty (R17), never in the entering
phase (R13–R16): entering is at least 24 plies on 9x9 (R13, and more with the captures R8
puts first; fewer with a shadowpiece, R14), and a game that ends right after it has not been
played.  The thresholds (lila's, whose count starts at the first move):

* a draw with fewer than :data:`QUICK_DRAW_PLIES` movement plies scores nothing for either side;
* a berserk win scores its extra point only with :data:`BERSERK_PLIES` movement plies or more;
* a draw right after a draw (losses between them do not count; a win does) scores nothing
  unless its movement phase had :data:`LONG_GAME_PLIES` plies (lila's draw-streak rule).

>>> games = [ArenaGame("ann", "bob", "white", movement_plies=40),
...          ArenaGame("cat", "ann", "black", movement_plies=40),
...          ArenaGame("ann", "dan", "white", movement_plies=40, berserk_white=True)]
>>> sheet = player_sheet("ann", games)
>>> sheet.scores, sheet.total, sheet.on_fire
((2, 2, 5), 9, True)
>>> [(s.rank, s.player, s.score) for s in standings(games)][:2]
[(1, 'ann', 9), (2, 'bob', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

QUICK_DRAW_PLIES = 20
"""A draw with fewer movement-phase plies scores 0 (lila: 20 plies from the start)."""

BERSERK_PLIES = 14
"""A berserk win needs this many movement-phase plies for its extra point (lila: 14)."""

LONG_GAME_PLIES = 60
"""A draw after a draw scores only with this many movement-phase plies (lila: 60 in chess)."""

PERFORMANCE_GAMES = 3
"""A performance rating is shown from this many games on (lila's)."""

Side = Literal["white", "black"]


@dataclass(frozen=True)
class ArenaGame:
    """A finished game of the event (an aborted game is no game: leave it out).

    ``winner`` ``"white"``, ``"black"`` or ``None`` for a draw; ``movement_plies`` the plies
    played with both hands empty (:func:`movement_plies`); the ratings are the players' when
    the game was paired (for the performance).
    """

    white: str
    black: str
    winner: Side | None
    movement_plies: int
    berserk_white: bool = False
    berserk_black: bool = False
    white_rating: int = 0
    black_rating: int = 0

    def __post_init__(self) -> None:
        if self.winner not in ("white", "black", None):
            raise ValueError(f"a winner is 'white', 'black' or None, not {self.winner!r}")
        if self.white == self.black:
            raise ValueError(f"{self.white!r} cannot play themselves")
        if self.movement_plies < 0:
            raise ValueError(f"movement plies cannot be negative ({self.movement_plies})")


@dataclass(frozen=True)
class Sheet:
    """A player's scores game by game (oldest first), their total and whether on fire now.

    ``flags`` tell each score's kind: ``"fire"`` (doubled), ``"null"`` (a draw that scores
    nothing by the draw-streak or quick-draw rule), ``""`` otherwise; ``berserks`` how many
    games they went berserk in.
    """

    player: str
    scores: tuple[int, ...] = ()
    flags: tuple[str, ...] = ()
    total: int = 0
    on_fire: bool = False
    berserks: int = 0


@dataclass(frozen=True)
class Standing:
    """A line of the standings (lila's results: rank, score, rating, username, performance)."""

    rank: int
    player: str
    score: int
    rating: int
    performance: int | None
    games: int
    on_fire: bool
    sheet: Sheet = field(repr=False)


def player_sheet(player: str, games: Iterable[ArenaGame], *, streaks: bool = True) -> Sheet:
    """The sheet of ``player`` from the event's games in the order they ended (the others'
    games are skipped).  ``streaks=False``: no double points (lila's "no streak" option)."""
    results: list[str] = []  # "w", "d", "l" for the fire and the draw streak
    scores: list[int] = []
    flags: list[str] = []
    berserks = 0
    for game in games:
        if player not in (game.white, game.black):
            continue
        side: Side = "white" if game.white == player else "black"
        berserk = game.berserk_white if side == "white" else game.berserk_black
        berserks += berserk
        fire = streaks and results[-2:] == ["w", "w"]
        if game.winner is None:
            if game.movement_plies < QUICK_DRAW_PLIES:
                score, flag = 0, "null"
            elif fire:
                score, flag = 2, "fire"
            elif game.movement_plies < LONG_GAME_PLIES and _after_draw(results):
                score, flag = 0, "null"
            else:
                score, flag = 1, ""
            results.append("d")
        elif game.winner == side:
            score, flag = (4, "fire") if fire else (2, "")
            if berserk and game.movement_plies >= BERSERK_PLIES:
                score += 1
            results.append("w")
        else:
            score, flag = 0, ""
            results.append("l")
        scores.append(score)
        flags.append(flag)
    on_fire = streaks and results[-2:] == ["w", "w"]
    return Sheet(player, tuple(scores), tuple(flags), sum(scores), on_fire, berserks)


def _after_draw(results: list[str]) -> bool:
    """Whether the last result that was not a loss is a draw (lila's ``isDrawStreak``)."""
    for result in reversed(results):
        if result != "l":
            return result == "d"
    return False


def standings(
    games: Sequence[ArenaGame],
    *,
    players: Mapping[str, int] | None = None,
    finished: bool = False,
    streaks: bool = True,
) -> list[Standing]:
    """The standings from the games (a pure recount).

    ``players`` every entrant and their current rating (entrants without a game score 0; a
    player of a game missing from it counts with their rating in their last game).  The order
    is lila's: score, then (``finished``) the performance or (live) the rating, then the name.
    """
    ratings: dict[str, int] = {}
    for game in games:
        ratings[game.white], ratings[game.black] = game.white_rating, game.black_rating
    ratings.update(players or {})
    lines = []
    for player in ratings:
        sheet = player_sheet(player, games, streaks=streaks)
        perf = performance(player, games)
        tie = perf if finished and perf is not None else ratings[player]
        lines.append((-sheet.total, -tie, player, sheet, perf))
    lines.sort(key=lambda line: line[:3])
    return [
        Standing(
            n, player, sheet.total, ratings[player], perf, len(sheet.scores), sheet.on_fire, sheet
        )
        for n, (_, _, player, sheet, perf) in enumerate(lines, start=1)
    ]


def performance(player: str, games: Iterable[ArenaGame]) -> int | None:
    """The mean of the opponents' ratings, +500 a win and -500 a loss (lila's), from
    :data:`PERFORMANCE_GAMES` games on; ``None`` before."""
    values = []
    for game in games:
        if player == game.white:
            rating, won = game.black_rating, game.winner
        elif player == game.black:
            rating, won = game.white_rating, game.winner
        else:
            continue
        side = "white" if player == game.white else "black"
        values.append(rating + (0 if won is None else 500 if won == side else -500))
    if len(values) < PERFORMANCE_GAMES:
        return None
    return round(sum(values) / len(values))


def movement_plies(
    moves: Iterable[str], *, start: str | None = None, variant: str | None = None
) -> int:
    """How many of a game's plies were played with both hands empty (R17's movement phase).

    ``moves`` the game's moves as text, from ``start`` (an R22 position: a ballot opening) or
    the empty board of ``variant``.

    >>> movement_plies(["e1", "e9"], start="w 1/1 a5:w i5:b")
    0
    >>> movement_plies(["e1", "e9", "e1-e2", "e9-e8"], start="w 1/1 a5:w i5:b")
    2
    """
    from emergo.board import BLACK, WHITE, Board

    board = Board(start, variant=variant)
    plies = 0
    for text in moves:
        if board.hand(WHITE) == 0 and board.hand(BLACK) == 0:
            plies += 1
        board.push_move(text)
    return plies
