"""The site's puzzles (emergo.server.puzzle.service) on SQLite and PostgreSQL: the shipped set
imported once, files imported idempotently with bad lines named, attempts judged by
emergo.puzzles.check and rated by the site's Glicko-2 (the first try only), the next puzzle,
the daily one, the dashboard, replay and the timed run's count."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from emergo import Board
from emergo.puzzles import Puzzle, format_line, load
from emergo.puzzles.line import result
from emergo.server.core import models as m
from emergo.server.puzzle.service import PUZZLE_DEVIATION, PuzzleError, Puzzles, combo_bonus
from emergo.server.site import Site
from emergo.server.user.glicko2 import Rating, rate_game
from tests.plugins.common import KERNEL_MISSING

SHIPPED = {v: len(load(v)) for v in ("9x9", "7x7", "hex")}


def wrong_move(puzzle: Puzzle, ply: int = 0) -> str:
    """A legal move at the solver's ``ply``-th move that is not the solution's (nor leads to
    its position)."""
    board = puzzle.board()
    for text in puzzle.solution[:ply]:
        board.push_move(text)
    right = board.parse_move(puzzle.solution[ply])
    for move in board.moves():
        if result(board, move) != result(board, right):
            return str(move)
    raise AssertionError("a puzzle with one legal move")


def a_puzzle(site: Site, long: bool = False) -> Puzzle:
    """A puzzle of the site of more than one solver move when ``long``, not ending the game at
    its first move."""
    for p in load("7x7"):
        if (not long or len(p.solution) >= 3) and "win" not in p.themes:
            return site.puzzles.get(p.id).puzzle
    raise AssertionError("no such puzzle")


def test_the_shipped_set_is_imported_once(site: Site) -> None:
    from sqlalchemy import delete, func, select

    from emergo.server.core import models as m

    with site.db.write() as tx:  # the tests' template holds them (tests/plugins/site.py)
        tx.execute(delete(m.puzzles))
        tx.execute(delete(m.puzzle_imports))
    with site.db.read() as c:
        assert c.execute(select(func.count()).select_from(m.puzzles)).scalar_one() == 0
    assert site.puzzles.ensure_shipped() == sum(SHIPPED.values())
    assert site.puzzles.counts() == {v: n for v, n in SHIPPED.items() if n}
    # another process (a new service on the same database) finds it imported
    again = Puzzles(site.db)
    assert again.ensure_shipped() == 0
    assert again.counts() == site.puzzles.counts()
    stored = site.puzzles.get(load("hex")[0].id)
    assert stored.rating == load("hex")[0].rating and stored.rd == PUZZLE_DEVIATION
    assert stored.plays == 0


def test_import_is_idempotent_and_names_a_bad_line(site: Site, tmp_path: Path) -> None:
    site.puzzles.ensure_shipped()
    some = load("7x7")[:3]
    header = "# emergo puzzles 1\n# settings variant=7x7\n"
    good = tmp_path / "some.txt"
    good.write_text(header + "".join(format_line(p) + "\n" for p in some))
    assert site.puzzles.import_file(good) == 0  # every one is in the shipped set
    # a new puzzle (another id) is added, once, whatever file holds it
    new = Puzzle(**{**some[0].__dict__, "id": "zz0001", "rating": 1234})
    fresh = tmp_path / "fresh.txt.gz"
    with gzip.open(fresh, "wt", encoding="utf-8") as f:
        f.write(header + format_line(new) + "\n")
    assert site.puzzles.import_file(fresh) == 1
    assert site.puzzles.import_file(fresh) == 0
    copy = tmp_path / "copy.txt"
    copy.write_text(header + format_line(new) + "\n# a note\n")
    assert site.puzzles.import_file(copy) == 0
    assert site.puzzles.get("zz0001").rating == 1234
    # a bad line: its number named, nothing of the file imported
    other = Puzzle(**{**some[1].__dict__, "id": "zz0002"})
    bad = tmp_path / "bad.txt"
    bad.write_text(header + format_line(other) + "\nnot\ta puzzle\n")
    with pytest.raises(PuzzleError, match=r"bad\.txt: line 4"):
        site.puzzles.import_file(bad)
    with pytest.raises(PuzzleError, match="no puzzle"):
        site.puzzles.get("zz0002")
    with pytest.raises(PuzzleError, match="line 1: not a puzzle file"):
        (tmp_path / "x.txt").write_text("hello\n")
        site.puzzles.import_file(tmp_path / "x.txt")
    with pytest.raises(PuzzleError, match="cannot read"):
        site.puzzles.import_file(tmp_path / "missing.txt")


def test_a_solved_first_try_is_a_rated_win(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    p = a_puzzle(site)
    before = site.puzzles.get(p.id)
    attempt = site.puzzles.attempt(p.id, ann.id, list(p.solution))
    assert attempt.verdict is not None and attempt.verdict.status == "solved"
    assert attempt.win and attempt.rated
    expected, _ = rate_game(Rating(), Rating(before.rating, before.rd, 0.09), 1.0)
    assert attempt.perf is not None and attempt.perf.rating == pytest.approx(expected.rating)
    assert attempt.rating_diff == round(expected.rating) - 1500 > 0
    after = site.puzzles.get(p.id)
    assert after.plays == 1
    # the player is provisional: the puzzle's rating stays
    assert after.rating == before.rating
    # a second try is kept, never rated
    again = site.puzzles.attempt(p.id, ann.id, list(p.solution))
    assert again.win and not again.rated and again.rating_diff is None
    assert site.puzzles.perf(ann.id)[1] == 1
    assert site.puzzles.get(p.id).plays == 1


def test_a_wrong_move_is_a_rated_loss_with_its_refutation(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    p = a_puzzle(site, long=True)
    wrong = wrong_move(p)
    attempt = site.puzzles.attempt(p.id, ann.id, [wrong])
    v = attempt.verdict
    assert v is not None and v.status == "wrong" and v.solution == p.solution[0]
    after_wrong = p.board()
    after_wrong.push_move(wrong)
    if after_wrong.outcome() is None and not KERNEL_MISSING:  # the refutation is a search
        assert v.refutation is not None
        after_wrong.parse_move(v.refutation)  # a legal reply
    assert attempt.win is False and attempt.rated and attempt.rating_diff is not None
    assert attempt.rating_diff < 0
    assert site.puzzles.perf(ann.id)[0].rating < 1500
    # right moves so far: the reply, nothing kept
    bob = site.users.create("bob", "a good password")
    going = site.puzzles.attempt(p.id, bob.id, [p.solution[0]])
    assert going.win is None and going.verdict is not None and going.verdict.reply == p.solution[1]
    assert site.puzzles.perf(bob.id) == (Rating(), 0)


def test_a_settled_player_moves_the_puzzle(site: Site) -> None:
    from sqlalchemy import insert

    ann = site.users.create("ann", "a good password")
    with site.db.write() as tx:
        tx.execute(
            insert(m.puzzle_perfs).values(
                user_id=ann.id, rating=1500.0, rd=60.0, volatility=0.06, games=100, latest=None
            )
        )
    p = a_puzzle(site)
    before = site.puzzles.get(p.id)
    site.puzzles.attempt(p.id, ann.id, None, gave_up=True)
    after = site.puzzles.get(p.id)
    assert after.rating > before.rating and after.rd < before.rd  # the puzzle won


def test_not_an_attempt(site: Site) -> None:
    p = a_puzzle(site, long=True)
    with pytest.raises(PuzzleError, match="not an attempt"):
        site.puzzles.attempt(p.id, None, [p.solution[0], p.solution[1]])  # even: no solver move
    with pytest.raises(PuzzleError, match="not an attempt"):
        site.puzzles.attempt(p.id, None, ["z9"])
    with pytest.raises(PuzzleError, match="moves played"):
        site.puzzles.attempt(p.id, None, [])
    with pytest.raises(PuzzleError) as e:
        site.puzzles.attempt("nope00", None, [p.solution[0]])
    assert e.value.status == 404


def test_the_next_puzzle(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    rng = random.Random(1)
    first = site.puzzles.next_for(ann.id, variant="hex", angle="feed", rng=rng)
    assert first.puzzle.variant == "hex" and "feed" in first.puzzle.themes
    assert abs(first.rating - 1500) < 300
    site.puzzles.attempt(first.puzzle.id, ann.id, list(first.puzzle.solution))
    seen = {first.puzzle.id}
    for _ in range(10):
        nxt = site.puzzles.next_for(ann.id, variant="hex", angle="feed", rng=rng)
        assert nxt.puzzle.id not in seen  # never one tried
        site.puzzles.attempt(nxt.puzzle.id, ann.id, list(nxt.puzzle.solution))
        seen.add(nxt.puzzle.id)
    # the player's rating rose with ten wins: so did the puzzles' level
    assert site.puzzles.perf(ann.id)[0].rating > 1800
    harder = site.puzzles.next_for(ann.id, variant="hex", rng=rng)
    assert harder.rating > first.rating
    # signed out: at the rating asked
    low = site.puzzles.next_for(None, variant="7x7", rating=800, rng=rng)
    assert low.rating < 1200
    with pytest.raises(PuzzleError, match="no theme"):
        site.puzzles.next_for(None, angle="nonsense")
    with pytest.raises(PuzzleError, match="no board"):
        site.puzzles.next_for(None, variant="8x8")


def test_the_daily_puzzle_is_the_same_for_a_day(site: Site) -> None:
    day = 1_800_000_000.0
    one = site.puzzles.daily(day)
    assert one.puzzle.id == site.puzzles.daily(day + 3600).puzzle.id
    assert "oneMove" not in one.puzzle.themes
    others = {site.puzzles.daily(day + n * 86400).puzzle.id for n in range(1, 8)}
    assert len(others | {one.puzzle.id}) > 1


def test_dashboard_and_replay(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    p = a_puzzle(site, long=True)
    q = next(x for x in load("hex") if len(x.solution) >= 3 and "win" not in x.themes)
    site.puzzles.attempt(p.id, ann.id, list(p.solution))
    site.puzzles.attempt(q.id, ann.id, [wrong_move(q)])
    d = site.puzzles.dashboard(ann.id, 30)
    assert d["global"]["nb"] == 2 and d["global"]["firstWins"] == 1 and d["global"]["failed"] == 1
    for theme, row in d["themes"].items():
        res = row["results"]
        expected = (theme in p.themes) + (theme in q.themes)
        assert res["nb"] == expected
    performances = [row["results"]["performance"] for row in d["themes"].values()]
    assert performances == sorted(performances)  # weakest first
    only_q = [t for t in q.themes if t not in p.themes]
    if only_q:
        assert only_q[0] in d["weakest"]
    assert d["byDay"][0]["nb"] == 2
    assert site.puzzles.replay(ann.id, 30) == [q.id]
    # solved on a later try: fixed, not to replay, still a failure of the first try
    site.puzzles.attempt(q.id, ann.id, list(q.solution))
    assert site.puzzles.replay(ann.id, 30) == []
    d = site.puzzles.dashboard(ann.id, 30)
    assert d["global"]["replayWins"] == 1 and d["global"]["firstWins"] == 1
    with pytest.raises(PuzzleError):
        site.puzzles.dashboard(ann.id, 0)
    assert site.puzzles.activity(ann.id)[0]["puzzle"]["id"] == q.id


def test_a_timed_run_is_counted_by_the_server(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    run = site.puzzles.storm("7x7", rng=random.Random(2))
    ratings = [s.rating for s in run]
    assert ratings == sorted(ratings) and len(run) > 10
    solved = [(s.puzzle.id, list(s.puzzle.solution)) for s in run[:3]]
    counted = site.puzzles.storm_result(ann.id, solved, errors=1, combo=5, seconds=100)
    assert counted.score == 3 and counted.best == 0 and counted.json()["newHigh"]
    assert counted.moves == sum((len(line) + 1) // 2 for _, line in solved)
    again = site.puzzles.storm_result(ann.id, solved[:1], errors=0, combo=1, seconds=20)
    assert again.best == 3 and not again.json()["newHigh"]
    assert site.puzzles.storm_best(ann.id)["score"] == 3
    assert site.puzzles.storm_best(ann.id)["runs"] == 2
    p = run[0].puzzle
    with pytest.raises(PuzzleError, match=r"not a solution|does not solve"):
        site.puzzles.storm_result(ann.id, [(p.id, [wrong_move(p)])], errors=0, combo=0, seconds=1)
    assert [combo_bonus(n) for n in (4, 5, 12, 20, 30, 40, 41)] == [0, 3, 5, 7, 10, 10, 0]


def test_wrong_move_helper_is_wrong() -> None:
    p = next(x for x in load("7x7") if len(x.solution) >= 3)
    board = Board(p.position)
    assert board.parse_move(wrong_move(p)) != board.parse_move(p.solution[0])


def test_deleting_an_account_deletes_its_puzzle_history(site: Site) -> None:
    ann = site.users.create("ann", "a good password")
    p = a_puzzle(site)
    site.puzzles.attempt(p.id, ann.id, list(p.solution))
    site.puzzles.storm_result(ann.id, [(p.id, list(p.solution))], errors=0, combo=1, seconds=5)
    site.delete_account(ann)
    assert site.puzzles.perf(ann.id) == (Rating(), 0)
    assert site.puzzles.activity(ann.id) == []
    assert site.puzzles.storm_best(ann.id)["runs"] == 0
    assert site.puzzles.get(p.id).plays == 1  # the puzzle's count stays
