"""The course's texts: one catalogue per language, every word a player reads (docs/learn.md).

A catalogue is a TOML file in ``catalogue/`` (``en.toml``); its tables nest, and a text's key is
its dotted path: ``[capture.jump]`` with ``goal = "..."`` is the key ``capture.jump.goal``.  A
value is a text or a list of texts (a level's hints).  Texts the checker fills in name their
fields in braces, as :meth:`str.format` does: ``"That capture takes {taken}."``; every other
text is plain (no braces at all), so a translation cannot break a field by accident.

A translation is another file with the same keys (``nl.toml``): the course's checker loads the
one it is given and refuses a catalogue that lacks a key the course uses, or holds one it does
not use.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Catalogue", "CatalogueError", "catalogue_path"]

Value = str | tuple[str, ...]
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*")


class CatalogueError(ValueError):
    """A catalogue file that cannot be read, or a text that is missing or malformed."""


def catalogue_path(language: str = "en") -> Path:
    """The shipped catalogue of ``language`` (``catalogue/en.toml`` beside this module)."""
    if not _LANGUAGE.fullmatch(language):
        raise CatalogueError(f"{language!r} is no language tag (like en or pt-br)")
    return Path(str(resources.files("emergo.server.learn"))) / "catalogue" / f"{language}.toml"


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, Value], where: str) -> None:
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            _flatten(value, f"{key}.", out, where)
        elif isinstance(value, str):
            out[key] = value.strip()
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out[key] = tuple(v.strip() for v in value)
        else:
            raise CatalogueError(f"{where}: {key} is neither a text nor a list of texts")


def fields_of(text: str) -> set[str]:
    """The names of the fields a text fills in (``{taken}`` gives ``taken``)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as e:
        raise CatalogueError(f"{text!r}: {e}") from None


class Catalogue:
    """The texts of one language, by dotted key."""

    def __init__(self, texts: Mapping[str, Value], language: str = "en") -> None:
        self.language = language
        self._texts: dict[str, Value] = dict(texts)

    @classmethod
    def load(cls, path: str | Path | None = None, *, language: str = "en") -> Catalogue:
        """Read a catalogue file (default: the shipped one of ``language``)."""
        file = Path(path) if path is not None else catalogue_path(language)
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except OSError as e:
            raise CatalogueError(f"cannot read the catalogue {file}: {e.strerror}") from None
        except tomllib.TOMLDecodeError as e:
            raise CatalogueError(f"{file}: {e}") from None
        texts: dict[str, Value] = {}
        _flatten(data, "", texts, file.name)
        return cls(texts, language)

    def __contains__(self, key: object) -> bool:
        return key in self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def raw(self, key: str) -> Value:
        """The value of a key as written (a text, or a tuple of texts)."""
        try:
            return self._texts[key]
        except KeyError:
            raise CatalogueError(f"the catalogue ({self.language}) has no text {key}") from None

    def text(self, key: str, **fields: object) -> str:
        """The text of ``key`` with its fields filled in."""
        value = self.raw(key)
        if not isinstance(value, str):
            raise CatalogueError(f"{key} is a list of texts, not one text")
        if not fields:
            return value
        try:
            return value.format(**fields)
        except (KeyError, IndexError, ValueError) as e:
            raise CatalogueError(f"{key}: cannot fill in {value!r}: {e}") from None

    def texts(self, key: str) -> tuple[str, ...]:
        """The texts of ``key``: a list as written, or a single text as a list of one."""
        value = self.raw(key)
        return (value,) if isinstance(value, str) else value

    def men(self, n: int) -> str:
        """``1 man``, ``3 men`` in the catalogue's words (keys ``words.man`` and ``words.men``)."""
        return self.text("words.man" if n == 1 else "words.men", n=n)

    def problems(self, needed: Mapping[str, set[str] | None]) -> list[str]:
        """What is wrong with this catalogue for a course that needs ``needed``.

        ``needed`` maps every key the course uses to the fields its text may fill in (``None``
        for a list of plain texts).  A key that is missing or unused, a text with fields it may
        not have, a list where a text belongs (or the reverse) is a problem.
        """
        out = []
        for key, allowed in needed.items():
            if key not in self._texts:
                out.append(f"catalogue {self.language}: no text {key}")
                continue
            value = self._texts[key]
            if allowed is None:
                texts = self.texts(key)
                allowed = set()
            elif isinstance(value, str):
                texts = (value,)
            else:
                out.append(f"catalogue {self.language}: {key} must be one text, not a list")
                continue
            for text in texts:
                if not text:
                    out.append(f"catalogue {self.language}: {key} is empty")
                    continue
                try:
                    extra = fields_of(text) - allowed
                except CatalogueError as e:
                    out.append(f"catalogue {self.language}: {key}: {e}")
                    continue
                if extra or (not allowed and ("{" in text or "}" in text)):
                    what = ", ".join(sorted(extra)) or "braces"
                    out.append(f"catalogue {self.language}: {key} may not hold {what}")
        out.extend(
            f"catalogue {self.language}: {key} is used by no stage or level"
            for key in self._texts
            if key not in needed
        )
        return out
