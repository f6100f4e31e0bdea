"""The arena's pairing: who plays whom when players come back to the event's lobby (lila's
``PairingSystem`` and ``AntmaPairing``, our code).

A pure function of the waiting room: :func:`pair_arena` takes the players (their rank in the
event, rating, last opponent, colour history, whether they are in a game) and the times, and
returns the pairings with colours.  The server calls it from its timer, one pass per event at
a time, stores the pairings and starts the games; nothing here reads a clock or a store.

>>> room = [Waiting("ann", rank=1, rating=1900), Waiting("bob", rank=2, rating=1500),
...         Waiting("cat", rank=3, rating=1880), Waiting("dan", rank=4, rating=1520)]
>>> [(p.white, p.black) for p in pair_arena(room, now=100.0, starts_at=0.0, seed=1)]
[('ann', 'bob'), ('dan', 'cat')]
>>> room[0] = Waiting("ann", rank=1, rating=1900, last_opponent="bob",
...                   colours=ColourHistory.of("bww"))          # ann had White twice: Black now
>>> [(p.white, p.black) for p in pair_arena(room, now=100.0, starts_at=0.0, seed=1)]
[('cat', 'ann'), ('bob', 'dan')]

The rules (docs/tournaments.md, "Arena"):

* **Cost.**  Among the matchings that pair the most players, the one of least total cost,
  lila's: ``|rank a - rank b| * factor + |rating a - rating b|``, the factor 2000 at the top of
  the waiting room's ranks down to 300 at its bottom (rank matters more among the leaders).
* **Never the same opponent twice in a row**: two players who just played each other are not
  paired again, unless they are the only two active players of the event (then they would never
  play again).
* **No colour streak over 3**: two players who both had White (or both Black) in their last 3
  games are not paired; of a pair, a player with 3 Whites in a row gets Black (3 Blacks:
  White), else the one with fewer Whites overall gets White (then the shorter White streak,
  then a coin from ``seed``).  So no one ever gets a fourth game of a colour in a row, and
  Whites and Blacks stay even: lila orders by the streak first, and lets the balance drift.
* **Odd rooms**: the player who came last waits for the next pass, unless nobody else could
  be paired.
* **The first 15 seconds** pair neighbours in the ranking (lila: the arena's first wave, when
  the ranks are the ratings).  **Over 100 waiting**, two groups of the best-ranked (each at most
  100) are matched exactly and up to six more groups are paired with their neighbours in the
  ranking, as lila (a pass stays fast); the rest wait for the next pass.
* **Pairings stop** :func:`pairing_closes` seconds before the end: 30 s at least, half the
  clock's initial time up to 2 minutes (lila's).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from emergo.server.tournament.matching import min_cost_matching

MAX_STREAK = 3
"""No player gets more than this many games of one colour in a row."""

RECENTLY_STARTED = 15.0
"""Seconds after the start during which the first wave is paired by ranking alone."""

MAX_GROUP = 100
"""The most players one exact matching takes (lila's ``maxGroupSize``)."""

PROXIMITY_GROUPS = 6
"""Past two exact groups, how many more groups are paired with their neighbours."""

PROXIMITY_WINDOW = 8
"""How far down the ranking a neighbour pairing looks for a legal opponent."""


@dataclass(frozen=True)
class ColourHistory:
    """A player's colours in the event: ``streak`` games of one colour in a row (positive:
    White, negative: Black) and ``balance`` = Whites - Blacks (lila's ``ColorHistory``).

    >>> ColourHistory.of("wwbww")
    ColourHistory(streak=2, balance=3)
    >>> ColourHistory.of("wwbww").after(white=False)
    ColourHistory(streak=-1, balance=2)
    """

    streak: int = 0
    balance: int = 0

    @classmethod
    def of(cls, colours: Sequence[str] | str) -> ColourHistory:
        """The history of a sequence of colours, oldest first: ``"w"``/``"b"`` each."""
        history = cls()
        for colour in colours:
            if colour not in ("w", "b"):
                raise ValueError(f"a colour is 'w' or 'b', not {colour!r}")
            history = history.after(white=colour == "w")
        return history

    def after(self, *, white: bool) -> ColourHistory:
        """The history after one more game, with White or not."""
        if white:
            return ColourHistory(max(self.streak + 1, 1), self.balance + 1)
        return ColourHistory(min(self.streak - 1, -1), self.balance - 1)

    def could_play(self, other: ColourHistory) -> bool:
        """Whether a game between the two keeps both streaks at most :data:`MAX_STREAK`."""
        return (self.streak > -MAX_STREAK or other.streak > -MAX_STREAK) and (
            self.streak < MAX_STREAK or other.streak < MAX_STREAK
        )


@dataclass(frozen=True)
class Waiting:
    """A player of the event as the pairing sees them.

    ``rank`` is the place in the event's standings (1 = the leader; ties may share or not,
    only the order matters); ``since`` when they came to the waiting room (seconds, the
    server's clock); ``playing`` that they are in a game (then they are not paired: the
    server may pass its whole roster).
    """

    player: str
    rank: int
    rating: int
    last_opponent: str | None = None
    colours: ColourHistory = ColourHistory()
    since: float = 0.0
    playing: bool = False


@dataclass(frozen=True)
class Pairing:
    """A game to start: ``white`` against ``black`` (user ids)."""

    white: str
    black: str


def pairing_closes(clock_limit: float) -> float:
    """Seconds before the event's end after which no pairing is made (lila's
    ``pairingsClosed``): half the clock's initial time, between 30 s and 2 minutes.

    >>> pairing_closes(60), pairing_closes(180), pairing_closes(600), pairing_closes(0)
    (30, 90.0, 120, 30)
    """
    return max(30, min(clock_limit / 2, 120))


def pairings_closed(*, now: float, ends_at: float, clock_limit: float) -> bool:
    """Whether, at ``now``, it is too near the end of the event to start a game."""
    return ends_at - now < pairing_closes(clock_limit)


def pair_arena(
    room: Sequence[Waiting],
    *,
    now: float,
    starts_at: float,
    ends_at: float | None = None,
    clock_limit: float = 0.0,
    active_players: int | None = None,
    seed: int = 0,
) -> list[Pairing]:
    """The pairings of one pass over the waiting room (see the module's rules).

    ``room`` the players waiting (those ``playing`` are left out, and so is a player listed
    twice after their first entry); ``starts_at``/``ends_at`` the event's times and
    ``clock_limit`` its clock's initial seconds (with ``ends_at``, nothing is paired once
    :func:`pairings_closed`); ``active_players`` how many players of the event are active
    (joined, not withdrawn or paused: two alone may play each other again); ``seed`` the
    coin for equal colour histories.  Each player is in at most one pairing.
    """
    if ends_at is not None and pairings_closed(now=now, ends_at=ends_at, clock_limit=clock_limit):
        return []
    seen: set[str] = set()
    idle: list[Waiting] = []
    for player in room:
        if not player.playing and player.player not in seen:
            seen.add(player.player)
            idle.append(player)
    coin = random.Random(seed)
    rematch = active_players == 2
    first_wave = now - starts_at < RECENTLY_STARTED
    pairings = _pass(_even(idle), first_wave, rematch, coin)
    if not pairings and len(idle) % 2:
        pairings = _pass(idle, first_wave, rematch, coin)
    return pairings


def _even(idle: list[Waiting]) -> list[Waiting]:
    """The room less the player who came last when it is odd (lila's ``evenNumber``)."""
    if len(idle) % 2 == 0:
        return idle
    last = max(range(len(idle)), key=lambda i: (idle[i].since, i))
    return idle[:last] + idle[last + 1 :]


def _pass(
    idle: list[Waiting], first_wave: bool, rematch: bool, coin: random.Random
) -> list[Pairing]:
    if len(idle) < 2:
        return []
    ranked = sorted(idle, key=lambda p: (p.rank, p.player))
    if first_wave:
        pairs = _neighbours(ranked, rematch)
    elif len(ranked) <= MAX_GROUP:
        pairs = _best(ranked, rematch)
    else:
        size = min(len(ranked) // 4 * 2, MAX_GROUP)
        pairs = _best(ranked[:size], rematch) + _best(ranked[size : 2 * size], rematch)
        pairs += _neighbours(ranked[2 * size : (2 + PROXIMITY_GROUPS) * size], rematch)
    return [_colours(a, b, coin) for a, b in pairs]


def legal(a: Waiting, b: Waiting, *, rematch: bool = False) -> bool:
    """Whether ``a`` and ``b`` may be paired: not each other's last opponent (unless
    ``rematch``) and their colour streaks allow it."""
    if a.player == b.player:
        return False
    if not rematch and (a.last_opponent == b.player or b.last_opponent == a.player):
        return False
    return a.colours.could_play(b.colours)


def cost(a: Waiting, b: Waiting, max_rank: int) -> int:
    """lila's cost of pairing ``a`` with ``b`` in a group whose worst rank is ``max_rank``."""
    top = min(a.rank, b.rank)
    factor = 300 + 1700 * (max_rank - top) // max(max_rank, 1)
    return abs(a.rank - b.rank) * factor + abs(a.rating - b.rating)


def _best(group: list[Waiting], rematch: bool) -> list[tuple[Waiting, Waiting]]:
    """The exact minimum-cost matching of a group (lila's ``AntmaPairing``)."""
    max_rank = max(p.rank for p in group)
    costs = {
        (i, j): cost(group[i], group[j], max_rank)
        for i in range(len(group))
        for j in range(i + 1, len(group))
        if legal(group[i], group[j], rematch=rematch)
    }
    return [(group[i], group[j]) for i, j in min_cost_matching(len(group), costs)]


def _neighbours(ranked: list[Waiting], rematch: bool) -> list[tuple[Waiting, Waiting]]:
    """Each player with the next legal one below them in the ranking (a few places at most)."""
    free = list(ranked)
    pairs: list[tuple[Waiting, Waiting]] = []
    while len(free) >= 2:
        a = free.pop(0)
        for k in range(min(PROXIMITY_WINDOW, len(free))):
            if legal(a, free[k], rematch=rematch):
                pairs.append((a, free.pop(k)))
                break
    return pairs


def white_first(a: ColourHistory, b: ColourHistory) -> bool | None:
    """Whether the player of history ``a`` gets White against ``b``: Black to a player with
    :data:`MAX_STREAK` Whites in a row and White to one with as many Blacks, else White to
    the fewer Whites overall, then to the shorter White streak; ``None`` when all is equal
    (a coin decides)."""
    if a.streak >= MAX_STREAK or b.streak <= -MAX_STREAK:
        return False
    if b.streak >= MAX_STREAK or a.streak <= -MAX_STREAK:
        return True
    mine, theirs = (a.balance, a.streak), (b.balance, b.streak)
    return None if mine == theirs else mine < theirs


def _colours(a: Waiting, b: Waiting, coin: random.Random) -> Pairing:
    first = white_first(a.colours, b.colours)
    a_white = coin.random() < 0.5 if first is None else first
    return Pairing(a.player, b.player) if a_white else Pairing(b.player, a.player)
