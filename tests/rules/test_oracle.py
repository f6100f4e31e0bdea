"""The rules library agrees with every oracle vector from independent implementations."""

from __future__ import annotations

import filecmp
from typing import Any

import pytest

from emergo import Board
from emergo.perft import perft
from tests.plugins.common import (
    DATA,
    SHARED_ORACLE,
    oracle_games,
    oracle_hex_games,
    oracle_perft,
    oracle_positions,
)

ORACLE_FILES = [
    "README.md",
    "abstractplay-dev.jsonl",
    "hex-dev.jsonl",
    "perft-crosscheck.txt",
    "perft.txt",
    "positions.jsonl",
]


@pytest.mark.skipif(not SHARED_ORACLE.is_dir(), reason="../shared/oracle not beside the repo")
@pytest.mark.parametrize("name", ORACLE_FILES)
def test_copies_are_identical_to_shared_oracle(name: str) -> None:
    assert filecmp.cmp(DATA / name, SHARED_ORACLE / name, shallow=False), name


@pytest.mark.skipif(not SHARED_ORACLE.is_dir(), reason="../shared/oracle not beside the repo")
def test_every_shared_oracle_file_is_copied() -> None:
    assert sorted(p.name for p in SHARED_ORACLE.iterdir()) == sorted(ORACLE_FILES)


@pytest.mark.parametrize("vector", oracle_positions(), ids=lambda v: v["id"])
def test_oracle_position(vector: dict[str, Any]) -> None:
    board = Board(vector["position"])
    assert board.position() == vector["position"]  # R22 canonical round-trip
    assert sorted(board.move_text(m) for m in board.legal_moves) == vector["legal"]
    assert len(board.legal_moves) == len(vector["legal"])
    assert board.result() == vector["result"]


@pytest.mark.parametrize(
    "game",
    oracle_games() + oracle_hex_games(),
    ids=lambda g: f"{g['source']}-game{g['game']}",
)
def test_oracle_game(game: dict[str, Any]) -> None:
    board = Board(variant=game["variant"])
    for ply, step in enumerate(game["plies"]):
        assert board.position() == step["position"], f"ply {ply}"
        assert sorted(board.move_text(m) for m in board.legal_moves) == step["legal"], f"ply {ply}"
        assert board.outcome() is None, f"ply {ply}: game over too early"
        board.push_move(step["played"])
    outcome = board.outcome()
    assert board.position() == game["final"]
    assert outcome is not None
    assert outcome.result() == game["result"]
    assert outcome.termination.value == game["termination"]


PERFT_CASES = [
    (position, depth, count)
    for position, counts in oracle_perft()
    for depth, count in counts
    if count <= 60_000
]


@pytest.mark.parametrize(("position", "depth", "count"), PERFT_CASES)
def test_oracle_perft(position: str, depth: int, count: int) -> None:
    assert perft(Board(position), depth) == count


# docs/rules.md R4: perft from the HexEmergo start (hex-dev.jsonl's naive implementation agrees).
HEX_PERFT = [(1, 36), (2, 1_164), (3, 36_702), (4, 985_032)]


@pytest.mark.parametrize(("depth", "count"), HEX_PERFT)
def test_r4_hex_perft(depth: int, count: int) -> None:
    assert perft(Board("hex w 12/12"), depth) == count
