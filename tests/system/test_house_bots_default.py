"""The computer to play on a site as the README starts it (issue 31, defect 10): house bots are
on by default in local mode and on a fresh public site, and ``[bots] house_bots = false`` (or
``--no-house-bots``) turns them off."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import free_port
from tests.plugins.processes import stop

WAIT = 120.0


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""
    except OSError:
        return 0, ""


def _serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = open(tmp_path / f"serve-{port}.log", "w")  # noqa: SIM115 - the child holds it
    proc = subprocess.Popen(
        [sys.executable, "-m", "emergo", "serve", "--port", str(port), "--no-browser", *args],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _get(base + "/api/health")[0] == 200, WAIT, "the server")
    except BaseException:
        stop(proc)
        raise
    return proc, base


def test_local_mode_offers_the_computer_by_default(tmp_path: Path) -> None:
    proc, base = _serve(tmp_path, "--db", str(tmp_path / "local.sqlite3"))
    try:
        # the local player is signed in by himself: the lobby offers the computer's levels
        wait_for(lambda: 'id="play-ai"' in _get(base + "/")[1], WAIT, "Play the computer")
    finally:
        stop(proc)


def test_a_fresh_public_site_has_house_bots_and_the_setting_turns_them_off(
    tmp_path: Path,
) -> None:
    proc, base = _serve(tmp_path, "--online", "--db", str(tmp_path / "public.sqlite3"))
    try:
        wait_for(lambda: _get(base + "/api/user/emergo-1")[0] == 200, WAIT, "the house bot")
    finally:
        stop(proc)
    config = tmp_path / "site.toml"
    config.write_text(
        f'[server]\ndb = "{tmp_path / "off.sqlite3"}"\n\n[bots]\nhouse_bots = false\n'
    )
    proc, base = _serve(tmp_path, "--online", "--config", str(config))
    try:
        assert _get(base + "/api/user/emergo-1")[0] == 404
    finally:
        stop(proc)
