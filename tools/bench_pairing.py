"""Benchmark of the tournament pairings (emergo.server.tournament): one arena pass over a
waiting room, and one Swiss round.

    .venv/bin/python tools/bench_pairing.py [--players 1000] [--repeat 20] [--seed 1]

The arena: ``--players`` waiting, with the ranks of an event under way, ratings from 800 to
2400, a last opponent and a colour history each (as a server passes its waiting room to
:func:`~emergo.server.tournament.arena.pair_arena` from its timer); the median and the worst of
``--repeat`` passes, each on a room of its own, in milliseconds (target: under 200 ms for
1,000).  Then the same for smaller rooms, the exact matching of a group of 100 by rustworkx
against networkx's (when installed), and one Swiss round (py4swiss, round 4 of 7) by size.
The machine's load average is printed before and after: the figures are wall time on a
shared machine.

    .venv/bin/python tools/bench_pairing.py --phases 60 [--variant 9x9] [--nodes 2000]

measures instead how long the two phases of engine games from the empty board last (the games
of ``emergo selfplay``, seed 7): the plies before both hands are empty (entering, R13-R16) and
after (movement, R17), the figures behind the arena's thresholds (docs/tournaments.md).

    .venv/bin/python tools/bench_pairing.py --colours 8

plays 8 simulated arenas (60 players, 300 passes, random results and game lengths; seeds 0-7)
with our colour order and with lila's (the shorter streak first), and prints how far each
player's Whites and Blacks are apart at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import time
from collections.abc import Callable

from emergo.server.tournament import arena
from emergo.server.tournament.arena import ColourHistory, Waiting, cost, legal, pair_arena
from emergo.server.tournament.matching import min_cost_matching
from emergo.server.tournament.swiss import Entrant, Game, Round, Swiss, pair_round


def room(players: int, rng: random.Random) -> list[Waiting]:
    """A waiting room of an event under way."""
    names = [f"player{i:05d}" for i in range(players)]
    ranks = list(range(1, players + 1))
    rng.shuffle(ranks)
    waiting = []
    for name, rank in zip(names, ranks, strict=True):
        colours = ""
        for _ in range(rng.randint(0, 10)):
            colour = rng.choice("wb")
            if colours.endswith(colour * 3):
                colour = "b" if colour == "w" else "w"
            colours += colour
        waiting.append(
            Waiting(
                name,
                rank=rank,
                rating=rng.randint(800, 2400),
                last_opponent=rng.choice(names),
                colours=ColourHistory.of(colours),
                since=rng.uniform(0, 60),
            )
        )
    return waiting


def arena_ms(players: int, repeat: int, seed: int) -> tuple[float, float, int]:
    """Median and worst milliseconds of a pass, and the pairs of the last one."""
    times = []
    pairs = 0
    for n in range(repeat):
        waiting = room(players, random.Random(seed * 1000 + n))
        start = time.perf_counter()
        pairings = pair_arena(waiting, now=600.0, starts_at=0.0, active_players=players, seed=n)
        times.append((time.perf_counter() - start) * 1000)
        pairs = len(pairings)
    return statistics.median(times), max(times), pairs


def group_costs(waiting: list[Waiting]) -> dict[tuple[int, int], int]:
    top = max(p.rank for p in waiting)
    return {
        (i, j): cost(waiting[i], waiting[j], top)
        for i in range(len(waiting))
        for j in range(i + 1, len(waiting))
        if legal(waiting[i], waiting[j])
    }


def matching_ms(size: int, seed: int) -> tuple[float, float | None]:
    """One exact matching of ``size`` players: rustworkx, and networkx if installed."""
    waiting = sorted(room(size, random.Random(seed)), key=lambda p: p.rank)
    costs = group_costs(waiting)
    start = time.perf_counter()
    ours = min_cost_matching(size, costs)
    rx_ms = (time.perf_counter() - start) * 1000
    try:
        import networkx
    except ImportError:
        return rx_ms, None
    graph = networkx.Graph()
    top = max(costs.values()) + 1
    for (i, j), c in costs.items():
        graph.add_edge(i, j, weight=top - c)
    start = time.perf_counter()
    theirs = networkx.max_weight_matching(graph, maxcardinality=True)
    nx_ms = (time.perf_counter() - start) * 1000
    assert sum(costs[p] for p in ours) == sum(costs[min(a, b), max(a, b)] for a, b in theirs)
    return rx_ms, nx_ms


def swiss_ms(players: int, seed: int) -> float:
    """Milliseconds to pair round 4 of a 7-round event (rounds 1-3 paired and played)."""
    rng = random.Random(seed)
    entrants = tuple(Entrant(f"p{i:03d}", rng.randint(1000, 2400)) for i in range(players))
    event = Swiss(rounds=7, entrants=entrants)
    for _ in range(3):
        pairing = pair_round(event)
        games = tuple(Game(w, b, rng.choice(["1-0", "0-1", "1/2-1/2"])) for w, b in pairing.boards)
        event = event.with_round(Round(games, pairing.bye))
    start = time.perf_counter()
    pair_round(event)
    return (time.perf_counter() - start) * 1000


def phases(variant: str, games: int, nodes: int) -> None:
    """Print the entering and movement plies of ``games`` engine games."""
    from emergo.selfplay import SelfplayConfig, play_game
    from emergo.server.tournament.sheet import BERSERK_PLIES, QUICK_DRAW_PLIES

    config = SelfplayConfig(nodes=nodes, seed=7, variant=variant)
    rows = []
    for number in range(games):
        game = play_game(config, number)
        entering = game.rows[0].ply if game.rows else game.plies  # the random opening enters
        movement = 0
        for row in game.rows:
            hands = next(word for word in row.position.split() if "/" in word)
            if hands == "0/0":
                movement += 1
            else:
                entering += 1
        rows.append((game.result, entering, movement))
    decisive = [m for r, _, m in rows if r != 0]
    drawn = [m for r, _, m in rows if r == 0]
    for name, values in (
        ("entering", [e for _, e, _ in rows]),
        ("movement", [m for _, _, m in rows]),
    ):
        print(
            f"{variant}, {games} games at {nodes} nodes a move: {name} plies "
            f"min {min(values)}, median {statistics.median(values)}, max {max(values)}"
        )
    print(
        f"{len(decisive)} decisive, shortest movement phase {min(decisive, default=0)} plies, "
        f"{sum(m < BERSERK_PLIES for m in decisive)} under {BERSERK_PLIES}; {len(drawn)} drawn, "
        f"{sum(m < QUICK_DRAW_PLIES for m in drawn)} under {QUICK_DRAW_PLIES} "
        f"(movement plies {sorted(drawn)})"
    )


def lila_white_first(a: ColourHistory, b: ColourHistory) -> bool | None:
    """lila's colour order: the shorter White streak first, then the fewer Whites."""
    mine, theirs = (a.streak, a.balance), (b.streak, b.balance)
    return None if mine == theirs else mine < theirs


