"""Spans of time in words, the one rounding of the site: the notices, the letters, the limits'
"try again in ..." and the pages (frontend/src/page/format.js ``durationText``, the same rules:
tests/site/core/test_words.py and frontend/test/page.test.js hold the same table)."""

from __future__ import annotations

import math


def duration(seconds: float, *, up: bool = False) -> str:
    """``2 days 3 hours``, ``5 hours``, ``12 minutes``, ``40 seconds``; ``no time`` at 0 or less.

    Whole units, rounded down (what is left is never said to be more than it is), but seconds
    under a minute rounded up, a countdown's way. ``up``: every unit rounded up, for a wait
    ("try again in 43 minutes" is never too soon).
    """
    if seconds <= 0:
        return "no time"

    def unit(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    if seconds < 60:
        return unit(math.ceil(seconds), "second")
    total = math.ceil(seconds / 60) if up else int(seconds // 60)
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour")
    return unit(minutes, "minute")
