"""``emergo serve``'s options: declared once (emergo.server.options) for ``emergo serve`` and
``python -m emergo.server``; ``--help`` without the server's extra, and a clear message when
the server is started without it."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from emergo.cli import build_parser
from emergo.cli.common import Bounded

# Makes the server extra's packages unimportable, then runs the command line.
WITHOUT_EXTRA = """
import sys

import pytest
extra = ("starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "platformdirs", "argon2")
for name in extra:
    sys.modules[name] = None  # import fails with ImportError
from emergo.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_without_extra(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRA, *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _serve_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub: argparse.ArgumentParser = action.choices["serve"]
            return sub
    raise AssertionError("no serve command")


def _options(parser: argparse.ArgumentParser) -> dict[str, tuple[object, str | None]]:
    return {
        action.option_strings[-1]: (action.default, action.help)
        for action in parser._actions
        if action.option_strings and action.dest != "help"
    }


def test_help_without_the_server_extra() -> None:
    done = run_without_extra("serve", "--help")
    assert done.returncode == 0, done.stderr
    for option in ("--host", "--port", "--db", "--allow-host", "--no-browser", "--public"):
        assert option in done.stdout


def test_starting_without_the_server_extra_says_what_to_install() -> None:
    done = run_without_extra("serve", "--no-browser", "--port", "1")
    assert done.returncode == 1
    assert "pip install 'emergo[server]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_port_is_a_usage_error_without_the_extra_too() -> None:
    done = run_without_extra("serve", "--port", "70000")
    assert done.returncode == 2
    assert "--port" in done.stderr and "1..65535" in done.stderr


def test_one_declaration_for_both_entry_points() -> None:
    from emergo.server.serve import parser

    cli, web = _serve_parser(), parser()
    assert _options(cli) == _options(web)
    port = next(a for a in cli._actions if "--port" in a.option_strings)
    assert isinstance(port.type, Bounded) and port.type.bounds == (1, 65535)


def test_a_signal_during_the_stop_does_not_hang_the_server() -> None:
    # Ctrl-C's handler runs between two bytecodes of the event loop's thread, which may hold a
    # lock the site's stop takes (the house bots' Event, inside Event.set for the first signal):
    # the handler leaves the stop to the loop, which begins it once however many signals came
    import asyncio
    import signal
    import threading

    uvicorn = pytest.importorskip("uvicorn")
    from emergo.server.serve import stopping_server

    held = threading.Lock()  # not reentrant, as the Condition inside a threading.Event
    stops: list[str] = []

    class Site:
        def begin_stop(self) -> None:
            if not held.acquire(blocking=False):  # blocking here would hang the thread
                stops.append("would hang")
                return
            stops.append("stop")
            held.release()

    async def signals() -> None:
        server = stopping_server(Site(), uvicorn.Config(app=None))
        with held:  # the loop's thread inside the stop's lock when the signals come
            server.handle_exit(signal.SIGINT, None)
            server.handle_exit(signal.SIGINT, None)
            assert stops == [] and server.should_exit
        for _ in range(3):
            await asyncio.sleep(0)
        assert stops == ["stop"]

    from tests.plugins.game_helpers import run_async

    run_async(lambda: asyncio.wait_for(signals(), 30))  # a loop of its own (playwright's may run)
