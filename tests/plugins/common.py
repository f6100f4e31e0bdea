"""What every kind of test shares: where things are (:data:`ROOT`, :data:`DATA`), waiting without
a budget (:data:`WAIT`, :func:`finishes`), what needs the C kernel (:func:`requires_kernel`: it
skips when the kernel is not built), the engine's tables in a folder of the run's own, and the
oracle vectors copied from ../shared/oracle/ into tests/data/."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[2]
"""The repository."""
DATA = ROOT / "tests" / "data"
SRC = ROOT / "src" / "emergo"

# --- waiting without a budget ------------------------------------------------------------------

WAIT = 60.0
"""Seconds a test waits for what comes at once when all is well (a stop obeyed, a timeout
firing, an engine's answer): generous for a machine under load, and never a budget -- a test
asserts what happened, not how fast (speed is measured by the benchmarks in tools/)."""

T = TypeVar("T")


def finishes(call: Callable[[], T], wait: float = WAIT) -> T:
    """``call()`` run in a thread: its result, or its exception raised here; the test fails
    when it still runs after ``wait`` seconds (what it waits for did not come: it would run on
    for ever)."""
    __tracebackhide__ = True
    box: list[Any] = []

    def run() -> None:
        try:
            box.append((True, call()))
        except BaseException as e:  # handed to the test's thread
            box.append((False, e))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(wait)
    if not box:
        pytest.fail(f"still running after {wait:g} s")
    ok, value = box[0]
    if not ok:
        raise value
    result: T = value
    return result


# --- the suite's scale: a sample in the fast loop, every case in tools/test.sh --------------------

FULL = os.environ.get("EMERGO_TEST_SCALE", "quick") == "full"
"""Whether the run checks every case (``EMERGO_TEST_SCALE=full``: tools/test.sh, CI) or a sample
(the default: the fast loop of the README). A compute-heavy test takes its count from
:func:`scaled`; hypothesis's profile is ``full`` or ``quick`` to match (``quick`` runs a fifth
of the examples); the full run keeps every vector and count."""


def scaled(full: int, quick: int) -> int:
    """``full`` in the full run, ``quick`` (a real sample, never zero) in the fast loop."""
    if quick <= 0 or quick > full:
        raise ValueError(f"a quick count is a sample of the full one: {quick} of {full}")
    return full if FULL else quick


def examples(full: int) -> int:
    """Hypothesis's ``max_examples`` for a test that asks for ``full`` of them: a fifth (at
    least 10) in the fast loop."""
    return scaled(full, min(full, max(10, full // 5)))


def _hypothesis_profiles() -> None:
    try:
        from hypothesis import settings
    except ImportError:  # the tests that use it skip
        return
    settings.register_profile("full")  # hypothesis's defaults (100 examples a test)
    settings.register_profile("quick", max_examples=20)
    settings.load_profile("full" if FULL else "quick")


_hypothesis_profiles()

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
SHARED_ORACLE = ROOT.parent / "shared" / "oracle"


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


def _sigint_not_ignored() -> None:
    """A suite started in the background of a non-interactive shell (``pytest ... &``) begins
    with SIGINT ignored, and every process a test starts would inherit that (the Ctrl-C tests
    of emergo play, the kernel and emergo serve would wait for good): Python's own handler."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_sigint_not_ignored()


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handler (KeyboardInterrupt) for a test that plays Ctrl-C with
    ``_thread.interrupt_main``, whatever an earlier test of the same process left installed
    (interrupt_main runs the installed handler: another one would let the call run on)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
