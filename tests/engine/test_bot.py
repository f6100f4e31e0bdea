"""``emergo.botclient``: the bot against a fake lichess-shaped server (tests/botserver.py).

The bot runs in a thread of the test with the built-in engine at level 1 and a tiny move
time; the server's opponent plays random moves unless a test scripts it.  The command line
(Ctrl-C, exit statuses, the log) is tested in tests/test_bot_cli.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from emergo import Board
from emergo.botclient import (
    Api,
    AuthError,
    Bot,
    BotConfig,
    BotError,
    Challenge,
    ChallengeSpec,
    EngineSpec,
    Policy,
    RateLimited,
)
from emergo.botclient.api import Backoff, check_server, retry_after
from emergo.botclient.policy import speed_of
from tests.plugins.botserver import FakeGame, FakeServer

QUICK = EngineSpec(level=1, movetime=0.02)
FAST = {"backoff_base": 0.05, "backoff_cap": 0.5}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


class Running:
    """A bot running in a thread: ``bot``, and ``outcome`` or ``error`` once it returned."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.outcome: str | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            self.outcome = self.bot.run()
        except BaseException as e:
            self.error = e

    def join(self, timeout: float = 20.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the bot did not stop"


@contextmanager
def running(server: FakeServer, token: str | None = None, **options: Any) -> Iterator[Running]:
    config = BotConfig(**{"engine": QUICK, **FAST, **options})
    api = Api(server.url, token or server.token, stream_timeout=5.0)
    run = Running(Bot(api, config))
    run.thread.start()
    try:
        if token is None:
            assert run.bot.connected.wait(10), "the bot did not connect"
        yield run
    finally:
        run.bot.stop("abandon")
        run.bot.stop("abandon")
        run.join()


def over(game: FakeGame) -> bool:
    return game.status != "started"


# --- the policy ----------------------------------------------------------------------------


def challenge_json(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "c1",
        "status": "created",
        "challenger": {"id": "alice", "name": "Alice"},
        "destUser": {"id": "botty", "name": "Botty", "title": "BOT"},
        "variant": {"key": "9x9"},
        "rated": False,
        "speed": "blitz",
        "timeControl": {"type": "clock", "limit": 300, "increment": 3},
        "color": "random",
    }
    data.update(fields)
    return data


@pytest.mark.parametrize(
    ("words", "fields", "reason"),
    [
        ([], {}, None),
        (["variant=9x9"], {"variant": {"key": "hex"}}, "variant"),
        ([], {"variant": {"key": "chess"}}, "variant"),
        (["speed=rapid,classical"], {}, "tooFast"),
        (["speed=bullet"], {}, "tooSlow"),
        (["speed=bullet,rapid"], {}, "timeControl"),
        (["mode=casual"], {"rated": True}, "casual"),
        (["mode=rated"], {}, "rated"),
        (["users=bob,carol"], {}, "generic"),
        (["users=bob,alice"], {}, None),
        (["block=ALICE"], {}, "generic"),
        (["bots=no"], {"challenger": {"id": "rival", "title": "BOT"}}, "noBot"),
        (["bots=only"], {}, "onlyBot"),
        (["bots=only"], {"challenger": {"id": "rival", "title": "BOT"}}, None),
        (["none"], {}, "generic"),
        (["speed=correspondence"], {"timeControl": {"type": "correspondence"}}, None),
        (["speed=unlimited"], {"timeControl": {"type": "unlimited"}, "speed": ""}, None),
        (["variant=9x9"], {"variant": {"key": "standard"}}, None),
    ],
)
def test_policy_accepts_or_names_lichess_decline_reason(
    words: list[str], fields: dict[str, Any], reason: str | None
) -> None:
    challenge = Challenge.from_json(challenge_json(**fields))
    assert Policy.parse(words).decline_reason(challenge) == reason


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["variant=10x10"], "unknown variant '10x10'"),
        (["speed=fast"], "unknown speed 'fast'"),
        (["mode=serious"], "unknown mode 'serious'"),
        (["bots=maybe"], "expected yes, no or only"),
        (["colour=white"], "bad --accept word 'colour=white'"),
        (["variant="], "needs at least one value"),
    ],
)
def test_policy_words_that_are_wrong_are_named(words: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Policy.parse(words)


def test_speed_from_the_clock_when_the_server_sends_none() -> None:
    data = challenge_json(speed=None, timeControl={"type": "clock", "limit": 60, "increment": 0})
    assert Challenge.from_json(data).speed == "bullet" == speed_of(60, 0)
    assert Challenge.from_json(data).describe() == "9x9 1+0 casual"


def test_retry_after_and_backoff() -> None:
    assert retry_after("3", 60) == 3.0 and retry_after("", 60) == 60.0
    assert retry_after("-5", 60) == 0.0 and retry_after("1e9", 60) == 3600.0
    backoff = Backoff(1.0, 8.0)
    delays = [backoff.next() for _ in range(6)]
    assert all(0.5 * d <= got <= d for got, d in zip(delays, [1, 2, 4, 8, 8, 8], strict=True))
    backoff.reset()
    assert backoff.next() <= 1.0


@pytest.mark.parametrize("url", ["ftp://host", "localhost:8000", "http://", "http://h:99999"])
def test_server_url_checked(url: str) -> None:
    with pytest.raises(ValueError):
        check_server(url)


def test_api_never_shows_its_token(server: FakeServer) -> None:
    api = Api(server.url + "/", server.token)
    assert server.token not in repr(api)
    assert api.get("/api/account")["id"] == "botty"
    assert server.requests[-1].authorization == f"Bearer {server.token}"


def test_a_429_holds_the_endpoint_back_for_retry_after_or_a_minute(server: FakeServer) -> None:
    api = Api(server.url, server.token)
    server.fail("GET", "/api/account", 429)
    with pytest.raises(RateLimited) as caught:
        api.get("/api/account")
    assert caught.value.retry_after == 60.0  # no Retry-After: lichess's minute
    asked = len(server.requests)
    with pytest.raises(RateLimited):  # not sent again before the minute is over
        api.get("/api/account")
    assert len(server.requests) == asked
    server.fail("POST", "/api/bot/game/x/move/", 429)
    with pytest.raises(RateLimited) as caught:
        api.post("/api/bot/game/{}/move/{}", "x", "d4")
    assert caught.value.retry_after == 1.0  # a move: a second
    server.fail("POST", "/api/challenge/", 429, {"Retry-After": "7"})
    with pytest.raises(RateLimited) as caught:
        api.post("/api/challenge/{}/accept", "c1")
    assert caught.value.retry_after == 7.0


# --- challenges ------------------------------------------------------------------------------


def test_challenges_accepted_or_declined_by_the_policy(server: FakeServer) -> None:
    policy = Policy.parse(["variant=9x9,7x7", "mode=casual", "bots=no", "speed=bullet,blitz"])
    server.opponent = None  # the accepted game waits: one slot is enough
    with running(server, policy=policy, concurrency=4):
        ids = {
            "hex": server.challenge(variant="hex"),
            "rated": server.challenge(rated=True),
            "bot": server.challenge("Rival"),
            "slow": server.challenge(clock=(900, 10)),
            "ok": server.challenge(variant="7x7", clock=(120, 1)),
        }
        server.wait(lambda: all(cid in server.answers for cid in ids.values()))
    assert {name: server.answers[cid] for name, cid in ids.items()} == {
        "hex": "declined:variant",
        "rated": "declined:casual",
        "bot": "declined:noBot",
        "slow": "declined:tooSlow",
        "ok": "accepted",
    }


def test_a_busy_bot_queues_a_challenge_then_declines_it_later(server: FakeServer) -> None:
    server.opponent = None  # the first game goes on: the bot stays busy
    with running(server, queue_wait=0.5) as run:
        first = server.challenge()
        server.wait(lambda: server.answers.get(first) == "accepted")
        second = server.challenge()
        correspondence = server.challenge(clock=None, days=3)  # its own limit: accepted
        server.wait(lambda: second in server.answers and correspondence in server.answers)
        assert server.answers[second] == "declined:later"
        assert server.answers[correspondence] == "accepted"
        assert set(run.bot.games) == {first, correspondence}


@pytest.mark.parametrize("sparse", [False, True])
def test_a_queued_challenge_is_accepted_when_the_game_ends(
    server: FakeServer, sparse: bool
) -> None:
    server.sparse = sparse  # the game's id is not the challenge's: the accept's answer says it
    with running(server, queue_wait=30.0, accept_wait=30.0):
        first = server.challenge(clock=(30, 0))
        second = server.challenge(clock=(30, 0))
        game = server.wait(lambda: server.game_of(first))
        assert second not in server.answers  # waits for the slot
        server.wait(lambda: over(game))
        server.wait(lambda: server.answers.get(second) == "accepted")


def test_replayed_challenges_and_games_are_taken_up_on_connecting(server: FakeServer) -> None:
    server.opponent = None
    waiting = server.challenge()
    game = server.start_game(server.bot, "Alice", opponent=None)  # before the bot connects
    with running(server, concurrency=2) as run:
        server.wait(lambda: len(game.board.move_stack) == 1)  # the bot plays its move
        server.wait(lambda: server.answers.get(waiting) == "accepted")
        server.wait(lambda: set(run.bot.games) == {game.id, waiting})


def test_the_bots_own_challenges_are_not_answered(server: FakeServer) -> None:
    with running(server):
        cid = server.challenge()
        with server.lock:  # the same challenge seen from its challenger's side
            data = server.challenges[cid]
            server.emit(server.bot, {"type": "challenge", "challenge": {**data, "direction": "out",
                        "challenger": {"id": "botty"}, "id": "own1"}})  # fmt: skip
        server.wait(lambda: cid in server.answers)
        time.sleep(0.3)
    assert "own1" not in server.answers
    assert not server.posts("/api/challenge/own1")


# --- games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bot_color", ["white", "black"])
def test_a_whole_game_is_played_to_its_end(server: FakeServer, bot_color: str) -> None:
    with running(server) as run:
        cid = server.challenge(clock=(60, 1), color="black" if bot_color == "white" else "white")
        game = server.wait(lambda: server.games.get(cid))
        assert game.players[bot_color == "white"] == server.bot
        server.wait(lambda: over(game), timeout=60)
        server.wait(lambda: run.bot.ended)
    assert game.status in ("mate", "draw")
    handler = run.bot.ended[0]
    assert handler.id == cid and handler.over and handler.result
    assert handler.plies_played == len(server.posts(f"/api/bot/game/{cid}/move/"))
    # every move the bot sent was legal where it was sent, and the record replays
    replay = Board()
    for move in game.board.move_stack:
        replay.push_move(str(move))
    assert replay.outcome() == game.board.outcome() is not None


def test_the_bot_moves_within_a_short_clock(server: FakeServer) -> None:
    """Full strength without a move time: the clock alone (time_budget) must keep it on time."""
    with running(server, engine=EngineSpec()):
        cid = server.challenge(clock=(3, 0))
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: over(game), timeout=60)
    bot_color = game.color_of(server.bot)
    assert not (game.status == "outoftime" and game.winner != bot_color), game.left
    assert len(server.posts(f"/api/bot/game/{cid}/move/")) >= 5


