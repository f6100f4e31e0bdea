"""The SMTP sender (emergo.server.notify.mail) against a real SMTP server the test starts
(aiosmtpd): STARTTLS with a log-in, TLS from the start, plain; certificates checked; no password
shown."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest

pytest.importorskip("aiosmtpd")

from emergo.clock import DAY
from emergo.server.notify.letters import Notice, Recipient, Site, compose, outbox
from emergo.server.notify.mail import MailError, SmtpSettings, send
from tests.plugins.smtp import CERT, PASSWORD, USER, Inbox, free_port, serve

SITE = Site("Emergo club", "https://play.example.org", "noreply@play.example.org")
BOB = Recipient("bob", "bob@example.org")
T0 = 1_800_000_000.0


@pytest.fixture
def smtp(request: pytest.FixtureRequest) -> Iterator[tuple[Inbox, int]]:
    """The test SMTP server of the test's parameter (``starttls`` by default)."""
    with serve(getattr(request, "param", "starttls")) as server:
        yield server


def your_turn(game: str = "Ab12Cd34") -> EmailMessage:
    notice = Notice("your-turn", game, "alice", "9x9", "3 days a move", T0, T0 + 3 * DAY)
    return compose(SITE, BOB, notice)


def settings(on: int, **changes: Any) -> SmtpSettings:
    values: dict[str, Any] = dict(
        host="127.0.0.1", port=on, username=USER, password=PASSWORD, cafile=CERT, timeout=10
    )
    values.update(changes)
    return SmtpSettings(**values)


def test_the_your_turn_mail_arrives_with_the_games_link_over_starttls(
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    assert send(settings(port), [your_turn()]) == 1
    ((sender, recipients, message),) = inbox.mails
    assert sender == "noreply@play.example.org" and recipients == ["bob@example.org"]
    assert inbox.logins == [USER]
    body = message.get_body(("plain",))
    assert body is not None and "https://play.example.org/game/Ab12Cd34" in body.get_content()
    assert message["Subject"] == "Your turn against alice (9x9, 3 days a move)"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # see smtp()
@pytest.mark.parametrize("smtp", ["ssl"], indirect=True)
def test_tls_from_the_start(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    assert send(settings(port, security="ssl"), [your_turn("a"), your_turn("b")]) == 2
    assert [m["Subject"] for _, _, m in inbox.mails] == [your_turn()["Subject"]] * 2


@pytest.mark.parametrize("smtp", ["plain"], indirect=True)
def test_plain_to_a_relay_without_log_in(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    plain = settings(port, security="plain", username=None, password=None, cafile=None)
    assert send(plain, [your_turn()]) == 1 and len(inbox.mails) == 1


def test_the_digest_holds_one_line_per_game(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    notices = [
        Notice("your-turn", g, "alice", "9x9", "3 days a move", T0 + i, T0 + 3 * DAY)
        for i, g in enumerate(["g1", "g2", "g1", "g3", "g2"])
    ]
    mails = outbox(SITE, BOB, "digest", notices, T0 + DAY, digest_time=True)
    assert send(settings(port), mails) == 1
    ((_, _, message),) = inbox.mails
    body = message.get_body(("plain",))
    assert body is not None
    lines = [line for line in body.get_content().splitlines() if line.startswith("- ")]
    assert len(lines) == 3
    assert sorted(line.rsplit("/", 1)[1] for line in lines) == ["g1", "g2", "g3"]


def test_a_player_who_opted_out_gets_nothing(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    notice = Notice("your-turn", "g1", "alice", "9x9", "3 days a move", T0, T0 + 3 * DAY)
    for digest_time in (False, True):
        assert (
            send(settings(port), outbox(SITE, BOB, "off", [notice], T0, digest_time=digest_time))
            == 0
        )
    assert inbox.mails == [] and inbox.logins == []  # not even a connection with a log-in


def test_a_wrong_password_is_refused_and_no_password_is_shown_anywhere(
    smtp: tuple[Inbox, int], caplog: pytest.LogCaptureFixture
) -> None:
    inbox, port = smtp
    caplog.set_level(logging.DEBUG)
    wrong = settings(port, password="Wr0ng-Pa55word")
    with pytest.raises(MailError, match=r"refused the log-in of 'emergo': 535") as refused:
        send(wrong, [your_turn()])
    assert send(settings(port), [your_turn()]) == 1
    for secret in (PASSWORD, "Wr0ng-Pa55word"):
        assert secret not in str(refused.value) and secret not in repr(wrong)
        assert secret not in repr(settings(port)) and secret not in caplog.text
    assert "sent 1 mail message(s) through 127.0.0.1" in caplog.text
    assert len(inbox.mails) == 1


def test_a_server_certificate_nobody_vouches_for_is_refused(smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with pytest.raises(MailError, match=r"cannot reach the mail .*CERTIFICATE_VERIFY_FAILED"):
        send(settings(port, cafile=None), [your_turn()])
    assert inbox.mails == []


def test_no_server_there() -> None:
    with pytest.raises(
        MailError, match=r"cannot reach the mail server 127\.0\.0\.1:\d+ \(starttls\)"
    ):
        send(settings(free_port()), [your_turn()])
    assert send(settings(free_port()), []) == 0  # nothing to send: no connection at all


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"security": "plain"}, "never sent without TLS"),
        ({"password": None}, "both a username and a password"),
        ({"security": "tls"}, "mail security is one of"),
        ({"port": 0}, "port is 1 to 65535"),
        ({"host": "a b"}, "host"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_settings_are_checked(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        settings(25, **changes)
