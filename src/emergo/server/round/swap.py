"""The swap rule played (docs/fair-starts.md, R4's starts): a game started with ``swap-N`` lets
Black, after White's first N entries, take White's side.

The swap exchanges the players, not the position (:class:`emergo.ballots.SwapRule`): the game
row's seats change places, so the player who chose plays on with White and the one who made
White's entries is Black and to move.  **The clocks follow the players**: each keeps the time
they had (the chooser is charged the time they took to choose), and the player now to move
gets a fresh first-move deadline when the clock has not started yet.  An event's pairing
(``tournament_games``) exchanges its colours, berserk and ratings alike, so that colour
streaks and results count who played which side.

:func:`emergo.server.round.swap_choice.choose` plays the choice as the rounds service plays a
command (:mod:`emergo.server.round.service`): the game row locked, the new state, the seats, the
``Swap`` tag (``swap-1 taken`` or ``swap-1 declined``, :class:`emergo.ballots.FairStart`), the
event of the new version (``{"t": "swap", "taken": true|false, "white", "black", "clocks"}``),
the timer and the ``g:ID`` notification, in **one transaction**.  Black may also decline by
moving: :func:`after_command` records ``declined`` then.  Once the swap is taken, no takeback
reaches back over it (:func:`refuse_over_swap`): the moves before it were another seating's.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import update

from emergo import round as rnd
from emergo.ballots import FairStart
from emergo.board import BLACK, WHITE
from emergo.server.core import models as m
from emergo.server.core.db import Tx
from emergo.server.core.errors import SiteError

__all__ = ["after_command", "pending", "refuse_over_swap", "swap_state"]


def pending(tags: dict[str, str] | None) -> FairStart | None:
    """The game's fair start when its tags carry a swap rule not yet chosen, else ``None``."""
    if not tags or "Swap" not in tags:
        return None
    try:
        fair = FairStart.from_tags(tags)
    except ValueError:
        return None
    return fair if fair.swap is not None and fair.swapped is None else None


def swap_state(state: rnd.RoundState, t: float) -> rnd.RoundState:
    """``state`` after the seats' exchange at ``t``: the same position and moves, the clocks'
    times exchanged (the players keep theirs), a new version."""
    clock = state.clock
    last_move_at = state.last_move_at
    history = state.clock_history
    if clock is not None:
        white, black = clock.remaining(WHITE, t), clock.remaining(BLACK, t)
        running = clock.running
        clock = dataclasses.replace(
            clock,
            white=black,
            black=white,
            white_quota=clock.black_quota,
            black_quota=clock.white_quota,
            running=running,
            since=t if running is not None else None,
        )
        if running is None:  # the clock has not started: a fresh first-move deadline
            last_move_at = t
        if history:
            history = (*history[:-1], (black, white))
    return dataclasses.replace(
        state,
        clock=clock,
        clock_history=history,
        last_move_at=last_move_at,
        version=state.version + 1,
    )


def refuse_over_swap(tags: dict[str, str] | None, command: Any, state: rnd.RoundState) -> None:
    """A takeback that would reach back over a swap taken: refused (409).  Called by
    :meth:`Rounds.play` before the round; nothing to do in a game without a swap."""
    if not tags or "Swap" not in tags:
        return
    if not isinstance(command, rnd.ProposeTakeback | rnd.AnswerTakeback):
        return
    if isinstance(command, rnd.AnswerTakeback) and not command.accept:
        return
    try:
        fair = FairStart.from_tags(tags)
    except ValueError:
        return
    if fair.swap is not None and fair.swapped and len(state.moves) <= fair.swap.ply + 1:
        raise SiteError("no takeback over the swap: the moves before it were the other seat's", 409)


def after_command(
    tx: Tx,
    game_id: str,
    tags: dict[str, str] | None,
    before: rnd.RoundState,
    after: rnd.RoundState,
) -> None:
    """Black moved when the swap was offered: the game records ``declined``.  Called by
    :meth:`Rounds.play` after a command changed the game; nothing in a game without a swap."""
    fair = pending(tags)
    if fair is None or fair.swap is None or len(after.moves) <= len(before.moves):
        return
    if len(before.moves) != fair.swap.ply or not fair.swap.due(before.board()):
        return
    declined = {**(tags or {}), **FairStart(swap=fair.swap, swapped=False).tags()}
    tx.execute(update(m.games).where(m.games.c.id == game_id).values(tags=declined))