def test_a_correspondence_game_is_played_at_the_bots_pace(server: FakeServer) -> None:
    with running(server, engine=replace(QUICK, movetime=0.01)):
        cid = server.challenge(clock=None, days=2)
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: over(game), timeout=60)
    assert game.status in ("mate", "draw")


def test_an_external_engine_plays_through_the_protocol(server: FakeServer) -> None:
    import sys

    engine = EngineSpec(command=f"{sys.executable} -m emergo.cli.engine", level=1, movetime=0.02)
    with running(server, engine=engine):
        cid = server.challenge(clock=(60, 0), variant="7x7")
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: over(game), timeout=90)
    assert game.status in ("mate", "draw")


def offer_draw_then(move: bool) -> Any:
    """An opponent that offers a draw on its first turn (with a move, or instead of one)."""

    def opponent(game: FakeGame) -> None:
        color = game.board.turn
        if not game.answers:
            game.draw_offer = color
            if not move:
                game.publish()
                return
        game.play(color, str(game.board.moves()[0]))
        game.publish()

    return opponent


def test_a_draw_offer_is_declined_by_a_bot_that_is_not_worse(server: FakeServer) -> None:
    server.opponent = offer_draw_then(move=True)
    with running(server):
        cid = server.challenge(color="white")  # the opponent moves first, and offers
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: len(game.board.move_stack) >= 4)
    assert game.answers[0] == "draw-no" and game.status == "started"


