"""The move path's shortcuts change no answer: the legal-move data cached by position, the live
game's state kept move by move, the store's statements built once, and the durability promise
(WAL, synchronous=NORMAL: survives kill -9, tested in test_web_games.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from starlette.testclient import TestClient

from emergo.board import Board
from emergo.web import positions
from emergo.web.positions import line_data, move_data, position_data
from emergo.web.store import Store

HOST = {"host": "127.0.0.1:8765"}
HOT_SEAT = {"white": {"kind": "human"}, "black": {"kind": "human"}}


def uncached(board: Board) -> dict[str, Any]:
    positions._cache.clear()
    return position_data(board)


def test_cached_position_data_is_the_same_as_computed_afresh() -> None:
    rng = random.Random(11)
    for variant in ("9x9", "7x7"):
        board = Board(variant=variant)
        while board.outcome() is None and len(board.move_stack) < 80:
            fresh = uncached(board)
            assert position_data(board) == fresh  # from the cache now
            assert position_data(board.copy()) == fresh
            board.push(rng.choice(board.moves()))
        assert position_data(board) == uncached(board)


def test_one_position_reached_two_ways_keeps_its_own_history() -> None:
    one, two = Board(), Board()
    for move in ("d4", "f6", "c5", "e7"):
        one.push_move(move)
    for move in ("c5", "e7", "d4", "f6"):
        two.push_move(move)
    assert one.position() == two.position()
    a, b = position_data(one), position_data(two)
    assert a["moves"] is b["moves"]  # computed once
    assert a["lastMove"]["path"] == ["e7"] and b["lastMove"]["path"] == ["f6"]
    assert a["ply"] == b["ply"] == 4


def test_a_third_repetition_ends_the_game_although_the_position_is_cached() -> None:
    board = Board("w 0/0 a5:w i5:b")  # one man each: they step out and back (R19b)
    for text in ["a5-b5", "i5-h5", "b5-a5", "h5-i5"] * 2:
        assert position_data(board)["phase"] == "step"
        board.push_move(text)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination.value == "repetition"
    data = position_data(board)  # the start position, cached as a position where one steps
    assert data["phase"] == "over" and data["forbidden"] == {}
    assert data["moves"] == []  # no move after the end (R19b), as after a stored end
    assert data["outcome"]["termination"] == "repetition"
    fresh = position_data(Board(board.position()))
    assert fresh["phase"] == "step" and fresh["moves"]  # the cache holds no end


def test_line_data_needs_no_replay() -> None:
    board = Board()
    rng = random.Random(5)
    for _ in range(30):
        board.push(rng.choice(board.moves()))
    replayed, moves = board.root(), []
    for move in board.move_stack:
        moves.append(move_data(replayed, move))
        replayed.push(move)
    assert line_data(board)["moves"] == moves


def test_live_state_kept_move_by_move_matches_the_board(
    app_client: tuple[TestClient, Store],
) -> None:
    c, _ = app_client
    game = c.post("/api/games", json=HOT_SEAT).json()
    board = Board()
    rng = random.Random(3)
    with c.websocket_connect(f"/ws/game/{game['id']}", headers=HOST) as ws:
        state = ws.receive_json()
        for ply in range(1, 25):
            if ply % 7 == 0:  # a takeback now and then
                ws.send_json({"type": "takeback", "by": "black" if board.turn else "white"})
                board.pop()
            else:
                move = rng.choice(board.moves())
                ws.send_json({"type": "move", "text": board.move_text(move)})
                board.push(move)
            while (state := ws.receive_json())["type"] != "state" or state["state"]["ply"] != len(
                board.move_stack
            ):
                pass
            assert state["state"] == uncached(board)
            assert state["line"] == line_data(board)


def test_store_is_wal_normal_and_add_move_checks_the_game(tmp_path: Path) -> None:
    store = Store.open(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    game = store.create_game("w 12/12")
    store.add_move(game, 1, "d4")  # no version given: one more
    store.add_move(game, 2, "f6", version=7)
    saved = store.game(game)
    assert saved is not None and saved["moves"] == ["d4", "f6"] and saved["version"] == 7
    with pytest.raises(KeyError):
        store.add_move(game + 1, 1, "d4")
    assert store.count_moves(game + 1) == 0
    store.close()
