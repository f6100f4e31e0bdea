"""What may stand in one line of text a player writes (a name, a tag, a comment): the one rule
the edges and the domain share (:func:`unprintable`)."""

from __future__ import annotations

import unicodedata

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they reorder the text around a name (spoofing)."""


def unprintable(char: str) -> str | None:
    """Why ``char`` may not stand in a name or a tag (one line of text a record can hold),
    or None: control characters (a newline, a tab, NUL), line and paragraph separators,
    surrogates, private-use characters and the bidirectional controls."""
    category = unicodedata.category(char)
    if category == "Cc":
        return "a control character"
    if category in ("Zl", "Zp"):
        return "a line break"
    if category == "Cs":
        return "a lone surrogate"
    if category == "Co":
        return "a private-use character"
    if char in _BIDI_CONTROLS:
        return "a bidirectional control"
    return None