def test_a_draw_offer_is_accepted_by_a_bot_that_stands_worse(server: FakeServer) -> None:
    # White (the opponent) has three men to the bot's one: the bot's engine scores it lost.
    with running(server):
        game = server.start_game(
            "Alice",
            server.bot,
            initial="w 0/0 a5:w c5:w e3:w i5:b",
            opponent=offer_draw_then(move=False),
        )
        server.wait(lambda: over(game))
    assert game.answers == ["draw-yes"] and game.status == "draw"


def takeback_then_play(game: FakeGame) -> None:
    """An opponent that asks for a takeback once, after the bot's second move."""
    color = game.board.turn
    if game.takeback_request is not None:
        return  # waits for the answer
    if len(game.board.move_stack) >= 4 and not game.answers:
        game.takeback_request = color
        game.publish()  # its turn: the bot answers, then the opponent goes on
        return
    game.play(color, str(game.board.moves()[0]))
    game.publish()


@pytest.mark.parametrize("accept", [False, True])
def test_takeback_requests_declined_by_default_granted_by_option(
    server: FakeServer, accept: bool
) -> None:
    server.opponent = takeback_then_play
    with running(server, accept_takebacks=accept):
        cid = server.challenge(color="white")
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.answers)
        server.wait(lambda: len(game.board.move_stack) >= game.answer_plies[0] + 3)
    assert game.answers == ["takeback-yes" if accept else "takeback-no"]
    # granted: the bot's last move and the opponent's before it are taken back
    assert game.answer_plies == [2 if accept else 4]


