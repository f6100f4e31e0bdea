"""Match statistics: pentanomial counts, Elo estimates with error bars, LOS and the GSPRT."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ELO_MAX = 2000
"""SPRT's hypotheses are Elo differences within +-ELO_MAX."""


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
    data the two agree within a percent (tests/engine/test_match.py).
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
