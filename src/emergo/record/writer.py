"""Writing records: a game's text, as it was read where nothing changed, else canonical."""

from __future__ import annotations

from collections.abc import Iterable

from emergo.geometry import Names
from emergo.notation import check_names
from emergo.record.streams import Writable
from emergo.record.tree import Game


def write_game(game: Game, *, names: Names | None = None, canonical: bool = False) -> str:
    """The text of a game, ending as its record ended (canonically: with a newline).

    A game read from a record is written as it was read -- the same bytes, whitespace, move
    spellings, tag order and all -- but for what was edited since, which is written canonically
    (docs/records.md); a game built in code is canonical throughout: tags in canonical order
    (``Variant`` always, ``Position`` when the game does not start from the empty board), a blank
    line, the movetext wrapped at 80 columns and the result token.  ``canonical=True`` writes a
    read game canonically too.  ``names`` is the square naming of the movetext: the game's own
    (:attr:`Game.names`) by default; another is written canonically, ``checker`` with
    ``[Names "checker"]`` (the hex board has none: :class:`~emergo.errors.NamingError`).
    Raises :class:`RecordError` if a move is illegal, the result contradicts the moves, or a
    comment cannot be written (a ``}``, or a command in its text).
    """
    if names is not None:
        check_names(names)
    return game._text(names or game.names, canonical)


def write_games(
    games: Iterable[Game],
    handle: Writable,
    *,
    names: Names | None = None,
    canonical: bool = False,
) -> int:
    """Write games to a text stream (see :func:`write_game`); returns how many.  Games read from
    a record keep what stood before them (blank lines, escape lines); others are separated by a
    blank line."""
    count = 0
    last = ""
    for game in games:
        text = write_game(game, names=names, canonical=canonical)
        own = not canonical and (names or game.names) == game.names
        src = game._src if own else None
        if src is not None and src.prefix is not None:
            before = src.prefix if last.endswith("\n") or not count else "\n" + src.prefix
        else:
            before = "\n" if count else ""
        handle.write(before + text)
        last = text
        count += 1
    return count