def test_the_win_is_claimed_when_the_opponent_is_gone_long_enough(server: FakeServer) -> None:
    with running(server):
        game = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: len(game.board.move_stack) == 1)  # the bot moved; Alice does not
        with server.lock:
            game.leave(1)
        started = time.monotonic()
        server.wait(lambda: over(game))
    assert game.status == "timeout" and game.winner is True
    assert time.monotonic() - started >= 1.0
    assert len(server.posts(f"/api/bot/game/{game.id}/claim-victory")) == 1


def test_no_claim_when_the_opponent_comes_back(server: FakeServer) -> None:
    with running(server):
        game = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: len(game.board.move_stack) == 1)
        with server.lock:
            game.leave(1)
        time.sleep(0.2)
        with server.lock:
            game.come_back()
        time.sleep(1.6)
    assert not server.posts(f"/api/bot/game/{game.id}/claim-victory")


def test_the_greeting_is_said_once(server: FakeServer) -> None:
    with running(server, greeting="Good luck!"):
        cid = server.challenge(color="black")  # the bot moves first: the game is new
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: game.chat)
        server.drop_streams()  # the game stream comes back: no second greeting
        server.wait(lambda: over(game), timeout=60)
    assert game.chat == [("player", "Botty", "Good luck!")]


# --- the network --------------------------------------------------------------------------------


def test_a_429_on_a_move_is_honoured_with_retry_after(server: FakeServer) -> None:
    server.fail("POST", "/api/bot/game/", 429, {"Retry-After": "1"})
    with running(server):
        game = server.start_game(server.bot, "Alice")
        server.wait(lambda: len(game.board.move_stack) >= 3)
    moves = server.posts(f"/api/bot/game/{game.id}/move/")
    assert moves[0].path == moves[1].path  # the same move, sent again ...
    assert moves[1].at - moves[0].at >= 0.95  # ... after the second the server asked for


