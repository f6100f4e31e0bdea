"""Engine matches: games over the protocol, records, pentanomial counts, Elo and SPRT math."""

from __future__ import annotations

import io
import math
import sys
import textwrap
from pathlib import Path

import pytest

from emergo import Board
from emergo.ballots import Ballot
from emergo.cli import main
from emergo.match import (
    SPRT,
    Adjudication,
    EngineSpec,
    GameResult,
    elo_estimate,
    expected_score,
    logistic_elo,
    mle_with_mean,
    parse_engine_spec,
    parse_tc,
    pentanomial_stats,
    run_match,
    sprt_llr,
)
from emergo.match.runner import Tally, schedule
from emergo.record import read_games
from emergo.search import Limit

# An engine built on the protocol front end with a trivial searcher: it plays the first
# legal move and always reports the score given on its command line (for adjudication).
OPINIONATED = textwrap.dedent(
    """
    import sys
    from emergo.protocol import EngineSession, serve
    from emergo.search import Score, SearchInfo, SearchResult

    class Stubborn:
        def clear(self):
            pass

        def search(self, board, limit, *, multipv=1, on_info=None, stop=None):
            move = board.moves()[0]
            info = SearchInfo(depth=1, score=Score.parse(sys.argv[1]), pv=(move,))
            if on_info is not None:
                on_info(info)
            return SearchResult(move, None, (info,))

    def send(line):
        sys.stdout.write(line + "\\n")
        sys.stdout.flush()

    serve(EngineSession(send, lambda hash_mb: Stubborn()), sys.stdin)
    """
)


@pytest.fixture(scope="module")
def opinionated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("engines") / "opinionated.py"
    path.write_text(OPINIONATED, encoding="utf-8")
    return path


def stubborn(path: Path, name: str, score: str) -> EngineSpec:
    return EngineSpec(name, (sys.executable, str(path), score), limit=Limit(depth=1))


# --- statistics against fishtest's formulas, implemented here independently ------------------


def fishtest_results_to_pdf(results: list[int]) -> tuple[float, list[tuple[float, float]]]:
    """fishtest LLRcalc.results_to_pdf: a regularised empirical distribution of pair scores."""
    epsilon = 1e-3
    regular = [max(epsilon, float(r)) for r in results]
    n = sum(regular)
    return n, [(i / (len(regular) - 1), regular[i] / n) for i in range(len(regular))]


def fishtest_llr_alt(pdf: list[tuple[float, float]], s0: float, s1: float) -> float:
    """fishtest LLRcalc.LLR_alt: the log of a ratio of variances, per sample."""
    r0 = sum(prob * (a - s0) ** 2 for a, prob in pdf)
    r1 = sum(prob * (a - s1) ** 2 for a, prob in pdf)
    return 0.5 * math.log(r0 / r1)


def fishtest_llr_alt2(pdf: list[tuple[float, float]], s0: float, s1: float) -> float:
    """fishtest LLRcalc.LLR_alt2: the normal approximation of LLR_alt."""
    mean = sum(prob * a for a, prob in pdf)
    var = sum(prob * (a - mean) ** 2 for a, prob in pdf)
    return (s1 - s0) * (2 * mean - s0 - s1) / var / 2.0


def fishtest_llr_alt_logistic(elo0: float, elo1: float, results: list[int]) -> float:
    """fishtest's shortcut N * LLR_alt: what sprt_llr computed before (it explodes at ~0
    variance)."""
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    n, pdf = fishtest_results_to_pdf(results)
    return n * fishtest_llr_alt(pdf, s0, s1)


def profile_log_likelihood(pdf: list[tuple[float, float]], s: float) -> float:
    """max sum p ln q over distributions q of expectation s, per sample, found independently of
    sprt_llr's root finding: by duality it is sum p ln p - max_x sum p ln(1 + x (a - s)), a
    concave function of x maximised here by golden-section search."""
    gaps = [a - s for a, _ in pdf]
    low, high = -1 / max(gaps) + 1e-15, -1 / min(gaps) - 1e-15

    def g(x: float) -> float:
        return sum(p * math.log(1 + x * d) for (_, p), d in zip(pdf, gaps, strict=True))

    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(300):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if g(a) < g(b):
            low = a
        else:
            high = b
    return sum(p * math.log(p) for _, p in pdf) - g((low + high) / 2)


def fishtest_llr_logistic(elo0: float, elo1: float, results: list[int]) -> float:
    """fishtest LLRcalc.LLR_logistic: N times the difference of the profile likelihoods."""
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    n, pdf = fishtest_results_to_pdf(results)
    return n * (profile_log_likelihood(pdf, s1) - profile_log_likelihood(pdf, s0))


