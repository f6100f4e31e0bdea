"""Tournaments on the site (emergo.server.tournament.service and .director), on SQLite and
PostgreSQL: an arena run to its end by scripted players (every pairing legal, the standings a
recount of the games), a Swiss of 9 players for 5 rounds (a bye each round, the library's
pairings, the tie-breaks), a correspondence round robin of 4 and a match of 6 games from
ballots; each game rated as any game, the results on the players' profiles."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from emergo.server.core import models as m
from emergo.server.tournament import swiss as sw
from emergo.server.tournament.service import TournamentError
from emergo.server.tournament.spec import arena_spec, swiss_spec
from emergo.server.tournament.swiss_check import violations
from tests.plugins.events import arena_violations, fake_clock, play_out, playing

pytest.importorskip("py4swiss")


def _accounts(site, count, prefix="p"):
    return [site.users.create(f"{prefix}{n:02d}", "a good password") for n in range(count)]


def _sweep(site, clock, seconds=0.0):
    clock.advance(seconds)
    site.director.sweep()


def _arena_joined_by(site, users):
    """A 20-minute arena of 3-minute games, starting at once, that ``users`` have joined."""
    event = site.tournaments.create(
        arena_spec({"clockTime": 3, "minutes": 20, "waitMinutes": 0}), users[0]
    )
    for user in users:
        site.tournaments.join(event.id, user)
    return event


@pytest.mark.slow
def test_an_arena_runs_its_whole_duration_with_legal_pairings(site) -> None:
    clock = fake_clock(site)
    rng = random.Random(30)
    users = _accounts(site, 10)
    event = site.tournaments.create(
        arena_spec(
            {"name": "Test", "clockTime": 1, "clockIncrement": 0, "minutes": 5, "waitMinutes": 1}
        ),
        users[0],
    )
    for user in users[:8]:
        site.tournaments.join(event.id, user)
    _sweep(site, clock, 61)  # the start and the first pass
    assert site.tournaments.get(event.id).status == "started"
    late = False
    while site.tournaments.get(event.id).status != "finished":
        for game_id in playing(site, event.id):
            if rng.random() < 0.7:  # the others go on over the next passes
                play_out(site, game_id, rng, plies=rng.randrange(26, 50))
        if not late and clock.t > event.starts_at + 120:
            late = True
            for user in users[8:]:
                site.tournaments.join(event.id, user)
            site.tournaments.withdraw(event.id, users[3])  # a pause
        _sweep(site, clock, 12.0)
    event, _players, pairings, lines = site.tournaments.view(event.id)
    assert len(pairings) > 40
    assert not arena_violations(site, event.id)
    # pairings stopped before the end: none made in the last 30 s (half a one-minute clock)
    with site.db.read() as c:
        made = (
            c.execute(
                select(m.tournament_games.c.created).where(
                    m.tournament_games.c.tournament_id == event.id
                )
            )
            .scalars()
            .all()
        )
    assert max(made) < event.ends_at - 30
    # the standings are a recount: each player's score from the games alone
    recount = {line.name: 0 for line in lines}
    from emergo.server.tournament.event import arena_games
    from emergo.server.tournament.sheet import player_sheet

    counted = arena_games(event, pairings)
    for name in recount:
        recount[name] = player_sheet(name, counted).total
    assert {line.name: line.score for line in lines} == recount
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    # rated as any game; results on the players' profiles
    with site.db.read() as c:
        rated = (
            c.execute(
                select(m.archive.c.rated).where(
                    m.archive.c.game_id.in_([p.game_id for p in pairings])
                )
            )
            .scalars()
            .all()
        )
    assert rated and all(rated)
    results = site.tournaments.results_of(users[0].id)
    assert results[0][0].id == event.id and results[0][1] is not None


def test_two_sweeps_at_once_never_pair_a_player_twice(site) -> None:
    import threading

    clock = fake_clock(site)
    users = _accounts(site, 20)
    event = _arena_joined_by(site, users)
    clock.advance(20)
    errors = []

    def sweep():
        try:
            for _ in range(5):
                site.director.sweep()
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    with site.db.read() as c:
        rows = c.execute(
            select(m.tournament_games.c.white_id, m.tournament_games.c.black_id).where(
                m.tournament_games.c.tournament_id == event.id
            )
        ).all()
    seen = [u for r in rows for u in r]
    assert len(rows) == 10 and len(seen) == len(set(seen))


def test_players_freed_while_a_pass_waits_are_paired_after_their_game_ended(
    site, monkeypatch
) -> None:
    """Two games end between the moment a pass reads the time and its transaction: the new
    pairings of their players begin once those games ended, not at the pass's first reading."""
    from emergo.server.tournament.director import LIVE_RECHECK

    clock = fake_clock(site)
    users = _accounts(site, 6)
    event = _arena_joined_by(site, users)
    _sweep(site, clock, 20)
    games = playing(site, event.id)
    assert len(games) == 3
    for game_id in games[:2]:  # begun (a game without a first move is aborted at the pass)
        for _ in range(2):
            game = site.rounds.get(game_id)
            board = game.state.board()
            mover = site.users.get(game.seats.id_of(board.turn))
            site.play(game_id, mover, "move", text=str(next(iter(board.moves()))))
    clock.advance(LIVE_RECHECK)  # the next pass is due
    write = site.db.write

    def two_games_end_first():
        monkeypatch.setattr(site.db, "write", write)
        clock.advance(1.0)
        for n, game_id in enumerate(games[:2]):
            play_out(site, game_id, random.Random(n), plies=10)
        return write()

    monkeypatch.setattr(site.db, "write", two_games_end_first)
    site.director.sweep()
    assert len(playing(site, event.id)) == 3  # the four freed players paired again
    assert not arena_violations(site, event.id)


