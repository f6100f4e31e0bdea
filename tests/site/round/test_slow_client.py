"""A slow WebSocket client is dropped, never holding up the others (the send queue is bounded)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.websockets import WebSocketState

from emergo.server.core.sockets import SEND_QUEUE, Outbox
from tests.plugins.game_helpers import run_async


class StuckSocket:
    """A client that never reads: its sends never complete."""

    application_state = WebSocketState.CONNECTED
    client_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


class ReadingSocket(StuckSocket):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_a_slow_socket_is_dropped_and_the_others_get_everything() -> None:
    async def main() -> tuple[Any, Any, Outbox, Outbox]:
        stuck, reading = StuckSocket(), ReadingSocket()
        slow, fast = Outbox(stuck), Outbox(reading)  # type: ignore[arg-type]
        for i in range(SEND_QUEUE + 50):  # one game's events, sent to both watchers
            slow.send({"t": "v", "v": i})
            fast.send({"t": "v", "v": i})
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        await slow.close(4008, "too slow")
        await fast.close()
        return stuck, reading, slow, fast

    stuck, reading, slow, fast = run_async(main)
    assert slow.dropped.is_set() and stuck.closed == 4008
    assert not fast.dropped.is_set()
    assert len(reading.sent) == SEND_QUEUE + 50