def test_a_429_on_the_event_stream_waits_retry_after(server: FakeServer) -> None:
    server.fail("GET", "/api/stream/event", 429, {"Retry-After": "1"})
    with running(server):
        pass
    streams = [r for r in server.requests if r.path == "/api/stream/event"]
    assert len(streams) >= 2 and streams[1].at - streams[0].at >= 0.95


def test_dropped_streams_are_reconnected_and_the_game_goes_on(server: FakeServer) -> None:
    with running(server):
        cid = server.challenge(clock=(60, 0))
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: len(game.board.move_stack) >= 6)
        server.drop_streams()
        server.wait(lambda: server.event_connections >= 2)
        server.wait(lambda: over(game), timeout=60)
    streams = [r for r in server.requests if r.path == f"/api/bot/game/stream/{cid}"]
    assert len(streams) >= 2
    assert game.status in ("mate", "draw")


def test_a_server_error_at_start_is_retried(server: FakeServer) -> None:
    server.fail("GET", "/api/account", 503, times=2)
    with running(server):
        pass
    assert [r.path for r in server.requests[:3]] == ["/api/account"] * 3


def test_a_wrong_token_stops_the_bot_with_a_clear_error(server: FakeServer) -> None:
    with running(server, token="wrong-token") as run:
        run.join()
    assert isinstance(run.error, BotError) and run.error.status == 2
    assert "refused the token (401" in str(run.error)


def test_a_token_revoked_while_playing_stops_the_bot(server: FakeServer) -> None:
    with running(server) as run:
        server.opponent = None
        cid = server.challenge()
        server.wait(lambda: cid in run.bot.games)
        with server.lock:
            server.tokens.clear()
        server.drop_streams()
        run.join()
    assert isinstance(run.error, BotError) and "401" in str(run.error)


def test_a_token_without_bot_play_is_refused_when_the_server_lists_scopes(
    server: FakeServer,
) -> None:
    server.accounts["botty"]["scopes"] = ["board:play", "challenge:read"]
    with running(server, token=server.token) as run:
        run.join()
    assert isinstance(run.error, BotError) and run.error.status == 2
    assert (
        str(run.error) == "the token lacks the scope bot:play (it has: board:play, challenge:read)"
    )


def test_an_account_that_is_not_a_bot_is_refused_unless_upgraded(server: FakeServer) -> None:
    server.accounts["botty"].pop("title")
    with running(server, token=server.token) as run:
        run.join()
    assert isinstance(run.error, BotError) and "--upgrade" in str(run.error)
    with running(server, upgrade=True):
        pass
    assert server.posts("/api/bot/account/upgrade")
    assert server.accounts["botty"]["title"] == "BOT"


# --- stopping ------------------------------------------------------------------------------------


def test_stop_resign_resigns_the_live_games_and_leaves_correspondence(server: FakeServer) -> None:
    server.opponent = None
    with running(server, concurrency=2) as run:
        live = server.start_game(server.bot, "Alice", opponent=None)
        slow = server.start_game(server.bot, "Alice", clock=None, days=3, opponent=None)
        server.wait(lambda: live.board.move_stack and slow.board.move_stack)
        run.bot.stop("resign")
        run.join()
    assert run.outcome == "stopped"
    assert live.status == "resign" and live.winner is False
    assert slow.status == "started"  # goes on at the next start


def test_stop_finish_plays_the_live_game_to_its_end(server: FakeServer) -> None:
    server.opponent = None
    with running(server) as run:
        game = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: game.board.move_stack)
        run.bot.stop("finish")
        time.sleep(0.5)
        assert run.thread.is_alive()  # the game is not over: the bot waits
        late = server.challenge()
        server.wait(lambda: server.answers.get(late) == "declined:later")
        with server.lock:
            game.opponent = lambda g: (g.play(g.board.turn, str(g.board.moves()[0])), g.publish())
            game._maybe_opponent()
        server.wait(lambda: over(game), timeout=60)
        run.join()
    assert run.outcome == "stopped" and game.status in ("mate", "draw")
    assert not server.posts(f"/api/bot/game/{game.id}/resign")


