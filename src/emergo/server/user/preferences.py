"""An account's board preferences: how its boards look and sound (the toolbar's settings), kept
with the account so that every page and device shows them alike; a visitor's stay in the
browser (frontend/src/page/settings.js)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from emergo.geometry import NAMINGS
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx
from emergo.server.core.errors import SiteError

SETTINGS: dict[str, tuple[Any, ...]] = {
    "view": ("diamond", "checker"),
    "names": NAMINGS,
    "theme": ("light", "dark", "auto"),
    "coordinates": (True, False),
    "animation": (True, False),
    "flipped": (True, False),
    "sound": (True, False),
    # the appearance (issue 31): CSS of the board and pieces, the board's size, zen mode, when
    # a move is confirmed (frontend/src/page/settings.js APPEARANCE holds the same choices)
    "board": ("wood", "blue", "green", "grey"),
    "pieces": ("classic", "flat", "ring"),
    "size": ("s", "m", "l", "xl"),
    "zen": (True, False),
    "confirm": ("correspondence", "always", "never"),
}
"""The settings an account may keep, with their allowed values."""


class PreferenceError(SiteError):
    """A setting that does not exist or a value it cannot take: the message says which."""


def checked(change: Any) -> dict[str, Any]:
    """A change of settings (``{"view": "checker", ...}``), every key and value checked."""
    if not isinstance(change, dict):
        raise PreferenceError('settings are an object such as {"view": "checker"}')
    for key, value in change.items():
        if key not in SETTINGS:
            known = ", ".join(SETTINGS)
            raise PreferenceError(f"unknown setting {str(key)[:30]!r} (known: {known})")
        if type(value) is not type(SETTINGS[key][0]) or value not in SETTINGS[key]:
            shown = ", ".join(str(v).lower() for v in SETTINGS[key])
            raise PreferenceError(f"{key} is one of {shown}, not {str(value)[:30]!r}")
    return dict(change)


class Preferences:
    """The board preferences of the accounts of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, user_id: int) -> dict[str, Any]:
        with self.db.read() as c:
            value = c.execute(select(m.users.c.preferences).where(m.users.c.id == user_id)).scalar()
        return dict(value) if isinstance(value, dict) else {}

    def change(self, user_id: int, change: Any, tx: Tx | None = None) -> dict[str, Any]:
        """Keep ``change`` (checked) over the account's settings; all of them after it (in
        ``tx`` when given, else a transaction of its own)."""
        new = checked(change)
        if tx is None:
            with self.db.write() as own:
                return self.change(user_id, new, own)
        value = tx.execute(
            tx.locked(select(m.users.c.preferences).where(m.users.c.id == user_id))
        ).scalar()
        merged = {**(value if isinstance(value, dict) else {}), **new}
        tx.execute(update(m.users).where(m.users.c.id == user_id).values(preferences=merged))
        return merged
