"""A practice level against a house bot, played as a real game of the site (docs/learn.md).

A level with ``opponent = "bot"`` is not judged move by move: the server starts a game from the
level's position between the learner and the house bot of the level's strength
(:meth:`Practice.start`), casual and without a clock, and the game carries the level in its tags
(``Learn``: the level's id), written in the transaction that makes it.  Every command of the
game takes the rounds service's locked transaction, and the extension's command hook
(:meth:`Practice.played`, in that transaction) gives the level's stars to the learner the moment
the level is met: the player of the side the level's position has to move, and only in a game
against a bot, so a game nobody started here gives nobody stars.

* ``win``: the learner won; the stars count his moves against the level's par
  (:func:`~emergo.server.learn.course.stars`).
* ``hold``: the learner made ``par`` moves without losing, three stars then, as lichess's
  practice ends a "survive N moves" goal at its N-th move (the game goes on if he likes; a
  loss after that still holds), or won before: three stars.

An aborted game, a lost one, a draw of a ``win`` level give none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from emergo.board import Color, Termination
from emergo.round import RoundState
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.learn.course import Course, load_course, stars
from emergo.server.learn.levels import Level
from emergo.server.learn.progress import MAX_STARS, merge_into
from emergo.server.round.service import Rounds
from emergo.server.round.views import GameView
from emergo.server.user.accounts import User

__all__ = [
    "LEARN_TAG",
    "Practice",
    "PracticeError",
    "next_level",
    "practice_stars",
    "shipped_course",
]

LEARN_TAG = "Learn"
"""The tag of a practice game: the id of its level (``stage/level``)."""

_lock = threading.Lock()
_course: Course | None = None


def shipped_course() -> Course:
    """The shipped course, loaded and checked once for the process (a fault is the server's:
    the test of the course keeps it from shipping)."""
    global _course
    with _lock:
        if _course is None:
            _course = load_course()
        return _course


class PracticeError(SiteError):
    """A practice game that cannot start: no such level, a level not played against a bot, no
    house bot of its strength on this site, a bot account asking."""


def learner_side(course: Course, level: Level) -> Color:
    """The learner's side: the side to move in the level's position."""
    return course.start_board(level).turn


def next_level(course: Course, level_id: str) -> str | None:
    """The level after ``level_id`` in the course's order (None after the last)."""
    ids = list(course.levels)
    at = ids.index(level_id) if level_id in ids else len(ids)
    return ids[at + 1] if at + 1 < len(ids) else None


def practice_stars(level: Level, learner: Color, state: RoundState) -> int | None:
    """The stars a practice game in ``state`` (over or not) has earned its learner (module
    docstring); None: none yet."""
    outcome = state.outcome
    if outcome is not None and outcome.termination is Termination.ABORTED:
        return None
    moves = (len(state.moves) + 1) // 2  # the learner moves first (the level's side to move)
    won = outcome is not None and outcome.winner == learner
    if level.goal.kind == "win":
        return stars(level.par, moves) if won else None
    if level.goal.kind == "hold":
        return MAX_STARS if won or moves >= level.par else None
    return None


class Practice:
    """The practice games of the course (module docstring)."""

    def __init__(
        self, db: Database, rounds: Rounds, course: Callable[[], Course] = shipped_course
    ) -> None:
        self.db = db
        self.rounds = rounds
        self.course = course

    def start(self, user: User, level_id: str, house: dict[int, User]) -> str:
        """A new game of the level ``level_id`` for ``user`` against its house bot (``house``:
        the site's house bots by strength); the game's id."""
        course = self.course()
        level = course.levels.get(level_id)
        if level is None:
            raise PracticeError(f"no level {level_id[:80]!r} in the course", 404)
        if level.opponent != "bot" or level.bot is None:
            raise PracticeError(f"{level_id} is not played against the computer", 409)
        if user.bot:
            raise PracticeError("a bot account does not take the course", 403)
        bot = house.get(level.bot)
        if bot is None:
            raise PracticeError(
                f"no computer plays level {level.bot} on this site: {level_id} needs it", 503
            )
        board = course.start_board(level)
        t = now()
        state = RoundState.new(variant=level.variant, root=board.position(), now=t)
        learner = board.turn
        white, black = (user.id, bot.id) if learner else (bot.id, user.id)
        with self.db.write() as tx:
            return self.rounds.start(
                tx, state, white, black, rated=False, t=t, tags={LEARN_TAG: level.id}
            )

    def links(self, level_id: str) -> dict[str, str] | None:
        """What a practice game's page says of its level once the level is met or the game is
        over: the words (``game``, ``back``, ``next``, ``stars``, ``none``, ``held``, ``again``,
        ``replay``, ``stop``: the catalogue's), the addresses of the lesson (``back_href``) and of
        the next level (``next_href``, empty after the last), and for a ``hold`` level its par
        (``par``: the learner's moves that meet it, as :func:`practice_stars` counts; else
        empty); None for a level the course does not hold."""
        course = self.course()
        level = course.levels.get(level_id)
        if level is None:
            return None
        cat = course.catalogue
        after = next_level(course, level.id)
        return {
            "level": level.id,
            "game": cat.text("page.practice-game", goal=cat.text(f"{level.key}.goal")),
            "back": cat.text("page.practice-back"),
            "back_href": f"/learn/{level.id}",
            "next": cat.text("page.next"),
            "next_href": f"/learn/{after}" if after is not None else "",
            "stars": cat.text("page.stars", stars="{stars}"),
            "none": cat.text("page.practice-none"),
            "held": cat.text("page.practice-held", moves=str(level.par)),
            "again": cat.text("page.practice-again"),
            "replay": cat.text("page.practice-replay"),
            "stop": cat.text("page.replay-stop"),
            "par": str(level.par) if level.goal.kind == "hold" else "",
        }

    def played(self, tx: Tx, game: GameView, state: RoundState, t: float) -> None:
        """Give a practice game's learner the level's stars when a command (a move, the game's
        end) meets the level, in its transaction: ``game`` as it was before the command,
        ``state`` after it (the rounds service's extension calls it for every game whose
        command takes the locked transaction)."""
        if game.learn is None:
            return
        course = self.course()
        level = course.levels.get(game.learn)
        if level is None or level.opponent != "bot":
            return
        learner = learner_side(course, level)
        seats = game.seats
        learner_id = seats.white_id if learner else seats.black_id
        if seats.hotseat or not (seats.black_bot if learner else seats.white_bot):
            return  # only a game against a bot is practice
        got = practice_stars(level, learner, state)
        if got is not None and got != practice_stars(level, learner, game.state):
            merge_into(tx, learner_id, {level.id: got}, t)