def test_a_second_stop_abandons_at_once(server: FakeServer) -> None:
    with running(server) as run:
        game = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: game.board.move_stack)
        run.bot.stop("finish")
        time.sleep(0.3)
        run.bot.stop()
        run.join(5)
    assert run.outcome == "stopped" and game.status == "started"


def test_games_limit_stops_after_that_many_games(server: FakeServer) -> None:
    with running(server, games=1, queue_wait=30.0) as run:
        cid = server.challenge(clock=(30, 0))
        more = server.challenge(clock=(30, 0))
        server.wait(lambda: server.answers.get(more) == "declined:later")
        run.join(60)
    assert run.outcome == "done" and [g.id for g in run.bot.ended] == [cid]


# --- the bot's own challenges ---------------------------------------------------------------


@pytest.mark.parametrize("sparse", [False, True])
def test_a_match_of_the_bots_own_challenges(server: FakeServer, sparse: bool) -> None:
    server.sparse = sparse  # a gameStart without the opponent: the gameFull tells
    spec = ChallengeSpec("Rival", games=3, variant="7x7", limit=30, increment=0)
    with running(server, challenge=spec) as run:
        run.join(90)
    assert run.outcome == "done" and not run.bot.match_failed
    assert [form["color"] for form in server.challenge_variants] == ["white", "black", "white"]
    assert server.challenge_variants[0] == {
        "variant": "7x7",
        "rated": "false",
        "color": "white",
        "clock.limit": "30",
        "clock.increment": "0",
    }
    games = [server.games[g.id] for g in run.bot.ended]
    assert len(games) == 3 and all(over(g) for g in games)


@pytest.mark.parametrize("sparse", [False, True])
def test_a_declined_match_challenge_ends_the_match(server: FakeServer, sparse: bool) -> None:
    server.sparse = sparse
    server.accept_challenges = False
    spec = ChallengeSpec("Rival", games=2, days=3)
    with running(server, challenge=spec) as run:
        run.join(30)
    assert run.outcome == "done" and "declined" in run.bot.match_failed
    assert server.challenge_variants[0]["days"] == "3"


def test_the_fake_server_refuses_a_wrong_token() -> None:
    """The fake itself: every endpoint needs the token (so the tests above mean something)."""
    with FakeServer() as fake:
        api = Api(fake.url, "nope")
        for call in (
            lambda: api.get("/api/account"),
            lambda: api.stream("/api/stream/event"),
            lambda: api.post("/api/bot/game/{}/move/{}", "g1", "d4"),
        ):
            with pytest.raises(AuthError):
                call()


def test_a_game_stream_the_bot_may_not_read_is_left_and_the_bot_goes_on(
    server: FakeServer,
) -> None:
    server.fail("GET", "/api/bot/game/stream/", 403)
    with running(server) as run:
        first = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: [g.id for g in run.bot.ended] == [first.id])
        cid = server.challenge(clock=(30, 0))
        game = server.wait(lambda: server.games.get(cid))
        server.wait(lambda: over(game), timeout=60)
    assert run.error is None and first.status == "started"


DYING_ENGINE = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "emergo":
        print("id name=Dying protocol=1")
        print("option name=Level type=spin min=1 max=11 default=11")
        print("wait", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "ping":
        print("pong " + line.split()[1], flush=True)
    elif word in ("go", "quit"):
        sys.exit(3)
"""


def test_an_engine_that_dies_is_started_again_then_the_game_resigned(
    server: FakeServer, tmp_path: Any
) -> None:
    import shlex
    import sys

    script = tmp_path / "dying.py"
    script.write_text(DYING_ENGINE)
    command = shlex.join([sys.executable, str(script)])
    with running(server, engine=EngineSpec(command=command, level=2)):
        game = server.start_game(server.bot, "Alice", opponent=None)
        server.wait(lambda: over(game))
    assert game.status == "resign" and game.winner is False
