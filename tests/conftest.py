"""Shared fixtures: the oracle vectors copied from ../shared/oracle/ into tests/data/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
SHARED_ORACLE = Path(__file__).resolve().parents[2] / "shared" / "oracle"


def read_jsonl(name: str) -> Iterator[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def oracle_positions() -> list[dict[str, Any]]:
    return list(read_jsonl("positions.jsonl"))


def oracle_games() -> list[dict[str, Any]]:
    return list(read_jsonl("abstractplay-dev.jsonl"))


def oracle_hex_games() -> list[dict[str, Any]]:
    """HexEmergo games (R4 ``hex``) from a naive implementation of the rules (docs/rules.md)."""
    return list(read_jsonl("hex-dev.jsonl"))


def oracle_perft() -> list[tuple[str, list[tuple[int, int]]]]:
    out = []
    for line in (DATA / "perft.txt").read_text().splitlines():
        if line.strip():
            position, *counts = line.split(";")
            out.append((position, [(int(c.split()[0][1:]), int(c.split()[1])) for c in counts]))
    return out


@pytest.fixture(scope="session")
def games() -> list[dict[str, Any]]:
    return oracle_games()
