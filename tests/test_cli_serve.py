"""``emergo serve``'s options: declared once (emergo.web.options) for ``emergo serve`` and
``python -m emergo.web.server``; ``--help`` without the web extra, and a clear message when
the server is started without it."""

from __future__ import annotations

import argparse
import subprocess
import sys

from emergo.cli import build_parser
from emergo.cli.common import Bounded

# Makes the web extra's packages unimportable, then runs the command line.
WITHOUT_EXTRA = """
import sys
for name in ("starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "platformdirs"):
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


def test_help_without_the_web_extra() -> None:
    done = run_without_extra("serve", "--help")
    assert done.returncode == 0, done.stderr
    for option in ("--host", "--port", "--db", "--allow-host", "--no-browser"):
        assert option in done.stdout


def test_starting_without_the_web_extra_says_what_to_install() -> None:
    done = run_without_extra("serve", "--no-browser", "--port", "1")
    assert done.returncode == 1
    assert "pip install 'emergo[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_port_is_a_usage_error_without_the_extra_too() -> None:
    done = run_without_extra("serve", "--port", "70000")
    assert done.returncode == 2
    assert "--port" in done.stderr and "1..65535" in done.stderr


def test_one_declaration_for_both_entry_points() -> None:
    from emergo.web.server import parser

    cli, web = _serve_parser(), parser()
    assert _options(cli) == _options(web)
    port = next(a for a in cli._actions if "--port" in a.option_strings)
    assert isinstance(port.type, Bounded) and port.type.bounds == (1, 65535)
