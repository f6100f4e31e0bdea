"""Sending mail: a small SMTP client on the standard library's :mod:`smtplib`.

:class:`SmtpSettings` is the ``[mail]`` section of the server's configuration (docs/online.md):
the server's ``host`` and ``port``, ``security`` (``starttls``: plain connection upgraded to TLS,
port 587; ``ssl``: TLS from the start, port 465; ``plain``: no TLS, for a relay on the same
machine), ``username`` and ``password`` when the server wants a log-in, ``cafile`` to trust a
server with a certificate of its own, ``timeout``.  TLS always checks the server's certificate
and name.  A password is never sent without TLS, never shown by ``repr`` and never logged; what
is logged is how many messages went to which server.

:func:`send` sends messages over one connection and returns how many were accepted; a failure
raises :class:`MailError` saying which server and why (never the password).
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Literal, TypeAlias

__all__ = ["SECURITY", "MailError", "SmtpSettings", "send"]

log = logging.getLogger(__name__)

Security: TypeAlias = Literal["starttls", "ssl", "plain"]
SECURITY: tuple[Security, ...] = ("starttls", "ssl", "plain")
"""How the connection to the mail server is protected."""


class MailError(Exception):
    """Mail could not be sent; the message names the server and the reason."""


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how to send mail (the configuration's ``[mail]`` section)."""

    host: str
    port: int = 587
    security: Security = "starttls"
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    cafile: str | None = None
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if not self.host or any(c in self.host for c in " \r\n/"):
            raise ValueError(f"the mail server's host is a name or an address: {self.host!r}")
        if (
            not isinstance(self.port, int)
            or isinstance(self.port, bool)
            or not 0 < self.port < 65536
        ):
            raise ValueError(f"the mail server's port is 1 to 65535: {self.port!r}")
        if self.security not in SECURITY:
            raise ValueError(
                f"mail security is one of {', '.join(SECURITY)}, not {self.security!r}"
            )
        if (self.username is None) != (self.password is None):
            raise ValueError("a mail log-in needs both a username and a password")
        if self.username is not None and self.security == "plain":
            raise ValueError("a mail password is never sent without TLS: use starttls or ssl")
        if not (isinstance(self.timeout, int | float) and self.timeout > 0):
            raise ValueError(f"the mail timeout is more than 0 seconds: {self.timeout!r}")

    def where(self) -> str:
        return f"{self.host}:{self.port} ({self.security})"


def _context(settings: SmtpSettings) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=settings.cafile)


def _connect(settings: SmtpSettings) -> smtplib.SMTP:
    if settings.security == "ssl":
        return smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=_context(settings)
        )
    client = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    try:
        if settings.security == "starttls":
            client.starttls(context=_context(settings))
            client.ehlo()
    except BaseException:
        client.close()
        raise
    return client


def send(settings: SmtpSettings, messages: Iterable[EmailMessage]) -> int:
    """Send ``messages`` (each to its ``To``) over one connection; how many were sent.

    Nothing is connected when there is nothing to send.  A refused message or a lost
    connection raises :class:`MailError` after what went before was sent.
    """
    batch = list(messages)
    if not batch:
        return 0
    sent = 0
    try:
        client = _connect(settings)
    except (OSError, smtplib.SMTPException) as e:
        raise MailError(f"cannot reach the mail server {settings.where()}: {_reason(e)}") from None
    try:
        with client:
            if settings.username is not None and settings.password is not None:
                try:
                    client.login(settings.username, settings.password)
                except smtplib.SMTPException as e:
                    raise MailError(
                        f"the mail server {settings.where()} refused the log-in of "
                        f"{settings.username!r}: {_reason(e)}"
                    ) from None
            for message in batch:
                client.send_message(message)
                sent += 1
    except MailError:
        raise
    except (OSError, smtplib.SMTPException) as e:
        raise MailError(
            f"the mail server {settings.where()} failed after {sent} of {len(batch)} "
            f"messages: {_reason(e)}"
        ) from None
    log.info("sent %d mail message(s) through %s", sent, settings.where())
    return sent


def _reason(error: BaseException) -> str:
    """What went wrong, in one line: the server's answer or the system's error."""
    if isinstance(error, smtplib.SMTPResponseException):
        text = error.smtp_error
        detail = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
        return f"{error.smtp_code} {detail}".strip()
    return str(error) or type(error).__name__
