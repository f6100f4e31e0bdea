"""The opening explorer's figures (issue 29, "Done means"): counts per move, results, average
ratings, top and recent games, checked against a count done the slow way over the same games --
every game replayed, every position's images under the board's symmetries written out, each
game counted once at a position -- on SQLite and on PostgreSQL; and every game counted exactly
once, whatever ends it, rebuilds it or fails on the way (two processes, a restart)."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emergo import BLACK, WHITE, Board, Outcome, Termination
from emergo import round as rnd
from emergo.server.core.config import Config
from emergo.server.explorer.http import explore
from emergo.server.explorer.index import PLY_LIMIT, RECENT_GAMES, TOP_GAMES
from emergo.server.round.service import GameView, Seats
from emergo.server.site import Site
from emergo.symmetry import symmetries
from tests.plugins.common import ROOT
from tests.plugins.site import FAST, pg_database

pytestmark = pytest.mark.slow

T0 = 1_790_000_000.0


@dataclasses.dataclass
class Made:
    """A game put in the site's archive, as the slow count sees it."""

    id: str
    variant: str
    moves: list[str]
    result: str
    ratings: tuple[int | None, int | None]
    ended: float


@contextmanager
def fresh_site(kind: str, request: pytest.FixtureRequest, tmp: Path) -> Iterator[Site]:
    if kind == "sqlite":
        url = f"sqlite:///{tmp / f'{uuid.uuid4().hex}.sqlite3'}"
    else:
        url = pg_database(request.getfixturevalue("pg"))
    site = Site.open(Config(db=url, **FAST), migrate=True)
    try:
        yield site
    finally:
        site.close()


def line(variant: str, seed: int, plies: int, width: int) -> list[str]:
    """A game's moves: each drawn among the first ``width`` legal ones (so games share openings
    and transpose), then the whole line turned by a symmetry of the board (mirror images meet)."""
    rng = random.Random(seed)
    board = Board(variant=variant)
    texts = []
    for _ in range(plies):
        if board.outcome() is not None:
            break
        move = rng.choice(board.moves()[:width])
        texts.append(str(move))
        board.push(move)
    g = rng.choice(symmetries(variant))
    return [g.move_text(t) for t in texts]


def archive(site: Site, white: int, black: int, made: Made, rated: bool) -> Made:
    """End a game with these moves and result in one transaction, the way the round ends one:
    its row, then :meth:`Ratings.game_over` (the archive, the ratings, the explorer's hook)."""
    state = rnd.RoundState.new(variant=made.variant, now=made.ended - 60, moves=made.moves)
    if state.outcome is None:
        winner = {"1-0": WHITE, "0-1": BLACK}.get(made.result)
        kind = Termination.AGREEMENT if winner is None else Termination.RESIGNATION
        state = dataclasses.replace(state, outcome=Outcome(kind, winner))
    assert state.outcome is not None
    with site.db.write() as tx:
        game_id = site.rounds.start(tx, state, white, black, rated=rated, t=made.ended)
        view = GameView(
            id=game_id,
            seats=Seats(white, black, "w", "b"),
            state=state,
            variant=made.variant,
            speed="correspondence",
            time_control=None,
            rated=rated,
            status="over",
            player_chat=True,
            created=made.ended - 60,
            updated=made.ended,
        )
        site.ratings.game_over(tx, view, state, made.ended)
    found = site.archive.one(game_id)
    assert found is not None
    ratings = (found.white_rating, found.black_rating)
    return dataclasses.replace(
        made,
        id=game_id,
        result=state.outcome.result(),
        ratings=ratings if None not in ratings else (None, None),
    )


# --- the slow way --------------------------------------------------------------------------


