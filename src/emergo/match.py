"""Engine matches: games in parallel from balanced openings, pentanomial statistics and SPRT.

``emergo match`` (and :func:`run_match`) plays engines speaking the engine protocol
(docs/engine-protocol.md) against each other, as fishtest and cutechess-cli do:

* every opening of the suite (``emergo/data/openings.txt``) is played twice with
  colours swapped, and each such *pair* of games is one sample: the pentanomial
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
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import math
import random
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TextIO

from emergo.board import WHITE, Board, Color
from emergo.engine import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InfoDict,
    SimpleEngine,
)
from emergo.geometry import DEFAULT_VARIANT, VARIANTS
from emergo.notation import position_variant
from emergo.parallel import Runner
from emergo.players import PLAYERS
from emergo.search import Limit, Score
from emergo.wire import DEPTH_MAX, NODES_MAX, SECONDS_MAX

GAMES_MAX = 1_000_000
"""Games per pairing a match may ask for (the schedule is made as the games are played)."""
CONCURRENCY_MAX = 64
"""Games at once."""
PLIES_MAX = 100_000
"""The longest ``max_plies`` and the other ply and move counts of :class:`Adjudication`."""
ELO_MAX = 2000
"""SPRT's hypotheses are Elo differences within +-ELO_MAX."""
SCORE_MAX = 100_000
"""The largest adjudication threshold in centi-men (a thousand men: beyond any evaluation)."""

# --- statistics -------------------------------------------------------------------------------

PENTANOMIAL_LABELS = ("LL", "LD", "DD/WL", "WD", "WW")
"""The five outcomes of a game pair, by the first engine's points in it: 0, 1/2, 1, 3/2, 2."""


