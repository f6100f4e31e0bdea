"""Benchmark of the archive and the profiles (issue 21) with many stored games.

A script, not a test.  It makes a database of generated finished games (default 100,000 among
2,000 players, over two years, every variant and speed, a third of them rated, rating history
for the rated ones), on SQLite (a file in a temporary folder) and on PostgreSQL (a server of its
own, tests/plugins/postgres.py, durable), then times what the site does for a reader:

* the archive's search (``Archive.search``, the page ``/games``): newest first; one variant
  and speed; one result; one month; one player; one player against one opponent; a player's
  losses; the 50th page of a player's games (by keyset);
* a whole profile page's data and HTML (``/@/{name}``: ratings, the chart, results by colour,
  games in progress, the first page of games) for a busy player;
* a player's games as records (``/api/games/user/{name}``, the first 100).

Each is run ``--runs`` times on random players and dates; printed: p50 and p99 in
milliseconds.  ``--without-indexes`` drops issue 21's archive indexes first, to show what
they are for.

    .venv/bin/python tools/bench_archive.py                       # SQLite and PostgreSQL
    .venv/bin/python tools/bench_archive.py --db sqlite --games 20000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, text  # noqa: E402

from emergo import round as rnd  # noqa: E402
from emergo.board import Board  # noqa: E402
from emergo.clock import TimeControl  # noqa: E402
from emergo.server.archive.search import Query  # noqa: E402
from emergo.server.core import models as m  # noqa: E402
from emergo.server.core.config import Config  # noqa: E402
from emergo.server.site import Site  # noqa: E402

DAY = 86400.0
INDEXES = [
    ("archive", "ix_archive_ended"),
    ("archive", "ix_archive_variant_speed_ended"),
    ("player_games", "ix_player_games_user_ended"),
    ("player_games", "ix_player_games_user_opponent"),
    ("rating_history", "ix_rating_history_user"),
    ("perfs", "ix_perfs_perf_rating"),
]
CONTROLS = [("live", "300+2", TimeControl.fischer(300, 2)), ("correspondence", "3d", None)]


def sample_states(count: int, rng: random.Random) -> list[tuple[str, dict[str, Any], int]]:
    """Finished games' states to store (random legal moves, then a resignation): (variant,
    state JSON, plies)."""
    out = []
    for i in range(count):
        variant = ("9x9", "7x7", "hex")[i % 3]
        board = Board(variant=variant)
        moves = []
        for _ in range(rng.randint(10, 60)):
            if board.is_game_over():
                break
            move = rng.choice(board.moves())
            moves.append(board.move_text(move))
            board.push(move)
        state = rnd.RoundState.new(variant, time_control=None, now=0.0, moves=moves)
        if state.outcome is None:
            state, _ = rnd.apply(state, rnd.Resign(state.turn), 1.0)
        out.append((variant, state.to_json(), len(moves)))
    return out


def generate(site: Site, games: int, players: int, seed: int) -> None:
    rng = random.Random(seed)
    t_end = time.time()
    t_start = t_end - 730 * DAY
    states = sample_states(60, rng)
    with site.db.write() as tx:
        tx.execute(
            insert(m.users),
            [
                {
                    "id": i,
                    "name": f"p{i}",
                    "name_key": f"p{i}",
                    "created": t_start,
                    "disabled": False,
                    "deleted": False,
                    "bot": False,
                }
                for i in range(1, players + 1)
            ],
        )
    # a few busy players (a profile worth timing): player i plays with weight ~ 1/i**0.6
    weights = [1 / (i**0.6) for i in range(1, players + 1)]
    chunk = 5000
    made = 0
    while made < games:
        n = min(chunk, games - made)
        rows_games, rows_archive, rows_sides, rows_history = [], [], [], []
        for k in range(n):
            gid = f"g{made + k:07d}"
            white, black = rng.choices(range(1, players + 1), weights=weights, k=2)
            if white == black:
                black = white % players + 1
            variant, state, plies = rng.choice(states)
            speed, tag, _control = rng.choice(CONTROLS)
            rated = rng.random() < 0.33
            result = rng.choice(["1-0", "0-1", "1-0", "0-1", "1/2-1/2", "*"])
            ended = t_start + (t_end - t_start) * (made + k) / games
            rows_games.append(
                {
                    "id": gid,
                    "white_id": white,
                    "black_id": black,
                    "variant": variant,
                    "speed": speed,
                    "time_control": tag,
                    "rated": rated,
                    "state": state,
                    "version": plies + 1,
                    "status": "over",
                    "result": result,
                    "termination": "resignation" if result != "*" else "aborted",
                    "turn_id": None,
                    "player_chat": True,
                    "challenge_id": None,
                    "created": ended - 600,
                    "updated": ended,
                }
            )
            counted = rated and result != "*"
            wr, br = rng.randint(1100, 2300), rng.randint(1100, 2300)
            rows_archive.append(
                {
                    "game_id": gid,
                    "white_id": white,
                    "black_id": black,
                    "variant": variant,
                    "speed": speed,
                    "rated": rated,
                    "result": result,
                    "termination": "resignation" if result != "*" else "aborted",
                    "plies": plies,
                    "white_rating": wr if counted else None,
                    "black_rating": br if counted else None,
                    "white_diff": rng.randint(-12, 12) if counted else None,
                    "black_diff": rng.randint(-12, 12) if counted else None,
                    "ended": ended,
                }
            )
            score = {"1-0": ("win", "loss"), "0-1": ("loss", "win"), "1/2-1/2": ("draw", "draw")}
            ws, bs = score.get(result, ("none", "none"))
            for user, color, other, s in ((white, "white", black, ws), (black, "black", white, bs)):
                rows_sides.append(
                    {
                        "user_id": user,
                        "game_id": gid,
                        "color": color,
                        "opponent_id": other,
                        "variant": variant,
                        "speed": speed,
                        "rated": rated,
                        "score": s,
                        "ended": ended,
                    }
                )
                if counted:
                    rows_history.append(
                        {
                            "user_id": user,
                            "perf": f"{variant}-{speed}",
                            "game_id": gid,
                            "at": ended,
                            "rating": float(wr if color == "white" else br),
                            "rd": 60.0,
                        }
                    )
        with site.db.write() as tx:
            tx.execute(insert(m.games), rows_games)
            tx.execute(insert(m.archive), rows_archive)
            tx.execute(insert(m.player_games), rows_sides)
            if rows_history:
                tx.execute(insert(m.rating_history), rows_history)
        made += n
        print(f"  {made:,} games", end="\r", flush=True)
    with site.db.write() as tx:  # every player rated in every perf
        tx.execute(
            insert(m.perfs),
            [
                {
                    "user_id": user,
                    "perf": f"{v}-{s}",
                    "rating": rng.uniform(1000, 2400),
                    "rd": rng.choice([60.0, 80.0, 150.0]),
                    "volatility": 0.06,
                    "games": rng.randint(1, 200),
                    "latest": t_end - rng.uniform(0, 200) * DAY,
                }
                for user in range(1, players + 1)
                for v in ("9x9", "7x7", "hex")
                for s in ("live", "correspondence")
            ],
        )
    if site.db.postgres:
        with site.db.engine.connect() as c:
            c.execution_options(isolation_level="AUTOCOMMIT").execute(text("ANALYZE"))
    else:
        with site.db.engine.connect() as c:
            c.exec_driver_sql("ANALYZE")
    print()


def timed(runs: int, make: Callable[[random.Random], Callable[[], Any]]) -> tuple[float, float]:
    rng = random.Random(1)
    samples = []
    for _ in range(runs):
        work = make(rng)
        t = time.perf_counter()
        work()
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return statistics.median(samples), p99


def measure(site: Site, players: int, runs: int) -> list[tuple[str, float, float]]:
    from emergo.server.archive.http import record_text
    from emergo.server.user.pages import _profile_body

    archive = site.archive
    t_end = time.time()
    busy = [f"p{i}" for i in range(1, 21)]  # the busiest players (thousands of games each)

    def anyone(rng: random.Random) -> str:
        return f"p{rng.randint(1, players)}"

    def page_50(name: str) -> Callable[[], Any]:
        def work() -> None:
            q = Query(player=name, limit=30)
            for _ in range(50):
                _games, cursor = archive.search(q)
                if cursor is None:
                    return
                at, _, gid = cursor.partition("_")
                q = Query(player=name, limit=30, before=(int(at) / 1000, gid))

        return work

    def profile(name: str) -> Callable[[], Any]:
        user = archive.user(name)
        assert user is not None
        return lambda: _profile_body(site, user[0], name, Query(player=name), "")

    def records(name: str) -> Callable[[], Any]:
        def work() -> None:
            pairs, _ = archive.page_with_states(Query(player=name, limit=100))
            for _game, view in pairs:
                record_text(view)

        return work

    def search(**fields: Any) -> Callable[[], Any]:
        return lambda: archive.search(Query(**fields))

    def month(r: random.Random) -> Callable[[], Any]:
        since = t_end - r.uniform(60, 700) * DAY
        return search(since=since, until=since + 30 * DAY)

    cases: list[tuple[str, Callable[[random.Random], Callable[[], Any]]]] = [
        ("archive: newest", lambda r: search()),
        (
            "archive: variant + speed",
            lambda r: search(variant=r.choice(["9x9", "7x7", "hex"]), speed="correspondence"),
        ),
        ("archive: result (draws)", lambda r: search(result="1/2-1/2")),
        ("archive: one month", month),
        ("archive: a player", lambda r: search(player=anyone(r))),
        ("archive: a busy player", lambda r: search(player=r.choice(busy))),
        (
            "archive: player vs opponent",
            lambda r: search(player=r.choice(busy), vs=r.choice(busy)),
        ),
        (
            "archive: a busy player's losses, hex",
            lambda r: search(player=r.choice(busy), result="loss", variant="hex"),
        ),
        ("archive: 50th page of a busy player", lambda r: page_50(r.choice(busy))),
        ("profile page (busy player)", lambda r: profile(r.choice(busy))),
        ("profile page (any player)", lambda r: profile(anyone(r))),
        ("records: first 100 of a busy player", lambda r: records(r.choice(busy))),
        ("leaderboard: top 100", lambda r: lambda: site.ratings.leaderboard("9x9-live", t_end)),
    ]
    out = []
    for name, make in cases:
        n = runs if "50th" not in name and "records" not in name else max(runs // 10, 5)
        p50, p99 = timed(n, make)
        out.append((name, p50, p99))
        print(f"  {name:40s} p50 {p50:8.2f} ms   p99 {p99:8.2f} ms", flush=True)
    return out


def drop_indexes(site: Site) -> None:
    with site.db.engine.begin() as c:
        for _table, index in INDEXES:
            c.execute(text(f"DROP INDEX IF EXISTS {index}"))
        if site.db.postgres:
            c.execute(text("ANALYZE"))
        else:
            c.exec_driver_sql("ANALYZE")


def run(label: str, url: str, args: argparse.Namespace) -> None:
    site = Site.open(Config(db=url), migrate=True)
    try:
        print(f"{label}: {args.games:,} games, {args.players:,} players")
        t = time.perf_counter()
        generate(site, args.games, args.players, args.seed)
        print(f"  generated in {time.perf_counter() - t:.0f} s")
        if args.without_indexes:
            drop_indexes(site)
            print("  WITHOUT the archive's indexes")
        measure(site, args.players, args.runs)
    finally:
        site.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=100, help="runs of each query")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--without-indexes", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            run("SQLite", f"sqlite:///{folder}/archive.sqlite3", args)
    if args.db in ("postgresql", "both"):
        from tests.plugins.postgres import Cluster, binaries

        found = binaries()
        if found is None:
            sys.exit("PostgreSQL is not installed (tools/test.sh installs Debian's postgresql)")
        cluster = Cluster(found, durable=True)
        try:
            run("PostgreSQL", cluster.create_database("archive"), args)
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
