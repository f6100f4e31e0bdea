"""Glicko-2 (emergo.server.user.glicko2): Glickman's worked example, scalachess's vectors,
properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from emergo.server.user.glicko2 import (
    DEFAULT_VOLATILITY,
    MAX_DEVIATION,
    MAX_RATING,
    MAX_RATING_DELTA,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    MIN_RATING,
    PROVISIONAL_DEVIATION,
    RATING_PERIODS_PER_DAY,
    TAU,
    Rating,
    rate_game,
    rd_after,
    update,
)

# --- Glickman's worked example -------------------------------------------------------------------


def test_glickmans_worked_example() -> None:
    """glicko2.pdf: 1500 / 200 / 0.06, tau 0.5, beats 1400/30, loses to 1550/100 and 1700/300."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    # Glickman rounds his intermediate values (mu' = -0.2069 gives 1464.06); unrounded: 1464.0507
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    # and his intermediate figures on the Glicko-2 scale (steps 2-8)
    assert after.mu == pytest.approx(-0.2069, abs=0.0001)
    assert after.phi == pytest.approx(0.8722, abs=0.0001)


def test_the_order_of_a_periods_results_does_not_matter() -> None:
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.5)]
    one = update(Rating(1500, 200, 0.06), games)
    other = update(Rating(1500, 200, 0.06), games[::-1])
    assert one.rating == pytest.approx(other.rating, abs=1e-9)
    assert one.rd == pytest.approx(other.rd, abs=1e-9)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    """Step 6 alone: phi* = sqrt(phi^2 + sigma^2) for each period."""
    player = Rating(1700, 200, 0.06)
    after = update(player, [], periods=4)
    assert after.rating == 1700 and after.volatility == 0.06
    assert after.phi == pytest.approx(math.sqrt(player.phi**2 + 4 * 0.06**2))


# --- one game, lichess's way ---------------------------------------------------------------------

# scalachess's GlickoCalculatorTest (rating/src/test), its reference figures and tolerances
SCALACHESS = [
    # white, black, white's score: white's and black's rating, deviation, volatility (tolerance)
    ((1500, 500, 0.09), (1500, 500, 0.09), 1.0, (1741, 1258, 1), (396, 396, 1), (0.0899983, 1e-6)),
    ((1500, 500, 0.09), (1500, 500, 0.09), 0.0, (1258, 1741, 1), (396, 396, 1), (0.0899983, 1e-6)),
    ((1500, 500, 0.09), (1500, 500, 0.09), 0.5, (1500, 1500, 1), (396, 396, 1), (0.0899954, 1e-6)),
    ((1400, 79, 0.06), (1550, 110, 0.065), 1.0, (1422, 1506, 1), (77, 105, 1), None),
    ((1400, 79, 0.06), (1550, 110, 0.065), 0.0, (1389, 1568, 1), (78, 105, 1), None),
    ((1400, 79, 0.06), (1550, 110, 0.065), 0.5, (1406, 1537, 1), (78, 105.87, 1), None),
    ((1200, 60, 0.053), (1850, 200, 0.062), 1.0, (1216.7, 1636, 0.1), (59.9, 196.9, 0.1), None),
    ((1200, 60, 0.053), (1850, 200, 0.062), 0.0, (1199.3, 1855.4, 0.1), (59.9, 196.9, 0.1), None),
    ((1200, 60, 0.053), (1850, 200, 0.062), 0.5, (1208.0, 1745.7, 0.1), (59.9, 196.98, 0.1), None),
]


@pytest.mark.parametrize(("white", "black", "score", "ratings", "rds", "vol"), SCALACHESS)
def test_one_game_agrees_with_scalachess(
    white: tuple[float, float, float],
    black: tuple[float, float, float],
    score: float,
    ratings: tuple[float, float, float],
    rds: tuple[float, float, float],
    vol: tuple[float, float] | None,
) -> None:
    w, b = rate_game(Rating(*white), Rating(*black), score)
    assert w.rating == pytest.approx(ratings[0], abs=ratings[2])
    assert b.rating == pytest.approx(ratings[1], abs=ratings[2])
    assert w.rd == pytest.approx(rds[0], abs=rds[2])
    assert b.rd == pytest.approx(rds[1], abs=rds[2])
    if vol is not None:
        assert w.volatility == pytest.approx(vol[0], abs=vol[1])


def test_a_newcomer_is_provisional_until_his_deviation_falls_below_110() -> None:
    player, opponent = Rating(), Rating(1500, 60, 0.06)
    assert player == Rating(1500, MAX_DEVIATION, DEFAULT_VOLATILITY) and player.provisional
    games = 0
    while player.provisional:
        player, _ = rate_game(player, opponent, 0.5)
        games += 1
    assert player.rd < PROVISIONAL_DEVIATION
    assert 5 <= games <= 30  # a handful of games, not one and not a hundred


