"""Where records are read from: text streams, record text and paths, line by line.

A ``str`` is record text, an ``os.PathLike`` a path (opened as UTF-8 and closed again), anything
else must be a text stream.  The reader keeps no reference to a stream between calls: only the
line count and one pushed-back line of each stream still open, in a table keyed weakly by the
stream, so that line numbers go on from one call to the next.
"""

from __future__ import annotations

import io
import os
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol, TypeAlias

from emergo.notation import excerpt
from emergo.record.headers import RecordError


class Readable(Protocol):
    def readline(self) -> str: ...


class Writable(Protocol):
    def write(self, text: str, /) -> int: ...


Input: TypeAlias = "Readable | str | os.PathLike[str]"
_BINARY = (
    "{what}() needs a text stream, not a binary one: open the file with "
    "open(path, encoding='utf-8'), or pass a pathlib.Path"
)


def stream(source: object, what: str) -> Readable:
    """``source`` when it is a text stream; a ``TypeError`` saying what to pass instead."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{what}() reads text, not bytes: decode them (bytes.decode('utf-8')) or pass a "
            "pathlib.Path"
        )
    mode = getattr(source, "mode", "")
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)) or (
        isinstance(mode, str) and "b" in mode
    ):
        raise TypeError(_BINARY.format(what=what))
    if not callable(getattr(source, "readline", None)):
        raise TypeError(
            f"{what}() takes record text (a str), a path (pathlib.Path) or a text stream, "
            f"not {type(source).__name__}"
        )
    return source  # type: ignore[return-value]


@contextmanager
def opened(source: Input, what: str) -> Iterator[tuple[Readable, str | None]]:
    """The text stream to read ``source`` from, and the path when the reader opens the file.

    A ``str`` is record text and an ``os.PathLike`` (``pathlib.Path``) a path, which is opened
    as UTF-8 text and closed again; anything else must be a text stream.
    """
    if isinstance(source, str):
        if "\n" not in source and source.strip() and os.path.isfile(source):
            raise TypeError(
                f"{what}() reads a str as record text, and {excerpt(source)} is the name of a "
                f"file: pass pathlib.Path({source!r}) to read the file"
            )
        yield io.StringIO(source), None
    elif isinstance(source, os.PathLike):
        path = os.fsdecode(source)
        with open(path, encoding="utf-8") as handle:
            yield handle, path
    else:
        yield stream(source, what), None


def _bad_utf8(path: str) -> tuple[int, int] | None:
    """The line (counted as text mode counts it) and the value of the first byte not UTF-8."""
    line = 1
    with open(path, "rb") as f:
        for raw in f:  # UTF-8 never uses the byte of "\n" inside a character
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                head = raw[: e.start]
                return line + head.count(b"\r") - head.count(b"\r\n"), raw[e.start]
            line += 1 + raw.count(b"\r") - raw.count(b"\r\n")
    return None


def _not_utf8(error: UnicodeDecodeError, line: int, file: str | None) -> RecordError:
    if file is not None:
        found = _bad_utf8(file)
        if found is not None:
            return RecordError(
                f"the file is not UTF-8 text: byte 0x{found[1]:02x} cannot be decoded",
                line=found[0],
                file=file,
            )
    return RecordError(
        f"the text after line {line} cannot be decoded ({error.reason}): "
        "records are UTF-8 text, so open the file with encoding='utf-8'",
        file=file,
    )


class _Place:
    """Where reading a stream has got to: the lines read so far and one line of push-back.

    It holds no reference to its stream, so that the table below never keeps a stream alive.
    """

    __slots__ = ("line", "pending")

    def __init__(self) -> None:
        self.line = 0
        self.pending: str | None = None


# One place per stream, so that line numbers and a pushed-back line survive between calls.
_PLACES: weakref.WeakKeyDictionary[object, _Place] = weakref.WeakKeyDictionary()


class Source:
    """A text stream read line by line, counting lines, with one line of push-back."""

    def __init__(self, handle: Readable, file: str | None) -> None:
        self.handle = handle
        self.file = file
        try:
            place = _PLACES.get(handle)
            if place is None:
                place = _PLACES[handle] = _Place()
        except TypeError:  # a stream that cannot be weakly referenced: count from here
            place = _Place()
        self.place = place

    @property
    def line(self) -> int:
        return self.place.line

    def readline(self) -> str | None:
        place = self.place
        if place.pending is not None:
            text, place.pending = place.pending, None
        else:
            try:
                text = self.handle.readline()
            except UnicodeDecodeError as e:
                raise _not_utf8(e, place.line, self.file) from None
            if not isinstance(text, str):
                raise TypeError(_BINARY.format(what="reading a record"))
            if not text:
                return None
            if place.line == 0:
                text = text.removeprefix("\ufeff")
        place.line += 1
        return text

    def unread(self, text: str) -> None:
        self.place.pending = text
        self.place.line -= 1
