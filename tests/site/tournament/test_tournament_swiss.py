"""Swiss events (emergo.server.tournament.swiss and .swiss_check): a Swiss of 9 players for 5
rounds with the library's pairings and tie-breaks worked out by hand, the TRF read back by the
library, late join, withdrawal, forfeits, and our checker over the library's pairings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emergo.server.tournament.swiss import (
    Entrant,
    Game,
    Pairing,
    Round,
    Swiss,
    SwissError,
    can_join,
    pair_round,
    points,
    standings,
    tie_breaks,
    trf,
)
from emergo.server.tournament.swiss_check import violations

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
RATING = {name: 2000 - 100 * i for i, name in enumerate(NAMES)} | {"zed": 1650, "yan": 1550}


def _play(pairing: Pairing, draws: set[int] = frozenset()) -> Round:  # type: ignore[assignment]
    """The higher rating wins, but on the boards numbered in ``draws``."""
    games = []
    for board, (white, black) in enumerate(pairing.boards, start=1):
        won = "1-0" if RATING[white] > RATING[black] else "0-1"
        games.append(Game(white, black, "1/2-1/2" if board in draws else won))
    return Round(tuple(games), pairing.bye)


def _nine() -> tuple[Swiss, list[Pairing]]:
    event = Swiss(rounds=5, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES))
    pairings = []
    for number in range(1, 6):
        pairing = pair_round(event)
        assert violations(event, pairing) == []
        pairings.append(pairing)
        event = event.with_round(_play(pairing, {1} if number == 3 else set()))
    return event, pairings


def test_nine_players_five_rounds() -> None:
    event, pairings = _nine()
    # the library's pairings: round 1 is the Dutch top half against the bottom half
    # (1-5, 6-2, 3-7, 8-4: the top seed White, colours alternating down the boards), the
    # odd player the lowest seed, who gets the bye
    assert pairings == [
        Pairing((("ann", "eve"), ("fay", "bob"), ("cat", "gus"), ("hal", "dan")), "ivy"),
        Pairing((("dan", "ann"), ("bob", "ivy"), ("eve", "cat"), ("gus", "fay")), "hal"),
        Pairing((("cat", "bob"), ("ann", "hal"), ("ivy", "dan"), ("fay", "eve")), "gus"),
        Pairing((("bob", "ann"), ("dan", "cat"), ("eve", "ivy"), ("hal", "gus")), "fay"),
        Pairing((("ann", "cat"), ("gus", "bob"), ("dan", "fay"), ("ivy", "hal")), "eve"),
    ]
    # five byes to five players, never twice
    assert len({p.bye for p in pairings}) == 5
    # By hand.  Final points: ann 5, bob 3.5, cat 3.5, dan 3, eve 3, fay 2, gus 2, hal 2, ivy 1.
    # A bye in round r of 5 counts as a virtual opponent with the player's points before it,
    # a loss in that round and draws after: points before + 0.5 * (5 - r).
    #   ann beat eve 3, dan 3, hal 2, bob 3.5, cat 3.5:  SB 15, Buchholz 15
    #   bob beat fay 2, ivy 1, drew cat 3.5, lost ann 5, beat gus 2:
    #       SB 2 + 1 + 1.75 + 2 = 6.75, Buchholz 2 + 1 + 3.5 + 5 + 2 = 13.5
    #   cat beat gus 2, eve 3, drew bob 3.5, beat dan 3, lost ann 5:
    #       SB 2 + 3 + 1.75 + 3 = 9.75, Buchholz 16.5
    #   dan beat hal 2, lost ann 5, beat ivy 1, lost cat 3.5, beat fay 2:  SB 5, Buchholz 13.5
    #   eve lost ann 5, cat 3.5, beat fay 2, ivy 1, bye in round 5 (2 points before: 2):
    #       SB 2 + 1 + 2 = 5, Buchholz 5 + 3.5 + 2 + 1 + 2 = 13.5
    #   fay lost bob 3.5, beat gus 2, lost eve 3, bye in round 4 (1 + 0.5 = 1.5), lost dan 3:
    #       SB 2 + 1.5 = 3.5, Buchholz 3.5 + 2 + 3 + 1.5 + 3 = 13
    #   gus lost cat 3.5, fay 2, bye in round 3 (0 + 1 = 1), beat hal 2, lost bob 3.5:
    #       SB 1 + 2 = 3, Buchholz 12
    #   hal lost dan 3, bye in round 2 (0 + 1.5), lost ann 5, gus 2, beat ivy 1:
    #       SB 1.5 + 1 = 2.5, Buchholz 12.5
    #   ivy bye in round 1 (0 + 2), lost bob 3.5, dan 3, eve 3, hal 2:  SB 2, Buchholz 13.5
    assert [(s.player, s.points, s.sonneborn_berger, s.buchholz) for s in standings(event)] == [
        ("ann", 5.0, 15.0, 15.0),
        ("cat", 3.5, 9.75, 16.5),  # cat and bob tie on points: Sonneborn-Berger first
        ("bob", 3.5, 6.75, 13.5),
        ("dan", 3.0, 5.0, 13.5),  # dan and eve tie on all three: the seed
        ("eve", 3.0, 5.0, 13.5),
        ("fay", 2.0, 3.5, 13.0),
        ("gus", 2.0, 3.0, 12.0),  # Sonneborn-Berger before Buchholz (hal's 12.5)
        ("hal", 2.0, 2.5, 12.5),
        ("ivy", 1.0, 2.0, 13.5),
    ]
    lines = {s.player: s for s in standings(event)}
    # the performance: opponents' ratings, +500 a win, -500 a loss, byes left out
    assert lines["eve"].performance == round(
        (2000 - 500 + 1800 - 500 + 1500 + 500 + 1200 + 500) / 4
    )
    assert event.finished
    with pytest.raises(SwissError, match="all 5 rounds"):
        pair_round(event)


def _parse(text: str, folder: Path):  # type: ignore[no-untyped-def]
    from py4swiss.trf import TrfParser

    path = folder / "event.trf"
    path.write_text(text, encoding="ascii")
    return TrfParser.parse(path, strict=True)


def test_the_trf_reads_back(tmp_path: Path) -> None:
    event, _ = _nine()
    parsed = _parse(trf(event, name="Club night", site="https://emergo.example/swiss/x"), tmp_path)
    assert parsed.x_section.number_of_rounds == 5
    assert parsed.x_section.configuration.first_round_color is True
    assert parsed.tournament_section.tournament_name == "Club night"
    by_number = {s.starting_number: s for s in parsed.player_sections}
    total = points(event)
    for number, entrant in enumerate(event.seeds(), start=1):
        section = by_number[number]
        assert section.name == entrant.player and section.fide_rating == entrant.rating
        assert section.points_times_ten == round(total[entrant.player] * 10)
        assert len(section.results) == 5
        for (outcome, opponent, colour), result in zip(
            event.outcomes(entrant.player), section.results, strict=True
        ):
            if opponent is None:
                assert result.id == 0 and result.result.value == "U"
            else:
                assert event.seeds()[result.id - 1].player == opponent
                assert result.color.value == colour
                assert result.result.value == {"win": "1", "draw": "=", "loss": "0"}[outcome]
    # the ranks are the standings'
    assert [by_number[n].rank for n in range(1, 10)] == [1, 3, 2, 4, 5, 6, 7, 8, 9]


def test_late_join_and_withdrawal(tmp_path: Path) -> None:
    event = Swiss(
        rounds=5, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES[:6]), white_first=False
    )
    event = event.with_round(_play(pair_round(event)))
    event = event.with_entrant("zed", 1650)  # joins after round 1: round 1 is half a point
    assert event.entrants[-1] == Entrant("zed", 1650, joined=2)
    event = event.with_absent("bob")  # withdraws before round 2
    pairing = pair_round(event)
    assert "bob" not in pairing.players() and "zed" in pairing.players()
    assert violations(event, pairing) == []
    assert "0000 - Z" in next(line for line in trf(event).splitlines() if " bob " in line)
    event = event.with_round(_play(pairing))
    assert can_join(event.rounds, len(event.played))  # round 3 may still be joined
    event = event.with_absent("bob", False).with_entrant("yan", 1550)
    for _ in range(3):
        pairing = pair_round(event)
        assert violations(event, pairing) == []
        event = event.with_round(_play(pairing))
    assert [o for o, _, _ in event.outcomes("zed")][:1] == ["late"]
    assert [o for o, _, _ in event.outcomes("bob")][1] == "absent"
    assert [o for o, _, _ in event.outcomes("yan")][:2] == ["late", "absent"]
    with pytest.raises(SwissError, match="joining closes after round 2"):
        event.with_entrant("xia", 1500)
    text = trf(event)
    assert "0000 - H" in text and "0000 - Z" in text and "XXC black1" in text
    parsed = _parse(text, tmp_path)
    assert {s.name: s.points_times_ten for s in parsed.player_sections} == {
        p: round(v * 10) for p, v in points(event).items()
    }


def test_forfeits_are_not_games_played() -> None:
    event = Swiss(rounds=3, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES[:3]))
    event = event.with_round(Round((Game("ann", "bob", "1-0", forfeit=True),), bye="cat"))
    assert [o for o, _, _ in event.outcomes("ann")] == ["forfeit_win"]
    # ann and bob may meet again; ann may not have the bye (a forfeit win is one, FIDE C.2)
    assert violations(event, Pairing((("bob", "ann"),), "cat")) == ["cat gets a second bye (C.2)"]
    assert violations(event, Pairing((("cat", "bob"),), "ann")) == ["ann gets a second bye (C.2)"]
    assert violations(event, Pairing((("ann", "cat"),), "bob")) == []
    pairing = pair_round(event)
    assert pairing.bye == "bob" and violations(event, pairing) == []
    # a forfeit counts in the tie-breaks as a virtual opponent
    sb, buchholz = tie_breaks(event)["ann"]
    assert (sb, buchholz) == (0.0, 0.0)  # 0 before, the other result 0, no round after
    with pytest.raises(SwissError, match="a forfeit has a winner"):
        Game("ann", "bob", "1/2-1/2", forfeit=True)


def test_the_checker_finds_what_is_wrong() -> None:
    event = Swiss(rounds=4, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES[:4]))
    event = event.with_round(Round((Game("ann", "cat", "1-0"), Game("dan", "bob", "0-1"))))
    event = event.with_round(Round((Game("bob", "ann", "1/2-1/2"), Game("cat", "dan", "1-0"))))
    # ann has W B, bob B W, cat B W, dan W B: points ann 1.5, bob 1.5, cat 1, dan 0
    assert violations(event, Pairing((("ann", "cat"), ("bob", "dan")))) == [
        "ann and cat met before (C.1)",
        "bob and dan met before (C.1)",
    ]
    assert violations(event, Pairing((("ann", "dan"),))) == [
        "bob is not paired",
        "cat is not paired",
    ]
    assert violations(event, Pairing((("ann", "dan"), ("cat", "ann")))) == [
        "bob is not paired",
        "ann is paired 2 times",
        "cat and ann met before (C.1)",
    ]
    assert violations(event, Pairing((("ann", "dan"), ("cat", "bob")), bye="eve")) == [
        "eve is paired but not present",
        "a bye with 4 players present (even)",
    ]
    # three Blacks in a row for dan
    event = Swiss(rounds=4, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES[:6]))
    r1 = Round((Game("ann", "dan", "1-0"), Game("bob", "eve", "1-0"), Game("cat", "fay", "1-0")))
    r2 = Round((Game("bob", "dan", "1-0"), Game("ann", "fay", "1-0"), Game("eve", "cat", "0-1")))
    event = event.with_round(r1).with_round(r2)
    assert violations(event, Pairing((("eve", "ann"), ("fay", "bob"), ("cat", "dan")))) == [
        "dan with Black: colour difference -3 (C.3)"
    ]
    # ann, bob and cat lead with 2 points; ann and bob both must have Black (C.3)
    assert violations(event, Pairing((("eve", "ann"), ("fay", "bob"), ("dan", "cat")))) == [
        "the top score group (2 points) has 0 pairs inside it, 1 is possible"
    ]
    assert violations(event, Pairing((("cat", "ann"), ("dan", "eve"), ("fay", "bob")))) == []


def test_the_top_score_group_keeps_its_pairs() -> None:
    # after round 1: ann, bob, cat, dan 1 point; eve, fay, gus, hal 0
    event = Swiss(rounds=5, entrants=tuple(Entrant(n, RATING[n]) for n in NAMES[:8]))
    first = (("ann", "eve"), ("fay", "bob"), ("cat", "gus"), ("hal", "dan"))
    event = event.with_round(_play(Pairing(first)))
    floated = Pairing((("ann", "fay"), ("bob", "eve"), ("cat", "dan"), ("gus", "hal")))
    assert violations(event, floated) == [
        "the top score group (1 point) has 1 pair inside it, 2 are possible"
    ]
    assert violations(event, pair_round(event)) == []


def test_bad_events_are_refused() -> None:
    entrants = (Entrant("ann", 1500), Entrant("bob", 1400))
    with pytest.raises(SwissError, match="at least one round"):
        Swiss(rounds=0, entrants=entrants)
    with pytest.raises(SwissError, match="entered twice"):
        Swiss(rounds=3, entrants=(*entrants, Entrant("ann", 1200)))
    with pytest.raises(SwissError, match="'cat' is not an entrant"):
        Swiss(rounds=3, entrants=entrants, played=(Round((Game("ann", "cat", "1-0"),)),))
    with pytest.raises(SwissError, match="'bob' is paired twice"):
        Swiss(rounds=3, entrants=entrants, played=(Round((Game("ann", "bob", "1-0"),), bye="bob"),))
    with pytest.raises(SwissError, match="joined for round 2"):
        late = (entrants[0], Entrant("bob", 1400, joined=2))
        Swiss(rounds=3, entrants=late, played=(Round((Game("ann", "bob", "1-0"),)),))
    with pytest.raises(SwissError, match="absent but not entrants: 'zed'"):
        Swiss(rounds=3, entrants=entrants, absent=frozenset({"zed"}))
    with pytest.raises(SwissError, match="a result is one of"):
        Game("ann", "bob", "2-0")
    with pytest.raises(SwissError, match="1 player to pair"):
        pair_round(Swiss(rounds=3, entrants=entrants, absent=frozenset({"bob"})))


@st.composite
def events(draw: st.DrawFn) -> tuple[Swiss, int]:
    n = draw(st.integers(4, 11))
    rounds = draw(st.integers(2, 7))
    entrants = tuple(Entrant(f"p{i:02d}", draw(st.integers(1000, 2400))) for i in range(n))
    return Swiss(rounds=rounds, entrants=entrants, white_first=draw(st.booleans())), draw(
        st.integers(0, 2**16)
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_the_library_keeps_our_rules(case: tuple[Swiss, int]) -> None:
    """Random events, late joins, withdrawals, returns, forfeits: every round the library
    pairs keeps the rules our checker checks."""
    event, seed = case
    rng = random.Random(seed)
    rating = {e.player: e.rating for e in event.entrants}
    extra = 0
    while not event.finished:
        if can_join(event.rounds, len(event.played)) and rng.random() < 0.3:
            name = f"late{extra}"
            extra += 1
            rating[name] = rng.randint(1000, 2400)
            event = event.with_entrant(name, rating[name])
        for player in list(rating):
            if rng.random() < 0.1:
                event = event.with_absent(player, player not in event.absent)
        while len(event.present()) < 2:  # none left: one back was still one too few
            event = event.with_absent(next(iter(event.absent)), False)
        try:
            pairing = pair_round(event)
        except SwissError as error:  # a round no pairing can satisfy: the event ends
            assert "cannot be paired" in str(error)
            return
        assert violations(event, pairing) == []
        games = []
        for white, black in pairing.boards:
            result = rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"])
            games.append(
                Game(white, black, result, forfeit=result != "1/2-1/2" and rng.random() < 0.05)
            )
        event = event.with_round(Round(tuple(games), pairing.bye))
    lines = standings(event)
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
