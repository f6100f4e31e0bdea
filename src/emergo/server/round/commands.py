"""A player's action on a game, as the round's command: the one table the HTTP API and the
WebSocket share.

Actions (lichess's Board API names where it has them): ``move`` (``text``, ``lag`` seconds
reported by the client, ``offering_draw``), ``resign``, ``abort``, ``draw-yes`` (offer, or
accept the opponent's offer), ``draw-no`` (decline the opponent's offer), ``takeback-yes``
(propose, or accept the opponent's proposal), ``takeback-no``, ``claim-victory`` and
``claim-draw`` (the opponent gone past the grace period: the server measures it,
:mod:`emergo.server.round.presence`).  ``version``: the client's version of the game; a move sent
with an older one is refused (409) instead of played on a position its sender has not seen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from emergo import round as rnd
from emergo.board import Color
from emergo.server.round.service import GameError, GameView

ACTIONS = (
    "move",
    "resign",
    "abort",
    "draw-yes",
    "draw-no",
    "takeback-yes",
    "takeback-no",
    "claim-victory",
    "claim-draw",
)
MAX_MOVE_TEXT = 200
MAX_LAG = 3.0
"""Reported lag above this is taken as this, as scalachess's ``maxLagComp`` (3 s); the clock's
quota bounds it further.  The client measures it: it is never trusted beyond that."""


CONFLICT = (
    "the game moved on before this arrived (a move or an answer came first): "
    "it is shown as it is now"
)
"""A command sent for a version the game has left, in a player's words (the page resyncs)."""


def _lag(lag: Any) -> float:
    """The lag a client reported, in 0 .. :data:`MAX_LAG` seconds; a 400 :class:`GameError` for
    anything but a finite number (NaN, ``1e400``, a JSON integer of 400 digits, a text)."""
    if isinstance(lag, bool) or not isinstance(lag, int | float):
        raise GameError("lag must be a number of seconds")
    try:
        seconds = float(lag)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds):
        raise GameError(f"lag must be a finite number of seconds (0 to {MAX_LAG:g})")
    return min(max(seconds, 0.0), MAX_LAG)


def make_command(
    action: str,
    *,
    text: Any = None,
    lag: Any = 0.0,
    offering_draw: bool = False,
    version: Any = None,
    opponent_gone_since: float | None = None,
) -> Callable[[Color, GameView], rnd.Command]:
    """What :meth:`emergo.server.round.service.Rounds.play` plays for ``action`` (module docstring);
    a 400 :class:`GameError` for an unknown action or a bad field."""
    if action not in ACTIONS:
        raise GameError(f"unknown action {str(action)[:40]!r} (known: {', '.join(ACTIONS)})")
    if action == "move" and (
        not isinstance(text, str) or not text.strip() or len(text) > MAX_MOVE_TEXT
    ):
        raise GameError(f"a move is a text of 1 to {MAX_MOVE_TEXT} characters")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise GameError("version must be a whole number")
    lag = _lag(lag)

    def make(by: Color, game: GameView) -> rnd.Command:
        state = game.state
        if version is not None and version != state.version:
            raise GameError(CONFLICT, 409)
        opponent = not by
        if action == "move":
            return rnd.Move(by, str(text).strip(), lag=lag, offering_draw=offering_draw)
        if action == "resign":
            return rnd.Resign(by)
        if action == "abort":
            return rnd.Abort(by)
        if action == "draw-yes":
            if state.draw_offer == opponent:
                return rnd.AnswerDraw(by, True)
            return rnd.OfferDraw(by)
        if action == "draw-no":
            if state.draw_offer != opponent:
                raise GameError("there is no draw offer to decline", 409)
            return rnd.AnswerDraw(by, False)
        if action == "takeback-yes":
            if state.takeback_offer == opponent:
                return rnd.AnswerTakeback(by, True)
            return rnd.ProposeTakeback(by)
        if action == "takeback-no":
            if state.takeback_offer != opponent:
                raise GameError("there is no takeback proposal to decline", 409)
            return rnd.AnswerTakeback(by, False)
        if opponent_gone_since is None:
            raise GameError("your opponent is connected: nothing to claim", 409)
        if action == "claim-victory":
            return rnd.ClaimVictory(by, opponent_gone_since)
        return rnd.ClaimDraw(by, opponent_gone_since)

    return make
