"""Fair starts on the site (docs/fair-starts.md): what a challenge, a seek or an event may ask for
and the server draws, and what the game records of it.

A request names a *kind* of start, never a position (that is ``fen``, lichess's field, whose
games are casual): the server draws the start, so a rated game may use it.

* ``ballot`` -- a ballot of the board's list (:func:`emergo.ballots.draw_ballot`): the game
  begins at the ballot's position (its entering moves, R13, are irreversible: R19b has nothing
  before them to repeat) and records the ``Ballot`` tag, the ballot's id;
* ``handicap`` -- one man fewer in hand for White (``w 11/12``; ``7x7 w 7/8``), 9x9's
  recommendation;
* ``swap`` or ``swap-N`` -- the swap rule: after White's first N entries Black may take White's
  side; the game records ``Swap`` (``swap-N``, then ``swap-N taken`` or ``declined``), and
  :mod:`emergo.server.round.swap` plays the seats' exchange;
* ``recommended`` -- the board's recommendation (:data:`RECOMMENDED`): 9x9 ``handicap``, 7x7
  ``swap-1``, hex ``ballot`` (no single game is fair on the hexagon: micro-matches are).

>>> canonical_start("recommended", "7x7")
'swap-1'
>>> start = draw_start("ballot", "9x9", seed=1)
>>> start.tags, start.root
({'Ballot': '9x9-5'}, 'b 10/11 e4:w e7:b f5:w')
>>> draw_start("handicap", "7x7").root
'7x7 w 7/8'
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emergo import round as rnd
from emergo.ballots import FairStart, SwapRule, draw_ballot, find_ballot
from emergo.board import Board
from emergo.geometry import DEFAULT_VARIANT
from emergo.server.round.service import control_of

if TYPE_CHECKING:
    from emergo.server.core.db import Database, Tx
    from emergo.server.round.service import Rounds

RECOMMENDED = {"9x9": "handicap", "7x7": "swap-1", "hex": "ballot"}
"""Each board's fair start of a single game (docs/fair-starts.md, "The recommendation")."""
HANDICAP = {"9x9": "w 11/12", "7x7": "7x7 w 7/8", "hex": "hex w 11/12"}
"""White one man fewer in hand (R22), each board's."""
KINDS = ("ballot", "handicap", "swap", "swap-N", "recommended")


class StartError(ValueError):
    """A start that cannot be asked for: the message names what is wrong."""


@dataclass(frozen=True)
class GameStart:
    """What the server drew for one game: the position it begins at (``None``: the board's
    start) and the tags its record carries (``Ballot``, ``Swap``, ``Start``)."""

    root: str | None = None
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def fair(self) -> FairStart:
        return FairStart.from_tags(self.tags)


def canonical_start(value: object, variant: str = DEFAULT_VARIANT) -> str | None:
    """A request's ``start`` checked: ``ballot``, ``handicap``, ``swap-N`` (``swap`` is
    ``swap-1``), ``recommended`` resolved for the board; ``None`` for none (absent, ``none``)."""
    if value is None or value in ("", "none"):
        return None
    if not isinstance(value, str):
        raise StartError("start must be text: ballot, handicap, swap, swap-N or recommended")
    text = value.strip().lower()
    if text == "recommended":
        text = RECOMMENDED.get(variant, "ballot")
    if text in ("ballot", "handicap"):
        return text
    if text.startswith("swap"):
        try:
            rule = SwapRule.parse(text)
        except ValueError as e:
            raise StartError(f"start: {e}") from None
        if rule.margin:
            raise StartError("start: a swap rule of the site has no margin ('swap-2')")
        return str(rule)
    raise StartError(
        f"start must be ballot, handicap, swap, swap-N or recommended, not {text[:20]!r}"
    )


def draw_start(
    kind: str,
    variant: str = DEFAULT_VARIANT,
    *,
    seed: int | str | None = None,
    ballot: str | None = None,
) -> GameStart:
    """The start of one game of ``kind`` (:func:`canonical_start`'s), drawn by the server
    (``seed``: the same seed, the same ballot); ``ballot`` an id given already (the second
    game of a pair)."""
    kind = canonical_start(kind, variant) or ""
    if kind == "ballot":
        chosen = find_ballot(ballot) if ballot else draw_ballot(variant, rng=random.Random(seed))
        assert chosen.id is not None
        return GameStart(chosen.board().position(), FairStart(chosen.id).tags())
    if kind == "handicap":
        return GameStart(Board(HANDICAP[variant]).position(), {"Start": "handicap"})
    if kind.startswith("swap"):
        return GameStart(None, FairStart(swap=SwapRule.parse(kind)).tags())
    return GameStart()


def describe(tags: dict[str, str] | None) -> str | None:
    """The start of a game in words for its page and the archive; ``None``: the empty board."""
    tags = tags or {}
    words = []
    if "Ballot" in tags:
        words.append(f"ballot {tags['Ballot']}")
    if tags.get("Start") == "handicap":
        words.append("one man fewer for White")
    if "Swap" in tags:
        fair = FairStart.from_tags(tags)
        choice = {True: ", taken", False: ", declined", None: ""}[fair.swapped]
        words.append(f"swap rule after {fair.swap.entries if fair.swap else 1} entries{choice}")
    return "; ".join(words) or None


def game_of_challenge(
    rounds: Rounds, tx: Tx, challenge: Any, white_id: int, black_id: int, t: float
) -> str:
    """A new game from an accepted challenge's row, its fair start drawn now (the challenge
    service's ``create_game``): the rounds service's :meth:`~Rounds.start` with the start's
    position and tags; a challenge without a start is a game from its ``fen`` or the start."""
    start = draw_start(challenge.start, challenge.variant) if challenge.start else GameStart()
    control = control_of(challenge.clock_limit, challenge.clock_increment, challenge.days)
    state = rnd.RoundState.new(
        variant=challenge.variant,
        root=start.root or challenge.position,
        time_control=control,
        now=t,
    )
    return rounds.start(
        tx,
        state,
        white_id,
        black_id,
        rated=challenge.rated,
        t=t,
        challenge_id=challenge.id,
        tags=start.tags or None,
    )


def tags_of(db: Database, game_id: str) -> dict[str, str]:
    """The tags a stored game carries beside the site's (its start, its event)."""
    from sqlalchemy import select

    from emergo.server.core import models as m

    with db.read() as c:
        tags = c.execute(select(m.games.c.tags).where(m.games.c.id == game_id)).scalar()
    return dict(tags or {})
