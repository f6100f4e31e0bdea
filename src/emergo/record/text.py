"""The text of a record, piece by piece: the pieces a reader kept, and canonical ones.

A record read from text keeps, for each of its pieces (a tag pair, a move, its NAGs, a comment,
a parenthesis, the result), the text as written and what came before it (``lead``: spaces, line
breaks, the move number, remarks).  The writer (:meth:`emergo.record.Game._text`) walks the
tree and hands each piece to an :class:`Emitter`: a piece whose value is unchanged is written as
it was read, with its lead when the piece before it is the same as when it was read, else with a
canonical separator; a piece that is new or changed is written canonically.  So a record that was
not edited is written back byte for byte, an edit changes only the text of what was edited, and a
record built in code is canonical: tags one a line, a blank line, tokens separated by single
spaces with lines wrapped at 80 columns, a final newline.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from emergo.record.commands import MARK_OF_NAG

Key: TypeAlias = tuple[str, int | str]
"""A piece's place in a record: its kind and its node's id (``("move", 17)``) or tag name."""

WIDTH = 80
"""Canonical movetext lines are at most this long (a single longer word stands alone)."""
_NUMBER_AT_END = re.compile(r"[0-9]+\s*(?:\.+|…)\s*$")


@dataclass(slots=True)
class Raw:
    """A piece as it was read: ``text`` as written, ``lead`` what came before it, and ``prev``
    the key of the piece before it."""

    lead: str
    text: str
    prev: Key | None


@dataclass(slots=True)
class NodeSource:
    """The pieces of one move as read (a child node's ``_src``)."""

    move: Raw | None = None
    open: Raw | None = None  # "(" when the move starts a variation
    close: Raw | None = None  # its ")"
    pre: list[Raw] = field(default_factory=list)  # comments before "(" (its starting comment)
    start: list[Raw] = field(default_factory=list)  # comments after "(" (its starting comment)
    ann: list[tuple[str, Raw]] = field(default_factory=list)  # ("nags" | "comment", piece)
    trail: list[Raw] = field(default_factory=list)  # its comment after the variations after it
    host: int | None = None  # the sibling inside whose parentheses this variation was opened
    seen: tuple[object, ...] | None = None  # (starting comment, comment, NAGs) as read


@dataclass(slots=True)
class GameSource:
    """The pieces of a game as read, outside its moves (a game's ``_src``)."""

    prefix: str | None = None  # blank and escape lines before the game (write_games keeps them)
    tags: list[tuple[str, Raw]] = field(default_factory=list)
    comment: list[Raw] = field(default_factory=list)  # comments before the first move
    result: Raw | None = None  # the result token ("" when the record had none)
    tail: str = ""  # the text after the last token
    seen_headers: dict[str, str] = field(default_factory=dict)  # the tags written, as read
    seen: tuple[object, ...] | None = None  # the game comment as read


class Emitter:
    """Collects the pieces of a record in order, then lays them out (:meth:`text`)."""

    def __init__(self) -> None:
        self._entries: list[tuple[str | None, str]] = []  # (separator or None: wrap, text)
        self._last: Key | None = None
        self._kind = ""  # kind of the last piece written ("" at the start)
        self._text = ""  # its text
        self._anchor: Key | None = None  # the last piece written as read, with its lead
        self._fresh = True  # only new (canonical) pieces written since the anchor

    @property
    def last_kind(self) -> str:
        return self._kind

    def raw(self, key: Key, kind: str, raw: Raw, label: str | None = None) -> None:
        """A piece as read: with its lead when the piece before it is unchanged, else with a
        canonical separator (and ``label``, a move's number, when one is due)."""
        inserted = (  # only new text since the piece before it: its lead still fits
            raw.prev != self._last
            and raw.prev == self._anchor
            and self._fresh
            and bool(raw.lead)
            and raw.prev is not None
        )
        if raw.prev == self._last or inserted:
            text = raw.text
            if (
                inserted
                and kind == "move"
                and label is not None
                and label.endswith("...")
                and self._kind not in ("move", "nags")
                and not _NUMBER_AT_END.search(raw.lead)
            ):
                text = f"{label} {text}"  # Black's move after the new text needs its number
            self._put(key, kind, text, raw.lead)
            self._anchor, self._fresh = key, True
        elif raw.text:
            self._fresh = False  # text as read, but in another place: what follows moved too
            if kind == "move" and label is not None:
                self.move(key, label, raw.text)
            else:
                self._put(key, kind, raw.text, self._separator(kind))

    def replaced(self, key: Key) -> None:
        """A piece of the record was rewritten (or left out) here: what followed it as read
        keeps its lead if only new text comes between."""
        self._anchor, self._fresh = key, True

    def tag(self, key: Key, text: str, *, replaces: bool = False) -> None:
        self._put(key, "tag", text, "\n" if self._entries else "")
        if replaces:
            self.replaced(key)

    def move(self, key: Key, label: str, text: str) -> None:
        """A move with its number: ``12.`` always, ``12...`` when Black's move does not follow
        White's (at the start, after a comment or a parenthesis)."""
        if label.endswith("...") and self._kind in ("move", "nags"):
            self._put(key, "move", text, self._separator("move"))
        else:
            self._put(key, "move", f"{label} {text}", self._separator("move"))

    def nags(self, key: Key, nags: Iterable[int], *, replaces: bool = False) -> None:
        """A move's NAGs: the first mark (``!`` ... ``?!``) right after the move, then ``$n``."""
        rest = sorted(nags)
        if self._kind == "move" and not self._text.endswith(("!", "?")):
            mark = next((n for n in rest if n in MARK_OF_NAG), None)
            if mark is not None:
                rest.remove(mark)
                self._put(key, "nags", MARK_OF_NAG[mark], "")
        for nag in rest:
            self._put(key, "nags", f"${nag}", self._separator("nags"))
        if replaces:
            self.replaced(key)

    def words(self, key: Key, kind: str, atoms: list[str], *, replaces: bool = False) -> None:
        """A comment's words (``{first`` ... ``last}``), or the result, or a parenthesis;
        ``replaces``: it stands for a piece of the record that changed."""
        for atom in atoms:
            self._put(key, kind, atom, self._separator(kind))
        if replaces:
            self.replaced(key)

    def tail(self, text: str) -> None:
        self._entries.append(("", text))

    def _separator(self, kind: str) -> str | None:
        if not self._entries:
            return ""
        if kind == "tag":
            return "\n"
        if self._kind == "tag":
            return "\n\n"
        if kind == "close" or self._kind == "open":
            return ""
        return None  # a space, or a line break at the width

    def _put(self, key: Key, kind: str, text: str, separator: str | None) -> None:
        self._entries.append((separator, text))
        self._last, self._kind, self._text = key, kind, text

    def text(self) -> str:
        """The pieces laid out: a canonical separator is a space, or a line break where the word
        and the pieces glued to it would pass :data:`WIDTH`."""
        out: list[str] = []
        column = 0
        entries = self._entries
        for i, (separator, text) in enumerate(entries):
            if separator is None:  # the word and what is glued to it, up to a line break
                size, j = 0, i
                while j < len(entries) and (j == i or entries[j][0] == ""):
                    word = entries[j][1]
                    size += word.find("\n") if "\n" in word else len(word)
                    if "\n" in word:
                        break
                    j += 1
                separator = "\n" if column and column + 1 + size > WIDTH else " "
                if not column and separator == " ":
                    separator = ""
            piece = separator + text
            out.append(piece)
            newline = piece.rfind("\n")
            column = column + len(piece) if newline < 0 else len(piece) - newline - 1
        return "".join(out)
