"""The match itself: the schedule of pairs over the ballots, the tally, progress, threads or
a runner."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

from emergo.ballots import Ballot, load_ballots
from emergo.match.engines import EngineSpec
from emergo.match.games import (
    Adjudication,
    GameResult,
    Job,
    MatchError,
    PairSetup,
    Seat,
    play_pair,
    play_pair_job,
)
from emergo.match.stats import PENTANOMIAL_LABELS, SPRT, EloEstimate, elo_estimate
from emergo.parallel import Runner

GAMES_MAX = 1_000_000
"""Games per pairing a match may ask for (the schedule is made as the games are played)."""
CONCURRENCY_MAX = 64
"""Games at once."""


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_match`; ``result`` holds the games finished before it."""

    def __init__(self, result: MatchResult) -> None:
        super().__init__("match interrupted")
        self.result = result


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
    openings: Sequence[Ballot] | str | Path | None = None,
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
    is a list, a file, or ``None`` for the board's ballots (:func:`emergo.ballots.load_ballots`,
    9x9's; a list of another board's); they are used in order
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
    tally = Tally(names, pairings, 2 * pairs * len(pairings), sprt, records, progress)
    setup = PairSetup(
        tuple(engines), tuple(names), tuple(suite), adjudication or Adjudication(), event, seed
    )
    jobs = schedule(pairings, pairs, len(suite))
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
    openings: Sequence[Ballot] | str | Path | None, seed: int | None
) -> list[Ballot]:
    """The openings of a match, in the order they are played (shuffled with ``seed``)."""
    if isinstance(openings, Sequence) and not isinstance(openings, str):
        suite = list(openings)
    else:
        suite = load_ballots(openings)
    if not suite:
        raise MatchError("no openings")
    if seed is not None:
        random.Random(seed).shuffle(suite)
    return suite


def schedule(pairings: Sequence[tuple[int, int]], pairs: int, openings: int) -> Iterator[Job]:
    """The game pairs of a match, made as they are played: ``pairs`` rounds, each a pair of
    every pairing, numbered in that order; round ``k`` plays opening ``k`` (cycling)."""
    number = 0
    for k in range(pairs):
        for first, second in pairings:
            yield number, first, second, k % openings
            number += 1


class Tally:
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
    setup: PairSetup, jobs: _Jobs, count: int, finish: Callable[[GameResult], None]
) -> BaseException | None:
    """The game pairs on ``count`` local threads, each with engines of its own; returns the
    first failure of a thread (the others stop at their next pair), else ``None``."""
    failures: list[BaseException] = []

    def worker() -> None:
        seats = [Seat(spec, 0) for spec in setup.engines]  # seeded for each game (play_pair)
        try:
            while (job := jobs.take()) is not None:
                for game in play_pair(seats, setup, job):
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
