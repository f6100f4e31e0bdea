"""The online site's JSON of a game, shaped as lichess's Board API (``gameFull``, ``gameState``).

One place builds them for the HTTP streams and the WebSocket alike.  Times are milliseconds (as
lichess); ``version`` is the round's (an addition: a client that sees a gap asks again).
"""

from __future__ import annotations

import math
from typing import Any

from emergo import round as rnd
from emergo.board import BLACK, WHITE
from emergo.clock import color_key
from emergo.server.core.db import now as time_now
from emergo.server.round.service import STATUS, GameView
from emergo.server.site import Site
from emergo.server.user.accounts import DELETED_NAME
from emergo.server.user.perfs import PERF_KEYS

UNLIMITED_MS = 2147483647
"""wtime/btime of a game without a clock (lichess's value)."""


def _ms(seconds: float) -> int:
    return math.floor(seconds * 1000) if math.isfinite(seconds) else UNLIMITED_MS


def status_of(game: GameView) -> str:
    outcome = game.state.outcome
    if outcome is None:
        return "started"
    return STATUS.get(outcome.termination.value, outcome.termination.value)


def game_state(game: GameView, now: float) -> dict[str, Any]:
    """``gameState``: the moves, both clocks at ``now``, the status and the offers."""
    s = game.state
    clock = s.clock
    if clock is not None:
        wtime, btime = _ms(clock.remaining(WHITE, now)), _ms(clock.remaining(BLACK, now))
        inc = _ms(clock.control.increment)
        running = color_key(clock.running)
    else:
        wtime = btime = UNLIMITED_MS
        inc = 0
        running = None
    out: dict[str, Any] = {
        "type": "gameState",
        "moves": " ".join(s.moves),
        "wtime": wtime,
        "btime": btime,
        "winc": inc,
        "binc": inc,
        "status": status_of(game),
        "wdraw": s.draw_offer == WHITE,
        "bdraw": s.draw_offer == BLACK,
        "wtakeback": s.takeback_offer == WHITE,
        "btakeback": s.takeback_offer == BLACK,
        "version": s.version,
        "turn": color_key(s.turn),
        "clockRunning": running,
    }
    if s.outcome is not None:
        if s.outcome.winner is not None:
            out["winner"] = color_key(s.outcome.winner)
        out["reason"] = s.outcome.reason()
    expiration = _expiration(s, now)
    if expiration is not None:
        out["expiration"] = expiration
    return out


def _expiration(s: rnd.RoundState, now: float) -> dict[str, int] | None:
    """lichess's ``expiration`` of a game not yet started (a side has not made its first move):
    ``millisToMove`` it has, ``idleMillis`` already gone; the game is aborted when they meet."""
    clock = s.clock
    if s.outcome is not None or clock is None or clock.running is not None or len(s.moves) >= 2:
        return None
    seconds = rnd.first_move_time(clock.control)
    deadline = rnd.due(s)
    if seconds is None or deadline is None:
        return None
    idle = min(seconds, max(0.0, now - (deadline - seconds)))
    return {"idleMillis": _ms(idle), "millisToMove": _ms(seconds)}


def player(name: str, user_id: int, bot: bool = False) -> dict[str, Any]:
    if name == DELETED_NAME:
        return {"id": None, "name": name, "title": None}
    return {"id": name.lower(), "name": name, "title": "BOT" if bot else None}


def game_full(game: GameView, now: float) -> dict[str, Any]:
    """``gameFull``: who plays, the variant, the time control and the :func:`game_state`."""
    s = game.state
    clock = s.clock
    out: dict[str, Any] = {
        "type": "gameFull",
        "id": game.id,
        "variant": {"key": game.variant, "name": game.variant},
        "speed": game.speed,
        "rated": game.rated,
        "createdAt": int(game.created * 1000),
        "white": player(game.seats.white, game.seats.white_id, game.seats.white_bot),
        "black": player(game.seats.black, game.seats.black_id, game.seats.black_bot),
        "initialFen": s.root,
        "clock": None,
        "timeControl": game.time_control,
        "state": game_state(game, now),
    }
    if game.swap is not None:  # ours: the swap rule and Black's choice (docs/fair-starts.md)
        out["swap"] = game.swap
    if game.learn is not None:  # ours: a practice level of /learn (docs/learn.md)
        out["learn"] = game.learn
    if clock is not None:
        days = clock.control.days
        if days is not None:
            out["daysPerTurn"] = days
        else:
            out["clock"] = {
                "initial": _ms(clock.control.base),
                "increment": _ms(clock.control.increment),
            }
    return out


