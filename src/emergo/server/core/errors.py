"""The one error type the site's edges answer: :class:`SiteError`.

Every refusal of a module (no such game, not your challenge, a name taken, too many requests,
a bad field) is a :class:`SiteError` or a subclass named for its module, carrying the HTTP
status, the words a page shows a player (the message names the API's fields; ``words`` may say
the same in a player's words) and headers (``Retry-After``).  The HTTP edge answers every one
the same way (``{"error": message, "words"?: ...}``, :mod:`emergo.server.app`), a socket as an
``error`` message with the status; nothing was changed.
"""

from __future__ import annotations

from typing import Any


class SiteError(ValueError):
    """A request the site refuses: ``status`` (HTTP), ``words`` (for a player), ``headers``,
    ``extra`` (more fields of the JSON answer)."""

    status = 400

    def __init__(
        self,
        message: str,
        status: int | None = None,
        *,
        words: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status
        self.words = words
        self.headers = headers or {}
        self.extra = extra

    def json(self) -> dict[str, Any]:
        """The body of the answer: ``{"error": message}``, the words and extra fields."""
        out: dict[str, Any] = {"error": str(self), **self.extra}
        if self.words is not None:
            out["words"] = self.words
        return out
