"""Round robins and matches: FIDE's Berger tables, micro-matches, and matches of N games
(the rules in docs/tournaments.md, "Round robin and matches").

>>> for games in berger(["ann", "bob", "cat", "dan"]):
...     print([(g.white, g.black) for g in games])
[('ann', 'dan'), ('bob', 'cat')]
[('dan', 'cat'), ('ann', 'bob')]
[('bob', 'dan'), ('cat', 'ann')]
>>> [(g.white, g.black, g.opening) for g in match("ann", "bob", 4, ballots=["b1", "b2"])]
[('ann', 'bob', 'b1'), ('bob', 'ann', 'b1'), ('ann', 'bob', 'b2'), ('bob', 'ann', 'b2')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_PLAYERS = 20
"""The largest round robin: 19 rounds, 190 pairings (380 games as micro-matches)."""

MAX_MATCH_GAMES = 100
"""The longest match."""


@dataclass(frozen=True)
class Scheduled:
    """A game of a schedule: ``white`` against ``black``, and the ballot ``opening`` (an id
    given from outside) or ``None`` for the empty board."""

    white: str
    black: str
    opening: str | None = None


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger tables (Handbook C.05, Annex 1) for ``n`` players numbered 1..n: each
    round's boards as (White's number, Black's number).  An odd ``n`` plays as ``n + 1`` with
    the last number a bye: its boards are left out.

    >>> berger_numbers(6)[1]
    [(6, 4), (5, 3), (1, 2)]
    """
    if n < 2:
        raise ValueError(f"a round robin needs two players at least, not {n}")
    size = n + n % 2
    rounds = []
    for r in range(size - 1):
        order = [(i + r * size // 2) % (size - 1) + 1 for i in range(size - 1)]
        boards = [(order[0], size) if r % 2 == 0 else (size, order[0])]
        boards += [(order[k], order[size - 1 - k]) for k in range(1, size // 2)]
        rounds.append([(w, b) for w, b in boards if max(w, b) <= n])
    return rounds


def berger(
    players: Sequence[str],
    *,
    micro_match: bool = False,
    cycles: int = 1,
    openings: Sequence[str] | None = None,
) -> list[list[Scheduled]]:
    """The rounds of a round robin of ``players`` (in their order: number 1 first).

    ``micro_match``: each pairing of a round is two games, colours swapped, from the same
    ballot (PlayStrategy's unit of a fair event); ``cycles=2``: a double round robin, the second
    cycle with colours reversed.  ``openings`` a ballot for each pairing of the first cycle (in
    round and board order), the same again in its return game.  At most :data:`MAX_PLAYERS`.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) > MAX_PLAYERS:
        raise ValueError(f"a round robin has at most {MAX_PLAYERS} players, not {len(players)}")
    if cycles not in (1, 2):
        raise ValueError(f"a round robin has one cycle or two, not {cycles}")
    table = berger_numbers(len(players))
    pairings = sum(len(boards) for boards in table)
    if openings is not None and len(openings) != pairings:
        raise ValueError(f"{pairings} ballots needed (one per pairing), {len(openings)} given")
    rounds: list[list[Scheduled]] = []
    for cycle in range(cycles):
        number = 0
        for boards in table:
            games = []
            for w, b in boards:
                white, black = players[w - 1], players[b - 1]
                if cycle:
                    white, black = black, white
                opening = None if openings is None else openings[number]
                number += 1
                games.append(Scheduled(white, black, opening))
                if micro_match:
                    games.append(Scheduled(black, white, opening))
            rounds.append(games)
    return rounds


def match(
    first: str, second: str, games: int, *, ballots: Sequence[str] | None = None
) -> list[Scheduled]:
    """A match of ``games`` games, ``first`` White in game 1 and colours alternating; with
    ``ballots``, game pairs 1-2, 3-4, ... share a ballot (one per pair, the last one alone
    when ``games`` is odd)."""
    if first == second:
        raise ValueError(f"{first!r} cannot play themselves")
    if not 1 <= games <= MAX_MATCH_GAMES:
        raise ValueError(f"a match has 1 to {MAX_MATCH_GAMES} games, not {games}")
    needed = (games + 1) // 2
    if ballots is not None and len(ballots) != needed:
        raise ValueError(f"{needed} ballots needed for {games} games, {len(ballots)} given")
    return [
        Scheduled(
            first if n % 2 == 0 else second,
            second if n % 2 == 0 else first,
            None if ballots is None else ballots[n // 2],
        )
        for n in range(games)
    ]
