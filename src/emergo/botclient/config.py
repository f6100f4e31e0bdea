"""What a bot is told: :class:`BotConfig` (``emergo bot``'s options) and :class:`ChallengeSpec`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from emergo.botclient.engines import EngineSpec
from emergo.botclient.policy import Policy

SwapPolicy = Literal["auto", "always", "never"]
SWAP_POLICIES: tuple[SwapPolicy, ...] = ("auto", "always", "never")
"""Black's choice under a game's swap rule (``--swap``): the engine's (``auto``: take White's
side when its search scores White's better), or always, or never take it."""

ExitMode = Literal["finish", "resign", "abandon"]
EXIT_MODES: tuple[ExitMode, ...] = ("finish", "resign", "abandon")
"""What a stop does with the live games (``--on-exit``)."""


@dataclass(frozen=True)
class ChallengeSpec:
    """The bot's own challenges (``--challenge USER``): ``games`` games against ``user``, one
    after the other, colours alternating (or ``color``)."""

    user: str
    games: int = 1
    variant: str = "9x9"
    limit: float | None = None
    """Seconds of a live clock; ``None`` with ``days`` for correspondence, neither: unlimited."""
    increment: float = 0.0
    days: int | None = None
    rated: bool = False
    color: str = "alternate"

    def form(self, number: int) -> dict[str, str]:
        """The form of ``POST /api/challenge/{user}`` for game ``number`` (from 0)."""
        color = self.color
        if color == "alternate":
            color = "white" if number % 2 == 0 else "black"
        form = {"variant": self.variant, "rated": "true" if self.rated else "false", "color": color}
        if self.limit is not None:
            form["clock.limit"] = f"{self.limit:g}"
            form["clock.increment"] = f"{self.increment:g}"
        elif self.days is not None:
            form["days"] = str(self.days)
        return form

    @property
    def live(self) -> bool:
        return self.limit is not None


@dataclass(frozen=True)
class BotConfig:
    """Everything ``emergo bot`` is told (docs/bot.md)."""

    engine: EngineSpec = field(default_factory=EngineSpec)
    policy: Policy = field(default_factory=Policy)
    concurrency: int = 1
    """Live games at once."""
    correspondence_concurrency: int = 10
    """Correspondence and unlimited games at once."""
    accept_takebacks: bool = False
    swap: SwapPolicy = "auto"
    greeting: str | None = None
    on_exit: ExitMode = "finish"
    upgrade: bool = False
    games: int | None = None
    """Stop once this many games have ended."""
    challenge: ChallengeSpec | None = None
    events: tuple[str, ...] = ()
    """Tournaments to join once logged in (their ids: an arena's, a round robin's, a match's
    or a Swiss's; ``password@id`` with an entry code); the server pairs the bot from then on."""
    backoff_base: float = 1.0
    backoff_cap: float = 60.0
    queue_wait: float = 10.0
    """Seconds a challenge may wait for a free game slot before it is declined with ``later``."""
    accept_wait: float = 20.0
    """Seconds an accepted challenge holds its slot while its game has not started."""
    challenge_timeout: float = 60.0
    """Seconds the bot's own challenge may go unanswered before it is cancelled and sent again."""
