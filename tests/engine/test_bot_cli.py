"""``emergo bot`` as a user runs it: a real process against the fake server (tests/botserver.py),
stopped by Ctrl-C (SIGINT); its options, its exit statuses, and a log without the token."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.plugins.botserver import FakeServer

QUICK = ["--level", "1", "--movetime", "0.02"]


def _default_sigint() -> None:
    # A shell starts background jobs with SIGINT ignored; a user's Ctrl-C is not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def emergo(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "emergo", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


@contextmanager
def bot_process(server: FakeServer, *argv: str) -> Iterator[subprocess.Popen[str]]:
    """``emergo bot`` against ``server``, its token in the environment (not on the command line)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "emergo", "bot", "--server", server.url, *QUICK, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "EMERGO_BOT_TOKEN": server.token},
        preexec_fn=_default_sigint,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def connected(server: FakeServer) -> bool:
    return any(r.path == "/api/stream/event" for r in server.requests)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def test_ctrl_c_resigns_the_live_games_with_on_exit_resign(server: FakeServer) -> None:
    server.opponent = None  # the opponent never moves: the game is live when Ctrl-C comes
    with bot_process(server, "--on-exit", "resign", "--verbose") as process:
        server.wait(lambda: connected(server))
        cid = server.challenge(color="black")  # the bot is white
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.board.move_stack)  # it moved; its opponent never will
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert game.status == "resign" and game.color_of(server.bot) != game.winner
    assert "resigning" in err and "over after" in err and "Traceback" not in err
    assert server.token not in err + out  # --verbose logs every message, never the token


def test_ctrl_c_finishes_the_live_games_by_default(server: FakeServer) -> None:
    server.opponent = None
    with bot_process(server) as process:
        server.wait(lambda: connected(server))
        cid = server.challenge(color="black")  # the bot is white and moves
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.board.move_stack)
        process.send_signal(signal.SIGINT)
        late = server.challenge()  # while stopping: declined, later
        server.wait(lambda: server.answers.get(late) == "declined:later")
        assert process.poll() is None  # still playing its game
        with server.lock:  # the opponent comes back and plays the game out
            game.opponent = lambda g: (g.play(g.board.turn, str(g.board.moves()[0])), g.publish())
            game._maybe_opponent()
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert game.status in ("mate", "draw") and not server.posts(f"/api/bot/game/{cid}/resign")
    assert "stopping once the 1 live games are over" in err


def test_a_second_ctrl_c_leaves_at_once(server: FakeServer) -> None:
    server.opponent = None
    with bot_process(server) as process:
        server.wait(lambda: connected(server))
        cid = server.challenge(color="black")
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.board.move_stack)
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert game.status == "started" and "abandoned" in err


def test_sigterm_stops_with_status_0(server: FakeServer) -> None:
    with bot_process(server) as process:
        server.wait(lambda: connected(server))
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    assert process.returncode == 0, err


def test_a_wrong_token_is_a_clear_error(server: FakeServer) -> None:
    done = emergo("bot", "--server", server.url, "--token", "not-the-token", *QUICK)
    assert done.returncode == 2
    assert "emergo bot: the server refused the token (401: No such token)" in done.stderr
    assert "Traceback" not in done.stderr and "not-the-token" not in done.stderr


def test_the_match_option_plays_its_games_and_exits(server: FakeServer) -> None:
    with bot_process(server, "--challenge", "Rival", "--games", "2", "--tc", "30+0") as process:
        _, err = process.communicate(timeout=90)
    assert process.returncode == 0, err
    assert len(server.games) == 2 and all(g.status != "started" for g in server.games.values())
    assert "the match against Rival is over: 2 games" in err


def test_a_server_without_the_bot_api() -> None:
    with FakeServer() as fake:
        done = emergo("bot", "--server", fake.url + "/nothing-here", "--token", fake.token)
    assert done.returncode == 1
    assert "has no bot API (GET /api/account: 404)" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--accept", "variant=10x10"], "unknown variant '10x10'"),
        (["--server", "ftp://example.org"], "--server: the server must be an http://"),
        (["--level", "12"], "argument --level: must be in 1..11"),
        (["--player", "random", "--level", "3"], "--level is the engine's"),
        (["--engine", "no-such-engine-program-here"], "--engine no-such-engine-program-here"),
        (["--tc", "60+1"], "--tc, --days and --rated set the games of --challenge USER"),
        (["--challenge", "a b"], "--challenge: not a user name"),
        (["--on-exit", "later"], "argument --on-exit: invalid choice"),
    ],
)
def test_bad_options_are_named(argv: list[str], message: str) -> None:
    base = ["bot", "--server", "http://127.0.0.1:9", "--token", "t"]
    done = emergo(*base, *argv)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_the_token_is_needed_and_must_be_one_word() -> None:
    done = emergo("bot", "--server", "http://127.0.0.1:9", env={"EMERGO_BOT_TOKEN": ""})
    assert done.returncode == 2 and "give the bot's token" in done.stderr
    done = emergo("bot", "--server", "http://127.0.0.1:9", "--token", "two words")
    assert done.returncode == 2 and "printable ASCII without spaces" in done.stderr


def test_help_lists_every_option() -> None:
    done = emergo("bot", "--help")
    assert done.returncode == 0
    for option in (
        "--server", "--token", "--token-file", "--player", "--engine", "--option", "--level",
        "--hash", "--movetime", "--accept", "--concurrency", "--correspondence-concurrency",
        "--accept-takebacks", "--greeting", "--games", "--on-exit", "--upgrade", "--challenge",
        "--tc", "--days", "--variant", "--rated", "--color", "--verbose", "--quiet",
    ):  # fmt: skip
        assert option in done.stdout


# Makes the web extra's packages (and other HTTP clients) unimportable, then runs the command line.
WITHOUT_EXTRAS = """
import sys
for name in ("starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "platformdirs",
             "httpx", "requests"):
    sys.modules[name] = None  # import fails with ImportError
from emergo.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_bot_needs_no_extra(server: FakeServer) -> None:
    server.opponent = None
    process = subprocess.Popen(
        [sys.executable, "-c", WITHOUT_EXTRAS, "bot", "--server", server.url, *QUICK],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "EMERGO_BOT_TOKEN": server.token},
        preexec_fn=_default_sigint,
    )
    try:
        server.wait(lambda: connected(server))
        cid = server.challenge(color="black")
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.board.move_stack)  # it played a move
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)  # (two signals at once are one for Python)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
