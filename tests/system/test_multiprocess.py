"""Several real ``emergo serve --online`` processes on one real PostgreSQL (the issue's proof).

Two processes on two ports, a player on each: moves, clocks and chat agree; two moves for one
ply sent to both at once: exactly one accepted; ``kill -9`` of a process mid-game loses no
acknowledged move and the game goes on from the other with correct clocks; a correspondence
game goes on after a restart; a game runs out of time and ends by the sweep with no one
connected; and no password, token or cookie appears in any process's output.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, legal_texts, new_game, wait_for
from tests.plugins.servers import Server
from tests.plugins.site import FAST, pg_database

httpx = pytest.importorskip("httpx2")
pytestmark = pytest.mark.slow

PASSWORD = "a secret pass phrase"


@pytest.fixture
def deployment(pg, tmp_path) -> Iterator[dict[str, Any]]:
    """A migrated PostgreSQL database with Ann and Bob (tokens), and a way to start servers."""
    url = pg_database(pg)
    site = Site.open(Config(db=url, **FAST))
    tokens = {}
    for name in ("ann", "bob", "carl"):
        user = site.users.create(name, PASSWORD)
        tokens[name] = site.tokens.create(user.id)
    site.close()
    servers: list[Server] = []

    def start() -> Server:
        server = Server(url, tmp_path / f"server-{len(servers)}.log")
        servers.append(server)
        return server

    yield {"url": url, "tokens": tokens, "start": start, "logs": tmp_path}
    for server in servers:
        server.stop()
    # secrets never logged: passwords, tokens, cookies
    text = "".join(p.read_text() for p in tmp_path.glob("server-*.log"))
    assert PASSWORD not in text
    for token in tokens.values():
        assert token not in text and token[4:] not in text
    assert "emergo_session=" not in text


def player(server: Server, deployment: dict[str, Any], name: str) -> Player:
    return Player(httpx.Client(base_url=server.base, timeout=10), name, deployment["tokens"][name])


def stream_lines(server: Server, path: str, token: str) -> tuple[queue.Queue[Any], Any]:
    lines: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()

    def read() -> None:
        try:
            with httpx.stream(
                "GET",
                f"{server.base}{path}",
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            ) as r:
                for line in r.iter_lines():
                    if stop.is_set():
                        return
                    if line.strip():
                        lines.put(json.loads(line))
        except Exception:
            pass
        finally:
            lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines, stop


def next_of(lines: queue.Queue[Any], kind: str, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        item = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
        assert item is not None, f"the stream ended before a {kind}"
        if item.get("type") == kind:
            return item


def test_two_processes_moves_clocks_and_chat_agree(deployment):
    a, b = deployment["start"](), deployment["start"]()
    ann, bob = player(a, deployment, "ann"), player(b, deployment, "bob")
    game = new_game(ann, bob, **{"clock.limit": 120, "clock.increment": 1})
    ann_lines, ann_stop = stream_lines(a, f"/api/board/game/stream/{game}", ann.token)
    bob_lines, bob_stop = stream_lines(b, f"/api/board/game/stream/{game}", bob.token)
    try:
        next_of(ann_lines, "gameFull")
        next_of(bob_lines, "gameFull")
        movers = [(ann, bob_lines), (bob, ann_lines)]
        for ply in range(12):
            mover, opponent_lines = movers[ply % 2]
            state = mover.state(game, ply)
            texts = legal_texts(state)
            text = texts[ply % len(texts)]
            mover.play(game, text)
            seen = next_of(opponent_lines, "gameState")  # on the other process
            while seen["version"] < ply + 1:  # the stream's own player's move before
                seen = next_of(opponent_lines, "gameState")
            assert seen["moves"].split()[-1] == text and seen["version"] == ply + 1
        ann.ok(f"/api/board/game/{game}/chat", data={"text": "well played"})
        assert next_of(bob_lines, "chatLine")["text"] == "well played"
        from_a = ann.get(f"/api/game/{game}").json()["state"]
        from_b = bob.get(f"/api/game/{game}").json()["state"]
        assert from_a["moves"] == from_b["moves"] and from_a["version"] == from_b["version"] == 12
        # the clocks: the stopped one equal, the running one within the time between requests
        assert from_a["btime"] == from_b["btime"] and abs(from_a["wtime"] - from_b["wtime"]) < 500
    finally:
        ann_stop.set()
        bob_stop.set()


def test_two_moves_for_one_ply_at_once_exactly_one_accepted(deployment):
    a, b = deployment["start"](), deployment["start"]()
    ann_a, ann_b = player(a, deployment, "ann"), player(b, deployment, "ann")
    bob = player(b, deployment, "bob")
    game = new_game(ann_a, bob)
    for ply in range(10):
        mover = (ann_a, ann_b) if ply % 2 == 0 else (bob, player(a, deployment, "bob"))
        state = mover[0].state(game, ply)
        mover[1].state(game, ply)  # both processes have seen the last move
        texts = legal_texts(state)
        if len(texts) < 2:  # a forced capture: one move only
            mover[0].play(game, texts[0])
            continue
        first, second = texts[:2]
        barrier = threading.Barrier(2)
        answers: dict[str, int] = {}

        def send(
            p: Player, text: str, barrier: Any = barrier, answers: dict[str, int] = answers
        ) -> None:
            barrier.wait()
            answers[text] = p.move(game, text).status_code

        threads = [
            threading.Thread(target=send, args=(mover[0], first)),
            threading.Thread(target=send, args=(mover[1], second)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers.values()) == [200, 400], answers
        played = [t for t, s in answers.items() if s == 200]
        after = ann_a.state(game, ply + 1)
        assert after["moves"].split() == [*state["moves"].split(), *played]
        assert after["version"] == state["version"] + 1


def test_kill_9_loses_no_acknowledged_move_and_the_game_goes_on(deployment):
    a, b = deployment["start"](), deployment["start"]()
    ann, bob = player(a, deployment, "ann"), player(a, deployment, "bob")
    game = new_game(ann, bob, **{"clock.limit": 300, "clock.increment": 0})
    played = []
    for ply in range(8):
        mover = (ann, bob)[ply % 2]
        text = legal_texts(mover.state(game))[0]
        mover.play(game, text)  # acknowledged
        played.append(text)
    before = ann.state(game)
    a.kill()
    killed_at = time.time()
    ann_b, bob_b = player(b, deployment, "ann"), player(b, deployment, "bob")
    after = ann_b.state(game, 8)
    assert after["moves"].split() == played and after["version"] == 8
    # White to move: Black's clock as it was, White's run on by the seconds since
    assert after["btime"] == before["btime"]
    elapsed_ms = (time.time() - killed_at) * 1000
    assert before["wtime"] - after["wtime"] >= 0
    assert abs((before["wtime"] - after["wtime"]) - elapsed_ms) < 3000
    ann_b.play(game, legal_texts(after)[0])
    bob_b.play(game, legal_texts(ann_b.state(game))[0])
    assert ann_b.state(game)["version"] == 10


def test_a_correspondence_game_goes_on_after_a_restart(deployment):
    a = deployment["start"]()
    ann, bob = player(a, deployment, "ann"), player(a, deployment, "bob")
    challenge = ann.challenge("bob", days=2, color="white")
    game = bob.accept(challenge)
    ann.play(game, "d4")
    a.stop()
    b = deployment["start"]()
    ann, bob = player(b, deployment, "ann"), player(b, deployment, "bob")
    assert [g["gameId"] for g in bob.get("/api/account/playing").json()["nowPlaying"]] == [game]
    bob.play(game, "e6")
    ann.play(game, "c5")
    assert ann.state(game)["moves"] == "d4 e6 c5"


def test_a_game_runs_out_of_time_with_no_one_connected(deployment):
    a, b = deployment["start"](), deployment["start"]()
    ann, bob = player(a, deployment, "ann"), player(b, deployment, "bob")
    game = new_game(ann, bob, **{"clock.limit": 2, "clock.increment": 0})
    ann.play(game, "d4")
    bob.play(game, "e6")  # White's 2 s run; no stream is open anywhere
    state = wait_for(lambda: (s := bob.state(game))["status"] != "started" and s, 20, "the flag")
    assert state["status"] == "outoftime" and state["winner"] == "black"


def test_the_bus_reaches_the_other_process_event_stream(deployment):
    a, b = deployment["start"](), deployment["start"]()
    ann = player(a, deployment, "ann")
    carl_lines, stop = stream_lines(b, "/api/stream/event", deployment["tokens"]["carl"])
    try:
        challenge = ann.challenge("carl")
        assert next_of(carl_lines, "challenge")["challenge"]["id"] == challenge
    finally:
        stop.set()
