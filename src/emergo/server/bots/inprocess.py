"""The house bots' transport in local mode: the Bot API answered by the site's own services.

In local mode (``emergo serve``) each house bot is a :class:`emergo.botclient.runner.Bot` on a
thread of the server process (:mod:`emergo.server.bots.house`).  Over HTTP to its own server it
paid for every move twice over: a request parsed, guarded and authenticated, a thread hop, a
stream line encoded and decoded, on top of the round's own work.  :class:`SiteApi` is the same
bot's :class:`emergo.botclient.api.Transport` without the HTTP: the templates the bot asks for
are the site's calls that the Bot API's endpoints make (:meth:`Site.play` for a move, an offer,
a resignation; the challenges' accept and decline), and its streams are the lines of
``/api/stream/event`` and ``/api/bot/game/stream/{id}`` (the same JSON views, the same
presence), woken by the bus (a watcher: on the committing thread, after the game's copy in
memory is up to date).  The bot still plays as its bot account, on its own thread, never inside
a request; the site's refusals come back as the errors the HTTP client would raise.  A
deployment (``--public``) runs its house bots as processes over HTTP.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import orjson

from emergo import round as rnd
from emergo.botclient.api import (
    JSON,
    MOVE_RATE_LIMIT_WAIT,
    RATE_LIMIT_WAIT,
    ApiError,
    AuthError,
    RateLimited,
    Transient,
    retry_after,
)
from emergo.botclient.games import (
    CHAT,
    CLAIM_VICTORY,
    DRAW,
    GAME_STREAM,
    MOVE,
    RESIGN,
    SWAP,
    TAKEBACK,
)
from emergo.botclient.runner import ACCEPT, ACCOUNT, CANCEL, DECLINE, EVENT_STREAM
from emergo.server.chat.service import ROOMS, may_read
from emergo.server.core.db import now, unavailable
from emergo.server.core.errors import SiteError
from emergo.server.notify.events import events_after, last_event
from emergo.server.people.service import SEEN_EVERY
from emergo.server.round.jsonview import game_full, game_state, gone_line
from emergo.server.round.presence import BEAT
from emergo.server.round.service import GameView
from emergo.server.round.swap_choice import choose as choose_swap
from emergo.server.site import Site
from emergo.server.user.accounts import User

log = logging.getLogger(__name__)

KEEP_ALIVE = 6.0
"""Seconds of silence before a stream says it is alive (the HTTP streams' keep-alive)."""
ANSWERS = {"yes", "no"}
USER_FRESH = 10.0
"""Seconds a house bot's account, as read, is used for its requests (an admin's change to it,
rare, is seen that much later; over HTTP the token's cache is kept by the bus)."""


def _json(data: dict[str, Any]) -> dict[str, JSON]:
    """``data`` as the HTTP client would have decoded it from the stream's line."""
    decoded: dict[str, JSON] = orjson.loads(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS))
    return decoded


def _refused(error: BaseException, what: str) -> ApiError:
    """The HTTP client's error for what the Bot API's endpoint would have answered."""
    if isinstance(error, SiteError):
        status, why = error.status, str(error)
        if status in (401, 403):
            return AuthError(f"{what}: {why} ({status})", status)
        if status == 429:
            default = MOVE_RATE_LIMIT_WAIT if "/move/" in what else RATE_LIMIT_WAIT
            wait = retry_after(error.headers.get("retry-after"), default)
            return RateLimited(f"{what}: rate limited (429), waiting {wait:g} s", wait)
        if status >= 500:
            return Transient(f"{what}: {why} ({status})", status)
        return ApiError(f"{what}: {status}: {why}", status)
    if isinstance(error, rnd.RoundError):
        return ApiError(f"{what}: 400: {error}", 400)
    if unavailable(error):
        return Transient(f"{what}: the database is not answering", 503)
    log.exception("%s failed in process", what)
    return Transient(f"{what}: the server failed ({type(error).__name__})", 500)


