"""The Bot API's own endpoints (issue 20): a bot account's upgrade, a person's answer to bots,
the bots online now, "play the computer", and lichess's token test (lichess-bot's first call).

The Bot API's game endpoints (``/api/bot/game/...``) are the Board API's handlers of
:mod:`emergo.server.round.http` under a second prefix; :mod:`emergo.server.bots.rules` says who
may use which.  ``POST /api/challenge/ai`` challenges the house bot of a level
(:mod:`emergo.server.bots.house`) and waits for its answer: it never thinks itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.bots.rules import require_challenger
from emergo.server.challenge.service import ChallengeError
from emergo.server.core.auth import ApiError, fields_of, require, site_of
from emergo.server.core.guard import MAX_BODY, BodyTooLarge
from emergo.server.core.streams import NDJSON, ndjson_line, ok
from emergo.server.people.service import MAX_LIST
from emergo.server.user.accounts import AccountError
from emergo.server.user.http import LOOKUPS_PER_MINUTE, limited, user_json

REQUEST_TIMEOUT = 12.0
"""How long the site's pages and clients are expected to wait for an answer (docs/online.md)."""
AI_WAIT = REQUEST_TIMEOUT - 2.0
"""How long ``POST /api/challenge/ai`` waits for the house bot's answer before it cancels the
challenge and says so (a house bot answers within milliseconds when it runs)."""


async def upgrade(request: Request) -> Response:
    """``POST /api/bot/account/upgrade``: make this account a bot account, for good (a token
    with ``bot:play``; only before any game)."""
    fields = await fields_of(request)
    actor = await require(request, "bot:play", fields)
    site = site_of(request)
    await asyncio.to_thread(site.bots.upgrade, actor.user)
    return ok()


TOKENS_PER_TEST = 100
"""The most tokens one ``POST /api/token/test`` tests (lichess's: 1000)."""


