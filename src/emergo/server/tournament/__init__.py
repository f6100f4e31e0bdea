"""Tournaments (issue 30): the pure domain of arenas, Swiss events, round robins and matches.

No database, no web framework, no clock: the server stores events and drives these functions
from its timers (docs/tournaments.md).

* :mod:`.arena` — the arena's pairing pass over the waiting room, and when pairing stops;
* :mod:`.sheet` — the arena's scores (streaks, berserk) and standings, a recount of the games;
* :mod:`.swiss` — Swiss events: rounds, byes, late join, withdrawal, tie-breaks, the TRF and
  the FIDE Dutch pairing through py4swiss;
* :mod:`.swiss_check` — our own checker of a Swiss round's pairing (the Dutch absolute criteria);
* :mod:`.roundrobin` — FIDE's Berger tables, micro-matches, and matches of N games;
* :mod:`.conditions` — entry conditions and the reasons a player may not join;
* :mod:`.matching` — minimum-cost matching (rustworkx's blossom algorithm).
"""
