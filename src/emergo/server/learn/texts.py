"""The words of the /learn pages themselves, in the course's catalogue (``[page]`` of
``catalogue/en.toml``), so that a translation replaces every word a player reads in one file.

:data:`PAGE_TEXTS` names each key and the fields its text may fill in (the course's check
refuses a catalogue without one of them, :meth:`emergo.server.learn.course.Course.problems`);
:func:`page_texts` is what ``GET /api/learn`` sends the page (``texts``), and
:data:`GROUPS` how the course map groups its stages.
"""

from __future__ import annotations

from emergo.server.learn.catalogue import Catalogue

__all__ = ["GROUPS", "PAGE_TEXTS", "page_texts"]

PAGE_TEXTS: dict[str, set[str]] = {
    # the course map (/learn)
    "page.title": set(),
    "page.intro": set(),
    "page.group-rules": set(),
    "page.group-strategy": set(),
    "page.group-practice": set(),
    "page.start": set(),
    "page.continue": set(),
    "page.progress": {"done", "total", "stars", "most"},
    "page.kept-browser": set(),
    "page.keep-account": set(),
    "page.kept-account": set(),
    "page.stage": {"n"},
    "page.dot": {"n"},
    "page.dot-stars": {"n", "stars"},
    "page.not-found": set(),
    # a level's page
    "page.map": set(),
    "page.level": {"n", "count"},
    "page.about": set(),
    "page.you-play": {"color"},
    "page.to-move": {"color"},
    "page.in-hand": {"n"},
    "page.type-move": set(),
    "page.move-example": set(),
    "page.play": set(),
    "page.your-answer": set(),
    "page.answer": set(),
    "page.hint": set(),
    "page.hint-move": set(),
    "page.hint-shown": {"move"},
    "page.retry": set(),
    "page.restart": set(),
    "page.done": set(),
    "page.stars": {"stars"},
    "page.stars-3": set(),
    "page.stars-2": set(),
    "page.stars-1": set(),
    "page.next": set(),
    "page.next-stage": {"title"},
    "page.course-done": set(),
    "page.unavailable": set(),
    "page.practice": set(),
    "page.practice-note": {"color", "level"},
    "page.practice-login": set(),
    "page.practice-error": {"error"},
    "page.practice-game": {"goal"},
    "page.practice-back": set(),
    "page.practice-none": set(),
    "page.practice-held": {"moves"},
    "page.practice-again": set(),
    "page.practice-replay": set(),
    "page.replay": set(),
    "page.replay-solution": set(),
    "page.replay-stop": set(),
    "page.keys": set(),
    "page.error": {"error"},
}
"""Every key of the pages' words and the fields each may fill in."""

GROUPS = (("group-rules", "board"), ("group-strategy", "feed"), ("group-practice", "endings"))
"""The course map's groups: each group's key in ``page.*`` and the id of its first stage."""


def page_texts(catalogue: Catalogue) -> dict[str, str]:
    """The pages' words by key without ``page.``, with the colours (``color.white``, ...) the
    pages name the players by."""
    out = {key.removeprefix("page."): catalogue.text(key) for key in PAGE_TEXTS}
    for color in ("white", "black"):
        out[f"color.{color}"] = catalogue.text(f"color.{color}")
    return out