class Slow:
    """For every oriented position (its R22 string) and oriented move, the games that played the
    move there: each game replayed, each of its positions before ply PLY_LIMIT kept once (the
    last move from it), then written out under every symmetry of the board."""

    def __init__(self, games: list[Made]) -> None:
        self.games = {g.id: g for g in games}
        self.at: dict[tuple[str, str], set[tuple[str, bool]]] = {}
        for game in games:
            board = Board(variant=game.variant)
            last: dict[frozenset[str], tuple[Board, Any]] = {}
            for text in game.moves[:PLY_LIMIT]:
                group = symmetries(game.variant)
                images = frozenset(g.position(board) for g in group)
                move = board.parse_move(text)
                last[images] = (board.copy(stack=False), move)
                board.push(move)
            for position, move in last.values():
                for g in symmetries(game.variant):
                    key = (g.position(position), str(g.move(move)))
                    self.at.setdefault(key, set()).add((game.id, position.turn == WHITE))

    def moves(self, position: str) -> dict[str, dict[str, Any]]:
        """Each move played at the oriented position: results, rating sum and count, games."""
        out: dict[str, dict[str, Any]] = {}
        for (where, move), players in self.at.items():
            if where != position:
                continue
            row = out.setdefault(
                move, {"white": 0, "draws": 0, "black": 0, "sum": 0, "n": 0, "ids": set()}
            )
            for game_id, white_moved in players:
                game = self.games[game_id]
                row["ids"].add(game_id)
                row[{"1-0": "white", "0-1": "black"}.get(game.result, "draws")] += 1
                rating = game.ratings[0 if white_moved else 1]
                if rating is not None:
                    row["sum"] += rating
                    row["n"] += 1
        return out


def check(site: Site, slow: Slow, board: Board) -> dict[str, Any]:
    """The explorer's answer at ``board`` against the slow count there."""
    position = board.position()
    got = explore(site, {"fen": position})
    want = slow.moves(position)
    same_here = [g for g in symmetries(board.variant) if g.position(board) == position]
    shown = {m["move"]: m for m in got["moves"]}
    # every move played here is shown once, as itself or as the image a symmetry of the
    # position makes of it (one move of the key); its figures are the slow count's
    for text in want:
        images = {g.move_text(text) for g in same_here}
        assert len(images & set(shown)) == 1, (position, text, sorted(shown))
    assert set(shown) <= set(want), (position, sorted(shown), sorted(want))
    ids: set[str] = set()
    for text, m in shown.items():
        row = want[text]
        assert (m["white"], m["draws"], m["black"]) == (row["white"], row["draws"], row["black"])
        assert m["averageRating"] == (round(row["sum"] / row["n"]) if row["n"] else None)
        assert m["san"] == text
        ids |= row["ids"]
    results = [slow.games[i].result for i in ids]
    assert got["white"] == results.count("1-0")
    assert got["black"] == results.count("0-1")
    assert got["draws"] == results.count("1/2-1/2")
    # the lists: the newest games, the rated ones of the highest average rating
    games = [slow.games[i] for i in ids]
    rated = [g for g in games if None not in g.ratings]
    rated.sort(key=lambda g: (-(g.ratings[0] + g.ratings[1]) / 2, -g.ended))  # type: ignore[operator]
    top = [g.id for g in rated[:TOP_GAMES]]
    assert [g["id"] for g in got["topGames"]] == top
    recent = [g.id for g in sorted(games, key=lambda g: -g.ended)[:RECENT_GAMES]]
    assert [g["id"] for g in got["recentGames"]] == [i for i in recent if i not in top]
    for listed in got["topGames"] + got["recentGames"]:
        assert listed["move"] in shown
    return got


def check_all(site: Site, games: list[Made], rng: random.Random) -> int:
    """Every position of the games (and past the limit), and an image of each, checked."""
    slow = Slow(games)
    checked = 0
    for game in games:
        board = Board(variant=game.variant)
        for ply, text in enumerate([*game.moves, None]):
            if ply > PLY_LIMIT + 2:
                break
            g = rng.choice(symmetries(game.variant))
            for each in (board, g.board(board)):
                # (past the limit too: a later position of a game is counted where another game,
                # or this one before a repetition, passed it earlier)
                check(site, slow, each)
                checked += 1
            if text is None:
                break
            board.push_move(text)
    return checked