async def token_test(request: Request) -> Response:
    """``POST /api/token/test``: lichess's test of tokens, the body their comma-separated list
    (any content type: lichess-bot sends the bare token): each token's ``userId``, ``scopes``
    (comma-separated) and ``expires`` (``null``: ours do not), or ``null`` for a token that is
    unknown, revoked or of a disabled account.  Counted as a user lookup (a 429 past
    :data:`~emergo.server.user.http.LOOKUPS_PER_MINUTE` a minute)."""
    await limited(request, "user lookups", LOOKUPS_PER_MINUTE)
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise ApiError(f"request body larger than {MAX_BODY} bytes", 413) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError("the body is the tokens, comma-separated, in UTF-8") from None
    tokens = list(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    if not tokens or len(tokens) > TOKENS_PER_TEST:
        raise ApiError(f"the body is 1 to {TOKENS_PER_TEST} tokens, comma-separated")
    site = site_of(request)
    out: dict[str, Any] = {}
    for token in tokens:
        found = await asyncio.to_thread(site.tokens.authenticate, token)
        if found is None:
            out[token] = None
            continue
        user, scopes, _token_id = found
        out[token] = {
            "userId": user.name.lower(),
            "scopes": ",".join(sorted(scopes)),
            "expires": None,
        }
    return JSONResponse(out)


async def online_bots(request: Request) -> Response:
    """``GET /api/bot/online``: the bot accounts online now, one public user
    (:func:`~emergo.server.user.http.user_json`) a line, by name; ``nb`` at most (1-100).  A
    bot is online while the presence (:mod:`emergo.server.people`) has seen it lately: its
    event stream marks it while open, as a person's pages do."""
    await limited(request, "user lookups", LOOKUPS_PER_MINUTE)
    given = request.query_params.get("nb", str(MAX_LIST))
    if not (given.isascii() and given.isdigit()) or not 1 <= int(given) <= MAX_LIST:
        raise ApiError(f"nb is a number of bots, 1 to {MAX_LIST}")
    site = site_of(request)
    names = await asyncio.to_thread(site.people.online, int(given), bots=True)
    lines = []
    for name in names:
        found = await asyncio.to_thread(site.archive.user, name)
        if found is not None:
            lines.append(ndjson_line(await user_json(site, found)))
    return Response(b"".join(lines), media_type=NDJSON)


async def bot_prefs(request: Request) -> Response:
    """``GET /api/account/preferences/bots``: whether bots may play you (``accept``);
    ``POST`` with ``accept=true|false`` sets it."""
    site = site_of(request)
    if request.method == "GET":
        actor = await require(request)
    else:
        fields = await fields_of(request)
        actor = await require(request, fields=fields)
        value = fields.get("accept")
        if value not in (True, False, "true", "false"):
            raise ApiError("accept must be true or false")
        if actor.user.bot:
            raise ApiError("a bot account plays bots", 400)
        await asyncio.to_thread(site.bots.set_accepts_bots, actor.user.id, value in (True, "true"))
    accept = await asyncio.to_thread(site.bots.accepts_bots, actor.user.id)
    return JSONResponse({"accept": accept})


def _level(value: Any) -> int:
    if isinstance(value, bool):
        raise ApiError("level must be a number from 1 to 11")
    try:
        level = int(value)
    except (TypeError, ValueError, OverflowError):  # 1e400 and Infinity decode as inf
        raise ApiError("level must be a number from 1 to 11") from None
    if str(level) != str(value).strip() and not isinstance(value, int):
        raise ApiError("level must be a number from 1 to 11")
    if not 1 <= level <= 11:
        raise ApiError("level must be a number from 1 to 11")
    return level


async def challenge_ai(request: Request) -> Response:
    """``POST /api/challenge/ai``: challenge the house bot of ``level`` (the challenge's terms
    as for any challenge, rated allowed) and answer once it has accepted: ``gameId``, or an
    error when it declines or does not answer within :data:`AI_WAIT` (the challenge is then
    canceled)."""
    fields = await fields_of(request)
    actor = await require_challenger(request, "challenge:write", fields)
    if actor.user.bot:
        raise ApiError("a bot challenges the house bots by name: POST /api/challenge/emergo-N", 403)
    level = _level(fields.get("level", 1))
    site = site_of(request)
    house = await asyncio.to_thread(site.bots.house)
    offered = sorted(n for n in house if n in site.config.bots.levels)
    if level not in offered:
        known = ", ".join(map(str, offered)) or "none"
        raise ApiError(f"no computer plays level {level} on this site (levels: {known})", 404)
    terms = {k: v for k, v in fields.items() if k not in ("level", "csrf")}
    user = actor.user
    challenge = await asyncio.to_thread(
        site.challenge, user, terms, kind="direct", dest_name=house[level].name
    )
    loop = asyncio.get_running_loop()
    # give up before the site's own deadline answers 503 for us ([database] request_timeout,
    # issue 22's Deadline): the challenge must be canceled, not left for the bot to take later
    wait = max(0.5, min(AI_WAIT, site.config.database.request_timeout - 2.0))
    deadline = loop.time() + wait
    with site.bus.subscribe(f"u:{user.id}") as sub:
        while True:
            found = await asyncio.to_thread(site.challenges.get, challenge.id)
            if found is None:
                raise ApiError("the challenge is gone", 409)
            if found.status == "accepted" and found.game_id is not None:
                return JSONResponse(
                    {"id": found.game_id, "gameId": found.game_id, "challenge": found.json()}
                )
            if found.status != "created":
                reason = found.decline_reason or found.status
                raise ApiError(f"the computer (level {level}) declined: {reason}", 409)
            left = deadline - loop.time()
            if left <= 0:
                break
            if await sub.wait(min(left, 0.5)):
                sub.take()
    with contextlib.suppress(ChallengeError, AccountError):
        await asyncio.to_thread(site.challenges.cancel, challenge.id, user)
    found = await asyncio.to_thread(site.challenges.get, challenge.id)
    if found is not None and found.status == "accepted" and found.game_id is not None:
        return JSONResponse(
            {"id": found.game_id, "gameId": found.game_id, "challenge": found.json()}
        )
    raise ApiError(
        f"the computer (level {level}) did not answer in {wait:g} s: it may be offline; "
        "try again in a minute",
        503,
        headers={"retry-after": "60"},
    )