def test_a_swiss_of_nine_for_five_rounds(site) -> None:
    clock = fake_clock(site)
    rng = random.Random(9)
    users = _accounts(site, 9, "s")
    event = site.tournaments.create(
        swiss_spec(
            {"name": "Nine", "clock.limit": 60, "nbRounds": 5, "waitMinutes": 1, "roundDelay": 0}
        ),
        users[0],
    )
    for user in users:
        site.tournaments.join(event.id, user)
    rounds_seen = 0
    _sweep(site, clock, 61)
    while site.tournaments.get(event.id).status != "finished":
        ev, _players, pairings, _lines = site.tournaments.view(event.id)
        if ev.round > rounds_seen:
            rounds_seen = ev.round
            # the round's pairing is the library's, and passes our checker
            value = _swiss_before(site, event.id, ev.round)
            pairing = sw.pair_round(value)
            mine = sorted((p.white, p.black) for p in pairings if p.round == ev.round)
            assert mine == sorted(pairing.boards)
            assert not violations(value, pairing)
        for game_id in playing(site, event.id):
            play_out(site, game_id, rng, plies=rng.randrange(26, 50))
        _sweep(site, clock, 1.0)
    ev, _players, pairings, lines = site.tournaments.view(event.id)
    assert ev.round == 5 and rounds_seen == 5
    with site.db.read() as c:
        byes = (
            c.execute(
                select(m.tournament_byes.c.user_id).where(
                    m.tournament_byes.c.tournament_id == event.id
                )
            )
            .scalars()
            .all()
        )
    assert len(byes) == 5 and len(set(byes)) == 5  # a bye each round, never twice
    value = _swiss_before(site, event.id, 6)
    assert value.finished
    expected = sw.standings(value)
    assert [(s.player, s.points, s.sonneborn_berger, s.buchholz) for s in expected] == [
        (line.name, line.score, *line.tie_breaks) for line in lines
    ]
    trf = site.tournaments.trf(event.id)
    assert trf.startswith("012 Nine Swiss") and "XXR 5" in trf


