"""What a report may be about and what a moderator may do: plain data, read by the service,
the pages and ``emergo admin`` (which needs no database driver to parse its arguments)."""

from __future__ import annotations

REASONS = {
    "abuse": "insults or harassment",
    "cheat": "uses computer help",
    "spam": "spam or advertising",
    "stall": "stalls or leaves games",
    "other": "something else",
}
"""What a report may be about, with the words the queue shows."""
ACTIONS = ("warn", "mute", "unmute", "disable", "dismiss")
"""What a moderator may do about a player (``unmute`` lifts a mute)."""
