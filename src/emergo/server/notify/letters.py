"""Notifications: what a correspondence player is told, as one-line notices and as e-mails.

A :class:`Notice` is one thing that happened in one of a player's games: it is his turn
(``your-turn``), his time is running out (``time-running-out``: 80 % of the move's time is used,
:func:`alarm_at`), the game is over (``game-over``).  The site's feed shows :meth:`Notice.line`;
the e-mails are composed here as :class:`email.message.EmailMessage` (plain text and HTML, every
outside text escaped, headers that cannot be forged by a name), and sent by
:mod:`emergo.server.notify.mail`.

A player chooses (:data:`EMAIL_CHOICES`): no mail (``off``, the default), one mail a day
listing his games (``digest``, lichess's choice: one line a game, the latest news of each), or a
mail at once for each notice (``instant``).  :func:`outbox` applies the choice.

>>> site = Site("Emergo club", "https://play.example.org", "noreply@play.example.org")
>>> bob = Recipient("bob", "bob@example.org")
>>> n = Notice("your-turn", "Ab12Cd34", "alice", "9x9", "3 days a move", at=0.0, deadline=259200.0)
>>> msg = compose(site, bob, n)
>>> msg["Subject"], msg["To"]
('Your turn against alice (9x9, 3 days a move)', 'bob <bob@example.org>')
>>> "https://play.example.org/game/Ab12Cd34" in msg.get_body(("plain",)).get_content()
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from html import escape
from typing import Literal, TypeAlias
from urllib.parse import quote

from emergo.clock import DAY
from emergo.server.core.words import duration

__all__ = [
    "ALARM_AT",
    "DIGEST_EVERY",
    "EMAIL_CHOICES",
    "KINDS",
    "EmailChoice",
    "Notice",
    "Recipient",
    "Site",
    "alarm_at",
    "compose",
    "digest",
    "digest_due",
    "game_url",
    "outbox",
]

Kind: TypeAlias = Literal[
    "your-turn", "time-running-out", "game-over", "game-started", "warning", "event-game"
]
KINDS: tuple[Kind, ...] = (
    "your-turn",
    "time-running-out",
    "game-over",
    "game-started",
    "warning",
    "event-game",
)
"""What a notice may say: ``game-started``, a game of a player you follow (``opponent`` is he,
``result`` the game's players); ``warning``, the moderators' words (``result``); ``event-game``, an
event's pairing made or round begun (``result``: its words)."""
EmailChoice: TypeAlias = Literal["off", "digest", "instant"]
EMAIL_CHOICES: tuple[EmailChoice, ...] = ("off", "digest", "instant")
"""A player's choice of mail: none, a daily digest, or a mail for each notice at once."""
ALARM_AT = 0.8
"""The share of a move's time after which the player is told it is running out (lichess)."""
DIGEST_EVERY = DAY
"""Seconds between two digests of one player."""

_CONTROL = {ord(c): " " for c in "\r\n\t\v\f\x00\x85\u2028\u2029"}


def _clean(text: str, limit: int = 200) -> str:
    """One line of at most ``limit`` characters: no control characters a header would break at."""
    cleaned = "".join(" " if ord(c) < 32 or c == "\x7f" else c for c in text.translate(_CONTROL))
    return cleaned[:limit]


@dataclass(frozen=True)
class Site:
    """Who sends: the site's ``name``, its ``base_url`` (the games' links), the ``sender``
    address."""

    name: str
    base_url: str
    sender: str

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("https://", "http://")):
            raise ValueError(
                f"the site's base URL starts with https:// or http://: {self.base_url!r}"
            )
        if "@" not in self.sender or any(c in self.sender for c in "\r\n <>"):
            raise ValueError(f"the sender is an e-mail address: {self.sender!r}")


@dataclass(frozen=True)
class Recipient:
    """A player who gets mail: his ``name`` on the site and his ``email`` address."""

    name: str
    email: str