def _swiss_before(site, event_id, number):
    """The event as the pure module sees it before round ``number`` was paired."""
    from emergo.server.tournament.event import byes_of, event_of, pairings_of, roster

    with site.db.read() as c:
        row = c.execute(select(m.tournaments).where(m.tournaments.c.id == event_id)).first()
        players = roster(c, event_id)
        pairings = [p for p in pairings_of(c, event_id, players.names) if p.round < number]
        byes = {r: u for r, u in byes_of(c, event_id).items() if r < number}
    from dataclasses import replace

    event = replace(event_of(row), round=min(number - 1, row.round), status="started")
    return _value(event, players, pairings, byes)


def _value(event, players, pairings, byes):
    from emergo.server.tournament.event import swiss_value

    return swiss_value(event, players, pairings, byes)


def test_a_correspondence_round_robin_of_four(site) -> None:
    clock = fake_clock(site)
    rng = random.Random(4)
    users = _accounts(site, 4, "r")
    event = site.tournaments.create(
        arena_spec({"system": "robin", "days": 2, "waitMinutes": 1, "roundDelay": 0}), users[0]
    )
    for user in users:
        site.tournaments.join(event.id, user)
    with pytest.raises(TournamentError, match="full"):
        small = site.tournaments.create(
            arena_spec({"system": "robin", "days": 2, "maxPlayers": 2}), users[0]
        )
        for user in users[:3]:
            site.tournaments.join(small.id, user)
    _sweep(site, clock, 61)
    ev = site.tournaments.get(event.id)
    assert ev.rounds == 3 and ev.round == 1 and ev.round_due == pytest.approx(clock.t + 2 * 86400)
    # a micro-match a round: both games of each pairing at once, colours swapped
    assert len(playing(site, event.id)) == 4
    while site.tournaments.get(event.id).status != "finished":
        for game_id in playing(site, event.id):
            play_out(site, game_id, rng, plies=30)
        _sweep(site, clock, 60)
    ev, _players, pairings, lines = site.tournaments.view(event.id)
    assert len(pairings) == 12
    met = {}
    for p in pairings:
        met.setdefault(frozenset((p.white, p.black)), []).append(p.white)
    assert len(met) == 6 and all(len(set(whites)) == 2 for whites in met.values())
    assert sum(line.score for line in lines) == 12


def test_a_match_of_six_games_from_ballots(site) -> None:
    clock = fake_clock(site)
    rng = random.Random(6)
    ann, bob, eve = _accounts(site, 3, "m")
    event = site.tournaments.create(
        arena_spec(
            {
                "system": "match",
                "opponent": bob.name,
                "nbGames": 6,
                "clock.limit": 60,
                "start": "ballot",
                "waitMinutes": 1,
                "roundDelay": 0,
            }
        ),
        ann,
    )
    with pytest.raises(TournamentError, match="between two players"):
        site.tournaments.join(event.id, eve)
    site.tournaments.join(event.id, bob)
    _sweep(site, clock, 61)
    while site.tournaments.get(event.id).status != "finished":
        for game_id in playing(site, event.id):
            play_out(site, game_id, rng, plies=30)
        _sweep(site, clock, 1)
    _ev, _players, pairings, lines = site.tournaments.view(event.id)
    assert len(pairings) == 6
    assert [p.white for p in pairings] == [ann.name, bob.name] * 3
    openings = [p.opening for p in pairings]
    assert all(openings) and openings[0] == openings[1] and openings[2] == openings[3]
    with site.db.read() as c:
        tags = c.execute(
            select(m.games.c.tags, m.games.c.state).where(m.games.c.id == pairings[0].game_id)
        ).first()
    assert tags.tags["Ballot"] == openings[0] and tags.tags["Tournament"] == event.id
    from emergo.ballots import find_ballot

    assert tags.state["root"] == find_ballot(openings[0]).board().position()
    assert sum(line.score for line in lines) == 6
