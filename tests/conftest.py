"""Shared fixtures: the oracle vectors copied from ../shared/oracle/ into tests/data/, and what
needs the C kernel (:func:`requires_kernel`): it skips when the kernel is not built."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
SRC = Path(__file__).resolve().parents[1] / "src" / "emergo"

# --- the C kernel, built or not ----------------------------------------------------------------

KERNEL_NOT_BUILT = "the C kernel is not built (no C compiler at install time)"
"""Why the kernel's tests skip."""


def _kernel_missing() -> bool:
    """Whether the extension emergo._kernel is missing; EMERGO_REQUIRE_KERNEL=1 makes it an error.

    Any other failure of ``import emergo.kernel`` (a kernel that is built but broken) is raised.
    """
    try:
        import emergo.kernel  # noqa: F401
    except ImportError as e:
        if e.name != "emergo._kernel" or os.environ.get("EMERGO_REQUIRE_KERNEL"):
            raise
        return True
    return False


KERNEL_MISSING = _kernel_missing()


def requires_kernel(module: str = "emergo.kernel") -> ModuleType:
    """``module`` (one that needs the C kernel), imported; or skip the calling test module.

    Call it at the top of a test module that needs the kernel throughout, like
    ``pytest.importorskip``: ``kernel = requires_kernel()``.  A single test is marked
    ``@pytest.mark.requires_kernel`` instead.
    """
    __tracebackhide__ = True  # the skip is reported at the caller
    if KERNEL_MISSING:
        pytest.skip(KERNEL_NOT_BUILT, allow_module_level=True)
    return importlib.import_module(module)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"requires_kernel: needs the C kernel; skips when {KERNEL_NOT_BUILT}"
    )
    # The engine's endgame tables come from the data directory (emergo.tablebase): the tests
    # see an empty one of their own (the 2-column tables are built in memory), never the
    # 3-column tables someone built; a test that needs those builds them in its own folder.
    os.environ["EMERGO_TABLEBASES"] = tempfile.mkdtemp(prefix="emergo-tables-")


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.get("EMERGO_TABLEBASES", "")
    if os.path.basename(folder).startswith("emergo-tables-"):
        shutil.rmtree(folder, ignore_errors=True)


# --- the oracle ----------------------------------------------------------------------------------
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if KERNEL_MISSING and item.get_closest_marker("requires_kernel") is not None:
            item.add_marker(pytest.mark.skip(reason=KERNEL_NOT_BUILT))


@pytest.fixture(scope="session")
def games() -> list[dict[str, Any]]:
    return oracle_games()


# The system's Chromium for the browser tests (tests/web, tests/online): one per test process, as
# playwright's sync API runs one event loop a process and two launches in one pytest worker clash.
CHROMIUM = os.environ.get("EMERGO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (the system's) through playwright; skipped when either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (tools/test.sh installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