@dataclass(frozen=True)
class Notice:
    """One thing that happened in one game of the player's.

    ``game_id``, ``opponent`` (his name), ``variant`` (``9x9``), ``control`` (the time control
    in words), ``at`` (when it happened, wall seconds); ``deadline``: when the player's time
    runs out (your turn, time running out); ``result``: how the game ended, in words, from the
    player's side ("You won: Black resigned").
    """

    kind: Kind
    game_id: str
    opponent: str
    variant: str
    control: str
    at: float
    deadline: float | None = None
    result: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a notice is one of {', '.join(KINDS)}, not {self.kind!r}")
        if not math.isfinite(self.at):
            raise ValueError(f"a notice's time is a finite wall time, not {self.at!r}")

    def line(self, now: float) -> str:
        """The notice in one line of plain text (the feed, the digest)."""
        against = f"against {_clean(self.opponent, 60)} ({_clean(self.variant, 10)})"
        if self.kind == "game-started":
            return (
                f"{_clean(self.opponent, 60)} started a game ({_clean(self.variant, 10)}, "
                f"{_clean(self.control, 40)}): {_clean(self.result or '')} — watch it"
            )
        if self.kind == "warning":
            return f"A warning from the moderators: {_clean(self.result or '', 400)}"
        if self.kind == "game-over":
            return f"Game over {against}: {_clean(self.result or 'the game ended')}"
        if self.kind == "event-game":  # issue 30: a pairing made, a round begun (result: words)
            return f"Your game {against} has started: {_clean(self.result or 'an event')}"
        left = f"; {duration(self.deadline - now)} left" if self.deadline is not None else ""
        if self.kind == "time-running-out":
            return f"Time is running out {against}{left}"
        return f"Your turn {against}{left}"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "gameId": self.game_id,
            "opponent": self.opponent,
            "variant": self.variant,
            "control": self.control,
            "at": self.at,
            "deadline": self.deadline,
            "result": self.result,
        }


def game_url(site: Site, game_id: str) -> str:
    """The address of a game's page."""
    return f"{site.base_url.rstrip('/')}/game/{quote(game_id, safe='')}"


def settings_url(site: Site) -> str:
    """Where a player changes what mail he gets."""
    return f"{site.base_url.rstrip('/')}/account/notifications"


def alarm_at(turn_began: float, deadline: float) -> float:
    """When to tell a player his time is running out: 80 % of the move's time used.

    >>> alarm_at(0.0, 3 * 86400.0) / 3600
    57.6
    """
    return turn_began + ALARM_AT * (deadline - turn_began)


def digest_due(last_sent: float | None, now: float) -> bool:
    """Whether a player's daily digest is due (a day since the last; at once the first time)."""
    return last_sent is None or now - last_sent >= DIGEST_EVERY


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _message(
    site: Site, to: Recipient, subject: str, at: float, text: str, html: str
) -> EmailMessage:
    msg = EmailMessage()
    msg["Subject"] = _clean(subject, 150)
    msg["From"] = Address(display_name=_clean(site.name, 80), addr_spec=site.sender)
    msg["To"] = Address(display_name=_clean(to.name, 80), addr_spec=_address(to.email))
    msg["Date"] = format_datetime(datetime.fromtimestamp(at, UTC))
    msg["Message-ID"] = make_msgid("emergo", domain=site.sender.rpartition("@")[2])
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to us
    msg["List-Unsubscribe"] = f"<{settings_url(site)}>"
    footer = (
        f"You get this mail because you asked for it on {site.name}. "
        f"Change it at {settings_url(site)}"
    )
    msg.set_content(f"{text}\n\n-- \n{_clean(footer, 400)}\n")
    msg.add_alternative(
        "<!doctype html><html><body>"
        f"{html}"
        f'<p style="color:#666;font-size:small">You get this mail because you asked for it on '
        f'{escape(site.name)}. <a href="{escape(settings_url(site))}">Change it</a>.</p>'
        "</body></html>",
        subtype="html",
    )
    return msg


def _address(email: str) -> str:
    if any(c in email for c in '\r\n <>,"') or email.count("@") != 1:
        raise ValueError(f"not a single e-mail address: {email!r}")
    return email