def logistic_elo(score: float) -> float:
    """The Elo difference that gives an expected score (0 < score < 1) in the logistic model."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0.0" for an even score


def expected_score(elo: float) -> float:
    """The expected score of an Elo difference (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def pentanomial_stats(penta: Sequence[int]) -> tuple[int, float, float]:
    """``(pairs, mean, variance)`` of the per-game score over game pairs.

    A pair's score ``i/4`` (i = 0..4) is its points divided by 2; the variance is
    that of one pair's score, not of the mean.
    """
    if len(penta) != 5 or any(n < 0 for n in penta):
        raise ValueError(f"pentanomial counts must be 5 counts >= 0, not {list(penta)}")
    pairs = sum(penta)
    if pairs == 0:
        return 0, 0.5, 0.0
    mean = sum(n * i / 4 for i, n in enumerate(penta)) / pairs
    var = sum(n * (i / 4 - mean) ** 2 for i, n in enumerate(penta)) / pairs
    return pairs, mean, var


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference with its 95% confidence half-width, and the likelihood of superiority."""

    elo: float
    error: float
    """Half the width of the 95% interval, in Elo (``nan`` when unknown)."""
    los: float
    """Probability that the first engine is the stronger, 0..1."""
    score: float
    """Mean score per game of the first engine, 0..1."""
    low: float = math.nan
    """Lower end of the 95% interval, in Elo (``-inf`` when the score's interval reaches 0)."""
    high: float = math.nan
    """Upper end of the 95% interval (``+inf`` when it reaches a score of 1)."""

    def __str__(self) -> str:
        elo = _signed(self.elo)
        if math.isnan(self.error):
            return f"{elo} +/- ?"
        return f"{elo} +/- {self.error:.1f}"

    def interval(self) -> str:
        """The 95% interval, ``[+583.0, +inf]``; near a score of 0 or 1 it is far from even."""
        if math.isnan(self.low) or math.isnan(self.high):
            return "[?]"
        return f"[{_signed(self.low)}, {_signed(self.high)}]"


def _signed(elo: float) -> str:
    return f"{elo:+.1f}" if math.isfinite(elo) else f"{elo:+}"


def elo_estimate(penta: Sequence[int], z: float = 1.959964) -> EloEstimate:
    """Elo and error bars from pentanomial counts (normal approximation of the pair scores)."""
    pairs, mean, var = pentanomial_stats(penta)
    if pairs == 0:
        return EloEstimate(0.0, math.nan, 0.5, 0.5)
    sd = math.sqrt(var / pairs)
    elo = logistic_elo(mean)
    if sd == 0.0:
        # Every pair scored the same: the normal model has nothing to say.  The rule of
        # three bounds the share of pairs that would score otherwise by 3/pairs (95%),
        # and such a pair moves the mean by at most the distance to 0 or to 1.
        los = 0.5 if mean == 0.5 else float(mean > 0.5)
        share = min(3.0 / pairs, 1.0)
        low = logistic_elo(mean - mean * share)
        high = logistic_elo(mean + (1.0 - mean) * share)
        error = (high - low) / 2 if math.isfinite(high - low) else math.nan
        return EloEstimate(elo, error, los, mean, low, high)
    low = logistic_elo(max(mean - z * sd, 1e-9))
    high = logistic_elo(min(mean + z * sd, 1 - 1e-9))
    return EloEstimate(
        elo,
        (high - low) / 2,
        _phi((mean - 0.5) / sd),
        mean,
        logistic_elo(mean - z * sd),  # unclipped: -inf / +inf when the interval reaches 0 / 1
        logistic_elo(mean + z * sd),
    )


REGULARISATION = 1e-3
"""The count given to a pentanomial outcome not seen yet (fishtest's ``regularize``)."""


def _regularised(penta: Sequence[int]) -> list[float]:
    return [float(n) if n > 0 else REGULARISATION for n in penta]


def mle_with_mean(counts: Sequence[float], mean: float) -> list[float]:
    """The distribution of pair scores (0, 1/4, ... 1) of largest likelihood for ``counts``
    among those whose expectation is ``mean`` (0 < mean < 1; every count > 0).

    By a Lagrange multiplier it is ``q_i = p_i / (1 + x (a_i - mean))``, ``p`` the empirical
    distribution and ``x`` the root of ``sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0``,
    which falls strictly between the poles ``-1 / max(a_i - mean)`` and
    ``-1 / min(a_i - mean)`` (M. Van den Bergh, "Support of the MLE for a multinomial
    distribution with given expectation", as fishtest's ``LLRcalc.MLE_expected``).  The left
    side falls as ``x`` grows, so bisection finds the root to the last bit.
    """
    if not 0.0 < mean < 1.0:
        raise ValueError(f"the mean must be in (0, 1), not {mean}")
    total = sum(counts)
    gaps = [i / (len(counts) - 1) - mean for i in range(len(counts))]
    probs = [c / total for c in counts]

    def slope(x: float) -> float:
        return sum(p * d / (1.0 + x * d) for p, d in zip(probs, gaps, strict=True))

    low, high = -1.0 / max(gaps), -1.0 / min(gaps)
    for _ in range(200):
        mid = (low + high) / 2.0
        if mid in (low, high):
            break
        if slope(mid) > 0.0:
            low = mid
        else:
            high = mid
    x = (low + high) / 2.0
    q = [p / (1.0 + x * d) for p, d in zip(probs, gaps, strict=True)]
    norm = sum(q)  # 1 up to rounding
    return [v / norm for v in q]


def sprt_llr(penta: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0), pentanomial model.

    As fishtest computes it (``LLRcalc.LLR_logistic``): every count not seen yet is
    :data:`REGULARISATION`; under each hypothesis the distribution of pair scores is the one of
    largest likelihood whose expectation is the hypothesis's score (:func:`mle_with_mean`);
    the LLR is ``sum n_i ln(q1_i / q0_i)``.

    Not the shortcut ``N/2 ln(sum p (a - s0)^2 / sum p (a - s1)^2)`` (fishtest's ``LLR_alt``,
    which this function used before): that approximates the likelihood by a normal law of the
    empirical variance, and when the variance is ~0 (every pair so far split 1-1) the ratio
    explodes -- six games of three 1-1 pairs gave LLR -4.87 for elo0=0 elo1=50, H0 accepted.
    The exact ratio is bounded per pair: all-1-1 pairs cost ``ln(1 - 2 (s1 - 1/2))`` each
    under H1 (-0.155 for elo1=50), so such a run needs ~19 pairs to accept H0.  On ordinary
    data the two agree within a percent (tests/test_match.py).
    """
    if sum(penta) == 0:
        return 0.0
    counts = _regularised(penta)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    q0, q1 = mle_with_mean(counts, s0), mle_with_mean(counts, s1)
    return math.fsum(
        c * (math.log(b) - math.log(a)) for c, a, b in zip(counts, q0, q1, strict=True)
    )


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            if not -ELO_MAX <= getattr(self, name) <= ELO_MAX:  # nan and inf fail too
                raise ValueError(
                    f"SPRT {name} must be in -{ELO_MAX}..{ELO_MAX}, not {getattr(self, name)}"
                )
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {value}")

    def bounds(self) -> tuple[float, float]:
        """The LLR below which H0 is accepted and above which H1 is."""
        return (
            math.log(self.beta / (1.0 - self.alpha)),
            math.log((1.0 - self.beta) / self.alpha),
        )

    def llr(self, penta: Sequence[int]) -> float:
        return sprt_llr(penta, self.elo0, self.elo1)

    def state(self, penta: Sequence[int]) -> str:
        """``H0 accepted``, ``H1 accepted`` or ``running``."""
        lower, upper = self.bounds()
        llr = self.llr(penta)
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return "running"

    def describe(self, penta: Sequence[int]) -> str:
        lower, upper = self.bounds()
        return (
            f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
            f"beta={self.beta:g}: LLR {self.llr(penta):.2f} [{lower:.2f}, {upper:.2f}] "
            f"{self.state(penta)}"
        )


# --- openings ---------------------------------------------------------------------------------

OPENINGS_FILE = Path(__file__).parent / "data" / "openings.txt"
OPENINGS_FILES = {
    "7x7": OPENINGS_FILE.with_name("openings_7x7.txt"),
    "hex": OPENINGS_FILE.with_name("openings_hex.txt"),
}
"""Suites of other variants (R4), each line from the variant's start: ``hex w 12/12 | ...``."""


def openings_file(variant: str | None = None) -> Path:
    """The opening suite the package ships for a variant (R4; ``None``: 9x9)."""
    variant = variant or DEFAULT_VARIANT
    if variant == DEFAULT_VARIANT:
        return OPENINGS_FILE
    if variant not in OPENINGS_FILES:
        raise ValueError(
            f"no opening suite ships for {variant}: give an openings file "
            f"(tools/make_openings.py --variant {variant} makes one)"
        )
    return OPENINGS_FILES[variant]


@dataclass(frozen=True)
class Opening:
    """A start for a game pair: a root position (``None``: the variant's start) and moves."""

    moves: tuple[str, ...] = ()
    position: str | None = None
    variant: str | None = None

    def board(self) -> Board:
        """A board after the opening, with the moves on its stack (R19b knows them)."""
        board = Board(self.position, variant=self.variant)
        for text in self.moves:
            board.push_move(text)
        return board

    def __str__(self) -> str:
        moves = " ".join(self.moves)
        return f"{self.position} | {moves}" if self.position else moves


def parse_openings(
    text: str, *, source: str = "openings", variant: str | None = None
) -> list[Opening]:
    """Openings from text: one a line, ``moves...`` or ``R22 position | moves...``; ``#`` comments.

    Every opening is played through on a board, so a bad one is reported with its line;
    with ``variant`` given, so is a position of another variant.
    """
    openings: list[Opening] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        position: str | None = None
        if "|" in line:
            head, _, line = line.partition("|")
            position = head.strip() or None
        found = position_variant(position or "", variant)
        if variant is not None and found != variant:
            raise ValueError(f"{source}, line {number}: a {found} opening, not {variant}")
        opening = Opening(tuple(line.split()), position, variant)
        try:
            opening.board()
        except ValueError as e:
            hint = "" if position else _moves_variant_hint(opening)
            raise ValueError(f"{source}, line {number}: {e}{hint}") from None
        openings.append(opening)
    return openings


def _moves_variant_hint(opening: Opening) -> str:
    """`` (moves of a 9x9 opening?)`` when moves that fail on their board play on another's:
    a moves-only suite names no variant, so a file of another one fails on a square."""
    for other in VARIANTS:
        if other != (opening.variant or DEFAULT_VARIANT):
            with contextlib.suppress(ValueError):
                replace(opening, variant=other).board()
                return f" (moves of a {other} opening?)"
    return ""


def load_openings(path: str | Path | None = None, *, variant: str | None = None) -> list[Opening]:
    """The openings of a file (default: the suite the package ships for ``variant``)."""
    path = Path(path) if path is not None else openings_file(variant)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read openings file {str(path)!r}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        line = e.object[: e.start].count(b"\n") + 1
        raise ValueError(f"openings file {str(path)!r}, line {line}: not UTF-8 text") from None
    openings = parse_openings(text, source=str(path), variant=variant)
    if not openings:
        raise ValueError(f"openings file {str(path)!r} holds no opening")
    return openings


# --- engines ----------------------------------------------------------------------------------

DEFAULT_LIMIT = Limit(time=0.1)
"""The limit of an engine whose spec sets none."""


@dataclass(frozen=True)
class EngineSpec:
    """One participant: how to start it, its options and how long it may think.

    ``tc`` is a time control ``(base, increment)`` in seconds: the match keeps a
    clock per game and sends it with every ``go``; ``limit`` adds fixed limits
    (depth, nodes, move time) on top.  ``timeout`` is how long an answer may take
    beyond the limit's own time before the engine forfeits the game.
    """

    name: str
    command: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    limit: Limit = DEFAULT_LIMIT
    tc: tuple[float, float] | None = None
    timeout: float = 30.0

    @classmethod
    def builtin(
        cls,
        name: str,
        *,
        options: dict[str, str] | None = None,
        limit: Limit = DEFAULT_LIMIT,
        tc: tuple[float, float] | None = None,
        timeout: float = 30.0,
    ) -> EngineSpec:
        """A built-in computer (:data:`emergo.players.PLAYERS`) as an ``emergo-engine`` process."""
        if name not in PLAYERS:
            raise ValueError(f"unknown built-in engine {name!r}: expected {', '.join(PLAYERS)}")
        command = (sys.executable, "-m", "emergo.cli.engine", "--player", name)
        return cls(name, command, dict(options or {}), limit, tc, timeout)


def parse_tc(text: str) -> tuple[float, float]:
    """``base+inc`` in seconds (``10+0.1``, ``60``) as ``(base, inc)``."""
    base, _, inc = text.partition("+")
    try:
        values = (float(base), float(inc) if inc else 0.0)
    except ValueError:
        raise ValueError(f"tc={text!r}: expected seconds as base+increment, e.g. 10+0.1") from None
    if not (0 < values[0] <= SECONDS_MAX and 0 <= values[1] <= SECONDS_MAX):  # nan fails too
        raise ValueError(
            f"tc={text[:40]!r}: the base must be > 0 and the increment >= 0, "
            f"both at most {SECONDS_MAX:g} seconds"
        )
    return values


def parse_engine_spec(text: str, defaults: str = "") -> EngineSpec:
    """An engine from ``key=value`` words (cutechess-cli style), after the ``defaults`` words.

    Keys: ``cmd`` (the command line) or a built-in name alone (``random``,
    ``greedy``, ``python``), ``name``, ``depth``, ``nodes``, ``move-time``
    (seconds), ``tc`` (``base+inc`` seconds), ``timeout`` (seconds) and
    ``option.NAME=VALUE``.
    """
    words = shlex.split(defaults) + shlex.split(text)
    values: dict[str, str] = {}
    options: dict[str, str] = {}
    builtin: str | None = None
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            if word in PLAYERS:
                builtin = word
                continue
            raise ValueError(
                f"engine spec {text!r}: {word!r} is not key=value nor a built-in name "
                f"({', '.join(PLAYERS)})"
            )
        if key.startswith("option."):
            options[key[len("option.") :]] = value
        elif key in ("cmd", "name", "depth", "nodes", "move-time", "tc", "timeout"):
            values[key] = value
        else:
            raise ValueError(f"engine spec {text!r}: unknown key {key!r}")
    try:
        depth = _spec_int(values, "depth", DEPTH_MAX)
        nodes = _spec_int(values, "nodes", NODES_MAX)
        move_time = _spec_number(values, "move-time", float, 0.001, SECONDS_MAX)
        timeout = _spec_number(values, "timeout", float, 0.001, SECONDS_MAX)
    except ValueError as e:
        raise ValueError(f"engine spec {text!r}: {e}") from None
    if timeout is None:
        timeout = 30.0
    tc = parse_tc(values["tc"]) if "tc" in values else None
    limit = Limit(depth=depth, nodes=nodes, time=move_time)
    if limit == Limit() and tc is None:
        limit = DEFAULT_LIMIT
    if "cmd" in values:
        command = tuple(shlex.split(values["cmd"]))
        if not command:
            raise ValueError(f"engine spec {text!r}: empty cmd")
        name = values.get("name") or Path(command[0]).name
        return EngineSpec(name, command, options, limit, tc, timeout)
    if builtin is None:
        raise ValueError(f"engine spec {text!r} needs cmd=... or one of {', '.join(PLAYERS)}")
    spec = EngineSpec.builtin(builtin, options=options, limit=limit, tc=tc, timeout=timeout)
    return replace(spec, name=values.get("name", builtin))


def _spec_int(values: dict[str, str], key: str, high: int) -> int | None:
    value = _spec_number(values, key, int, 1, high)
    return None if value is None else int(value)


def _spec_number(
    values: dict[str, str], key: str, kind: type[int] | type[float], low: float, high: float
) -> float | None:
    if key not in values:
        return None
    text = values[key]
    try:
        value = kind(text[:40])
    except ValueError:
        raise ValueError(f"{key}={text[:40]!r} is not a number") from None
    if not low <= value <= high:  # nan fails too
        raise ValueError(f"{key}={text[:40]} must be in {low:g}..{high:g}")
    return value


# --- games ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adjudication:
    """When the match ends a game the rules have not ended.

    ``score``: a win for a side when both engines reported ``|score| >= score``
    centi-men in its favour on each of their last ``moves`` moves (win/loss
    scores count as beyond any threshold); ``None`` turns it off.
    ``draw_score``: a draw when both engines reported ``|score| <= draw_score``
    centi-men on each of their last ``draw_moves`` moves, once the game is at
    least ``draw_after`` plies long; ``None`` turns it off.
    ``max_plies``: a draw after this many plies (the opening included).
    """

    score: int | None = None
    moves: int = 4
    draw_score: int | None = None
    draw_moves: int = 8
    draw_after: int = 60
    max_plies: int | None = 400

    def __post_init__(self) -> None:
        bounds = {
            "score": (1, SCORE_MAX),
            "moves": (1, PLIES_MAX),
            "draw_score": (0, SCORE_MAX),
            "draw_moves": (1, PLIES_MAX),
            "draw_after": (0, PLIES_MAX),
            "max_plies": (1, PLIES_MAX),
        }
        for name, (low, high) in bounds.items():
            value = getattr(self, name)
            if value is None and name in ("score", "draw_score", "max_plies"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"Adjudication {name} must be in {low}..{high}, not {value!r}")


@dataclass
class GameResult:
    """One finished game."""

    number: int
    pair: int
    white: int
    """Index of the engine playing White."""
    black: int
    result: str
    """``1-0``, ``0-1`` or ``1/2-1/2`` (R20)."""
    reason: str
    plies: int
    opening: int
    record: str = ""

    def points(self, engine: int) -> float:
        """The points ``engine`` scored in this game."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if (engine == self.white) == white_won else 0.0


class MatchError(RuntimeError):
    """The match cannot go on (an engine does not start, a bad setting)."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_match`; ``result`` holds the games finished before it."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__("match interrupted")
        self.result = result


class _Seat:
    """A worker's running instance of one engine, restarted after a failure."""

    def __init__(self, spec: EngineSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.engine: SimpleEngine | None = None

    def get(self) -> SimpleEngine:
        if self.engine is None:
            try:
                engine = SimpleEngine.popen(list(self.spec.command), timeout=self.spec.timeout)
            except EngineError as e:
                raise MatchError(f"engine {self.spec.name}: {e}") from None
            try:
                options = dict(self.spec.options)
                if "Seed" in engine.options and "Seed" not in options:
                    options["Seed"] = str(self.seed)
                engine.configure(options)
            except EngineError as e:
                engine.quit()
                raise MatchError(f"engine {self.spec.name}: {e}") from None
            self.engine = engine
        return self.engine

    def reseed(self, seed: int) -> None:
        """Set the engine's ``Seed`` for the next game (unless the spec sets it): each game
        gets its own, so a game is the same whichever worker plays it, after whichever games."""
        engine = self.get()
        if "Seed" in engine.options and not any(k.lower() == "seed" for k in self.spec.options):
            with contextlib.suppress(EngineError):  # a dead engine forfeits in play_game
                engine.configure({"Seed": str(seed)})

    def drop(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineError, OSError):
                self.engine.process.kill()
                self.engine.close()
            self.engine = None

    def quit(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(EngineError, OSError):
                self.engine.quit()
            self.engine = None


def game_seed(seed: int | None, number: int, engine: int) -> int:
    """The ``Seed`` of engine ``engine`` in game ``number`` of a match with ``seed``."""
    return random.Random(f"emergo-match {seed} {number} {engine}").randrange(2**31)


@dataclass(frozen=True)
class _Setup:
    """What every game of a match shares (sent once to a runner's workers)."""

    engines: tuple[EngineSpec, ...]
    names: tuple[str, ...]
    suite: tuple[Opening, ...]
    adjudication: Adjudication
    event: str
    seed: int | None


Job = tuple[int, int, int, int]
"""A game pair: (pair number, first engine, second engine, opening index)."""


def _play_pair(seats: list[_Seat], setup: _Setup, job: Job) -> list[GameResult]:
    """The two games of a pair, colours swapped, each from its own seeds."""
    pair, first, second, opening_index = job
    games = []
    for g, (w, b) in enumerate(((first, second), (second, first))):
        number = 2 * pair + g + 1
        for e in {w, b}:
            seats[e].reseed(game_seed(setup.seed, number, e))
        opening = setup.suite[opening_index]
        board, result, reason, comments, failed = play_game(
            seats[w].get(),
            seats[b].get(),
            (setup.engines[w], setup.engines[b]),
            opening,
            setup.adjudication,
        )
        if failed is not None:
            seats[w if failed == WHITE else b].drop()
        record = write_record(
            board,
            white=setup.names[w],
            black=setup.names[b],
            result=result,
            reason=reason,
            number=number,
            event=setup.event,
            comments=comments,
            opening=opening_index,
        )
        plies = len(board.move_stack)
        games.append(GameResult(number, pair, w, b, result, reason, plies, opening_index, record))
    return games


_WORKER_SEATS: dict[tuple[int, str], list[_Seat]] = {}
"""A runner worker's engines, per thread and per match setup, kept from job to job."""


def _quit_worker_seats() -> None:
    for seats in _WORKER_SEATS.values():
        for seat in seats:
            seat.quit()
    _WORKER_SEATS.clear()


def play_pair_job(setup: _Setup, job: Job) -> list[GameResult]:
    """A pair of games on a runner's worker (:mod:`emergo.parallel`): the engines are
    started on the worker's first job and kept for the next ones."""
    key = (threading.get_ident(), repr(setup.engines))
    seats = _WORKER_SEATS.get(key)
    if seats is None:
        if not _WORKER_SEATS:
            atexit.register(_quit_worker_seats)
        seats = [_Seat(spec, 0) for spec in setup.engines]
        _WORKER_SEATS[key] = seats
    return _play_pair(seats, setup, job)


def _decisive_for(score: Score, threshold: int) -> int:
    """+1 / -1 when a score (for the mover) clears the threshold for / against him, else 0."""
    if score.kind == "win":
        return 1
    if score.kind == "loss":
        return -1
    if score.kind == "cp" and abs(score.value) >= threshold:
        return 1 if score.value > 0 else -1
    return 0


def _level(score: Score, threshold: int) -> int:
    """1 when a score is a plain evaluation within ``threshold`` of even, else 0."""
    return int(score.kind == "cp" and abs(score.value) <= threshold)


def _agreed(marks: dict[bool, list[int]], n: int) -> int:
    """The mark both engines gave on each of their last ``n`` moves, else 0."""
    last = marks[True][-n:] + marks[False][-n:]
    return last[0] if len(last) == 2 * n and len(set(last)) == 1 else 0


def _comment(info: InfoDict, elapsed: float) -> str:
    parts = []
    if "score" in info:
        depth = info.get("depth")
        parts.append(info["score"].token() + (f"/{depth}" if depth is not None else ""))
    parts.append(f"{elapsed:.2f}s")
    return " ".join(parts)


def play_game(
    white: SimpleEngine,
    black: SimpleEngine,
    specs: tuple[EngineSpec, EngineSpec],
    opening: Opening,
    adjudication: Adjudication,
) -> tuple[Board, str, str, dict[int, str], Color | None]:
    """Play one game; returns the final board, result, reason, move comments and a failed side.

    The failed side is the colour whose engine crashed or timed out (its process
    should be restarted), else ``None``.
    """
    board = opening.board()
    for engine in {id(white): white, id(black): black}.values():
        # Each game on its own: no tables or trees from the last one.  A dead engine is
        # noticed by its first move below, where it forfeits.
        with contextlib.suppress(EngineError):
            engine.new_game()
    engines = {WHITE: white, not WHITE: black}
    spec_of = {WHITE: specs[0], not WHITE: specs[1]}
    clocks: dict[bool, float | None] = {}
    incs: dict[bool, float | None] = {}
    for color, spec in spec_of.items():
        tc = spec.tc
        clocks[color], incs[color] = (tc[0], tc[1]) if tc is not None else (None, None)
    verdicts: dict[bool, list[int]] = {True: [], False: []}  # per mover: +1 White ahead, -1 Black
    levels: dict[bool, list[int]] = {True: [], False: []}  # per mover: 1 the game looks even
    comments: dict[int, str] = {}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return board, outcome.result(), outcome.reason(), comments, None
        if adjudication.max_plies is not None and len(board.move_stack) >= adjudication.max_plies:
            reason = f"adjudicated: draw after {adjudication.max_plies} plies"
            return board, "1/2-1/2", reason, comments, None
        mover = board.turn
        spec = spec_of[mover]
        limit = spec.limit
        if clocks[mover] is not None or clocks[not mover] is not None:
            limit = replace(
                limit, wtime=clocks[True], btime=clocks[False], winc=incs[True], binc=incs[False]
            )
        loss = "0-1" if mover == WHITE else "1-0"
        start = time.monotonic()
        try:
            played = engines[mover].play(board, limit, timeout=spec.timeout)
        except EngineTimeoutError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, mover
        except EngineTerminatedError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, mover
        except EngineError as e:
            return board, loss, f"{spec.name} forfeits: {e}", comments, None
        elapsed = time.monotonic() - start
        clock = clocks[mover]
        if clock is not None:
            left = clock - elapsed
            if left < 0:
                return board, loss, f"{spec.name} lost on time (R20)", comments, None
            clocks[mover] = left + (incs[mover] or 0.0)
        if played.move is None:  # the engine says the game is over but the rules do not
            return board, loss, f"{spec.name} forfeits: it sent no move", comments, None
        board.push(played.move)
        comments[len(board.move_stack)] = _comment(played.info, elapsed)
        score = played.info.get("score")
        if adjudication.score is not None:
            verdict = 0 if score is None else _decisive_for(score, adjudication.score)
            verdicts[mover].append(verdict if mover == WHITE else -verdict)
            agreed = _agreed(verdicts, adjudication.moves)
            if agreed:
                result = "1-0" if agreed > 0 else "0-1"
                reason = (
                    f"adjudicated: both engines scored at least {adjudication.score} for the "
                    f"winner in their last {adjudication.moves} moves"
                )
                return board, result, reason, comments, None
        if adjudication.draw_score is not None:
            levels[mover].append(0 if score is None else _level(score, adjudication.draw_score))
            n = adjudication.draw_moves
            if len(board.move_stack) >= adjudication.draw_after and _agreed(levels, n):
                reason = (
                    f"adjudicated: draw, both engines scored within {adjudication.draw_score} "
                    f"of even in their last {n} moves"
                )
                return board, "1/2-1/2", reason, comments, None


def write_record(
    board: Board,
    *,
    white: str,
    black: str,
    result: str,
    reason: str,
    number: int,
    event: str,
    comments: dict[int, str],
    opening: int,
) -> str:
    """The record of a game (:mod:`emergo.record`); a plain move list if that module is missing."""
    tags = {
        "Event": event,
        "Site": "emergo match",
        "Date": datetime.date.today().strftime("%Y.%m.%d"),
        "Round": str(number),
        "White": white,
        "Black": black,
        "Opening": str(opening + 1),
        "Reason": reason,
    }
    try:
        from emergo.record import Game, write_game
    except ImportError:  # pragma: no cover - the record module ships with the package
        head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        return f'{head}[Result "{result}"]\n\n{" ".join(map(str, board.move_stack))} {result}\n'
    game = Game.from_board(board, **tags)
    if board.outcome() is None:
        game.headers["Result"] = result
        if "lost on time" in reason:
            game.headers["Termination"] = "time-forfeit"
    game.comments.update(comments)
    return write_game(game)


# --- the match --------------------------------------------------------------------------------


@dataclass
class PairingStats:
    """Results of engine ``first`` against engine ``second``, from ``first``'s side."""

    first: int
    second: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def elo(self) -> EloEstimate:
        return elo_estimate(self.penta)


@dataclass
class MatchResult:
    """Everything a match produced."""

    names: list[str]
    games: list[GameResult]
    pairings: dict[tuple[int, int], PairingStats]
    sprt: SPRT | None = None
    stopped_early: bool = False
    elapsed: float = 0.0
    records: Path | None = None

    def summary(self) -> str:
        """The final report: score, W/D/L, pentanomial, Elo +/- error, LOS and the SPRT state."""
        lines = [f"{len(self.games)} games in {self.elapsed:.1f} s"]
        for stats in self.pairings.values():
            a, b = self.names[stats.first], self.names[stats.second]
            if not stats.games:
                continue
            est = stats.elo()
            share = 100 * stats.points / stats.games
            lines.append(
                f"{a} vs {b}: {stats.points:g}/{stats.games} ({share:.1f}%)"
                f"  W {stats.wins}  D {stats.draws}  L {stats.losses}"
            )
            pent = " ".join(
                f"{label} {n}" for label, n in zip(PENTANOMIAL_LABELS, stats.penta, strict=True)
            )
            lines.append(f"  pentanomial: {pent}")
            lines.append(f"  Elo {est} (95%) {est.interval()}  LOS {100 * est.los:.1f}%")
        if self.sprt is not None:
            penta = next(iter(self.pairings.values())).penta
            lines.append(
                self.sprt.describe(penta) + (" (stopped early)" if self.stopped_early else "")
            )
        if len(self.names) > 2:
            points = [0.0] * len(self.names)
            played = [0] * len(self.names)
            for game in self.games:
                for e in (game.white, game.black):
                    points[e] += game.points(e)
                    played[e] += 1
            lines.append("standings:")
            for e in sorted(range(len(self.names)), key=lambda e: -points[e]):
                lines.append(f"  {self.names[e]:<20} {points[e]:g}/{played[e]}")
        if self.records is not None:
            lines.append(f"records: {self.records}")
        return "\n".join(lines)


class _Progress:
    """A status line on a stream: rewritten in place on a terminal, else a line per game
    (at most one each ``interval`` seconds)."""

    def __init__(self, stream: TextIO | None, total: int, interval: float = 0.0) -> None:
        self.stream = stream
        self.total = total
        self.tty = bool(stream is not None and stream.isatty())
        self.interval = interval
        self.last = time.monotonic()
        self.printed = ""
        self.width = 0

    def update(self, done: int, text: str, *, final: bool = False) -> None:
        if self.stream is None:
            return
        line = f"[{done}/{self.total}] {text}"
        now = time.monotonic()
        if self.tty:
            pad = max(self.width - len(line), 0)
            self.width = len(line)
            self.stream.write("\r" + line + " " * pad + ("\n" if final else ""))
        elif line != self.printed and (final or now - self.last >= self.interval):
            self.stream.write(line + "\n")
            self.last, self.printed = now, line
        else:
            return
        self.stream.flush()


def _status(stats: PairingStats, names: list[str], sprt: SPRT | None) -> str:
    text = (
        f"{names[stats.first]} vs {names[stats.second]} +{stats.wins}={stats.draws}-{stats.losses}"
    )
    if stats.penta and sum(stats.penta):
        text += f"  Elo {stats.elo()}"
    if sprt is not None:
        lower, upper = sprt.bounds()
        text += f"  LLR {sprt.llr(stats.penta):.2f} [{lower:.2f}, {upper:.2f}]"
    return text


def run_match(
    engines: Sequence[EngineSpec],
    *,
    games: int = 2,
    concurrency: int = 1,
    openings: Sequence[Opening] | str | Path | None = None,
    adjudication: Adjudication | None = None,
    sprt: SPRT | None = None,
    records: str | Path | None = None,
    progress: TextIO | None = None,
    seed: int | None = None,
    event: str = "emergo match",
    runner: Runner | None = None,
) -> MatchResult:
    """Play a match and return its results.

    ``games`` per pairing of engines (rounded up to whole colour-swapped pairs);
    with more than two engines every pairing plays (a round robin).  ``openings``
    is a list, a file, or ``None`` for the shipped suite; they are used in order
    (shuffled when ``seed`` is given).  ``sprt`` needs exactly two engines and
    may stop the match early.  ``records`` is the file the games are appended to.
    ``runner`` (:mod:`emergo.parallel`, e.g. ``emergo.ray_runner.RayRunner``) plays the
    game pairs instead of ``concurrency`` local threads; each game is seeded on its own
    (:func:`game_seed`), so at fixed node or depth limits the games are the same.
    """
    if len(engines) < 2:
        raise MatchError("a match needs at least two engines")
    if sprt is not None and len(engines) != 2:
        raise MatchError("SPRT needs exactly two engines")
    if not 1 <= games <= GAMES_MAX or not 1 <= concurrency <= CONCURRENCY_MAX:
        raise MatchError(f"games must be in 1..{GAMES_MAX} and concurrency in 1..{CONCURRENCY_MAX}")
    suite = _opening_suite(openings, seed)
    names = _unique_names([spec.name for spec in engines])
    pairings = [(i, j) for i in range(len(engines)) for j in range(i + 1, len(engines))]
    pairs = (games + 1) // 2  # per pairing
    tally = _Tally(names, pairings, 2 * pairs * len(pairings), sprt, records, progress)
    setup = _Setup(
        tuple(engines), tuple(names), tuple(suite), adjudication or Adjudication(), event, seed
    )
    jobs = _schedule(pairings, pairs, len(suite))
    started = time.monotonic()
    failure: BaseException | None = None
    try:
        if runner is not None:
            _on_runner(runner, partial(play_pair_job, setup), list(jobs), tally.add, tally.stop)
        else:
            threads = min(concurrency, pairs * len(pairings))
            failure = _on_threads(setup, _Jobs(jobs, tally.stop), threads, tally.add)
    except KeyboardInterrupt:
        tally.stop.set()
        raise MatchInterrupted(tally.result(time.monotonic() - started, interrupted=True)) from None
    except Exception as e:  # a runner's job failed: reported below
        failure = e
    if failure is not None:
        if isinstance(failure, MatchError):
            raise failure
        raise MatchError(f"a match worker failed: {type(failure).__name__}: {failure}") from failure
    outcome = tally.result(time.monotonic() - started)
    tally.final_status()
    return outcome


def _opening_suite(
    openings: Sequence[Opening] | str | Path | None, seed: int | None
) -> list[Opening]:
    """The openings of a match, in the order they are played (shuffled with ``seed``)."""
    if isinstance(openings, Sequence) and not isinstance(openings, str):
        suite = list(openings)
    else:
        suite = load_openings(openings)
    if not suite:
        raise MatchError("no openings")
    if seed is not None:
        random.Random(seed).shuffle(suite)
    return suite


def _schedule(pairings: Sequence[tuple[int, int]], pairs: int, openings: int) -> Iterator[Job]:
    """The game pairs of a match, made as they are played: ``pairs`` rounds, each a pair of
    every pairing, numbered in that order; round ``k`` plays opening ``k`` (cycling)."""
    number = 0
    for k in range(pairs):
        for first, second in pairings:
            yield number, first, second, k % openings
            number += 1


class _Tally:
    """The games of a match as they end, from any thread: the records file, the statistics of
    each pairing (a pentanomial count per finished pair), the SPRT's stop, the progress line."""

    def __init__(
        self,
        names: list[str],
        pairings: list[tuple[int, int]],
        total_games: int,
        sprt: SPRT | None,
        records: str | Path | None,
        progress: TextIO | None,
    ) -> None:
        self.names = names
        self.pairings = {(i, j): PairingStats(i, j) for i, j in pairings}
        self.total_games = total_games
        self.sprt = sprt
        self.records = Path(records) if records is not None else None
        if self.records is not None:  # emptied now: a bad path fails before any game
            try:
                self.records.write_text("", encoding="utf-8")
            except OSError as e:
                raise MatchError(
                    f"cannot write records to {str(self.records)!r}: {e.strerror}"
                ) from None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        """Set when the match is to stop: the SPRT decided, a worker failed, Ctrl-C."""
        self.stopped_early = False
        self.games: list[GameResult] = []
        self.halves: dict[int, list[GameResult]] = {}  # the games of each pair finished so far
        self.bar = _Progress(progress, total_games)

    def add(self, game: GameResult) -> None:
        """Count a finished game (thread-safe)."""
        with self.lock:
            self.games.append(game)
            if self.records is not None:
                with self.records.open("a", encoding="utf-8") as handle:
                    handle.write(("\n" if len(self.games) > 1 else "") + game.record)
            first, second = sorted((game.white, game.black))
            stats = self.pairings[(first, second)]
            points = game.points(first)
            stats.wins += points == 1.0
            stats.draws += points == 0.5
            stats.losses += points == 0.0
            mates = self.halves.setdefault(game.pair, [])
            mates.append(game)
            if len(mates) == 2:
                half_points = round(2 * sum(g.points(first) for g in mates))
                stats.penta[half_points] += 1
                if self.sprt is not None and self.sprt.state(stats.penta) != "running":
                    self.stopped_early = not self.stop.is_set() and (
                        len(self.games) < self.total_games
                    )
                    self.stop.set()
            self.bar.update(len(self.games), _status(stats, self.names, self.sprt))

    def result(self, elapsed: float, *, interrupted: bool = False) -> MatchResult:
        """The games so far, in schedule order (an interrupted match counts as stopped early)."""
        with self.lock:
            done = sorted(self.games, key=lambda g: g.number)
        return MatchResult(
            self.names,
            done,
            self.pairings,
            self.sprt,
            interrupted or self.stopped_early,
            elapsed,
            self.records,
        )

    def final_status(self) -> None:
        """The last progress line: the first pairing's standing."""
        first = next(iter(self.pairings.values()))
        self.bar.update(len(self.games), _status(first, self.names, self.sprt), final=True)


class _Jobs:
    """A schedule shared by threads: the next game pair for whichever asks, until ``stop``."""

    def __init__(self, jobs: Iterator[Job], stop: threading.Event) -> None:
        self._jobs = jobs
        self._stop = stop
        self._lock = threading.Lock()

    def take(self) -> Job | None:
        with self._lock:
            if self._stop.is_set():
                return None
            return next(self._jobs, None)

    def stop(self) -> None:
        """No more pairs for anyone (the match stops)."""
        self._stop.set()


def _on_threads(
    setup: _Setup, jobs: _Jobs, count: int, finish: Callable[[GameResult], None]
) -> BaseException | None:
    """The game pairs on ``count`` local threads, each with engines of its own; returns the
    first failure of a thread (the others stop at their next pair), else ``None``."""
    failures: list[BaseException] = []

    def worker() -> None:
        seats = [_Seat(spec, 0) for spec in setup.engines]  # seeded for each game (_play_pair)
        try:
            while (job := jobs.take()) is not None:
                for game in _play_pair(seats, setup, job):
                    finish(game)
        except BaseException as e:  # report in the main thread, stop the others
            failures.append(e)
            jobs.stop()
        finally:
            for seat in seats:
                seat.quit()

    threads = [
        threading.Thread(target=worker, name=f"match-worker-{i}", daemon=True) for i in range(count)
    ]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(timeout=0.2)
    except KeyboardInterrupt:
        jobs.stop()
        for t in threads:
            t.join(timeout=5.0)
        raise
    return failures[0] if failures else None


def _on_runner(
    runner: Runner,
    play: Callable[[Job], list[GameResult]],
    jobs: list[Job],
    finish: Callable[[GameResult], None],
    stop: threading.Event,
) -> None:
    """The game pairs on a runner, each result counted as it arrives (until ``stop``)."""
    outcome = runner.run(play, jobs)
    try:
        for _, games in outcome:
            for game in games:
                finish(game)
            if stop.is_set():
                break
    finally:
        _close(outcome)


def _close(iterator: object) -> None:
    close = getattr(iterator, "close", None)
    if close is not None:
        close()


def _unique_names(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 and names.count(name) == 1 else f"{name}-{seen[name]}")
    return out