def test_logistic_elo_known_values() -> None:
    assert logistic_elo(0.5) == 0.0
    assert logistic_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert logistic_elo(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert expected_score(400 * math.log10(3)) == pytest.approx(0.75)
    assert logistic_elo(1.0) == math.inf and logistic_elo(0.0) == -math.inf


def test_pentanomial_mean_and_variance() -> None:
    pairs, mean, var = pentanomial_stats([10, 20, 40, 20, 10])
    assert pairs == 100
    assert mean == pytest.approx(0.5)
    assert var == pytest.approx(0.1 * 0.25 + 0.2 * 0.0625 + 0.2 * 0.0625 + 0.1 * 0.25)
    with pytest.raises(ValueError, match="5 counts"):
        pentanomial_stats([1, 2, 3])


def elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


@pytest.mark.parametrize(
    "penta", [[10, 20, 40, 20, 10], [3, 15, 50, 25, 7], [0, 1, 30, 10, 2], [2, 3, 10, 4, 1]]
)
def test_elo_and_error_bars_from_pentanomial(penta: list[int]) -> None:
    n = sum(penta)
    scores = [i / 4 for i in range(5)]
    mean = sum(c * s for c, s in zip(penta, scores, strict=True)) / n
    sd = math.sqrt(sum(c * (s - mean) ** 2 for c, s in zip(penta, scores, strict=True)) / n / n)
    est = elo_estimate(penta)
    assert est.elo == pytest.approx(elo(mean))
    assert est.error == pytest.approx((elo(mean + 1.959964 * sd) - elo(mean - 1.959964 * sd)) / 2)
    assert est.los == pytest.approx(0.5 * (1 + math.erf((mean - 0.5) / sd / math.sqrt(2))))
    assert est.score == pytest.approx(mean)


def test_symmetric_results_are_zero_elo_and_even_los() -> None:
    est = elo_estimate([7, 11, 30, 11, 7])
    assert est.elo == pytest.approx(0.0, abs=1e-9)
    assert est.los == pytest.approx(0.5)
    assert str(elo_estimate([0, 0, 0, 0, 0])) == "+0.0 +/- ?"


@pytest.mark.parametrize(
    ("penta", "elo0", "elo1"),
    [
        ([120, 900, 2200, 950, 130], 0.0, 2.0),
        ([10, 40, 100, 60, 20], -1.75, 0.25),
        ([0, 3, 10, 5, 0], 0.0, 10.0),
        ([1, 0, 0, 0, 9], 0.0, 400.0),
    ],
)
def test_sprt_llr_matches_fishtest(penta: list[int], elo0: float, elo1: float) -> None:
    assert sprt_llr(penta, elo0, elo1) == pytest.approx(
        fishtest_llr_logistic(elo0, elo1, penta), rel=1e-6, abs=1e-9
    )


@pytest.mark.parametrize(
    ("penta", "elo0", "elo1"),
    [
        ([120, 900, 2200, 950, 130], 0.0, 2.0),
        ([10, 40, 100, 60, 20], -1.75, 0.25),
        ([0, 3, 10, 5, 0], 0.0, 10.0),
        ([3, 15, 50, 25, 7], 0.0, 10.0),
        ([10, 20, 40, 20, 10], 0.0, 5.0),
    ],
)
def test_sprt_llr_agrees_with_the_variance_shortcut_on_ordinary_data(
    penta: list[int], elo0: float, elo1: float
) -> None:
    assert sprt_llr(penta, elo0, elo1) == pytest.approx(
        fishtest_llr_alt_logistic(elo0, elo1, penta), rel=0.01
    )


def test_mle_with_mean_has_the_mean_and_the_largest_likelihood() -> None:
    counts = [0.001, 3.0, 10.0, 5.0, 0.001]
    for mean in (0.3, 0.5, expected_score(50), 0.9):
        q = mle_with_mean(counts, mean)
        assert sum(q) == pytest.approx(1.0)
        assert sum(p * i / 4 for i, p in enumerate(q)) == pytest.approx(mean, abs=1e-9)
        best = sum(c * math.log(p) for c, p in zip(counts, q, strict=True))
        # any move along the distributions of that mean (a direction keeping the total and the
        # expectation) lowers the likelihood
        for direction in ([1, -2, 1, 0, 0], [0, 1, -2, 1, 0], [0, 0, 1, -2, 1], [1, -1, -1, 1, 0]):
            assert sum(d * i for i, d in enumerate(direction)) == 0 and sum(direction) == 0
            for step in (1e-4, -1e-4):
                other = [p + step * d for p, d in zip(q, direction, strict=True)]
                if min(other) > 0:
                    assert sum(c * math.log(p) for c, p in zip(counts, other, strict=True)) < best
    with pytest.raises(ValueError, match="mean"):
        mle_with_mean(counts, 1.0)


def test_pairs_that_all_split_do_not_accept_h0_after_a_handful() -> None:
    # emergo match --sprt "elo0=0 elo1=50" stopped after 6 games, LLR -4.87: three pairs, each
    # 1-1, have an empirical variance of ~0 and the variance shortcut explodes.
    assert fishtest_llr_alt_logistic(0, 50, [0, 0, 3, 0, 0]) == pytest.approx(-4.87, abs=0.01)
    sprt = SPRT(elo0=0, elo1=50)
    states = [sprt.state([0, 0, n, 0, 0]) for n in range(1, 41)]
    assert states[:10] == ["running"] * 10
    # each such pair costs H1 ln(1 - 2 (s1 - 1/2)): H0 is accepted after ~19 pairs, not 3
    per_pair = math.log(1 - 2 * (expected_score(50) - 0.5))
    assert sprt_llr([0, 0, 10, 0, 0], 0, 50) == pytest.approx(10 * per_pair, rel=0.01)
    assert states.index("H0 accepted") + 1 == math.ceil(sprt.bounds()[0] / per_pair)
    # the same with the narrow bounds a real test uses: still running after 40 pairs
    assert SPRT(elo0=0, elo1=5).state([0, 0, 40, 0, 0]) == "running"
    # split pairs of both kinds (WL and LW count as 1-1 too) with one win among them
    assert SPRT(elo0=0, elo1=50).state([0, 0, 8, 0, 1]) == "running"


def test_sprt_llr_agrees_with_the_normal_approximation_for_close_bounds() -> None:
    penta = [120, 900, 2200, 950, 130]
    s0, s1 = expected_score(0.0), expected_score(2.0)
    n, pdf = fishtest_results_to_pdf(penta)
    assert sprt_llr(penta, 0.0, 2.0) == pytest.approx(n * fishtest_llr_alt2(pdf, s0, s1), rel=0.01)


def test_sprt_bounds_and_states() -> None:
    sprt = SPRT(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    lower, upper = sprt.bounds()
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert sprt.state([0, 0, 0, 0, 0]) == "running"
    assert sprt.state([0, 0, 0, 0, 500]) == "H1 accepted"
    assert sprt.state([500, 0, 0, 0, 0]) == "H0 accepted"
    assert "LLR" in sprt.describe([1, 2, 3, 2, 1])
    with pytest.raises(ValueError, match="elo0 < elo1"):
        SPRT(elo0=5, elo1=0)
    with pytest.raises(ValueError, match="alpha"):
        SPRT(alpha=0.7)


# --- engine specs (the openings: tests/test_ballots.py) ---------------------------------------


def test_parse_engine_spec() -> None:
    spec = parse_engine_spec('cmd="my engine --fast" name=Mine depth=3 option.Hash=64 tc=5+0.1')
    assert spec.command == ("my", "engine", "--fast")
    assert spec.name == "Mine"
    assert spec.limit == Limit(depth=3)
    assert spec.options == {"Hash": "64"}
    assert spec.tc == (5.0, 0.1)
    builtin = parse_engine_spec("greedy", defaults="move-time=0.2")
    assert builtin.name == "greedy" and "--player" in builtin.command
    assert builtin.limit == Limit(time=0.2)
    with pytest.raises(ValueError, match="unknown key 'colour'"):
        parse_engine_spec("random colour=red")
    with pytest.raises(ValueError, match="needs cmd="):
        parse_engine_spec("depth=3")
    with pytest.raises(ValueError, match="base must be > 0"):
        parse_tc("0+1")


# --- matches over the protocol ----------------------------------------------------------------


def check_pairs(games: list[GameResult]) -> None:
    """Games come in colour-swapped pairs from one opening."""
    by_pair: dict[int, list[GameResult]] = {}
    for game in games:
        by_pair.setdefault(game.pair, []).append(game)
    for pair in by_pair.values():
        assert len(pair) == 2
        assert (pair[0].white, pair[0].black) == (pair[1].black, pair[1].white)
        assert pair[0].opening == pair[1].opening


def test_random_vs_greedy_match_in_parallel(tmp_path: Path) -> None:
    records = tmp_path / "games.txt"
    progress = io.StringIO()
    result = run_match(
        [EngineSpec.builtin("random"), EngineSpec.builtin("greedy")],
        games=4,
        concurrency=2,
        records=records,
        progress=progress,
    )
    assert len(result.games) == 4
    check_pairs(result.games)
    stats = result.pairings[(0, 1)]
    assert stats.wins + stats.draws + stats.losses == 4
    assert sum(stats.penta) == 2  # one count per pair
    with records.open(encoding="utf-8") as handle:
        games = list(read_games(handle))  # every record is legal by the rules
    assert len(games) == 4
    by_round = {int(g.headers["Round"]): g for g in games}
    for game in result.games:
        record = by_round[game.number]
        assert record.headers["Result"] == game.result
        assert record.headers["White"] == result.names[game.white]
        assert len(record.mainline_moves()) == game.plies
    summary = result.summary()
    assert "random vs greedy" in summary and "pentanomial: LL" in summary and "Elo" in summary
    assert "[4/4]" in progress.getvalue()


def test_score_adjudication_and_sprt_stop_early(opinionated: Path) -> None:
    # Both engines agree that "optimist" is winning: every game is adjudicated to it,
    # every pair is WW, and an SPRT with wide bounds accepts H1 after a few pairs.
    optimist = stubborn(opinionated, "optimist", "500")
    pessimist = stubborn(opinionated, "pessimist", "-500")
    sprt = SPRT(elo0=0, elo1=400, alpha=0.05, beta=0.05)
    result = run_match(
        [optimist, pessimist],
        games=40,
        concurrency=1,
        adjudication=Adjudication(score=400, moves=2),
        sprt=sprt,
    )
    assert result.stopped_early and len(result.games) < 40
    assert all("adjudicated" in g.reason and g.points(0) == 1.0 for g in result.games)
    penta = result.pairings[(0, 1)].penta
    assert penta[:4] == [0, 0, 0, 0] and penta[4] == len(result.games) // 2
    assert sprt.state(penta) == "H1 accepted"
    assert "H1 accepted (stopped early)" in result.summary()


def test_no_adjudication_without_agreement_then_max_plies_draw(opinionated: Path) -> None:
    both_winning = [stubborn(opinionated, "a", "win3"), stubborn(opinionated, "b", "700")]
    result = run_match(
        both_winning,
        games=2,
        adjudication=Adjudication(score=400, moves=2, max_plies=14),
        openings=[Ballot(("d4", "e5"))],
    )
    for game in result.games:
        assert game.result == "1/2-1/2" and game.plies == 14
        assert "draw after 14 plies" in game.reason
    assert result.pairings[(0, 1)].penta == [0, 0, 1, 0, 0]


def test_round_robin_of_three_engines() -> None:
    engines = [
        EngineSpec.builtin("random"),
        EngineSpec.builtin("random"),
        EngineSpec.builtin("greedy"),
    ]
    result = run_match(engines, games=2, adjudication=Adjudication(max_plies=10))
    assert result.names == ["random-1", "random-2", "greedy"]
    assert set(result.pairings) == {(0, 1), (0, 2), (1, 2)}
    assert len(result.games) == 6
    check_pairs(result.games)
    assert "standings:" in result.summary()


def test_engine_that_cannot_start_fails_the_match_clearly() -> None:
    bad = EngineSpec("ghost", ("/nonexistent/engine",))
    with pytest.raises(Exception, match="engine ghost: cannot start engine"):
        run_match([bad, EngineSpec.builtin("random")], games=2)


def test_match_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "cli.txt"
    argv = ["-e", "random", "-e", "greedy", "-n", "2", "--max-plies", "12"]
    status = main(["match", *argv, "--records", str(records)])
    out, err = capsys.readouterr()
    assert status == 0
    assert "random vs greedy" in out and "Elo" in out
    assert "[2/2]" in err
    assert records.read_text(encoding="utf-8").count("[Round ") == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-e", "random"], "at least two engines"),
        (["-e", "random", "-e", "nobody"], "'nobody' is not key=value nor a built-in name"),
        (["-e", "random", "-e", "depth=3"], "needs cmd="),
        (["-e", "random", "-e", "greedy", "--sprt", "elo0=5 elo1=0"], "elo0 < elo1"),
    ],
)
def test_match_command_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", *argv]) == 2
    assert message in capsys.readouterr().err


