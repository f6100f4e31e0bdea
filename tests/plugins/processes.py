"""Every process a test starts is stopped whatever happens (issue 31, defect 11): a test that
failed, timed out waiting for a server, or was interrupted never leaves one running.

Every ``subprocess.Popen`` made while the tests run is recorded. A process started by the test
itself or by a fixture of the test's own scope and still running when the test's teardown is
over is stopped then (SIGTERM, then SIGKILL); one started by a fixture of a wider scope (a
module's or the session's server) when the run ends. The helpers that start servers stop
their own on the way too (tests/plugins/servers.py ``Server``, tests/system/test_deploy.py);
this is the net under them."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

_started: list[subprocess.Popen[Any]] = []
"""Every process made during the run, in order."""
_kept: set[int] = set()
"""The ids of those a fixture of a wider scope than a test's started: stopped at the end."""


class _Recorded(subprocess.Popen):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _started.append(self)


subprocess.Popen = _Recorded  # type: ignore[misc]


def stop(proc: subprocess.Popen[Any], wait: float = 10.0) -> None:
    """Stop a process that may still run: SIGTERM, then SIGKILL after ``wait`` seconds."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(wait)


def left_running(since: int) -> list[subprocess.Popen[Any]]:
    """The processes made since ``since`` (an index of the record) that run on and are a
    test's own (no wider fixture keeps them)."""
    return [p for p in _started[since:] if id(p) not in _kept and p.poll() is None]


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: Any) -> Iterator[None]:
    before = len(_started)
    yield
    if fixturedef.scope != "function":
        _kept.update(id(p) for p in _started[before:])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    before = len(_started)
    yield
    for proc in left_running(before):
        stop(proc)


def pytest_sessionfinish(session: Any, exitstatus: Any) -> None:
    for proc in _started:
        stop(proc)
