"""Entry conditions of an event and the reasons, in words, a player may not join (lila's
``Condition``, our code).

>>> conditions = Conditions(min_rated_games=20, max_rating=1800)
>>> refusals(conditions, Candidate(rated_games=12, rating=1650))
['8 more rated games are needed (20 in all)']
>>> refusals(conditions, Candidate(rated_games=40, rating=1650, top_rating=1850))
['your best rating of the last week, 1850, is over the limit of 1800']
>>> refusals(conditions, Candidate(rated_games=40, rating=1650))
[]
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass


@dataclass(frozen=True)
class Conditions:
    """What an event asks of its players: rated games played, a rating band (``min_rating``
    and ``max_rating`` inclusive), whether bots may join, and a password (an entry code)."""

    min_rated_games: int = 0
    min_rating: int | None = None
    max_rating: int | None = None
    bots: bool = False
    password: str | None = None

    def __post_init__(self) -> None:
        if self.min_rated_games < 0:
            raise ValueError(f"rated games cannot be negative ({self.min_rated_games})")
        low, high = self.min_rating, self.max_rating
        if low is not None and high is not None and low > high:
            raise ValueError(f"the rating band {low}-{high} is empty")

    def describe(self) -> list[str]:
        """The conditions in words, for the event's page."""
        words = []
        if self.min_rated_games:
            words.append(f"{self.min_rated_games} rated games played")
        if self.min_rating is not None and self.max_rating is not None:
            words.append(f"rated {self.min_rating} to {self.max_rating}")
        elif self.min_rating is not None:
            words.append(f"rated {self.min_rating} or more")
        elif self.max_rating is not None:
            words.append(f"rated {self.max_rating} or less")
        if not self.bots:
            words.append("no bots")
        if self.password is not None:
            words.append("an entry code")
        return words


@dataclass(frozen=True)
class Candidate:
    """What the server knows of a player who asks to join: their rated games and rating (on
    the event's board), whether the rating is provisional, whether they are a bot, and their
    best rating of the last week (``top_rating``: lila's guard against a player who lost
    games on purpose to get under a limit)."""

    rated_games: int
    rating: int
    provisional: bool = False
    bot: bool = False
    top_rating: int | None = None


def refusals(
    conditions: Conditions, candidate: Candidate, *, password: str | None = None
) -> list[str]:
    """Why ``candidate`` may not join, one sentence a reason; empty: they may."""
    reasons = []
    if candidate.bot and not conditions.bots:
        reasons.append("bots may not join this event")
    missing = conditions.min_rated_games - candidate.rated_games
    if missing > 0:
        games = "game is" if missing == 1 else "games are"
        reasons.append(f"{missing} more rated {games} needed ({conditions.min_rated_games} in all)")
    banded = conditions.min_rating is not None or conditions.max_rating is not None
    if banded and candidate.provisional:
        reasons.append("your rating is provisional: play more rated games first")
    elif conditions.min_rating is not None and candidate.rating < conditions.min_rating:
        reasons.append(
            f"your rating, {candidate.rating}, is under the minimum of {conditions.min_rating}"
        )
    if not candidate.provisional and conditions.max_rating is not None:
        if candidate.rating > conditions.max_rating:
            reasons.append(
                f"your rating, {candidate.rating}, is over the limit of {conditions.max_rating}"
            )
        elif candidate.top_rating is not None and candidate.top_rating > conditions.max_rating:
            reasons.append(
                f"your best rating of the last week, {candidate.top_rating}, "
                f"is over the limit of {conditions.max_rating}"
            )
    if conditions.password is not None:
        if password is None:
            reasons.append("this event needs its entry code")
        elif not hmac.compare_digest(password.encode(), conditions.password.encode()):
            reasons.append("the entry code is wrong")
    return reasons