def test_game_boards_start_from_the_opening() -> None:
    board = Ballot(("d4", "e5")).board()
    assert [str(m) for m in board.move_stack] == ["d4", "e5"]
    assert board.root().position() == Board().position()


def test_elo_interval_near_a_perfect_score_is_one_sided() -> None:
    est = elo_estimate([0, 0, 2, 1, 97])
    assert est.low > 400 and est.high == math.inf  # the score's interval reaches 1
    assert est.interval().endswith(", +inf]")
    even = elo_estimate([10, 20, 40, 20, 10])
    assert even.low == pytest.approx(-even.high) and even.high == pytest.approx(even.error)
    assert elo_estimate([0, 0, 0, 0, 0]).interval() == "[?]"


def test_elo_interval_when_every_pair_scored_the_same_uses_the_rule_of_three() -> None:
    perfect = elo_estimate([0, 0, 0, 0, 100])
    assert perfect.elo == math.inf and perfect.high == math.inf
    assert perfect.low == pytest.approx(logistic_elo(0.97))  # at most 3 in 100 pairs lost
    split = elo_estimate([0, 0, 10, 0, 0])
    assert split.elo == 0.0 and split.high == pytest.approx(logistic_elo(0.65))
    assert split.low == pytest.approx(-split.high)
    assert elo_estimate([0, 0, 0, 0, 2]).interval() == "[-inf, +inf]"


