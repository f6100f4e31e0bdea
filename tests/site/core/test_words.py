"""Spans of time in words, one rounding everywhere (issue 31, defects 6 and 8): the letters and
notices (emergo.server.core.words.duration), the limits' "try again in ..." and the pages
(frontend/src/page/format.js durationText, whose unit test holds the same table): a
correspondence clock, the banner and the lobby all say "1 day 23 hours" for 47.9 hours."""

from __future__ import annotations

import re

import pytest

from emergo.server.core.limits import RateLimited
from emergo.server.core.words import duration
from tests.plugins.common import ROOT

TABLE = [
    (0, "no time"),
    (-5, "no time"),
    (0.2, "1 second"),
    (40, "40 seconds"),
    (59.5, "60 seconds"),
    (60, "1 minute"),
    (119, "1 minute"),
    (2530, "42 minutes"),
    (3600, "1 hour"),
    (7199, "1 hour"),
    (86400, "1 day"),
    (172_764, "1 day 23 hours"),
    (172_800, "2 days"),
    (277_259, "3 days 5 hours"),
]


@pytest.mark.parametrize(("seconds", "words"), TABLE)
def test_a_duration_in_words(seconds: float, words: str) -> None:
    assert duration(seconds) == words


def test_the_page_holds_the_same_table() -> None:
    """The unit test of format.js states the same pairs (one rounding on both sides)."""
    text = (ROOT / "frontend" / "test" / "page.test.js").read_text()
    pairs = {float(n): w for n, w in re.findall(r'\[(-?[\d.]+), "([a-z0-9 ]+)"\]', text)}
    assert pairs == {float(n): w for n, w in TABLE}


def test_try_again_in_minutes_never_too_soon() -> None:
    """Defect 6: "try again in 2530 s" is said in minutes, rounded up."""
    err = RateLimited("sign-ups", 2530)
    assert str(err).endswith("try again in 43 minutes")
    assert err.headers == {"retry-after": "2530"}
    assert str(RateLimited("moves", 0.3)).endswith("try again in 1 second")
    assert duration(2530, up=True) == "43 minutes" and duration(3599, up=True) == "1 hour"