def simulate(seed: int) -> dict[str, str]:
    """A simulated arena of 60 players: each player's colours, oldest first."""
    rng = random.Random(seed)
    names = [f"p{i:02d}" for i in range(60)]
    rating = {n: rng.randint(900, 2300) for n in names}
    colours = dict.fromkeys(names, "")
    last: dict[str, str | None] = dict.fromkeys(names)
    since = dict.fromkeys(names, 0.0)
    score = dict.fromkeys(names, 0)
    playing: dict[str, tuple[str, str, float]] = {}
    for tick in range(300):
        now = 20.0 + tick * 5
        for white, black, _ in sorted({g for g in playing.values() if g[2] <= now}):
            winner = rng.choice([white, black, None])
            for p in (white, black):
                del playing[p]
                since[p] = now
                score[p] += 2 if winner == p else 1 if winner is None else 0
        ranked = {n: r for r, n in enumerate(sorted(names, key=lambda n: (-score[n], n)), 1)}
        room = [
            Waiting(
                n,
                ranked[n],
                rating[n],
                last[n],
                ColourHistory.of(colours[n]),
                since[n],
                n in playing,
            )
            for n in names
        ]
        for pairing in pair_arena(room, now=now, starts_at=0.0, active_players=60, seed=tick):
            game = (pairing.white, pairing.black, now + rng.uniform(10, 120))
            playing[pairing.white] = playing[pairing.black] = game
            colours[pairing.white] += "w"
            colours[pairing.black] += "b"
            last[pairing.white], last[pairing.black] = pairing.black, pairing.white
    return colours


def compare_colours(arenas: int) -> None:
    """Our colour order against lila's over simulated arenas."""
    ours = arena.white_first
    orders: list[tuple[str, Callable[[ColourHistory, ColourHistory], bool | None]]] = [
        ("ours", ours),
        ("lila's", lila_white_first),
    ]
    for name, order in orders:
        arena.white_first = order
        gaps: list[int] = []
        runs: list[int] = []
        games = 0
        for seed in range(arenas):
            colours = simulate(seed)
            gaps += [abs(c.count("w") - c.count("b")) for c in colours.values()]
            runs += [len(m.group()) for c in colours.values() for m in re.finditer("w+|b+", c)]
            games += sum(len(c) for c in colours.values()) // 2
        arena.white_first = ours
        print(
            f"{name} colours, {arenas} arenas of 60 players ({games / arenas:.0f} games each): "
            f"Whites - Blacks mean {statistics.mean(gaps):.2f}, largest {max(gaps)}; "
            f"longest run of a colour {max(runs)}"
        )


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="waiting players (default 1000)")
    parser.add_argument("--repeat", type=int, default=20, help="passes to time (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phases", type=int, metavar="GAMES", help="measure phase lengths")
    parser.add_argument("--variant", default="9x9", choices=("9x9", "7x7", "hex"))
    parser.add_argument("--nodes", type=int, default=2000, help="engine nodes a move")
    parser.add_argument("--colours", type=int, metavar="ARENAS", help="compare colour orders")
    args = parser.parse_args()
    if args.colours:
        compare_colours(args.colours)
        return
    if args.phases:
        phases(args.variant, args.phases, args.nodes)
        return
    print(f"before: {load()}")
    median, worst, pairs = arena_ms(args.players, args.repeat, args.seed)
    print(
        f"arena pass, {args.players} waiting: median {median:.1f} ms, worst {worst:.1f} ms "
        f"({pairs} pairings, target < 200 ms)"
    )
    for size in (10, 50, 100, 200, 500):
        if size != args.players:
            median, worst, pairs = arena_ms(size, max(3, args.repeat // 2), args.seed)
            print(f"arena pass, {size} waiting: median {median:.1f} ms, worst {worst:.1f} ms")
    rx_ms, nx_ms = matching_ms(100, args.seed)
    versus = "networkx not installed" if nx_ms is None else f"networkx {nx_ms:.1f} ms"
    print(f"exact matching of 100: rustworkx {rx_ms:.1f} ms, {versus} (the same cost)")
    for players in (16, 64, 128):
        ms = swiss_ms(players, args.seed)
        print(f"Swiss round 4 of 7, {players} players (py4swiss): {ms:.0f} ms")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