def test_draw_adjudication_by_agreed_score_waits_for_its_ply(opinionated: Path) -> None:
    # Both engines call the game even: it is drawn on the first ply at which both have
    # said so on their last 2 moves, here not before ply 10 (the opening has 2 plies).
    even = [stubborn(opinionated, "a", "10"), stubborn(opinionated, "b", "-20")]
    adjudication = Adjudication(draw_score=25, draw_moves=2, draw_after=10)
    result = run_match(even, games=2, adjudication=adjudication, openings=[Ballot(("d4", "e5"))])
    for game in result.games:
        assert game.result == "1/2-1/2" and game.plies == 10
        assert "draw, both engines scored within 25 of even in their last 2 moves" in game.reason
    # One side sees more than the threshold: no draw until the maximum length.
    uneven = [stubborn(opinionated, "a", "10"), stubborn(opinionated, "b", "-30")]
    adjudication = Adjudication(draw_score=25, draw_moves=2, draw_after=4, max_plies=12)
    result = run_match(uneven, games=2, adjudication=adjudication, openings=[Ballot(("d4", "e5"))])
    assert all(g.plies == 12 and "draw after 12 plies" in g.reason for g in result.games)


# --- the parts of run_match -------------------------------------------------------------------


def test_schedule_plays_every_pairing_a_round_then_the_next_opening() -> None:
    jobs = list(schedule([(0, 1), (0, 2), (1, 2)], pairs=3, openings=2))
    assert jobs[:4] == [(0, 0, 1, 0), (1, 0, 2, 0), (2, 1, 2, 0), (3, 0, 1, 1)]
    assert [job[0] for job in jobs] == list(range(9))
    assert [job[3] for job in jobs] == [0, 0, 0, 1, 1, 1, 0, 0, 0]  # the suite cycles


