"""Players of the online tests: a Board API client with a token, over any HTTP client."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any


class Player:
    """One account on the Board API (``http`` a TestClient or an httpx2 client)."""

    def __init__(self, http: Any, name: str, token: str) -> None:
        self.http = http
        self.name = name
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}"}

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.http.post(path, headers=self.headers, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.http.get(path, headers=self.headers, **kwargs)

    def ok(self, path: str, **kwargs: Any) -> dict[str, Any]:
        r = self.post(path, **kwargs)
        assert r.status_code == 200, (path, r.status_code, r.text)
        data: dict[str, Any] = r.json()
        return data

    def challenge(self, other: str, **terms: Any) -> str:
        data = self.ok(f"/api/challenge/{other}", data=terms)
        return str(data["id"])

    def accept(self, challenge_id: str) -> str:
        return str(self.ok(f"/api/challenge/{challenge_id}/accept")["gameId"])

    def move(self, game: str, text: str) -> Any:
        return self.post(f"/api/board/game/{game}/move/{text}")

    def play(self, game: str, text: str) -> None:
        r = self.move(game, text)
        assert r.status_code == 200, (text, r.status_code, r.text)

    def state(self, game: str, plies: int = 0) -> dict[str, Any]:
        """The game's state as this player's server has it, once it holds ``plies`` moves: a
        move made through another process is seen here when its notification arrives (as a
        client learns of it from its stream), not before (docs/online.md)."""

        def read() -> dict[str, Any] | None:
            r = self.get(f"/api/game/{game}")
            assert r.status_code == 200, r.text
            data: dict[str, Any] = r.json()["state"]
            return data if len(data["moves"].split()) >= plies else None

        found: dict[str, Any] = wait_for(read, 30, f"move {plies} of {game} at {self.name}'s")
        return found


def new_game(white: Player, black: Player, **terms: Any) -> str:
    """A game between two players, ``white`` playing White."""
    terms.setdefault("clock.limit", 300)
    terms.setdefault("clock.increment", 2)
    challenge = white.challenge(black.name, color="white", **terms)
    return black.accept(challenge)


def legal_texts(state: dict[str, Any], variant: str = "9x9") -> list[str]:
    """The legal moves after a state's moves (for playing on)."""
    from emergo import Board

    board = Board(variant=variant)
    for text in state["moves"].split():
        board.push(board.parse_move(text))
    return [str(m) for m in board.legal_moves]


def wait_for(check: Callable[[], Any], timeout: float = 10.0, what: str = "it") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def ndjson(lines: Any, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
    """The first ``count`` JSON lines of a stream (keep-alive lines skipped)."""
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    for line in lines:
        if line.strip():
            out.append(json.loads(line))
            if len(out) >= count:
                break
        if time.monotonic() > deadline:
            break
    return out


def line_in_a_game(site: Any) -> tuple[int, str]:
    """A game between two new accounts with one chat line: (the line's id, the game's id)."""
    from emergo.server.challenge.service import Terms

    white = site.users.create("chat_w", None)
    black = site.users.create("chat_b", None)
    challenge = site.challenges.create(white, Terms(color="white"), dest=black)
    game = site.challenges.accept(challenge.id, black)
    line = site.chat.post(game, white, "player", "rude words")
    return line.id, game


def run_async(main: Callable[[], Any]) -> Any:
    """``asyncio.run(main())`` in a thread of its own (another test's library, playwright's sync
    API, may leave an event loop running in this thread)."""
    import asyncio
    import threading

    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(main()))
        except BaseException as e:  # handed to the caller
            error.append(e)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]
