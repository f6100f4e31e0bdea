"""A real SMTP server for the tests (aiosmtpd), on 127.0.0.1 and a free port."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.plugins.common import DATA

TLS = DATA / "tls"
CERT, KEY = str(TLS / "cert.pem"), str(TLS / "key.pem")
"""A self-signed certificate for localhost and 127.0.0.1, for the tests' SMTP server only."""
USER, PASSWORD = "emergo", "s3cret-Pa55word"


@dataclass
class Inbox:
    """What the test server received: (envelope sender, recipients, message) per mail."""

    mails: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 OK"

    def authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            USER.encode(),
            PASSWORD.encode(),
        )
        if ok:
            self.logins.append(data.login.decode())
        return AuthResult(success=ok, handled=False)

    def to(self, address: str) -> list[EmailMessage]:
        """The messages sent to ``address``."""
        return [message for _, rcpt, message in self.mails if address in rcpt]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_context() -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(CERT, KEY)
    return context


@contextmanager
def serve(kind: str = "starttls") -> Iterator[tuple[Inbox, int]]:
    """An SMTP server: ``starttls`` (STARTTLS required, AUTH after it), ``ssl`` (TLS from the
    start, AUTH) or ``plain`` (no TLS, no AUTH)."""
    inbox, port = Inbox(), free_port()
    options: dict[str, Any] = {}
    if kind == "starttls":
        options = dict(tls_context=server_context(), require_starttls=True)
        options.update(authenticator=inbox.authenticate, auth_required=True)
    elif kind == "ssl":
        options = dict(ssl_context=server_context(), authenticator=inbox.authenticate)
        # aiosmtpd 1.4 does not count TLS from the start as TLS for AUTH: it is, here
        options.update(auth_required=True, auth_require_tls=False, server_hostname="localhost")
    controller = Controller(inbox, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
