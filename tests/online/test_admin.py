"""``emergo admin`` and ``emergo serve --online`` as commands (real processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from tests.online.conftest import FAST
from tests.online.helpers import line_in_a_game
from tests.online.pg import free_port

from emergo.online.config import Config
from emergo.online.site import Site

EMERGO = [sys.executable, "-m", "emergo"]


def admin(db: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*EMERGO, "admin", "--db", db, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_admin_commands(tmp_path):
    db = str(tmp_path / "site.sqlite3")
    done = admin(db, "migrate")
    assert done.returncode == 0 and "migrated the database from schema (empty) to" in done.stdout
    done = admin(db, "add-user", "ann", stdin="a long password\n")
    assert done.returncode == 0, done.stderr
    assert "a long password" not in done.stdout + done.stderr
    done = admin(db, "add-user", "ann", stdin="a long password\n")
    assert done.returncode == 1 and "taken" in done.stderr
    done = admin(db, "add-user", "bob", stdin="short\n")
    assert done.returncode == 1 and "8 to 200" in done.stderr
    done = admin(db, "token", "ann", "--scope", "board:play", "--description", "my client")
    assert done.returncode == 0, done.stderr
    token = done.stdout.split()[-1]
    assert token.startswith("emo_") and done.stdout.rstrip().endswith(token)
    assert admin(db, "token", "ann", "--scope", "root").returncode == 2
    assert admin(db, "token", "nobody").returncode == 1
    listing = admin(db, "list-tokens", "ann").stdout
    assert token[:8] in listing and token not in listing and "board:play" in listing
    token_id = listing.split()[0]
    site = Site.open(Config(db=db, **FAST))
    try:
        assert site.tokens.authenticate(token) is not None
        assert site.users.authenticate("ann", "a long password") is not None
        assert admin(db, "disable", "ann").returncode == 0
        assert site.tokens.authenticate(token) is None
        assert site.users.authenticate("ann", "a long password") is None
        assert admin(db, "disable", "ann", "--enable").returncode == 0
        assert site.tokens.authenticate(token) is not None
        assert admin(db, "revoke-token", token_id).returncode == 0
        assert site.tokens.authenticate(token) is None
        assert admin(db, "revoke-token", token_id).returncode == 1
        # chat-remove
        line_id, game = line_in_a_game(site)
        done = admin(db, "chat-remove", str(line_id))
        assert done.returncode == 0, done.stderr
        assert site.chat.lines(game) == []
        assert admin(db, "chat-remove", str(line_id + 99)).returncode == 1
    finally:
        site.close()
    bot = admin(db, "add-user", "robot", "--bot")
    assert bot.returncode == 0 and "(a bot)" in bot.stdout


def test_serve_refuses_an_unmigrated_postgresql_with_a_clear_message(pg):
    url = pg.create_database("unmigrated")
    done = subprocess.run(
        [*EMERGO, "serve", "--online", "--db", url, "--port", str(free_port()), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "no online schema yet: run `emergo admin migrate" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_online_on_sqlite_starts_and_stops(tmp_path):
    """The README's one line: `emergo serve --online` on a new SQLite file."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [*EMERGO, "serve", "--online", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "emergo-online.sqlite3" in line, line
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10) as r:
            assert r.status == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/signup", timeout=10) as r:
            assert b"<form" in r.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
    assert (tmp_path / "emergo" / "emergo-online.sqlite3").exists()


@pytest.mark.parametrize("bad", ["[server]\nport = 'x'\n", "[nope]\n", "[server]\nsecret = 1\n"])
def test_bad_config_files(tmp_path, bad):
    path = tmp_path / "site.toml"
    path.write_text(bad)
    done = subprocess.run(
        [*EMERGO, "serve", "--online", "--config", str(path), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "site.toml" in done.stderr and "Traceback" not in done.stderr


def test_a_config_file(tmp_path):
    from emergo.online.config import load

    path = tmp_path / "site.toml"
    path.write_text(
        '[server]\nport = 9000\nhttps = true\nallow_hosts = ["play.example.org"]\n'
        "[accounts]\nsignup = false\n[limits]\nchat_per_minute = 5\n"
    )
    config = load(path)
    assert (config.port, config.https, config.allow_hosts) == (9000, True, ("play.example.org",))
    assert config.signup is False and config.limits.chat_per_minute == 5