GAMES = st.lists(
    st.tuples(
        st.integers(0, 10**6),  # seed
        st.integers(1, 48),  # plies
        st.sampled_from(["1-0", "0-1", "1/2-1/2"]),
        st.booleans(),  # rated
        st.integers(0, 2),  # white player
        st.integers(2, 4),  # width of the opening choices
    ),
    min_size=1,
    max_size=8,
)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(variant=st.sampled_from(["9x9", "7x7", "hex"]), specs=GAMES, seed=st.integers(0, 2**32))
def test_the_figures_are_those_of_the_slow_count(kind, request, tmp_path, variant, specs, seed):
    with fresh_site(kind, request, tmp_path) as site:
        players = [site.users.create(name, None).id for name in ("ann", "bob", "cid")]
        made: list[Made] = []
        for i, (game_seed, plies, result, rated, white, width) in enumerate(specs):
            black = (white + 1) % 3
            moves = line(variant, game_seed, plies, width)
            spec = Made("", variant, moves, result, (None, None), T0 + i * 100)
            made.append(archive(site, players[white], players[black], spec, rated))
        assert check_all(site, made, random.Random(seed)) > 0
        # a rebuild from the archive finds the same figures
        site.explorer.clear("archive")
        while site.explorer.index_archive(None, 3)[1] is not None:
            pass
        check_all(site, made, random.Random(seed))


# --- exactly once ------------------------------------------------------------------------------


def some_games(site: Site, count: int, start: int = 0, variant: str = "9x9") -> list[Made]:
    players = [site.users.by_name(n) or site.users.create(n, None) for n in ("ann", "bob")]
    out = []
    for i in range(start, start + count):
        spec = Made(
            "",
            variant,
            line(variant, i, 6 + i % 30, 3),
            ("1-0", "0-1", "1/2-1/2")[i % 3],
            (None, None),
            T0 + i,
        )
        out.append(archive(site, players[i % 2].id, players[1 - i % 2].id, spec, rated=i % 2 == 0))
    return out


def counted(site: Site) -> int:
    """Games the explorer holds at the 9x9 start (every game passes it)."""
    got = explore(site, {})
    return int(got["white"] + got["draws"] + got["black"])


def test_a_rebuild_beside_the_server_counts_each_game_once(site):
    """A real second process (``emergo admin explorer rebuild``) rebuilds the index from the
    archive while this one ends games: every game counted once, the figures the slow count's."""
    games = some_games(site, 40)
    url = site.db.url.replace("postgresql+psycopg://", "postgresql://").replace("sqlite:///", "")
    command = [sys.executable, "-m", "emergo", "admin", "--db", url, "explorer", "rebuild"]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    more: list[Made] = []
    while process.poll() is None or len(more) < 10:
        more += some_games(site, 1, 40 + len(more))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "counted" in out
    all_games = games + more
    assert counted(site) == len(all_games)
    slow = Slow(all_games)
    for game in all_games[:10]:
        board = Board()
        for text in game.moves[:5]:
            check(site, slow, board)
            board.push_move(text)
    # and again, in this process: nothing new
    assert site.explorer.index_archive(None, 1000)[0] == 0
    assert counted(site) == len(all_games)


def test_a_clear_beside_a_game_ending_leaves_no_count_without_its_mark(site, monkeypatch):
    """A rebuild's clear while a game's end counts it (PostgreSQL: the delete waits for the
    ending transaction, which commits in the middle of it): afterwards nothing is left, neither
    counts nor marks.  Deleted one table at a time, each delete seeing what was committed when
    it began, the new game kept its counts and lost its mark, and the rebuild counted it twice."""
    if not site.db.postgres:
        pytest.skip("SQLite's writes take turns: no delete runs beside a commit")
    from sqlalchemy import func, select, text

    from emergo.server.core import models as m
    from tests.plugins.game_helpers import wait_for

    some_games(site, 3)  # rows at the start that the next game's end updates
    clearing = threading.Thread(target=site.explorer.clear, args=("archive",))
    real_add = site.explorer.add

    def waiting() -> bool:
        with site.db.read() as c:
            return bool(c.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar())

    def add_with_a_clear_beside(tx: Any, games: Any, t: float | None = None) -> int:
        counted_here = real_add(tx, games, t)
        clearing.start()
        wait_for(waiting, 60, "the clear to wait for the game's end")
        return counted_here

    monkeypatch.setattr(site.explorer, "add", add_with_a_clear_beside)
    some_games(site, 1, 29)  # a long game: positions no other game reached
    clearing.join(60)
    assert not clearing.is_alive()
    with site.db.read() as c:
        for table in (m.explorer_moves, m.explorer_indexed, m.explorer_games):
            assert c.execute(select(func.count()).select_from(table)).scalar_one() == 0, table


