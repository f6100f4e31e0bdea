"""Engine matches: games in parallel from balanced openings, pentanomial statistics and SPRT.

``emergo match`` (and :func:`run_match`) plays engines speaking the engine protocol
(docs/engine-protocol.md) against each other, as fishtest and cutechess-cli do:

* every opening of the suite (the board's ballots, :mod:`emergo.ballots`) is played
  twice with colours swapped, and each such *pair* of games is one sample: the pentanomial
  counts LL, LD, DD+WL, WD, WW of the first engine;
* the Elo difference and its 95% error bar come from the variance of the pair
  scores; the likelihood of superiority (LOS) from the same normal model;
* a GSPRT on the pentanomial model (fishtest's, logistic Elo bounds) may stop the
  match as soon as one hypothesis is accepted;
* a game ends by the rules (R18, R19a, R19b), by adjudication (both engines
  report ``|score| >= threshold`` for N moves each: a win; both report
  ``|score| <= draw threshold`` for N moves each, or a maximum length: a draw),
  by a time forfeit or by an engine failing (a crash, an illegal move: it loses);
* every game is written as a record (:mod:`emergo.record`).

The built-in computers (:data:`emergo.players.PLAYERS`: ``random``, ``greedy``,
``mcts``, ``engine``, ``python``) take part as engines through
``emergo-engine --player NAME``.

One module per concern, every public name imported here (``emergo.match.run_match`` ...):
:mod:`.stats` (pentanomial statistics, Elo, SPRT), :mod:`.engines` (an engine's spec from the
command line), :mod:`.games` (one game and one pair of games, adjudication, records),
:mod:`.runner` (the schedule, the tally, progress, threads or a runner).
"""

from emergo.match.engines import DEFAULT_LIMIT, EngineSpec, parse_engine_spec, parse_tc
from emergo.match.games import (
    PLIES_MAX,
    SCORE_MAX,
    Adjudication,
    GameResult,
    Job,
    MatchError,
    game_seed,
    play_game,
    play_pair_job,
    write_record,
)
from emergo.match.runner import (
    CONCURRENCY_MAX,
    GAMES_MAX,
    MatchInterrupted,
    MatchResult,
    PairingStats,
    run_match,
)
from emergo.match.stats import (
    ELO_MAX,
    PENTANOMIAL_LABELS,
    REGULARISATION,
    SPRT,
    EloEstimate,
    elo_estimate,
    expected_score,
    logistic_elo,
    mle_with_mean,
    pentanomial_stats,
    sprt_llr,
)

__all__ = [
    "CONCURRENCY_MAX",
    "DEFAULT_LIMIT",
    "ELO_MAX",
    "GAMES_MAX",
    "PENTANOMIAL_LABELS",
    "PLIES_MAX",
    "REGULARISATION",
    "SCORE_MAX",
    "SPRT",
    "Adjudication",
    "EloEstimate",
    "EngineSpec",
    "GameResult",
    "Job",
    "MatchError",
    "MatchInterrupted",
    "MatchResult",
    "PairingStats",
    "elo_estimate",
    "expected_score",
    "game_seed",
    "logistic_elo",
    "mle_with_mean",
    "parse_engine_spec",
    "parse_tc",
    "pentanomial_stats",
    "play_game",
    "play_pair_job",
    "run_match",
    "sprt_llr",
    "write_record",
]