def _link(site: Site, notice: Notice) -> tuple[str, str]:
    """The game's address, as text and as an HTML link."""
    url = game_url(site, notice.game_id)
    return url, f'<a href="{escape(url)}">{escape(url)}</a>'


def compose(site: Site, to: Recipient, notice: Notice) -> EmailMessage:
    """The mail for one notice: its subject says it, its body links the game."""
    opponent = _clean(notice.opponent, 60)
    about = f"against {opponent} ({_clean(notice.variant, 10)}, {_clean(notice.control, 40)})"
    url, link = _link(site, notice)
    if notice.kind in ("game-started", "warning"):
        subject = notice.line(notice.at)[:150]
        text = f"{subject}\n\n{url}" if notice.kind == "game-started" else subject
        html = f"<p>{escape(subject)}</p>" + (
            f"<p>{link}</p>" if notice.kind == "game-started" else ""
        )
    elif notice.kind == "game-over":
        subject = f"Game over {about}"
        result = _clean(notice.result or "The game ended.", 200)
        text = f"{result}\n\nThe game: {url}"
        html = f"<p>{escape(result)}</p><p>The game: {link}</p>"
    else:
        subject = (
            "Time is running out " if notice.kind == "time-running-out" else "Your turn "
        ) + about
        first = (
            f"Your time is running out in your game {about}."
            if notice.kind == "time-running-out"
            else f"It is your turn in your game {about}."
        )
        if notice.deadline is not None:
            left = duration(notice.deadline - notice.at)
            first += f" You have {left} left, until {_when(notice.deadline)}."
        text = f"{first}\n\nPlay your move: {url}"
        html = f"<p>{escape(first)}</p><p>Play your move: {link}</p>"
    return _message(site, to, subject, notice.at, text, html)


def _latest_by_game(notices: Iterable[Notice]) -> list[Notice]:
    """The latest notice of each game, most urgent first: time running out, your turn (the
    nearest deadline first), game over."""
    latest: dict[str, Notice] = {}
    for notice in sorted(notices, key=lambda n: n.at):
        latest[notice.game_id] = notice
    order = {"time-running-out": 0, "your-turn": 1, "game-over": 2, "game-started": 3, "warning": 4}
    return sorted(
        latest.values(),
        key=lambda n: (order[n.kind], n.deadline if n.deadline is not None else math.inf, n.at),
    )


def digest(site: Site, to: Recipient, notices: Iterable[Notice], now: float) -> EmailMessage | None:
    """The daily digest: one line a game (its latest notice) with its link; ``None`` without
    notices."""
    games = _latest_by_game(notices)
    if not games:
        return None
    waiting = sum(1 for n in games if n.kind != "game-over")
    subject = (
        f"{site.name}: your turn in {waiting} game{'s' if waiting != 1 else ''}"
        if waiting
        else f"{site.name}: {len(games)} game{'s' if len(games) != 1 else ''} ended"
    )
    rows_text, rows_html = [], []
    for notice in games:
        url, link = _link(site, notice)
        line = notice.line(now)
        rows_text.append(f"- {line}: {url}")
        rows_html.append(f"<li>{escape(line)}: {link}</li>")
    text = "Your games today:\n\n" + "\n".join(rows_text)
    html = "<p>Your games today:</p><ul>" + "".join(rows_html) + "</ul>"
    return _message(site, to, subject, now, text, html)


def outbox(
    site: Site,
    to: Recipient,
    choice: EmailChoice,
    notices: Sequence[Notice],
    now: float,
    *,
    digest_time: bool,
) -> list[EmailMessage]:
    """The mails the player's ``choice`` asks for: none (``off``), one mail per notice
    (``instant``), or at ``digest_time`` one digest of them (``digest``)."""
    if choice not in EMAIL_CHOICES:
        raise ValueError(f"a mail choice is one of {', '.join(EMAIL_CHOICES)}, not {choice!r}")
    if choice == "instant":
        return [compose(site, to, n) for n in notices]
    if choice == "digest" and digest_time:
        message = digest(site, to, notices, now)
        return [] if message is None else [message]
    return []
