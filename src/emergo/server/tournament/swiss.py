"""Swiss events: the rounds, byes, late join and withdrawal, the tie-breaks, the TRF, and the
FIDE Dutch pairing through py4swiss (lila's swiss module runs bbpPairings on a TRF; py4swiss
is its algorithm in Python with its matching in C++).  The rules in docs/tournaments.md,
"Swiss".

An event is a value, :class:`Swiss`: its planned rounds, its entrants, the rounds played and
who is absent now.  The server stores these and calls :func:`pair_round` when a round is due;
:func:`standings` and :func:`trf` are pure recounts.

>>> event = Swiss(rounds=3, entrants=(Entrant("ann", 1900), Entrant("bob", 1800),
...                                   Entrant("cat", 1700)))
>>> pairing = pair_round(event)
>>> pairing.boards, pairing.bye
((('ann', 'bob'),), 'cat')
>>> event = event.with_round(Round((Game("ann", "bob", "1/2-1/2"),), bye="cat"))
>>> [(s.rank, s.player, s.points) for s in standings(event)]
[(1, 'cat', 1.0), (2, 'ann', 0.5), (3, 'bob', 0.5)]
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

RESULTS = ("1-0", "0-1", "1/2-1/2")
"""A game's result, White's score first (R20)."""

Outcome = Literal["win", "draw", "loss", "forfeit_win", "forfeit_loss", "bye", "late", "absent"]
"""A player's round: a game played, a game forfeited, the pairing-allocated bye, a first round
missed by joining later (half a point, lichess's), or a later round missed (nothing)."""

POINTS: dict[str, float] = {
    "win": 1.0,
    "forfeit_win": 1.0,
    "bye": 1.0,
    "draw": 0.5,
    "late": 0.5,
    "loss": 0.0,
    "forfeit_loss": 0.0,
    "absent": 0.0,
}
"""Points of each outcome: a bye is a win (lichess's, and FIDE's pairing-allocated bye)."""

_TRF_CODES = {"win": "1", "draw": "=", "loss": "0", "forfeit_win": "+", "forfeit_loss": "-"}
_TRF_BYES = {"bye": "U", "late": "H", "absent": "Z"}


class SwissError(ValueError):
    """An event that cannot be what it says, or a round that cannot be paired (in words)."""


@dataclass(frozen=True)
class Entrant:
    """A player of the event: ``rating`` when they joined (their seed), ``joined`` the first
    round they could be paired in (1, or the next round when they join late)."""

    player: str
    rating: int
    joined: int = 1


@dataclass(frozen=True)
class Game:
    """A game of a round; ``forfeit`` when the loser never played (a no-show): then it is
    not a game played, for the pairing as for the tie-breaks (FIDE's)."""

    white: str
    black: str
    result: str
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise SwissError(f"a result is one of {', '.join(RESULTS)}, not {self.result!r}")
        if self.white == self.black:
            raise SwissError(f"{self.white!r} cannot play themselves")
        if self.forfeit and self.result == "1/2-1/2":
            raise SwissError("a forfeit has a winner")


@dataclass(frozen=True)
class Round:
    """A finished round: its games and the player who had the pairing-allocated bye."""

    games: tuple[Game, ...] = ()
    bye: str | None = None

    def players(self) -> Iterator[str]:
        """Everyone paired in the round (the bye too)."""
        for game in self.games:
            yield game.white
            yield game.black
        if self.bye is not None:
            yield self.bye


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: its boards ``(white, black)`` in the published order, and the bye."""

    boards: tuple[tuple[str, str], ...]
    bye: str | None = None

    def players(self) -> Iterator[str]:
        """Everyone paired (the bye too)."""
        for white, black in self.boards:
            yield white
            yield black
        if self.bye is not None:
            yield self.bye


@dataclass(frozen=True)
class Swiss:
    """An event: ``rounds`` planned, its ``entrants``, the rounds ``played`` (finished, in
    order), who is ``absent`` now (withdrawn or paused: not paired in the next round), and
    ``white_first``: the top seed's colour in round 1 (TRF's ``XXC white1``/``black1``)."""

    rounds: int
    entrants: tuple[Entrant, ...]
    played: tuple[Round, ...] = ()
    absent: frozenset[str] = field(default_factory=frozenset)
    white_first: bool = True

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise SwissError(f"an event has at least one round, not {self.rounds}")
        if len(self.played) > self.rounds:
            raise SwissError(f"{len(self.played)} rounds played of {self.rounds}")
        joined = {}
        for entrant in self.entrants:
            if entrant.player in joined:
                raise SwissError(f"{entrant.player!r} entered twice")
            if not 1 <= entrant.joined <= self.rounds:
                raise SwissError(f"{entrant.player!r} joined for round {entrant.joined}")
            joined[entrant.player] = entrant.joined
        for number, rnd in enumerate(self.played, start=1):
            seen: set[str] = set()
            for player in rnd.players():
                if player not in joined:
                    raise SwissError(f"round {number}: {player!r} is not an entrant")
                if joined[player] > number:
                    raise SwissError(
                        f"round {number}: {player!r} joined for round {joined[player]}"
                    )
                if player in seen:
                    raise SwissError(f"round {number}: {player!r} is paired twice")
                seen.add(player)
        unknown = sorted(self.absent - joined.keys())
        if unknown:
            raise SwissError(f"absent but not entrants: {', '.join(map(repr, unknown))}")

    @property
    def finished(self) -> bool:
        """Whether every round was played."""
        return len(self.played) == self.rounds

    def with_round(self, rnd: Round) -> Swiss:
        """The event after one more round."""
        return replace(self, played=(*self.played, rnd))

    def with_entrant(self, player: str, rating: int) -> Swiss:
        """The event with a player who joins now (for the next round; :func:`can_join`)."""
        if not can_join(self.rounds, len(self.played)):
            raise SwissError(f"joining closes after round {self.rounds // 2}")
        entrant = Entrant(player, rating, joined=len(self.played) + 1)
        return replace(self, entrants=(*self.entrants, entrant))

    def with_absent(self, player: str, absent: bool = True) -> Swiss:
        """The event with ``player`` withdrawn (or paused) from the next rounds, or back."""
        players = self.absent | {player} if absent else self.absent - {player}
        return replace(self, absent=frozenset(players))

    def seeds(self) -> list[Entrant]:
        """The entrants in their initial order: rating, then name (the TRF's starting numbers,
        renumbered when a late entrant comes in, as FIDE's)."""
        return sorted(self.entrants, key=lambda e: (-e.rating, e.player))

    def present(self) -> list[str]:
        """Who is to be paired in the next round, in seed order."""
        return [e.player for e in self.seeds() if e.player not in self.absent]

    def outcomes(self, player: str) -> list[tuple[Outcome, str | None, str | None]]:
        """``player``'s rounds: (outcome, opponent, colour ``"w"``/``"b"``) each."""
        rows: list[tuple[Outcome, str | None, str | None]] = []
        for number, rnd in enumerate(self.played, start=1):
            rows.append(_outcome(rnd, player, number))
        return rows


def _outcome(rnd: Round, player: str, number: int) -> tuple[Outcome, str | None, str | None]:
    for game in rnd.games:
        if player in (game.white, game.black):
            white = player == game.white
            opponent, colour = (game.black, "w") if white else (game.white, "b")
            if game.result == "1/2-1/2":
                return "draw", opponent, colour
            won = (game.result == "1-0") == white
            if game.forfeit:
                return ("forfeit_win" if won else "forfeit_loss"), opponent, colour
            return ("win" if won else "loss"), opponent, colour
    if rnd.bye == player:
        return "bye", None, None
    return ("late" if number == 1 else "absent"), None, None


def can_join(rounds: int, started: int) -> bool:
    """Whether a player may still join an event of ``rounds`` when ``started`` rounds have
    begun: up to half the rounds (lichess's).

    >>> [can_join(5, started) for started in range(5)]
    [True, True, True, False, False]
    """
    return started <= rounds // 2


def points(swiss: Swiss) -> dict[str, float]:
    """Every entrant's points."""
    return {
        e.player: sum(POINTS[o] for o, _, _ in swiss.outcomes(e.player)) for e in swiss.entrants
    }


@dataclass(frozen=True)
class Standing:
    """A line of the standings: lichess orders by points, then Sonneborn-Berger (then the
    performance); we then take Buchholz, then the seed."""

    rank: int
    player: str
    points: float
    sonneborn_berger: float
    buchholz: float
    performance: int | None
    rating: int
    absent: bool


def tie_breaks(swiss: Swiss) -> dict[str, tuple[float, float]]:
    """Every entrant's (Sonneborn-Berger, Buchholz).

    Sonneborn-Berger sums the points of the opponents beaten and half those of the opponents
    drawn; Buchholz the points of all opponents.  A round without a game played (the bye, a
    forfeit, a round missed) counts as a game against a *virtual opponent* who had the
    player's points before the round, the other result of that round, and a draw in every
    later round (FIDE's rule, which lichess applies to the bye).
    """
    total = points(swiss)
    played = len(swiss.played)
    values = {}
    for entrant in swiss.entrants:
        sb = buchholz = before = 0.0
        for number, (outcome, opponent, _) in enumerate(swiss.outcomes(entrant.player), start=1):
            score = POINTS[outcome]
            if outcome in ("win", "draw", "loss"):
                assert opponent is not None
                theirs = total[opponent]
            else:
                theirs = before + (1.0 - score) + 0.5 * (played - number)
            sb += score * theirs
            buchholz += theirs
            before += score
        values[entrant.player] = (sb, buchholz)
    return values


def standings(swiss: Swiss) -> list[Standing]:
    """The standings: points, Sonneborn-Berger, Buchholz, then the seed order."""
    total = points(swiss)
    ties = tie_breaks(swiss)
    ratings = {e.player: e.rating for e in swiss.entrants}
    order = {e.player: n for n, e in enumerate(swiss.seeds())}
    players = sorted(ratings, key=lambda p: (-total[p], -ties[p][0], -ties[p][1], order[p]))
    return [
        Standing(
            n,
            p,
            total[p],
            ties[p][0],
            ties[p][1],
            _performance(swiss, p, ratings),
            ratings[p],
            p in swiss.absent,
        )
        for n, p in enumerate(players, start=1)
    ]


def _performance(swiss: Swiss, player: str, ratings: dict[str, int]) -> int | None:
    """The mean of the opponents' ratings, +500 a win and -500 a loss (lichess's)."""
    values = []
    for outcome, opponent, _ in swiss.outcomes(player):
        if outcome in ("win", "draw", "loss"):
            assert opponent is not None
            values.append(ratings[opponent] + {"win": 500, "draw": 0, "loss": -500}[outcome])
    return round(sum(values) / len(values)) if values else None


def trf(swiss: Swiss, *, name: str = "Emergo Swiss", site: str = "") -> str:
    """The event as a TRF16 file (FIDE's Tournament Report File with javafo's ``XXR`` rounds
    and ``XXC`` first colour, what bbpPairings, JaVaFo and py4swiss read).

    Starting numbers are the seed order; each round is ``opponent colour result`` (``1``,
    ``=``, ``0``, ``+``/``-`` a forfeit, ``0000 - U`` the pairing-allocated bye, ``H`` a first
    round missed by joining late, ``Z`` a round missed).  A player absent now has ``0000 - Z``
    for the next round, so that a pairing program leaves them out (as lichess writes it).
    """
    seeds = swiss.seeds()
    number = {e.player: n for n, e in enumerate(seeds, start=1)}
    total = points(swiss)
    rank = {s.player: s.rank for s in standings(swiss)}
    lines = [f"012 {_ascii(name)}"]
    if site:
        lines.append(f"022 {_ascii(site)}")
    lines += [
        f"062 {len(seeds)}",
        "092 Individual: Swiss-System",
        f"XXR {swiss.rounds}",
        f"XXC {'white1' if swiss.white_first else 'black1'}",
    ]
    for entrant in seeds:
        row = [" "] * 89
        _put(row, 1, "001")
        _put(row, 5, f"{number[entrant.player]:>4}")
        _put(row, 15, f"{_ascii(entrant.player)[:33]:<33}")
        _put(row, 49, f"{max(0, min(entrant.rating, 9999)):>4}")
        _put(row, 81, f"{total[entrant.player]:>4.1f}")
        _put(row, 86, f"{rank[entrant.player]:>4}")
        text = "".join(row)
        for outcome, opponent, colour in swiss.outcomes(entrant.player):
            if opponent is None:
                text += f"  0000 - {_TRF_BYES[outcome]}"
            else:
                text += f"  {number[opponent]:>4} {colour} {_TRF_CODES[outcome]}"
        if entrant.player in swiss.absent and not swiss.finished:
            text += "  0000 - Z"
        lines.append(text)
    return "\n".join(lines) + "\n"


def _put(row: list[str], column: int, text: str) -> None:
    row[column - 1 : column - 1 + len(text)] = text


def _ascii(text: str) -> str:
    """TRF is a fixed-width ASCII file: anything else becomes '?'."""
    return "".join(c if " " <= c <= "~" else "?" for c in text)


def pair_round(swiss: Swiss) -> Pairing:
    """The next round's pairing by the FIDE Dutch system (py4swiss, from :func:`trf`).

    Raises :class:`SwissError` when the event is over, when fewer than two players are
    present, or when no pairing satisfies the absolute criteria (then lichess ends the event).
    """
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError
    from py4swiss.trf import TrfParser

    if swiss.finished:
        raise SwissError(f"all {swiss.rounds} rounds were played")
    present = swiss.present()
    if len(present) < 2:
        raise SwissError(f"{len(present)} player{'s' if len(present) != 1 else ''} to pair")
    seeds = [e.player for e in swiss.seeds()]
    with tempfile.TemporaryDirectory(prefix="emergo-swiss-") as folder:
        path = Path(folder) / "event.trf"
        path.write_text(trf(swiss), encoding="ascii")
        parsed = TrfParser.parse(path, strict=True)
    try:
        found = DutchEngine.generate_pairings(parsed)
    except PairingError as error:
        raise SwissError(f"round {len(swiss.played) + 1} cannot be paired: {error}") from None
    boards: list[tuple[str, str]] = []
    bye = None
    for pair in found:
        if pair.black == 0:
            bye = seeds[pair.white - 1]
        else:
            boards.append((seeds[pair.white - 1], seeds[pair.black - 1]))
    return Pairing(tuple(boards), bye)
