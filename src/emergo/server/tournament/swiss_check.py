"""Our own checker of a Swiss round's pairing: the rules of the FIDE Dutch system that every
pairing must keep, whatever program made it (tests run it over py4swiss's pairings).

:func:`violations` says in words what is wrong with a pairing of the next round of an event,
nothing when it is sound:

* **complete**: every present player is paired exactly once (on a board or with the bye), and
  no one absent or unknown; a bye only when the number present is odd (FIDE C.04.1.c);
* **C.1** two players do not meet twice (a forfeit is no game played);
* **C.2** the pairing-allocated bye goes to a player who has had neither a bye nor a forfeit
  win before (so one bye at most per player);
* **C.3 and the colours** (C.04.1.f, g): no player's colour difference (Whites - Blacks in games
  played) goes past ±2 and no player has one colour three games in a row, except on a board of
  a *topscorer* in the last round (over half the points possible: Dutch A.7);
* **score groups**: the top score group keeps as many pairs inside itself as any pairing that
  keeps the rules above can (Dutch C.5 on the first bracket, after C.4's completion).

>>> from emergo.server.tournament.swiss import Entrant, Pairing, Swiss
>>> event = Swiss(rounds=3, entrants=(Entrant("ann", 1900), Entrant("bob", 1800)))
>>> violations(event, Pairing((("ann", "bob"),)))
[]
>>> violations(event, Pairing((), bye="ann"))
['bob is not paired', 'a bye with 2 players present (even)']
"""

from __future__ import annotations

from emergo.server.tournament.matching import min_cost_matching
from emergo.server.tournament.swiss import POINTS, Pairing, Swiss


def violations(swiss: Swiss, pairing: Pairing) -> list[str]:
    """What is wrong with ``pairing`` as the next round of ``swiss`` (empty: nothing)."""
    present = swiss.present()
    problems: list[str] = []
    seen: dict[str, int] = {}
    for player in pairing.players():
        seen[player] = seen.get(player, 0) + 1
    for player in present:
        if player not in seen:
            problems.append(f"{player} is not paired")
    for player, count in seen.items():
        if player not in present:
            problems.append(f"{player} is paired but not present")
        if count > 1:
            problems.append(f"{player} is paired {count} times")
    if (pairing.bye is not None) != (len(present) % 2 == 1):
        parity = "odd" if len(present) % 2 else "even"
        state = "a bye" if pairing.bye is not None else "no bye"
        problems.append(f"{state} with {len(present)} players present ({parity})")
    history = _History(swiss)
    for white, black in pairing.boards:
        if black in history.opponents.get(white, set()):
            problems.append(f"{white} and {black} met before (C.1)")
        exempt = history.topscorer(white) or history.topscorer(black)
        for player, colour in ((white, "w"), (black, "b")):
            if not exempt and player in history.colours:
                problem = _colour_problem(history.colours[player] + [colour])
                if problem:
                    problems.append(
                        f"{player} with {'White' if colour == 'w' else 'Black'}: {problem} (C.3)"
                    )
    if pairing.bye is not None and pairing.bye in history.had_bye:
        problems.append(f"{pairing.bye} gets a second bye (C.2)")
    if not problems:
        problems += _score_groups(swiss, pairing, history)
    return problems


class _History:
    """What the rounds played say about each player, for the rules above."""

    def __init__(self, swiss: Swiss) -> None:
        self.opponents: dict[str, set[str]] = {}
        self.colours: dict[str, list[str]] = {}
        self.had_bye: set[str] = set()
        self.points: dict[str, float] = {}
        for entrant in swiss.entrants:
            player = entrant.player
            self.opponents[player] = set()
            self.colours[player] = []
            self.points[player] = 0.0
            for outcome, opponent, colour in swiss.outcomes(player):
                self.points[player] += POINTS[outcome]
                if outcome in ("win", "draw", "loss"):
                    assert opponent is not None and colour is not None
                    self.opponents[player].add(opponent)
                    self.colours[player].append(colour)
                elif outcome in ("bye", "forfeit_win"):
                    self.had_bye.add(player)
        self.last_round = len(swiss.played) == swiss.rounds - 1
        self.half = len(swiss.played) / 2

    def topscorer(self, player: str) -> bool:
        """Over half the points possible, when the last round is paired (Dutch A.7)."""
        return self.last_round and self.points[player] > self.half

    def absolute(self, player: str) -> str | None:
        """The colour a player must have (Dutch A.6.a), or ``None``."""
        colours = self.colours[player]
        difference = colours.count("w") - colours.count("b")
        if difference > 1:
            return "b"
        if difference < -1:
            return "w"
        if len(colours) >= 2 and colours[-1] == colours[-2]:
            return "b" if colours[-1] == "w" else "w"
        return None


def _colour_problem(colours: list[str]) -> str:
    difference = colours.count("w") - colours.count("b")
    if abs(difference) > 2:
        return f"colour difference {difference:+d}"
    if len(colours) >= 3 and len(set(colours[-3:])) == 1:
        return "three in a row"
    return ""


def _score_groups(swiss: Swiss, pairing: Pairing, history: _History) -> list[str]:
    """The top score group's pairs inside itself against the most any legal pairing has."""
    present = swiss.present()
    if not pairing.boards:
        return []
    top = max(history.points[p] for p in present)
    group = {p for p in present if history.points[p] == top}
    actual = sum(1 for white, black in pairing.boards if white in group and black in group)
    nodes = list(present) + (["(bye)"] if len(present) % 2 else [])
    costs: dict[tuple[int, int], int] = {}
    for i, a in enumerate(nodes):
        for j in range(i + 1, len(nodes)):
            b = nodes[j]
            if b == "(bye)":
                if a not in history.had_bye:
                    costs[i, j] = 1
            elif _may_meet(a, b, history):
                costs[i, j] = 0 if a in group and b in group else 1
    best = min_cost_matching(len(nodes), costs)
    if 2 * len(best) < len(nodes):
        return []  # no complete pairing under C.1-C.3: nothing to compare with
    most = sum(1 for i, j in best if costs[i, j] == 0)
    if actual < most:
        where = f"the top score group ({top:g} point{'' if top == 1 else 's'})"
        has = f"{actual} pair{'' if actual == 1 else 's'} inside it"
        return [f"{where} has {has}, {most} {'is' if most == 1 else 'are'} possible"]
    return []


def _may_meet(a: str, b: str, history: _History) -> bool:
    """C.1 and C.3: never met, and not both non-topscorers with one absolute colour."""
    if b in history.opponents[a]:
        return False
    wanted = history.absolute(a)
    exempt = history.topscorer(a) or history.topscorer(b)
    return exempt or wanted is None or wanted != history.absolute(b)
