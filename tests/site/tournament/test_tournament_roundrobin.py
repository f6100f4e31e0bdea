"""Round robins, matches and entry conditions (emergo.server.tournament.roundrobin and
.conditions): FIDE's Berger table for 8, every pair meeting exactly once per colour, matches
from ballots, and the reasons a player may not join."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emergo.server.tournament.conditions import Candidate, Conditions, refusals
from emergo.server.tournament.roundrobin import MAX_PLAYERS, berger, berger_numbers, match

# FIDE Handbook C.05 Annex 1, the Berger table for 7 or 8 players
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def test_fides_berger_table() -> None:
    assert berger_numbers(8) == FIDE_8
    # 7 players: the same table, number 8 a bye
    assert berger_numbers(7) == [[b for b in boards if 8 not in b] for boards in FIDE_8]
    assert berger_numbers(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


@given(st.integers(2, MAX_PLAYERS), st.booleans(), st.sampled_from([1, 2]))
def test_every_pair_meets_once_per_colour(n: int, micro: bool, cycles: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = berger(players, micro_match=micro, cycles=cycles)
    assert len(rounds) == cycles * (n - 1 + n % 2)
    games = Counter((g.white, g.black) for games in rounds for g in games)
    for a in players:
        for b in players:
            if a != b:
                # each ordered pair (a White against b): once a micro-match or a cycle
                # pair, half of the pairs in a single round robin
                once = games[a, b] + games[b, a]
                assert once == (2 if micro or cycles == 2 else 1) * (
                    2 if micro and cycles == 2 else 1
                )
                if micro or cycles == 2:
                    assert games[a, b] == games[b, a]
    for games_of_round in rounds:
        # a player plays one pairing a round (two games of it in a micro-match)
        seats = Counter(p for g in games_of_round for p in (g.white, g.black))
        assert set(seats.values()) <= {2 if micro else 1}
        assert len(seats) == n - n % 2
    # single round robin: Whites and Blacks differ by one at most for everyone
    if not micro and cycles == 1:
        whites = Counter(g.white for games_of_round in rounds for g in games_of_round)
        blacks = Counter(g.black for games_of_round in rounds for g in games_of_round)
        assert all(abs(whites[p] - blacks[p]) <= 1 for p in players)


def test_ballots_in_a_round_robin() -> None:
    rounds = berger(
        ["a", "b", "c", "d"], micro_match=True, openings=["o1", "o2", "o3", "o4", "o5", "o6"]
    )
    assert [(g.white, g.black, g.opening) for g in rounds[0]] == [
        ("a", "d", "o1"),
        ("d", "a", "o1"),
        ("b", "c", "o2"),
        ("c", "b", "o2"),
    ]
    with pytest.raises(ValueError, match="6 ballots needed"):
        berger(["a", "b", "c", "d"], openings=["o1"])
    with pytest.raises(ValueError, match="at most 20 players"):
        berger([f"p{i}" for i in range(21)])
    with pytest.raises(ValueError, match="listed twice"):
        berger(["a", "a"])
    with pytest.raises(ValueError, match="two players at least"):
        berger(["a"])


def test_a_six_game_match() -> None:
    # the seeds' e-mail match: six games, colours alternating
    games = match("vanzon", "freeling", 6)
    assert [g.white for g in games] == ["vanzon", "freeling"] * 3
    assert all(g.opening is None for g in games)
    balloted = match("vanzon", "freeling", 5, ballots=["x", "y", "z"])
    assert [(g.white, g.opening) for g in balloted] == [
        ("vanzon", "x"),
        ("freeling", "x"),
        ("vanzon", "y"),
        ("freeling", "y"),
        ("vanzon", "z"),
    ]
    with pytest.raises(ValueError, match="3 ballots needed for 6 games"):
        match("a", "b", 6, ballots=["x"])
    with pytest.raises(ValueError, match="1 to 100 games"):
        match("a", "b", 0)


def test_entry_conditions() -> None:
    open_event = Conditions()
    assert refusals(open_event, Candidate(rated_games=0, rating=1500)) == []
    assert refusals(open_event, Candidate(rated_games=0, rating=1500, bot=True)) == [
        "bots may not join this event"
    ]
    assert refusals(Conditions(bots=True), Candidate(0, 1500, bot=True)) == []
    band = Conditions(min_rating=1400, max_rating=1800)
    assert refusals(band, Candidate(50, 1300)) == [
        "your rating, 1300, is under the minimum of 1400"
    ]
    assert refusals(band, Candidate(50, 1900)) == ["your rating, 1900, is over the limit of 1800"]
    assert refusals(band, Candidate(50, 1600, provisional=True)) == [
        "your rating is provisional: play more rated games first"
    ]
    assert refusals(Conditions(min_rated_games=1), Candidate(0, 1500)) == [
        "1 more rated game is needed (1 in all)"
    ]
    secret = Conditions(password="club")
    assert refusals(secret, Candidate(0, 1500)) == ["this event needs its entry code"]
    assert refusals(secret, Candidate(0, 1500), password="clu") == ["the entry code is wrong"]
    assert refusals(secret, Candidate(0, 1500), password="club") == []
    assert Conditions(min_rated_games=10, min_rating=1400, password="x").describe() == [
        "10 rated games played",
        "rated 1400 or more",
        "no bots",
        "an entry code",
    ]
    with pytest.raises(ValueError, match="empty"):
        Conditions(min_rating=1900, max_rating=1800)
