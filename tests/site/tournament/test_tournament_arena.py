"""The arena (emergo.server.tournament.arena and .sheet): every pairing legal for random
waiting rooms, never a player twice, the exact matching against brute force, a whole simulated
arena, and the scores (streaks, berserk, movement phase) against a slow recount."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emergo.server.tournament.arena import (
    MAX_STREAK,
    ColourHistory,
    Pairing,
    Waiting,
    cost,
    legal,
    pair_arena,
    pairing_closes,
    pairings_closed,
    white_first,
)
from emergo.server.tournament.sheet import (
    BERSERK_PLIES,
    LONG_GAME_PLIES,
    QUICK_DRAW_PLIES,
    ArenaGame,
    movement_plies,
    performance,
    player_sheet,
    standings,
)

# --- waiting rooms ------------------------------------------------------------------------

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]
"""Rooms of hundreds of players are large examples; the machine may be busy."""


def _colours(draw: st.DrawFn) -> str:
    """A colour history no legal arena could exceed: no run longer than MAX_STREAK."""
    text = ""
    for _ in range(draw(st.integers(0, 12))):
        options = "wb"
        if len(text) >= MAX_STREAK and len(set(text[-MAX_STREAK:])) == 1:
            options = "b" if text[-1] == "w" else "w"
        text += draw(st.sampled_from(options))
    return text


@st.composite
def rooms(draw: st.DrawFn, most: int = 40) -> list[Waiting]:
    n = draw(st.integers(0, most))
    names = [f"p{i}" for i in range(n)]
    ranks = draw(st.permutations(range(1, n + 1))) if n else []
    room = []
    for i, name in enumerate(names):
        others = [x for x in names if x != name]
        last = draw(st.none() | st.sampled_from(others)) if others else None
        room.append(
            Waiting(
                name,
                rank=ranks[i],
                rating=draw(st.integers(600, 2800)),
                last_opponent=last,
                colours=ColourHistory.of(_colours(draw)),
                since=draw(st.floats(0, 1000)),
                playing=draw(st.booleans()) and draw(st.booleans()),
            )
        )
    return room


def _check(room: list[Waiting], pairings: list[Pairing], *, rematch: bool) -> None:
    by_name = {p.player: p for p in room}
    seen: list[str] = []
    for pairing in pairings:
        white, black = by_name[pairing.white], by_name[pairing.black]
        assert not white.playing and not black.playing
        seen += [white.player, black.player]
        if not rematch:
            assert white.last_opponent != black.player and black.last_opponent != white.player
        assert abs(white.colours.after(white=True).streak) <= MAX_STREAK
        assert abs(black.colours.after(white=False).streak) <= MAX_STREAK
        assert white_first(white.colours, black.colours) in (True, None)
    assert len(seen) == len(set(seen)), "a player in two games"


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW)
@given(rooms(), st.floats(0, 100), st.sampled_from([None, 2, 3, 50]), st.integers(0, 9))
def test_every_pairing_is_legal(
    room: list[Waiting], now: float, active: int | None, seed: int
) -> None:
    pairings = pair_arena(room, now=now, starts_at=0.0, active_players=active, seed=seed)
    _check(room, pairings, rematch=active == 2)


@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(rooms(most=300), st.integers(0, 9))
def test_large_rooms_stay_legal(room: list[Waiting], seed: int) -> None:
    pairings = pair_arena(room, now=100.0, starts_at=0.0, seed=seed)
    _check(room, pairings, rematch=False)


def _brute_force(players: list[Waiting]) -> tuple[int, int]:
    """The most pairs and their least cost over every matching (small rooms only)."""
    if not players:
        return (0, 0)
    max_rank = max(p.rank for p in players)
    best = (0, 0)

    def walk(free: list[Waiting], pairs: int, total: int) -> None:
        nonlocal best
        if (pairs, -total) > (best[0], -best[1]):
            best = (pairs, total)
        if len(free) < 2:
            return
        first, rest = free[0], free[1:]
        walk(rest, pairs, total)  # first stays unpaired
        for k, other in enumerate(rest):
            if legal(first, other):
                walk(rest[:k] + rest[k + 1 :], pairs + 1, total + cost(first, other, max_rank))

    walk(players, 0, 0)
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(rooms(most=9))
def test_the_matching_is_the_cheapest_of_the_largest(room: list[Waiting]) -> None:
    idle = [p for p in room if not p.playing]
    pairings = pair_arena(idle, now=100.0, starts_at=0.0)
    if len(idle) % 2:
        # the player who came last waits, unless nobody could be paired without them
        last = max(range(len(idle)), key=lambda i: (idle[i].since, i))
        even = idle[:last] + idle[last + 1 :]
        most, least = _brute_force(even)
        if most == 0:
            most, least = _brute_force(idle)
            even = idle
    else:
        even = idle
        most, least = _brute_force(idle)
    max_rank = max((p.rank for p in even), default=1)
    by_name = {p.player: p for p in even}
    assert len(pairings) == most
    assert sum(cost(by_name[p.white], by_name[p.black], max_rank) for p in pairings) == least


def test_the_rank_counts_more_at_the_top() -> None:
    # lila's factor: 2000 at the top of the ranks, 300 at the bottom
    a, b = Waiting("a", rank=1, rating=1500), Waiting("b", rank=2, rating=1500)
    y, z = Waiting("y", rank=99, rating=1500), Waiting("z", rank=100, rating=1500)
    assert cost(a, b, 100) == 1983 and cost(y, z, 100) == 317


def test_the_odd_player_out_is_the_last_to_come() -> None:
    room = [Waiting(f"p{i}", rank=i + 1, rating=1500, since=float(i)) for i in range(5)]
    paired = {
        p
        for pairing in pair_arena(room, now=100.0, starts_at=0.0)
        for p in (pairing.white, pairing.black)
    }
    assert paired == {"p0", "p1", "p2", "p3"}


def test_two_players_alone_may_play_again() -> None:
    room = [Waiting("a", rank=1, rating=1500, last_opponent="b"), Waiting("b", rank=2, rating=1500)]
    assert pair_arena(room, now=100.0, starts_at=0.0, active_players=3) == []
    assert len(pair_arena(room, now=100.0, starts_at=0.0, active_players=2)) == 1


def test_a_player_listed_twice_or_playing_is_paired_once_or_never() -> None:
    a = Waiting("a", rank=1, rating=1500)
    room = [
        a,
        a,
        Waiting("b", rank=2, rating=1500),
        Waiting("c", rank=3, rating=1500, playing=True),
    ]
    assert [
        (p.white, p.black) in {("a", "b"), ("b", "a")}
        for p in pair_arena(room, now=99, starts_at=0)
    ] == [True]


def test_the_first_wave_pairs_neighbours() -> None:
    room = [Waiting(f"p{i}", rank=i + 1, rating=2000 - i * 100) for i in range(6)]
    pairs = {frozenset((p.white, p.black)) for p in pair_arena(room, now=5.0, starts_at=0.0)}
    assert pairs == {frozenset({"p0", "p1"}), frozenset({"p2", "p3"}), frozenset({"p4", "p5"})}


def test_pairings_stop_near_the_end() -> None:
    assert [pairing_closes(limit) for limit in (15, 60, 120, 300, 600)] == [30, 30, 60, 120, 120]
    room = [Waiting("a", rank=1, rating=1500), Waiting("b", rank=2, rating=1500)]
    # 80 s left: closed for a 3-minute clock (90 s), open for a 1-minute one (30 s)
    assert pair_arena(room, now=3520.0, starts_at=0.0, ends_at=3600.0, clock_limit=180) == []
    assert pair_arena(room, now=3520.0, starts_at=0.0, ends_at=3600.0, clock_limit=60) != []
    assert pairings_closed(now=3571.0, ends_at=3600.0, clock_limit=60)


def test_colours_go_to_the_fewer_whites() -> None:
    # the streak forces first, then the balance, then the streak
    assert white_first(ColourHistory.of("bwww"), ColourHistory.of("wbbb")) is False
    assert white_first(ColourHistory.of("wwbbb"), ColourHistory.of("bw")) is True
    assert white_first(ColourHistory.of("bbw"), ColourHistory.of("wb")) is True  # lila: False
    assert white_first(ColourHistory.of("bww"), ColourHistory.of("wbw")) is False
    assert white_first(ColourHistory.of("wb"), ColourHistory.of("wb")) is None


def test_colour_history() -> None:
    assert ColourHistory.of("") == ColourHistory(0, 0)
    assert ColourHistory.of("bbb") == ColourHistory(-3, -3)
    assert not ColourHistory.of("bbb").could_play(ColourHistory.of("wbbb"))
    assert ColourHistory.of("bbb").could_play(ColourHistory.of("www"))
    with pytest.raises(ValueError, match="'w' or 'b'"):
        ColourHistory.of("wx")


def test_a_whole_arena_is_legal() -> None:
    """60 players over 300 passes: games end at random, players come back; no immediate
    rematch while others wait, no colour streak over 3, no one in two games."""
    rng = random.Random(7)
    names = [f"p{i:02d}" for i in range(60)]
    rating = {n: rng.randint(900, 2300) for n in names}
    colours = {n: "" for n in names}
    last: dict[str, str | None] = dict.fromkeys(names)
    since = {n: 0.0 for n in names}
    score = dict.fromkeys(names, 0)
    playing: dict[str, tuple[str, str, float]] = {}  # player -> game (white, black, ends)
    games = 0
    for tick in range(300):
        now = 20.0 + tick * 5
        for game in sorted({g for g in playing.values() if g[2] <= now}):
            white, black, _ = game
            winner = rng.choice([white, black, None])
            for p in (white, black):
                del playing[p]
                since[p] = now
                score[p] += 2 if winner == p else 1 if winner is None else 0
        ranked = sorted(names, key=lambda n: (-score[n], n))
        room = [
            Waiting(
                n,
                rank=ranked.index(n) + 1,
                rating=rating[n],
                last_opponent=last[n],
                colours=ColourHistory.of(colours[n]),
                since=since[n],
                playing=n in playing,
            )
            for n in names
        ]
        for pairing in pair_arena(room, now=now, starts_at=0.0, active_players=60, seed=tick):
            assert pairing.white not in playing and pairing.black not in playing
            game = (pairing.white, pairing.black, now + rng.uniform(10, 120))
            playing[pairing.white] = playing[pairing.black] = game
            colours[pairing.white] += "w"
            colours[pairing.black] += "b"
            last[pairing.white], last[pairing.black] = pairing.black, pairing.white
            games += 1
    for n in names:
        assert "wwww" not in colours[n] and "bbbb" not in colours[n]
        assert abs(colours[n].count("w") - colours[n].count("b")) <= 3
    assert games > 600


# --- scores -----------------------------------------------------------------------------


def _slow_score(player: str, games: list[ArenaGame]) -> list[int]:
    """The rules in words, one game at a time, looking back at the whole history each time."""
    mine = [g for g in games if player in (g.white, g.black)]
    scores = []
    for n, game in enumerate(mine):
        before = mine[:n]

        def result(g: ArenaGame) -> str:
            if g.winner is None:
                return "draw"
            return "win" if (g.winner == "white") == (g.white == player) else "loss"

        history = [result(g) for g in before]
        on_fire = len(history) >= 2 and history[-1] == history[-2] == "win"
        berserk = game.berserk_white if game.white == player else game.berserk_black
        outcome = result(game)
        if outcome == "win":
            points = 4 if on_fire else 2
            points += 1 if berserk and game.movement_plies >= BERSERK_PLIES else 0
        elif outcome == "loss" or game.movement_plies < QUICK_DRAW_PLIES:
            points = 0
        elif on_fire:
            points = 2
        else:
            not_lost = [h for h in history if h != "loss"]
            repeated = bool(not_lost) and not_lost[-1] == "draw"
            points = 0 if repeated and game.movement_plies < LONG_GAME_PLIES else 1
        scores.append(points)
    return scores


@st.composite
def arena_games(draw: st.DrawFn) -> list[ArenaGame]:
    players = ["ann", "bob", "cat", "dan"]
    games = []
    for _ in range(draw(st.integers(0, 40))):
        white, black = draw(st.permutations(players))[:2]
        games.append(
            ArenaGame(
                white,
                black,
                draw(st.sampled_from(["white", "black", None])),
                draw(st.sampled_from([0, 5, 13, 14, 19, 20, 40, 59, 60, 120])),
                berserk_white=draw(st.booleans()),
                berserk_black=draw(st.booleans()),
                white_rating=draw(st.integers(1000, 2000)),
                black_rating=draw(st.integers(1000, 2000)),
            )
        )
    return games


@settings(max_examples=300, deadline=None)
@given(arena_games())
def test_scores_match_a_slow_recount(games: list[ArenaGame]) -> None:
    lines = standings(games, players={"ann": 1500, "bob": 1500, "cat": 1500, "dan": 1500})
    assert len(lines) == 4
    for line in lines:
        assert list(line.sheet.scores) == _slow_score(line.player, games)
        assert line.score == sum(line.sheet.scores)
        assert line.games == sum(1 for g in games if line.player in (g.white, g.black))
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    assert [line.rank for line in lines] == [1, 2, 3, 4]


def test_streaks_and_berserk() -> None:
    win = [ArenaGame("ann", f"x{i}", "white", movement_plies=30) for i in range(4)]
    assert player_sheet("ann", win).scores == (2, 2, 4, 4)
    assert player_sheet("ann", win, streaks=False).scores == (2, 2, 2, 2)
    assert player_sheet("ann", win).on_fire
    # a draw on fire is doubled, and ends the fire
    games = [*win[:2], ArenaGame("x", "ann", None, movement_plies=30), win[2]]
    assert player_sheet("ann", games).scores == (2, 2, 2, 2)
    # berserk: +1 for a win with BERSERK_PLIES movement plies, nothing for a loss
    short = ArenaGame("ann", "bob", "white", movement_plies=BERSERK_PLIES - 1, berserk_white=True)
    long = ArenaGame("ann", "bob", "white", movement_plies=BERSERK_PLIES, berserk_white=True)
    lost = ArenaGame("ann", "bob", "black", movement_plies=50, berserk_white=True)
    assert [player_sheet("ann", [g]).scores for g in (short, long, lost)] == [(2,), (3,), (0,)]
    assert player_sheet("ann", [short, long, lost]).berserks == 3


def test_draws_counted_from_the_movement_phase() -> None:
    # 24 plies of entering and 10 of movement: not a game (lila would count 34 plies)
    quick = ArenaGame("ann", "bob", None, movement_plies=10)
    real = ArenaGame("ann", "bob", None, movement_plies=QUICK_DRAW_PLIES)
    assert player_sheet("ann", [quick]).scores == (0,) and player_sheet("ann", [quick]).flags == (
        "null",
    )
    assert player_sheet("ann", [real]).scores == (1,)
    # a draw after a draw scores only when long; a loss between them does not break the run
    lost = ArenaGame("ann", "bob", "black", movement_plies=40)
    second = ArenaGame("ann", "bob", None, movement_plies=LONG_GAME_PLIES - 1)
    long = ArenaGame("ann", "bob", None, movement_plies=LONG_GAME_PLIES)
    assert player_sheet("ann", [real, lost, second, long]).scores == (1, 0, 0, 1)


def test_standings_order_and_performance() -> None:
    games = [
        ArenaGame("ann", "bob", "white", 30, white_rating=1500, black_rating=1700),
        ArenaGame("cat", "ann", "black", 30, white_rating=1600, black_rating=1500),
        ArenaGame("ann", "dan", "black", 30, white_rating=1500, black_rating=1800),
    ]
    assert performance("ann", games) == round((1700 + 500 + 1600 + 500 + 1800 - 500) / 3)
    assert performance("bob", games) is None  # fewer than 3 games
    lines = standings(
        games, players={"ann": 1510, "bob": 1690, "cat": 1590, "dan": 1810, "eve": 1400}
    )
    assert [(s.player, s.score) for s in lines] == [
        ("ann", 4),
        ("dan", 2),
        ("bob", 0),
        ("cat", 0),
        ("eve", 0),
    ]
    assert lines[0].rating == 1510 and lines[0].performance == 1867


def test_movement_plies_from_the_empty_board() -> None:
    # 7x7: 8 men each, entered without a capture, then two steps
    from emergo.board import Board

    board = Board(variant="7x7")
    moves = []
    while board.hand(True) or board.hand(False):
        move = board.moves()[0]
        moves.append(board.move_text(move))
        board.push(move)
    entering = len(moves)
    for _ in range(2):
        move = board.moves()[0]
        moves.append(board.move_text(move))
        board.push(move)
    assert movement_plies(moves, variant="7x7") == 2
    assert entering >= 2 and movement_plies(moves[:entering], variant="7x7") == 0


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError, match="winner"):
        ArenaGame("a", "b", "draw", 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="themselves"):
        ArenaGame("a", "a", None, 10)
    with pytest.raises(ValueError, match="negative"):
        ArenaGame("a", "b", None, -1)


def test_brute_force_agrees_on_a_known_room() -> None:
    room = [
        Waiting("a", 1, 1900),
        Waiting("b", 2, 1500),
        Waiting("c", 3, 1880),
        Waiting("d", 4, 1520),
    ]
    assert _brute_force(room) == (
        2,
        min(cost(x, y, 4) + cost(z, w, 4) for x, y, z, w in itertools.permutations(room)),
    )
