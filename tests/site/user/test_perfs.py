"""A player's ratings per variant and speed (emergo.server.user.perfs): keys, time away, JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emergo.clock import DAY, TimeControl
from emergo.server.user.glicko2 import Rating
from emergo.server.user.perfs import PERF_KEYS, Perf, Perfs, parse_perf_key, perf_key, rate

NOW = 1_800_000_000.0


def test_one_rating_per_variant_and_speed() -> None:
    assert PERF_KEYS == (
        "9x9-live",
        "9x9-correspondence",
        "7x7-live",
        "7x7-correspondence",
        "hex-live",
        "hex-correspondence",
    )
    assert perf_key("9x9", TimeControl.fischer(60)) == "9x9-live"
    assert perf_key("9x9", TimeControl.per_move(10)) == "9x9-live"
    assert perf_key("7x7", TimeControl.correspondence(2)) == "7x7-correspondence"
    assert perf_key("hex", None) == "hex-correspondence"  # unlimited is rated as correspondence
    for key in PERF_KEYS:
        assert "-".join(parse_perf_key(key)) == key


@pytest.mark.parametrize("bad", ["chess-live", "9x9-blitz", "", "9x9"])
def test_unknown_ratings_are_refused_by_name(bad: str) -> None:
    with pytest.raises(ValueError, match="unknown rating"):
        parse_perf_key(bad)
    with pytest.raises(ValueError, match="unknown rating"):
        Perfs()[bad]


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        perf_key("chess", None)


def test_a_new_players_ratings_as_lichess_shows_them() -> None:
    perfs = Perfs().to_json(NOW)
    assert list(perfs) == list(PERF_KEYS)
    assert perfs["9x9-live"] == {"rating": 1500, "rd": 500, "prov": True, "games": 0}
    json.dumps(perfs)


def test_a_rated_game_changes_that_rating_only() -> None:
    perfs = Perfs()
    white, black = rate(perfs["hex-live"], perfs["hex-live"], 0.0, NOW)
    perfs = perfs.with_perf("hex-live", white)
    shown = perfs.to_json(NOW)
    assert shown["hex-live"]["games"] == 1 and shown["hex-live"]["rating"] < 1500
    assert black.glicko.rating > 1500
    assert all(shown[key]["games"] == 0 for key in PERF_KEYS if key != "hex-live")


def test_the_deviation_grows_with_time_away_and_the_rating_becomes_provisional_again() -> None:
    settled = Perf(Rating(1800, 60, 0.06), games=200, latest=NOW)
    assert not settled.provisional(NOW)
    assert settled.to_json(NOW + 30 * DAY)["rd"] > 60
    assert not settled.provisional(NOW + 300 * DAY)
    assert settled.provisional(NOW + 400 * DAY)  # about a year away (lichess: 60 -> 110)
    assert settled.at(NOW + 400 * DAY).rating == 1800  # the rating itself stays
    # the game after the time away starts from the grown deviation
    white, _ = rate(
        settled, Perf(Rating(1800, 60, 0.06), 10, NOW + 400 * DAY), 1.0, NOW + 400 * DAY
    )
    fresh, _ = rate(settled, Perf(Rating(1800, 60, 0.06), 10, NOW), 1.0, NOW)
    assert white.glicko.rating - 1800 > fresh.glicko.rating - 1800 > 0
    assert white.latest == NOW + 400 * DAY and white.games == 201


def test_the_store_keeps_exact_values() -> None:
    perf = Perf(Rating(1623.123456789, 87.654321, 0.0612345), 12, NOW + 0.5)
    stored = json.loads(json.dumps(perf.to_store()))
    assert Perf.from_store(stored) == perf
    assert Perf.from_store(Perf().to_store()) == Perf()
    with pytest.raises(ValueError, match="needs 'rd'"):
        Perf.from_store({"rating": 1500, "volatility": 0.09, "games": 0})
    with pytest.raises(ValueError, match="games"):
        Perf(games=-1)
    with pytest.raises(ValueError, match="latest"):
        Perf(latest=float("nan"))


@given(st.floats(0, 3650), st.floats(0, 3650))
def test_never_less_provisional_with_more_time_away(days: float, more: float) -> None:
    perf = Perf(Rating(1700, 80, 0.06), 50, NOW)
    assert perf.at(NOW + days * DAY).rd <= perf.at(NOW + (days + more) * DAY).rd
