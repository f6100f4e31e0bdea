#!/usr/bin/env python3
"""A random mover on the Bot API, in a few dozen lines: the standard library for HTTP and
emergo for the rules.  It accepts every challenge and plays random legal moves.

    python examples/random_bot.py http://127.0.0.1:8000 TOKEN

``emergo bot`` (docs/bot.md) is the full client: a policy, an engine, clocks, reconnection.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

from emergo import Board


def call(server: str, token: str, path: str, post: bool = False) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    request = urllib.request.Request(server + path, b"" if post else None, headers)
    return urllib.request.urlopen(request)


def stream(server: str, token: str, path: str) -> Iterator[dict[str, Any]]:
    with call(server, token, path) as response:
        for line in response:  # NDJSON; empty lines keep the connection alive
            if line.strip():
                yield json.loads(line)


def play(server: str, token: str, game_id: str, me: str) -> None:
    for message in stream(server, token, f"/api/bot/game/stream/{game_id}"):
        if message["type"] == "gameFull":
            white = message["white"]["id"] == me
            start = message.get("initialFen", "startpos")
            variant = message["variant"]["key"]
            message = message["state"]
        if message["type"] != "gameState" or message["status"] not in ("created", "started"):
            continue
        board = Board(None if start == "startpos" else start, variant=variant)
        for move in message["moves"].split():
            board.push_move(move)
        if board.turn == white and board.moves():
            move = random.choice(board.moves())
            call(server, token, f"/api/bot/game/{game_id}/move/{move}", post=True).close()


def main(server: str, token: str, games: int = 0) -> None:
    """Play until ``games`` games have finished (0: for ever)."""
    me = json.load(call(server, token, "/api/account"))["id"]
    for event in stream(server, token, "/api/stream/event"):
        if event["type"] == "challenge" and event["challenge"]["challenger"]["id"] != me:
            call(server, token, f"/api/challenge/{event['challenge']['id']}/accept", True).close()
        elif event["type"] == "gameStart":
            args = (server, token, event["game"]["gameId"], me)
            threading.Thread(target=play, args=args, daemon=True).start()
        elif event["type"] == "gameFinish" and games:
            games -= 1
            if not games:
                return


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"), sys.argv[2])
