"""``emergo admin`` and ``emergo serve --online`` as commands (real processes)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.commands import EMERGO, admin
from tests.plugins.game_helpers import line_in_a_game
from tests.plugins.postgres import free_port
from tests.plugins.site import FAST


def test_admin_commands(tmp_path):
    db = str(tmp_path / "site.sqlite3")
    done = admin(db, "migrate", process=True)  # the real commands first, then in this process
    assert done.returncode == 0 and "migrated the database from schema (empty) to" in done.stdout
    done = admin(db, "add-user", "ann", stdin="a long password\n", process=True)
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
        [
            *EMERGO,
            "serve",
            "--online",
            "--no-house-bots",
            "--db",
            url,
            "--port",
            str(free_port()),
            "--no-browser",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "no online schema yet: run `emergo admin migrate" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("flag", ["--public", "--online"])
def test_serve_public_on_sqlite_starts_and_stops(tmp_path, flag):
    """`emergo serve --public` (and the old `--online`, its alias) on a new SQLite file in the
    user's data directory."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [*EMERGO, "serve", flag, "--no-house-bots", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "emergo-site.sqlite3" in line, line
        assert "public" in line
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10) as r:
            assert r.status == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/signup", timeout=10) as r:
            assert b"<form" in r.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
    assert (tmp_path / "emergo" / "emergo-site.sqlite3").exists()


@pytest.mark.parametrize("bad", ["[server]\nport = 'x'\n", "[nope]\n", "[server]\nsecret = 1\n"])
def test_bad_config_files(tmp_path, bad):
    path = tmp_path / "site.toml"
    path.write_text(bad)
    done = subprocess.run(
        [*EMERGO, "serve", "--online", "--no-house-bots", "--config", str(path), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "site.toml" in done.stderr and "Traceback" not in done.stderr


def test_a_config_file(tmp_path):
    from emergo.server.core.config import load

    path = tmp_path / "site.toml"
    path.write_text(
        '[server]\nport = 9000\nhttps = true\nallow_hosts = ["play.example.org"]\n'
        "[accounts]\nsignup = false\n[limits]\nchat_per_minute = 5\n"
    )
    config = load(path)
    assert (config.port, config.https, config.allow_hosts) == (9000, True, ("play.example.org",))
    assert config.signup is False and config.limits.chat_per_minute == 5


def test_the_moderators_commands(tmp_path):
    """``emergo admin reports``, ``report ID ACTION``, ``moderate NAME ACTION`` and
    ``moderation-log`` (issue 31): the queue as a moderator reads it, each action done and
    logged with who did it."""
    db = str(tmp_path / "site.sqlite3")
    assert admin(db, "migrate").returncode == 0
    site = Site.open(Config(db=db, **FAST))
    try:
        line_id, game = line_in_a_game(site)
        white, black = site.users.by_name("chat_w"), site.users.by_name("chat_b")
        assert white is not None and black is not None
        on_line = site.reports.report(black, white, "abuse", "insults", line_id=line_id)
        on_player = site.reports.report(white, black, "stall", "left two games")
        empty = admin(db, "reports", "--status", "closed")
        assert empty.returncode == 0 and "no closed reports" in empty.stdout
        queue = admin(db, "reports")
        assert queue.returncode == 0, queue.stderr
        lines = queue.stdout.splitlines()
        assert any(f"#{on_line.id}" in x and "chat_b reported chat_w" in x for x in lines)
        assert f"the chat line in game {game}: rude words" in queue.stdout
        assert any(f"#{on_player.id}" in x and "left two games" in x for x in lines)
        env_moderator = ("--moderator", "mod_ann")
        muted = admin(db, "report", str(on_line.id), "mute", "--note", "insults", *env_moderator)
        assert muted.returncode == 0 and "muted chat_w in chat" in muted.stdout, muted.stderr
        assert site.chat.lines(game) == []  # the reported line went with the mute
        warned = admin(db, "report", str(on_player.id), "warn", *env_moderator)
        assert warned.returncode == 1 and "what the player did" in warned.stderr  # words needed
        said = "please finish your games"
        warned = admin(db, "report", str(on_player.id), "warn", "--note", said, *env_moderator)
        assert warned.returncode == 0 and "warned chat_b" in warned.stdout, warned.stderr
        assert site.notices.feed(black.id)[0][0]["result"] == said
        assert "no open reports" in admin(db, "reports").stdout
        assert admin(db, "report", "999", "dismiss").returncode == 1  # no such report
        assert admin(db, "moderate", "chat_b", "dismiss").returncode != 0  # dismiss needs one
        unmute = admin(db, "moderate", "chat_w", "unmute", *env_moderator)
        assert unmute.returncode == 0 and "chat_w may chat again" in unmute.stdout
        log = admin(db, "moderation-log").stdout.splitlines()
        assert [x.split("\t")[2].split()[:3] for x in log] == [
            ["mod_ann", "unmute", "chat_w"],
            ["mod_ann", "warn", "chat_b"],
            ["mod_ann", "mute", "chat_w"],
        ]
        assert said in log[1] and "insults" in log[2]
        closed = admin(db, "reports", "--status", "closed").stdout
        assert f"#{on_line.id}" in closed and f"#{on_player.id}" in closed
    finally:
        site.close()


def test_a_reported_line_of_an_events_chat_in_the_queue(tmp_path):
    """A report of a line of an event's chat (issue 30) has no game: the queue names the event,
    and ``report ID mute`` removes the line."""
    from emergo.server.tournament.spec import arena_spec

    db = str(tmp_path / "site.sqlite3")
    assert admin(db, "migrate").returncode == 0
    site = Site.open(Config(db=db, **FAST))
    try:
        ann = site.users.create("ann", "a good password")
        bob = site.users.create("bob", "a good password")
        event = site.tournaments.create(arena_spec({"name": "Talk", "minutes": 30}), ann)
        line = site.say_event(event.id, bob, "rude words")
        report = site.reports.report(ann, bob, "abuse", "", line_id=line.id)
        queue = admin(db, "reports")
        assert queue.returncode == 0, queue.stderr
        assert f"the chat line in event {event.id}: rude words" in queue.stdout
        muted = admin(db, "report", str(report.id), "mute", "--moderator", "mod_ann")
        assert muted.returncode == 0, muted.stderr
        assert site.chat.event_lines(event.id) == []
    finally:
        site.close()