def test_the_bounds_of_one_game() -> None:
    newcomer, master = Rating(MIN_RATING, 500, 0.09), Rating(MAX_RATING, 45, 0.06)
    w, _ = rate_game(newcomer, master, 1.0)
    assert w.rating - newcomer.rating == MAX_RATING_DELTA  # the upset is worth more, but 700
    _, b = rate_game(Rating(MIN_RATING, 45, 0.06), Rating(MAX_RATING, 500, 0.09), 1.0)
    assert b.rating == MAX_RATING - MAX_RATING_DELTA
    w, _ = rate_game(Rating(MIN_RATING + 1), Rating(MIN_RATING + 1), 0.0)
    _, b = rate_game(Rating(MAX_RATING - 1), Rating(MAX_RATING - 1), 0.0)
    assert w.rating == MIN_RATING and b.rating == MAX_RATING
    w, _ = rate_game(Rating(1500, MIN_DEVIATION), Rating(1500, MIN_DEVIATION), 1.0)
    assert w.rd == MIN_DEVIATION


@pytest.mark.parametrize(
    "bad",
    [float("nan"), float("inf"), "1500", None, True],
    ids=["nan", "inf", "str", "none", "bool"],
)
def test_bad_values_are_refused_saying_what(bad: object) -> None:
    with pytest.raises(ValueError, match="rating"):
        Rating(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="score"):
        rate_game(Rating(), Rating(), bad)  # type: ignore[arg-type]


def test_deviation_and_volatility_must_be_positive_and_scores_between_0_and_1() -> None:
    with pytest.raises(ValueError, match="deviation"):
        Rating(1500, 0)
    with pytest.raises(ValueError, match="volatility"):
        Rating(1500, 100, -0.1)
    with pytest.raises(ValueError, match="a score is 0"):
        rate_game(Rating(), Rating(), 2)
    with pytest.raises(ValueError, match="0 or more"):
        update(Rating(), [], periods=-1)


# --- time away -----------------------------------------------------------------------------------


def test_time_away_grows_the_deviation_as_lichess() -> None:
    """lichess's rating periods per day: a typical player's 60 grows to 110 in a year."""
    assert RATING_PERIODS_PER_DAY == 0.21436 and TAU == 0.75
    assert rd_after(Rating(1500, 60, 0.06), 365) == pytest.approx(110, abs=0.5)
    assert rd_after(Rating(1500, 60, 0.06), 0) == 60
    assert rd_after(Rating(1500, 30, 0.06), 0) == MIN_DEVIATION
    assert rd_after(Rating(1500, 300, 0.09), 100_000) == MAX_DEVIATION
    assert rd_after(Rating(1500, 60, 0.06), -5) == 60  # a clock that went back: no change


# --- properties ----------------------------------------------------------------------------------

ratings = st.builds(
    Rating,
    st.floats(MIN_RATING, MAX_RATING),
    st.floats(MIN_DEVIATION, MAX_DEVIATION),
    st.floats(0.03, MAX_VOLATILITY),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(ratings, ratings)
def test_the_winners_rating_never_falls_nor_the_losers_rises(white: Rating, black: Rating) -> None:
    w, b = rate_game(white, black, 1.0)
    assert w.rating >= white.rating and b.rating <= black.rating
    w, b = rate_game(white, black, 0.0)
    assert w.rating <= white.rating and b.rating >= black.rating


@given(ratings, ratings, scores)
def test_a_game_never_grows_the_deviation(white: Rating, black: Rating, score: float) -> None:
    w, b = rate_game(white, black, score)
    assert w.rd <= white.rd and b.rd <= black.rd
    assert min(w.rd, b.rd) >= MIN_DEVIATION
    assert w.volatility <= MAX_VOLATILITY and MIN_RATING <= w.rating <= MAX_RATING


@given(ratings, ratings, scores)
def test_games_shrink_the_deviation_above_the_floor(
    white: Rating, black: Rating, score: float
) -> None:
    w, _ = rate_game(white, black, score)
    if white.rd > MIN_DEVIATION + 1:
        assert w.rd < white.rd


@given(ratings, st.floats(0, 3650), st.floats(0, 3650))
@example(Rating(400.0, 482.4480788536151, 0.0625), 0.0, 2e-43)  # phi's round trip lost an ulp
def test_time_away_never_shrinks_the_deviation(rating: Rating, days: float, more: float) -> None:
    sooner, later = rd_after(rating, days), rd_after(rating, days + more)
    assert sooner <= later <= MAX_DEVIATION
    if rating.rd < MAX_DEVIATION - 1 and rating.rd > MIN_DEVIATION and days >= 30:
        assert sooner > rating.rd


@given(st.floats(MIN_RATING, MAX_RATING), st.floats(MIN_DEVIATION, MAX_DEVIATION), ratings)
def test_a_draw_between_equals_changes_little(rating: float, rd: float, _: Rating) -> None:
    equal = Rating(rating, rd, 0.06)
    w, b = rate_game(equal, equal, 0.5)
    assert w.rating == pytest.approx(rating, abs=1e-6)
    assert b.rating == pytest.approx(rating, abs=1e-6)
    assert w.volatility == pytest.approx(0.06, abs=0.0001)


@given(ratings, ratings)
def test_a_draw_moves_the_two_ratings_towards_each_other(white: Rating, black: Rating) -> None:
    w, b = rate_game(white, black, 0.5)
    if white.rating < black.rating:
        assert w.rating >= white.rating and b.rating <= black.rating
    assert abs(w.rating - white.rating) <= MAX_RATING_DELTA


@given(ratings, ratings, scores)
def test_symmetric_under_swapping_the_players(white: Rating, black: Rating, score: float) -> None:
    w, b = rate_game(white, black, score)
    b2, w2 = rate_game(black, white, 1.0 - score)
    assert (w, b) == (w2, b2)
