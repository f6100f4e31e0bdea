"""Doctest collection of src/emergo: a module whose imports are missing here is not collected.

The C kernel is optional (a machine without a compiler installs without it: docs/tablebase.md's
examples need it too), and so is the
research extra ``rl`` (numpy, PettingZoo, Gymnasium, Pillow, OpenSpiel): the docstring examples
of the modules that need them are left out when they are not installed.  The tests that need
them skip with a reason (tests/conftest.py ``requires_kernel``; ``importorskip`` in the envs
tests).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

_KERNEL = "emergo._kernel"
_NEEDS = {
    "src/emergo/kernel": (_KERNEL,),
    "src/emergo/mcts.py": (_KERNEL,),
    "src/emergo/differential.py": (_KERNEL,),
    "src/emergo/selfplay.py": (_KERNEL,),
    "src/emergo/tablebase.py": (_KERNEL,),
    "docs/tablebase.md": (_KERNEL,),
    "src/emergo/puzzles/generate.py": (_KERNEL,),  # the generator and its judge: the engine
    "src/emergo/puzzles/judge.py": (_KERNEL,),
    "src/emergo/puzzles/run.py": (_KERNEL,),
    "src/emergo/puzzles/verify.py": (_KERNEL,),
    "src/emergo/ray_runner.py": ("ray",),
    "src/emergo/envs/observation.py": ("numpy",),
    "src/emergo/envs/render.py": ("numpy", "PIL"),
    "src/emergo/envs/emergo_v0.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "src/emergo/envs/gym_env.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "src/emergo/envs/vector.py": (_KERNEL, "numpy", "gymnasium"),
    "src/emergo/envs/openspiel.py": ("numpy", "PIL", "gymnasium", "pettingzoo", "pyspiel"),
}


def _missing(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:  # a parent package that cannot be imported
        return True
    # src/emergo/_kernel/ (the C sources) looks like a namespace package: no origin, no module
    return spec is None or spec.origin is None


collect_ignore = [module for module, needs in _NEEDS.items() if any(map(_missing, needs))]


# The tests' support code: fixtures and their helpers, as plugins (tests/plugins/); no test
# module imports another.
pytest_plugins = [
    "tests.plugins.processes",
    "tests.plugins.common",
    "tests.plugins.postgres",
    "tests.plugins.site",
    "tests.plugins.smtp",
    "tests.plugins.browser",
    "tests.plugins.site_pages",
]

_FOLDER_MARKS = {"browser": "browser", "system": "system"}
"""Test folders whose tests carry a mark: ``-m "not browser and not system"`` is the fast loop."""

DURATIONS = Path(__file__).parent / "tests" / "durations.json"
"""Each test file's seconds in a full run (tools/test_durations.py writes it from the run's
JUnit XML).  The longest files run first, so that ``-n 2 --dist loadfile`` (each worker takes a
file at a time, in this order: ``--no-loadscope-reorder`` in pyproject.toml) ends on short
files with both workers busy, not with one on a two-minute file begun last (the longest first
is the usual schedule for the least total time).  A file not in the list goes last; a stale
figure only changes the order."""


def _folder(item: Any) -> str | None:
    parts = Path(str(item.fspath)).parts
    return parts[parts.index("tests") + 1] if "tests" in parts else None


def pytest_collection_modifyitems(items: list[Any]) -> None:
    import pytest

    for item in items:
        folder = _folder(item)
        if folder in _FOLDER_MARKS:
            item.add_marker(getattr(pytest.mark, _FOLDER_MARKS[folder]))
    seconds = json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.exists() else {}

    def file_of(item: Any) -> str:
        return str(item.nodeid).split("::")[0]

    first: dict[str, int] = {}
    for n, item in enumerate(items):
        first.setdefault(file_of(item), n)
    # each file's tests stay together and in their order
    items.sort(key=lambda item: (-seconds.get(file_of(item), 0.0), first[file_of(item)]))