class _Waiter:
    """One stream's interest in some topics: woken by :class:`Wakes`, or closed."""

    def __init__(self, topics: tuple[str, ...]) -> None:
        self.topics = topics
        self.fired: set[str] = set()
        self.closed = False
        self._cond = threading.Condition()

    def fire(self, topic: str) -> None:
        with self._cond:
            self.fired.add(topic)
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def wait(self, timeout: float) -> set[str]:
        """The topics fired since the last call (empty: the timeout, or closed)."""
        with self._cond:
            if not self.fired and not self.closed:
                self._cond.wait(timeout)
            fired, self.fired = self.fired, set()
            return fired


class Wakes:
    """The bus's notifications of games, chats and users, handed to the waiting streams."""

    def __init__(self, site: Site) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[_Waiter]] = {}
        site.bus.watch("g:", self._noted, lost=self._all)
        site.bus.watch("c:", self._noted)
        site.bus.watch("u:", self._noted)

    def waiter(self, *topics: str) -> _Waiter:
        waiter = _Waiter(topics)
        with self._lock:
            for topic in topics:
                self._waiting.setdefault(topic, set()).add(waiter)
        return waiter

    def drop(self, waiter: _Waiter) -> None:
        waiter.close()
        with self._lock:
            for topic in waiter.topics:
                waiting = self._waiting.get(topic)
                if waiting is not None:
                    waiting.discard(waiter)
                    if not waiting:
                        del self._waiting[topic]

    def _noted(self, topic: str, _payload: str) -> None:
        with self._lock:
            waiting = tuple(self._waiting.get(topic, ()))
        for waiter in waiting:
            waiter.fire(topic)

    def _all(self) -> None:  # notifications may have been lost: every stream reads again
        with self._lock:
            waiting = [(w, t) for t, ws in self._waiting.items() for w in ws]
        for waiter, topic in waiting:
            waiter.fire(topic)


class _Lines:
    """A stream of a bot's messages, read on the thread that iterates it."""

    def __init__(self, wakes: Wakes, waiter: _Waiter, lines: Iterator[dict[str, Any] | None]):
        self._wakes = wakes
        self._waiter = waiter
        self._lines = lines
        self._reader: int | None = None

    def __iter__(self) -> Iterator[dict[str, JSON] | None]:
        self._reader = threading.get_ident()
        try:
            for line in self._lines:
                yield None if line is None else _json(line)
        except ApiError:
            raise
        except Exception as e:
            raise _refused(e, "the stream") from None

    def close(self) -> None:
        """End the stream (a waiting read returns at once): from any thread, more than once."""
        self._wakes.drop(self._waiter)
        if self._reader in (None, threading.get_ident()):  # not inside a read: end it here
            close = getattr(self._lines, "close", None)
            if close is not None:  # ValueError: running on another thread after all (it ends)
                with contextlib.suppress(ValueError):
                    close()