def test_tally_counts_a_pair_once_both_games_ended_and_sprt_stops_the_match(
    tmp_path: Path,
) -> None:
    records = tmp_path / "games.egn"
    records.write_text("old", encoding="utf-8")
    sprt = SPRT(elo0=-400, elo1=400, alpha=0.2, beta=0.2)  # one pair of wins accepts H1
    tally = Tally(["a", "b"], [(0, 1)], 8, sprt, records, None)
    assert records.read_text(encoding="utf-8") == ""  # emptied before the first game
    wins = [GameResult(n, (n - 1) // 2, 1 - n % 2, n % 2, "1-0" if n % 2 else "0-1", "", 9, 0)
            for n in range(1, 9)]  # fmt: skip  # engine 0 wins every game, as White and Black
    tally.add(wins[0])
    stats = tally.pairings[(0, 1)]
    assert (stats.wins, stats.penta) == (1, [0, 0, 0, 0, 0])  # half a pair: no sample yet
    for game in wins[1:]:
        if not tally.stop.is_set():
            tally.add(game)
    assert len(tally.games) == 2 and stats.penta == [0, 0, 0, 0, 1] and tally.stop.is_set()
    assert tally.result(1.0).stopped_early
    plain = Tally(["a", "b"], [(0, 1)], 8, None, None, None)
    for game in wins:
        plain.add(game)
    assert plain.pairings[(0, 1)].penta == [0, 0, 0, 0, 4] and not plain.stop.is_set()
    assert not plain.result(1.0).stopped_early
    assert plain.result(1.0, interrupted=True).stopped_early  # Ctrl-C