def test_two_processes_ending_games_at_once_share_the_start(site):
    """Two sites on one database (two processes' engines and pools) end games at the same time,
    every game passing the start and many the same first moves: none lost, none twice."""
    other = Site.open(Config(db=site.db.url, **FAST))
    try:
        for name in ("ann", "bob"):  # before the threads: they share the players
            site.users.create(name, None)
        errors: list[BaseException] = []
        made: dict[int, list[Made]] = {0: [], 1: []}

        def work(n: int, s: Site) -> None:
            try:
                for i in range(12):
                    made[n] += some_games(s, 1, 100 * n + i)
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(n, s)) for n, s in enumerate((site, other))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert not errors, errors
        all_games = made[0] + made[1]
        assert counted(site) == counted(other) == len(all_games) == 24
        slow = Slow(all_games)
        for game in all_games:
            board = Board()
            for text in game.moves[:3]:
                check(site, slow, board)
                board.push_move(text)
    finally:
        other.close()


def test_a_failure_never_fails_the_end_and_a_restart_resumes(site, monkeypatch):
    games = some_games(site, 3)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the explorer failed")

    monkeypatch.setattr(site.explorer, "_count", broken)
    missed = some_games(site, 2, 3)  # the games end, stored and archived, and are not counted
    for game in missed:
        assert site.archive.one(game.id) is not None
    assert counted(site) == 3
    monkeypatch.undo()
    # a rebuild stopped after one batch, then the site restarted: --resume counts the rest once
    site.explorer.clear("archive")
    assert site.explorer.index_archive(None, 2)[0] == 2
    assert counted(site) == 2
    again = Site.open(Config(db=site.db.url, **FAST))
    try:
        assert again.explorer.backlog() == 3
        while again.explorer.index_archive(None, 2)[1] is not None:
            pass
        assert counted(again) == 5
        assert again.explorer.index_archive(None, 2)[0] == 0  # nothing is counted twice
        slow = Slow(games + missed)
        board = Board()
        for text in games[0].moves[:4]:
            check(again, slow, board)
            board.push_move(text)
    finally:
        again.close()


def test_games_that_do_not_count(site):
    """Aborted games, games from a set-up position: in the archive, not in the explorer."""
    ann, bob = site.users.create("ann", None), site.users.create("bob", None)
    state = rnd.RoundState.new(now=T0, root="w 12/11 e4:b", moves=["d5"])
    aborted = rnd.RoundState.new(now=T0, moves=["e4"])
    aborted = dataclasses.replace(aborted, outcome=Outcome(Termination.ABORTED, None))
    state = dataclasses.replace(state, outcome=Outcome(Termination.RESIGNATION, WHITE))
    for s in (state, aborted):
        with site.db.write() as tx:
            game_id = site.rounds.start(tx, s, ann.id, bob.id, rated=False, t=T0)
            view = GameView(
                game_id,
                Seats(ann.id, bob.id, "ann", "bob"),
                s,
                "9x9",
                "live",
                None,
                False,
                "over",
                True,
                T0,
                T0,
            )
            site.ratings.game_over(tx, view, s, T0)
    assert counted(site) == 0
    assert explore(site, {"fen": "w 12/11 e4:b"})["moves"] == []
    assert site.explorer.index_archive(None, 10)[0] == 2  # looked at by a rebuild, not counted
    assert counted(site) == 0 and site.explorer.backlog() == 0