def you_of(game: GameView, user_id: int | None) -> str | None:
    """Who the user is in the game, for the pages: ``white``, ``black``, ``both`` (a hot-seat
    game: they hold both seats) or None (a spectator)."""
    color = game.seats.color_of(user_id) if user_id is not None else None
    if color is None:
        return None
    return "both" if game.seats.hotseat else color_key(color)


def summary(game: GameView, user_id: int, now: float) -> dict[str, Any]:
    """A game in the user's list (``GET /api/account/playing``, lichess's ``nowPlaying``)."""
    s = game.state
    color = game.seats.color_of(user_id)
    mine = color is not None and s.turn == color and s.outcome is None
    opponent = BLACK if color == WHITE else WHITE
    out: dict[str, Any] = {
        "gameId": game.id,
        "fullId": game.id,
        "color": color_key(color),
        "variant": {"key": game.variant, "name": game.variant},
        "speed": game.speed,
        "rated": game.rated,
        "isMyTurn": mine,
        "lastMove": s.moves[-1] if s.moves else "",
        "opponent": {
            "id": game.seats.name_of(opponent).lower(),
            "username": game.seats.name_of(opponent),
            "title": "BOT"
            if (game.seats.white_bot, game.seats.black_bot)[opponent == BLACK]
            else None,
        },
        "version": s.version,
    }
    clock = s.clock
    if clock is not None and color is not None:
        left = clock.remaining(color, now)
        deadline = rnd.due(s) if mine else None
        if deadline is not None:
            # before the first move the clock stands still and the abort's deadline is what
            # counts: the same time the notices give ("2 days 23 hours left"), not "3d 0h"
            left = min(left, max(0.0, deadline - now))
        out["secondsLeft"] = int(left)
    return out


def _perf_key(variant: str, speed: str) -> str:
    key = f"{variant}-{'live' if speed == 'live' else 'correspondence'}"
    return key if key in PERF_KEYS else ""


def add_challenge_ratings(site: Site, challenges: list[dict[str, Any]], now: float) -> None:
    """Put each player's rating for the challenge's game (``rating``, ``provisional``) into
    the challenger and the destination user of challenge JSONs, as lichess's lobby shows them.
    Runs in a worker thread (two reads for the whole list)."""
    users = [
        (c[side], _perf_key(c["variant"]["key"], c["speed"]))
        for c in challenges
        for side in ("challenger", "destUser")
        if c.get(side)
    ]
    shown = site.ratings.shown(((user["name"], key) for user, key in users), now)
    for user, key in users:
        found = shown.get((user["name"].lower(), key))
        if found is not None and user["name"] != DELETED_NAME:
            user.update(rating=found[0], provisional=found[1])


def add_game_ratings(site: Site, full: dict[str, Any], game: GameView, now: float) -> None:
    """Put the players' ratings into a ``gameFull``: a finished rated game's from before it
    with the change (``ratingDiff``, the archive's), else each player's rating now for the
    game's kind. Runs in a worker thread."""
    archived = site.archive.one(game.id) if game.state.is_over else None
    if archived is not None and archived.white_rating is not None:
        for side, rating, diff, prov in (
            ("white", archived.white_rating, archived.white_diff, archived.white_provisional),
            ("black", archived.black_rating, archived.black_diff, archived.black_provisional),
        ):
            # the "?" stays when the player was provisional before the game (archive.py)
            full[side].update(rating=rating, provisional=prov, ratingDiff=diff)
        return
    key = _perf_key(game.variant, game.speed)
    names = (("white", game.seats.white), ("black", game.seats.black))
    shown = site.ratings.shown(((name, key) for _, name in names), now)
    for side, name in names:
        found = shown.get((name.lower(), key))
        if found is not None and name != DELETED_NAME:
            full[side].update(rating=found[0], provisional=found[1])


def gone_line(game: GameView, since: float | None) -> dict[str, Any]:
    """``opponentGone``: whether the opponent has left (``since`` they did, None: here), and
    when the player may claim the win."""
    if since is None:
        return {"type": "opponentGone", "gone": False}
    grace = rnd.claim_grace(game.state.time_control)
    left = max(0.0, since + grace - time_now())
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": int(left + 0.999)}