class SiteApi:
    """One house bot's Bot API, answered by ``site`` for the account ``user_id`` (module)."""

    server = "this server (in process)"

    def __init__(self, site: Site, wakes: Wakes, user_id: int) -> None:
        self.site = site
        self.wakes = wakes
        self.user_id = user_id
        self.base = site.config.bots.url or f"http://127.0.0.1:{site.config.port}"
        self.posts = self._posts()
        self._user_read: tuple[float, User] | None = None

    def __repr__(self) -> str:
        return f"SiteApi(user {self.user_id})"

    def _user(self) -> User:
        """The bot's account, read again every :data:`USER_FRESH` seconds (not a read a move)."""
        read = self._user_read
        if read is not None and time.monotonic() - read[0] < USER_FRESH:
            return read[1]
        user = self.site.users.get(self.user_id)
        if user is None:
            raise AuthError("the house bot's account is gone (401)", 401)
        self._user_read = (time.monotonic(), user)
        return user

    # --- the transport ----------------------------------------------------------------------

    def get(self, template: str, *args: str) -> JSON:
        if template != ACCOUNT:
            raise ApiError(f"GET {template}: not answered in process (404)", 404)
        try:
            out = self._user().json()
        except ApiError:
            raise
        except Exception as e:
            raise _refused(e, f"GET {template}") from None
        out["scopes"] = ["bot:play"]
        return _json(out)

    def post(self, template: str, *args: str, form: Mapping[str, str] | None = None) -> JSON:
        call = self.posts.get(template)
        if call is None:
            raise ApiError(f"POST {template}: not answered in process (404)", 404)
        try:
            return call(self._user(), *args, **dict(form or {}))
        except ApiError:
            raise
        except Exception as e:
            raise _refused(e, f"POST {template.format(*args)}") from None

    def stream(self, template: str, *args: str) -> _Lines:
        try:
            if template == EVENT_STREAM:
                user = self._user()
                waiter = self.wakes.waiter(f"u:{user.id}")
                return _Lines(self.wakes, waiter, self._events(user, waiter))
            if template == GAME_STREAM and len(args) == 1:
                user = self._user()
                game = self.site.rounds.cache.get(args[0]) or self.site.rounds.get(args[0])
                if game is None:
                    raise ApiError(f"GET {template}: no such game (404)", 404)
                if game.seats.color_of(user.id) is None:
                    raise AuthError(f"GET {template}: not this bot's game (403)", 403)
                waiter = self.wakes.waiter(f"g:{game.id}", f"c:{game.id}")
                return _Lines(self.wakes, waiter, self._game(user, game, waiter))
        except ApiError:
            raise
        except Exception as e:
            raise _refused(e, f"GET {template}") from None
        raise ApiError(f"GET {template}: not answered in process (404)", 404)

    def close(self) -> None:
        """Nothing to close: no connection."""

    # --- the requests (as the Bot API's endpoints make them) --------------------------------

    def _posts(self) -> dict[str, Callable[..., JSON]]:
        site = self.site

        def move(user: User, game_id: str, text: str, **_form: str) -> JSON:
            site.play(game_id, user, "move", text=text)
            return {"ok": True}

        def action(name: str) -> Callable[..., JSON]:
            def act(user: User, game_id: str, **_form: str) -> JSON:
                site.play(game_id, user, name)
                return {"ok": True}

            return act

        def offer(kind: str) -> Callable[..., JSON]:
            def answer(user: User, game_id: str, yes: str, **_form: str) -> JSON:
                if yes not in ANSWERS:
                    raise ApiError(f"no such endpoint (answer {yes[:30]!r}) (404)", 404)
                site.play(game_id, user, f"{kind}-{yes}")
                return {"ok": True}

            return answer

        def swap(user: User, game_id: str, yes: str, **_form: str) -> JSON:
            if yes not in ANSWERS:
                raise ApiError(f"no such endpoint (answer {yes[:30]!r}) (404)", 404)
            choose_swap(site.rounds, game_id, user.id, yes == "yes")
            return {"ok": True}

        def chat(user: User, game_id: str, **form: str) -> JSON:
            line = site.say(game_id, user, form.get("room", "player"), form.get("text"))
            return {"ok": True, "id": line.id}

        def accept(user: User, challenge_id: str, **_form: str) -> JSON:
            return {"ok": True, "gameId": site.challenges.accept(challenge_id, user)}

        def decline(user: User, challenge_id: str, **form: str) -> JSON:
            site.challenges.decline(challenge_id, user, form.get("reason", "generic"))
            return {"ok": True}

        def cancel(user: User, challenge_id: str, **_form: str) -> JSON:
            site.challenges.cancel(challenge_id, user)
            return {"ok": True}

        return {
            MOVE: move,
            RESIGN: action("resign"),
            CLAIM_VICTORY: action("claim-victory"),
            DRAW: offer("draw"),
            TAKEBACK: offer("takeback"),
            SWAP: swap,
            CHAT: chat,
            ACCEPT: accept,
            DECLINE: decline,
            CANCEL: cancel,
        }

    # --- the streams (the lines of notify/http.py's and round/http.py's) --------------------

    def _closing(self, waiter: _Waiter) -> bool:
        return waiter.closed or self.site.bus.closing

    def _events(self, user: User, waiter: _Waiter) -> Iterator[dict[str, Any] | None]:
        """``/api/stream/event``: the games being played, the challenges to answer, then each
        new event of the account (the bot is online while it reads)."""
        site = self.site
        try:
            site.people.seen(user.id)
            seen = time.monotonic()
            last = last_event(site.db, user.id)
            for game in site.rounds.playing(user.id):
                yield {"type": "gameStart", "game": {"gameId": game.id, "id": game.id}}
            for challenge in site.challenges.of_user(user)["in"]:
                yield {"type": "challenge", "challenge": challenge.json(self.base)}
            while not self._closing(waiter):
                if time.monotonic() - seen >= SEEN_EVERY:
                    site.people.seen(user.id)
                    seen = time.monotonic()
                if not waiter.wait(KEEP_ALIVE):
                    if not self._closing(waiter):
                        yield None
                    continue
                if self._closing(waiter):
                    return
                for event_id, data in events_after(site.db, user.id, last):
                    last = event_id
                    yield data
        finally:
            self.wakes.drop(waiter)

    def _game(self, user: User, game: GameView, waiter: _Waiter) -> Iterator[dict[str, Any] | None]:
        """``/api/bot/game/stream/{id}``: ``gameFull``, the chat, a ``gameState`` a new version,
        new chat lines, ``opponentGone``; it ends after the state that ends the game."""
        site = self.site
        color = game.seats.color_of(user.id)
        site.presence.connect(game.id, user.id)
        try:
            site.presence.beat_one(game.id, user.id)
            game = site.rounds.latest(game)
            yield game_full(game, now())
            version = game.version
            over = game.state.outcome is not None
            rooms = tuple(r for r in ROOMS if may_read(r, player=True, over=over))
            lines = site.chat.lines(game.id, rooms=rooms)
            last_chat = max((x.id for x in lines), default=0)
            for x in lines:
                yield x.json()
            if over:
                return
            gone: bool | None = None
            next_check = 0.0
            while not self._closing(waiter):
                fired = waiter.wait(BEAT)
                if self._closing(waiter):
                    return
                said = False
                if f"g:{game.id}" in fired:
                    seats = game.seats
                    game = site.rounds.latest(game)
                    if game.seats != seats:  # a swap (round/swap.py): the whole game again
                        version = game.version
                        color = game.seats.color_of(user.id)
                        yield game_full(game, now())
                        said = True
                    elif game.version != version:
                        version = game.version
                        yield game_state(game, game.updated)
                        said = True
                        if game.state.outcome is not None:
                            return
                if f"c:{game.id}" in fired:
                    over = game.state.outcome is not None
                    rooms = tuple(r for r in ROOMS if may_read(r, player=True, over=over))
                    for x in site.chat.lines(game.id, after=last_chat, rooms=rooms):
                        last_chat = x.id
                        yield x.json()
                        said = True
                if color is not None and time.monotonic() >= next_check:
                    next_check = time.monotonic() + BEAT
                    opponent = game.seats.id_of(not color)
                    since = site.presence.gone_since(game.id, opponent, game.created)
                    if (since is not None) != gone:
                        gone = since is not None
                        yield gone_line(game, since)
                        said = True
                if not fired and not said:
                    yield None
        finally:
            site.presence.disconnect(game.id, user.id)
            self.wakes.drop(waiter)


def in_process(site: Site) -> Callable[[int], SiteApi]:
    """The transport of each house bot of ``site`` (by its account's id), in local mode."""
    wakes = Wakes(site)
    return lambda user_id: SiteApi(site, wakes, user_id)
