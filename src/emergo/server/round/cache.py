"""Each process's memory of the games it serves: the newest version of each, and the events of
its recent versions, kept up to date by the bus (lichess keeps a game in its round actor's
memory; here the database stays the authority and this is a copy that can only lag).

* The process that commits a version puts it here right after the commit
  (:meth:`GameCache.advance`, from :mod:`emergo.server.round.service`), before its subscribers
  wake.
* The other processes get it in the ``g:ID`` notification: ``VERSION`` and, when it fits in
  PostgreSQL's payload, `` {"e": events, "s": state, "t": time}`` (:func:`note`); a version
  that came without its state marks the game stale here and the first reader reads it once
  for everyone (:meth:`emergo.server.round.service.Rounds.latest`).
* A lost connection of the bus forgets everything (:meth:`GameCache.clear`).

So a move costs each process one decoding of the state however many sockets and streams watch
the game there, and none of them reads the database for it.  A command never trusts this copy
alone: the write compares the version it read with the stored one (a stale copy costs a
retry, never a wrong move).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from emergo import round as rnd
from emergo.server.round.views import GameView, Seats

SIZE = 4096
"""Games kept (the least recently used go first)."""
RING = 64
"""Versions whose events are kept for each game (a subscriber further behind gets the whole
state again)."""
NOTE_LIMIT = 7900
"""The longest notification text (PostgreSQL refuses past 8000 bytes)."""


def note(version: int, events: list[Any], state: dict[str, Any], t: float) -> str:
    """A ``g:ID`` notification's text: the version, and its events and state when they fit."""
    body = orjson.dumps({"e": events, "s": state, "t": t}).decode()
    text = f"{version} {body}"
    return text if len(text.encode()) <= NOTE_LIMIT else str(version)


@dataclass
class Entry:
    game: GameView
    stale: bool = False
    """A newer version than :attr:`game` exists (its notification came without the state)."""
    events: OrderedDict[int, list[Any]] = field(default_factory=OrderedDict)
    shared: dict[str, Any] = field(default_factory=dict)
    """What the subscribers build once for the current version (its JSON lines)."""


class GameCache:
    """The games of one process (module docstring); thread-safe."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._games: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.misses = 0
        """Reads of the database this cache could not spare (the benchmark reads it)."""
        self.trusted: Callable[[], bool] = lambda: True
        """Whether the bus hears every process now (:meth:`emergo.server.core.bus.Bus.hears`):
        while it does not, nothing is served from here or kept."""

    def get(self, game_id: str) -> GameView | None:
        """The newest version known here, None when there is none or it is stale."""
        if not self.trusted():
            return None
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or entry.stale:
                return None
            self._games.move_to_end(game_id)
            return entry.game

    def put(self, game: GameView) -> None:
        """A game as read from the database (kept unless a newer version is here)."""
        if not self.trusted():
            return
        with self._lock:
            entry = self._games.get(game_id := game.id)
            if entry is not None and entry.game.version > game.version:
                return
            if entry is None or entry.game.version < game.version:
                self._games[game_id] = Entry(game, events=entry.events if entry else OrderedDict())
            else:  # the same version: what the row says beside the state (chat room, names)
                entry.game, entry.stale = game, False
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def advance(
        self,
        game_id: str,
        version: int,
        events: list[Any],
        state: rnd.RoundState,
        t: float,
        seats: Seats | None = None,
    ) -> None:
        """A new version committed (here or elsewhere): kept when the game is known here;
        ``seats`` when they changed with it (the swap rule taken)."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return
            entry.events[version] = events
            while len(entry.events) > RING:
                entry.events.popitem(last=False)
            if version > entry.game.version:
                status = "over" if state.outcome is not None else "started"
                entry.game = replace(
                    entry.game,
                    state=state,
                    status=status,
                    updated=t,
                    seats=seats or entry.game.seats,
                    swap=_swap_after(entry.game.swap, events),
                )
                entry.stale = False
                entry.shared = {}

    def noted(self, topic: str, payload: str) -> None:
        """The bus's watcher of ``g:`` (module docstring)."""
        game_id = topic[2:]
        head, _, body = payload.partition(" ")
        if not head.isascii() or not head.isdigit():
            return
        version = int(head)
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or version <= entry.game.version:
                return
        if not body:
            self.stale(game_id, version)
            return
        try:
            data = orjson.loads(body)
            state = rnd.RoundState.from_json(data["s"])
        except (ValueError, KeyError, TypeError):
            self.stale(game_id, version)
            return
        self.advance(game_id, version, data["e"], state, float(data["t"]))

    def stale(self, game_id: str, version: int) -> None:
        """A version newer than the one kept exists: read it again when asked."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is not None and version > entry.game.version:
                entry.stale = True

    def events(self, game_id: str, after: int, upto: int) -> list[tuple[int, list[Any]]] | None:
        """The events of the versions ``after + 1 .. upto``; None when some are not kept."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return None
            out = []
            for version in range(after + 1, upto + 1):
                found = entry.events.get(version)
                if found is None:
                    return None
                out.append((version, found))
            return out

    def shared(self, game: GameView, key: str, build: Any) -> Any:
        """``build()`` once for ``game``'s version on this process (a JSON line the game's
        subscribers all send)."""
        with self._lock:
            entry = self._games.get(game.id)
            if entry is not None and entry.game.version == game.version:
                found = entry.shared.get(key)
                if found is not None:
                    return found
        value = build()
        with self._lock:
            entry = self._games.get(game.id)
            if entry is not None and entry.game.version == game.version:
                entry.shared[key] = value
        return value

    def set_chat(self, game_id: str, open_: bool | None) -> None:
        """The players' room opened or closed (None: not known: read the game again)."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return
            if open_ is None:
                entry.stale = True
            else:
                entry.game = replace(entry.game, player_chat=open_)

    def forget_player(self, user_id: int) -> None:
        """Forget the games of a player whose row changed (a deleted account's games show
        "(deleted)" in their seats: read again)."""
        with self._lock:
            for game_id, entry in list(self._games.items()):
                if user_id in (entry.game.seats.white_id, entry.game.seats.black_id):
                    del self._games[game_id]

    def player_noted(self, topic: str, payload: str) -> None:
        """The bus's watcher of ``a:u:`` (an account's credentials ended: it may be deleted)."""
        user_id = topic[4:]
        if user_id.isascii() and user_id.isdigit():
            self.forget_player(int(user_id))

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


def _swap_after(tag: str | None, events: list[Any]) -> str | None:
    """The game's ``Swap`` tag after a version's events (Black's choice: taken or declined)."""
    for event in events:
        if tag is not None and isinstance(event, dict) and event.get("t") == "swap":
            tag = f"{tag.split()[0]} {'taken' if event.get('taken') else 'declined'}"
    return tag
