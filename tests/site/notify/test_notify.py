"""Notifications (emergo.server.notify.letters): the notices, the mails' headers, bodies and
escaping."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from emergo.clock import DAY
from emergo.server.notify.letters import (
    ALARM_AT,
    Notice,
    Recipient,
    Site,
    alarm_at,
    compose,
    digest,
    digest_due,
    game_url,
    outbox,
)

SITE = Site("Emergo club", "https://play.example.org/", "noreply@play.example.org")
BOB = Recipient("bob", "bob@example.org")
T0 = 1_800_000_000.0


def turn(game: str = "g1", at: float = T0, days: float = 3, opponent: str = "alice") -> Notice:
    return Notice("your-turn", game, opponent, "9x9", f"{days:g} days a move", at, at + days * DAY)


def reparsed(msg: EmailMessage) -> EmailMessage:
    """The message as a mail client reads it from the wire."""
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def plain(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def html(msg: EmailMessage) -> str:
    body = msg.get_body(("html",))
    assert body is not None
    return str(body.get_content())


def test_your_turn_mail_names_the_game_and_links_it() -> None:
    msg = reparsed(compose(SITE, BOB, turn("Ab12Cd34")))
    assert msg["Subject"] == "Your turn against alice (9x9, 3 days a move)"
    assert msg["From"] == "Emergo club <noreply@play.example.org>"
    assert msg["To"] == "bob <bob@example.org>"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["List-Unsubscribe"] == "<https://play.example.org/account/notifications>"
    assert msg["Message-ID"].endswith("@play.example.org>")
    assert msg["Date"] == "Fri, 15 Jan 2027 08:00:00 +0000"
    text = plain(msg)
    assert "https://play.example.org/game/Ab12Cd34" in text
    assert "You have 3 days left, until 2027-01-18 08:00 UTC" in text
    assert '<a href="https://play.example.org/game/Ab12Cd34">' in html(msg)


def test_time_running_out_at_80_percent_of_the_deadline() -> None:
    assert ALARM_AT == 0.8
    began, deadline = T0, T0 + 3 * DAY
    alarm = alarm_at(began, deadline)
    assert alarm == began + 2.4 * DAY
    notice = Notice("time-running-out", "g1", "alice", "hex", "3 days a move", alarm, deadline)
    msg = compose(SITE, BOB, notice)
    assert msg["Subject"] == "Time is running out against alice (hex, 3 days a move)"
    assert "You have 14 hours left" in plain(msg)  # 0.6 days = 14.4 hours
    assert notice.line(alarm + 3600) == "Time is running out against alice (hex); 13 hours left"


def test_game_over_mail() -> None:
    notice = Notice(
        "game-over", "g9", "alice", "7x7", "unlimited", T0, result="You won: alice resigned"
    )
    msg = compose(SITE, BOB, notice)
    assert msg["Subject"] == "Game over against alice (7x7, unlimited)"
    assert "You won: alice resigned" in plain(msg) and "/game/g9" in plain(msg)


def test_names_cannot_add_headers_and_are_escaped_in_html() -> None:
    evil = 'mallory\r\nBcc: victim@example.org\r\n<script>alert(1)</script>&"'
    msg = compose(SITE, Recipient(evil, "bob@example.org"), turn(opponent=evil))
    wire = msg.as_bytes()
    assert b"\nBcc:" not in wire and b"\r\nBcc:" not in wire
    parsed = reparsed(msg)
    assert parsed["Bcc"] is None and parsed.get_all("To") == [parsed["To"]]
    assert parsed["To"].addresses[0].addr_spec == "bob@example.org"
    assert "<script>" not in html(parsed) and "&lt;script&gt;" in html(parsed)
    with pytest.raises(ValueError, match="single e-mail address"):
        compose(SITE, Recipient("bob", "bob@example.org, eve@example.org"), turn())
    with pytest.raises(ValueError, match="single e-mail address"):
        compose(SITE, Recipient("bob", "bob@example.org\r\nBcc: eve@example.org"), turn())


def test_game_ids_are_quoted_in_links() -> None:
    assert game_url(SITE, "a/b?c") == "https://play.example.org/game/a%2Fb%3Fc"


def test_non_ascii_names_travel_encoded() -> None:
    msg = reparsed(compose(SITE, Recipient("Zoë", "zoe@example.org"), turn(opponent="Jörg")))
    assert msg["Subject"] == "Your turn against Jörg (9x9, 3 days a move)"
    assert msg["To"].addresses[0].display_name == "Zoë"


def test_the_digest_holds_one_line_per_game_most_urgent_first() -> None:
    notices = [
        turn("g1", T0),
        Notice(
            "time-running-out", "g1", "alice", "9x9", "3 days a move", T0 + 2.4 * DAY, T0 + 3 * DAY
        ),
        turn("g2", T0 + DAY, days=5, opponent="carol"),
        Notice(
            "game-over",
            "g3",
            "dave",
            "hex",
            "2 days a move",
            T0 + 2 * DAY,
            result="You lost on time",
        ),
        turn("g3", T0 + DAY, opponent="dave"),  # earlier than its game over: replaced by it
    ]
    msg = reparsed(digest(SITE, BOB, notices, T0 + 2.5 * DAY))  # type: ignore[arg-type]
    assert msg["Subject"] == "Emergo club: your turn in 2 games"
    lines = [line for line in plain(msg).splitlines() if line.startswith("- ")]
    assert lines == [
        "- Time is running out against alice (9x9); 12 hours left: "
        "https://play.example.org/game/g1",
        "- Your turn against carol (9x9); 3 days 12 hours left: https://play.example.org/game/g2",
        "- Game over against dave (hex): You lost on time: https://play.example.org/game/g3",
    ]
    assert html(msg).count("<li>") == 3
    assert digest(SITE, BOB, [], T0) is None
    ended = digest(SITE, BOB, [notices[3]], T0 + 3 * DAY)
    assert ended is not None and ended["Subject"] == "Emergo club: 1 game ended"


def test_the_players_choice() -> None:
    notices = [turn("g1"), turn("g2")]
    assert outbox(SITE, BOB, "off", notices, T0, digest_time=True) == []
    assert len(outbox(SITE, BOB, "instant", notices, T0, digest_time=False)) == 2
    assert outbox(SITE, BOB, "digest", notices, T0, digest_time=False) == []
    (one,) = outbox(SITE, BOB, "digest", notices, T0, digest_time=True)
    assert "2 games" in one["Subject"]
    with pytest.raises(ValueError, match="mail choice"):
        outbox(SITE, BOB, "weekly", notices, T0, digest_time=True)  # type: ignore[arg-type]
    assert digest_due(None, T0) and not digest_due(T0, T0 + DAY - 1) and digest_due(T0, T0 + DAY)


def test_notices_in_words_and_json() -> None:
    notice = turn("g1", T0)
    assert notice.line(T0) == "Your turn against alice (9x9); 3 days left"
    assert notice.line(T0 + 3 * DAY - 30) == "Your turn against alice (9x9); 30 seconds left"
    assert notice.line(T0 + 4 * DAY) == "Your turn against alice (9x9); no time left"
    assert notice.to_json()["gameId"] == "g1"
    with pytest.raises(ValueError, match="a notice is one of"):
        Notice("hello", "g1", "a", "9x9", "", T0)  # type: ignore[arg-type]


def test_site_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="base URL"):
        Site("x", "play.example.org", "a@b")
    with pytest.raises(ValueError, match="sender"):
        Site("x", "https://x", "a@b\r\nBcc: c@d")
