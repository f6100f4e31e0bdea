"""What a text from outside may be before it is counted or stored: digits that ``int`` reads,
a line without a control character, an id.  Domain code and edges both check with these."""

from __future__ import annotations

import unicodedata

__all__ = ["digits", "plain_text", "valid_id"]


def digits(value: object) -> bool:
    """Whether ``value`` is a text of ASCII digits only (``str.isdigit`` takes ``"²"`` and
    ``"٣"``, which ``int`` refuses: a query's number is checked with this)."""
    return isinstance(value, str) and value.isascii() and value.isdigit()


def plain_text(value: str) -> bool:
    """Whether ``value`` holds no control character (NUL above all: PostgreSQL refuses it in a
    text) and no lone surrogate."""
    return not any(unicodedata.category(c) in ("Cc", "Cs") for c in value)


def valid_id(value: object) -> bool:
    """Whether ``value`` can be a game's or a challenge's id: 8 ASCII letters and digits (a NUL
    or a character no database column holds is no id: a 404, never the database's error)."""
    return isinstance(value, str) and len(value) == 8 and value.isascii() and value.isalnum()
