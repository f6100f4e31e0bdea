"""The round's one error: a command it refuses (:class:`RoundError`)."""

from __future__ import annotations

__all__ = ["RoundError"]


class RoundError(ValueError):
    """A command the round refuses now; the message says why.  Nothing changed."""
