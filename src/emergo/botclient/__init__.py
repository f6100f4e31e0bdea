"""A bot client for lichess-shaped Bot APIs: ``emergo bot`` (docs/bot.md).

It plays an Emergo server's bot account with the built-in engine or any engine speaking the
emergo engine protocol, using only the standard library for HTTP (so a bot needs none of the
server's extras):

* :mod:`emergo.botclient.api`: requests and NDJSON streams, rate limits, back-off;
* :mod:`emergo.botclient.policy`: which challenges to accept, lichess's decline reasons;
* :mod:`emergo.botclient.engines`: one engine a game, its answer to a draw offer and its swap;
* :mod:`emergo.botclient.config`: the options of a bot and of its own challenges;
* :mod:`emergo.botclient.games`: one game's stream, moves, offers, swaps and claims;
* :mod:`emergo.botclient.runner`: the bot itself, its event stream, its own challenges.
"""

from __future__ import annotations

from emergo.botclient.api import Api, ApiError, AuthError, RateLimited, Transient
from emergo.botclient.config import EXIT_MODES, SWAP_POLICIES, BotConfig, ChallengeSpec
from emergo.botclient.engines import EngineSpec
from emergo.botclient.policy import Challenge, Policy
from emergo.botclient.runner import Bot, BotError

__all__ = [
    "EXIT_MODES",
    "SWAP_POLICIES",
    "Api",
    "ApiError",
    "AuthError",
    "Bot",
    "BotConfig",
    "BotError",
    "Challenge",
    "ChallengeSpec",
    "EngineSpec",
    "Policy",
    "RateLimited",
    "Transient",
]
