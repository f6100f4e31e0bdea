"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): our own, with lichess's constants.

Pure arithmetic: nothing here reads the time or a store.  Two levels:

* :func:`update` is Glickman's algorithm as he wrote it: one player, the results of one rating
  period, the system constant ``tau``, and step 6's growth of the deviation.  His worked example
  (1500 / 200 / 0.06, tau 0.5, three games) ends at 1464.06 / 151.52 / 0.05999 from his rounded
  intermediate values (mu' = -0.2069, phi' = 0.8722); unrounded it is 1464.0507 / 151.5165 /
  0.0599960.
* :func:`rate_game` is how a site rates one game, as lichess does (lila's ``PerfsUpdater`` on
  scalachess's ``GlickoCalculator``): each game is a rating period of its own; both players are
  rated against the other's rating before the game; step 6 is skipped in the game, because the
  deviation grows with the time away instead (:func:`rd_after`, lichess's ``previewDeviation``,
  at :data:`RATING_PERIODS_PER_DAY`); then the bounds apply (rating 400 to 4000, at most 700
  points a game, deviation 45 to 500, volatility at most 0.1).

A rating is provisional while its deviation is :data:`PROVISIONAL_DEVIATION` (110) or more; a
new player has 1500 / 500 / 0.09.

>>> r = update(Rating(1500, 200, 0.06),
...            [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
...            tau=0.5)
>>> round(r.rating, 4), round(r.rd, 4), round(r.volatility, 7)
(1464.0507, 151.5165, 0.059996)
>>> white, black = rate_game(Rating(), Rating(), 1.0)
>>> round(white.rating), round(black.rating), round(white.rd), white.provisional
(1741, 1259, 397, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_RATING",
    "DEFAULT_VOLATILITY",
    "MAX_DEVIATION",
    "MAX_RATING",
    "MAX_RATING_DELTA",
    "MAX_VOLATILITY",
    "MIN_DEVIATION",
    "MIN_RATING",
    "PROVISIONAL_DEVIATION",
    "RATING_PERIODS_PER_DAY",
    "SCALE",
    "TAU",
    "Rating",
    "rate_game",
    "rd_after",
    "update",
]

SCALE = 173.7178
"""Glicko-2's scale: ``mu = (rating - 1500) / SCALE``, ``phi = rd / SCALE`` (Glickman, step 2)."""
DEFAULT_RATING = 1500.0
"""A new player's rating (lichess)."""
MAX_DEVIATION = 500.0
"""A new player's deviation, and the most time away makes it grow to (lichess's maxDeviation)."""
MIN_DEVIATION = 45.0
"""The least deviation: however many games, a rating still moves (lichess's minDeviation)."""
DEFAULT_VOLATILITY = 0.09
"""A new player's volatility (lichess's defaultVolatility)."""
MAX_VOLATILITY = 0.1
"""The most volatility a game leaves: past it a rating might not settle again (lichess)."""
MIN_RATING = 400.0
"""The least rating (lichess's minRating)."""
MAX_RATING = 4000.0
"""The most rating (lichess treats more as broken; here it is a bound)."""
MAX_RATING_DELTA = 700.0
"""The most rating one game can win or lose (lichess's maxRatingDelta)."""
PROVISIONAL_DEVIATION = 110.0
"""A rating is provisional while its deviation is this or more (lichess): leaderboards leave it
out and it is shown with a question mark."""
TAU = 0.75
"""The system constant: how much the volatility may change (lichess; Glickman suggests 0.3-1.2)."""
RATING_PERIODS_PER_DAY = 0.21436
"""Rating periods a day of time away counts for when the deviation grows (lichess: chosen so a
typical player's deviation goes from 60 to 110 in a year)."""

_CONVERGENCE = 1e-6
"""Step 5's tolerance (Glickman's epsilon)."""
_ITERATIONS = 1000
"""Step 5 converges in a handful of iterations; this bound only guards against a bug."""


def _finite(value: object, what: str, *, positive: bool = False) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number) and (number > 0 or not positive):
            return number
    raise ValueError(f"{what} must be a finite number{' above 0' if positive else ''}: {value!r}")


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale: ``rating``, deviation ``rd``, volatility.

    >>> Rating()
    Rating(rating=1500.0, rd=500.0, volatility=0.09)
    >>> Rating(1800, 109.9).provisional, Rating(1800, 110).provisional
    (False, True)
    """

    rating: float = DEFAULT_RATING
    rd: float = MAX_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        object.__setattr__(self, "rating", _finite(self.rating, "a rating"))
        object.__setattr__(self, "rd", _finite(self.rd, "a rating deviation", positive=True))
        volatility = _finite(self.volatility, "a volatility", positive=True)
        object.__setattr__(self, "volatility", volatility)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still a guess: deviation :data:`PROVISIONAL_DEVIATION` or more."""
        return self.rd >= PROVISIONAL_DEVIATION

    @property
    def mu(self) -> float:
        """The rating on Glicko-2's scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on Glicko-2's scale."""
        return self.rd / SCALE


def _g(phi: float) -> float:
    """Step 3: how much an opponent's uncertainty dampens what a game says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_opponent: float, g: float) -> float:
    """Step 3: the expected score against an opponent."""
    return 1.0 / (1.0 + math.exp(-g * (mu - mu_opponent)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_ITERATIONS):
        if abs(big_b - big_a) <= _CONVERGENCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    else:  # pragma: no cover - Glickman's iteration converges for every finite input
        raise ArithmeticError(f"Glicko-2's volatility did not converge: {phi, sigma, delta, v}")
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
    periods: float = 1.0,
) -> Rating:
    """``player`` after one rating period with ``results``: (opponent, score) pairs, the score
    1 for a win, 0.5 for a draw, 0 for a loss; Glickman's steps 1-8, unbounded.

    ``periods``: rating periods step 6 grows the deviation by before the games count (Glickman:
    1; :func:`rate_game` passes 0, as lichess).  Without results only step 6 applies.

    >>> round(update(Rating(1500, 200, 0.06), []).rd, 2)
    200.27
    """
    tau = _finite(tau, "tau", positive=True)
    periods = _finite(periods, "the rating periods")
    if periods < 0:
        raise ValueError(f"the rating periods must be 0 or more: {periods!r}")
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        grown = math.sqrt(phi * phi + periods * sigma * sigma)
        return Rating(player.rating, grown * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        score = _finite(score, "a score")
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0 (a loss), 0.5 (a draw) or 1 (a win), not {score!r}")
        g = _g(opponent.phi)
        expected = _expected(mu, opponent.mu, g)
        v_inverse += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)  # step 8


def rd_after(rating: Rating, days: float) -> float:
    """The deviation of ``rating`` after ``days`` of time away: step 6 for ``days *``
    :data:`RATING_PERIODS_PER_DAY` rating periods, within 45 and 500 (lichess's live deviation).

    >>> round(rd_after(Rating(1500, 60, 0.06), 365), 1)     # lichess's design point: 60 -> 110
    110.0
    >>> rd_after(Rating(1500, 400), 10_000)
    500.0
    """
    days = _finite(days, "the days away")
    periods = max(days, 0.0) * RATING_PERIODS_PER_DAY
    grown = SCALE * math.sqrt(rating.phi**2 + periods * rating.volatility**2) if periods else 0.0
    rd = max(rating.rd, grown)  # never below: phi's round trip through SCALE can lose an ulp
    return min(max(rd, MIN_DEVIATION), MAX_DEVIATION)


def _bounded(before: Rating, after: Rating) -> Rating:
    """lichess's caps on a game's result (``Glicko.cap`` and ``maxRatingDelta``)."""
    change = max(-MAX_RATING_DELTA, min(MAX_RATING_DELTA, after.rating - before.rating))
    return Rating(
        min(max(before.rating + change, MIN_RATING), MAX_RATING),
        min(max(after.rd, MIN_DEVIATION), MAX_DEVIATION),
        min(after.volatility, MAX_VOLATILITY),
    )


def rate_game(
    white: Rating, black: Rating, score: float, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """Both players after one game: ``score`` is White's (1, 0.5 or 0).

    Each game is a rating period: each side is rated against the other's rating before the game,
    without step 6 (pass ratings whose deviation already grew with the time away:
    :func:`rd_after`), then bounded.  The same for either colour: no first-move advantage.
    """
    score = _finite(score, "a score")
    new_white = update(white, [(black, score)], tau=tau, periods=0.0)
    new_black = update(black, [(white, 1.0 - score)], tau=tau, periods=0.0)
    return _bounded(white, new_white), _bounded(black, new_black)
