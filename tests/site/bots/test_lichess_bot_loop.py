"""lichess-bot's event loop against the real server (issue 27): a thin client of our own that
makes the calls lichess-bot's ``lib/`` makes (lichess.py, lichess_bot.py, model.py,
matchmaking.py, conversation.py), in the same order, with the same parameters and headers
(``requests``, as lichess-bot: ``Accept: */*``, ``User-Agent: lichess-bot/VERSION user:NAME``,
the token as ``Authorization: Bearer``), reading the same fields with the same strictness
(``x["key"]`` where lichess-bot indexes, so a missing field fails here as it would crash it).
The chess engine is left out: moves are Emergo's (docs/online.md says what still differs)."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import pytest

from emergo.board import Board
from tests.plugins.game_helpers import wait_for
from tests.plugins.site import account

requests = pytest.importorskip("requests", reason="requests (lichess-bot's HTTP) is not installed")

VERSION = "2025.1.1"
"""The lichess-bot version of the User-Agent (any: the server reads no version)."""


class Stream:
    """An NDJSON stream read as lichess-bot reads one (``iter_lines``, timeout 15 s): the
    decoded lines in a queue, ``{"type": "ping"}`` for a keep-alive, None at the end."""

    def __init__(self, response: Any) -> None:
        assert response.status_code == 200, response.text
        self.response = response
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                self.lines.put(json.loads(line.decode("utf-8")) if line else {"type": "ping"})
        except Exception:  # closed by the test, or the server stopping
            pass
        finally:
            self.lines.put(None)

    def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """The next event of a type, past pings and the others."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert event is not None, f"the stream ended before a {kind}"
            assert "type" in event, event  # lichess-bot's next_event: no type, not handled
            if event["type"] == kind:
                return event

    def close(self) -> None:
        self.response.close()


class LichessBot:
    """lichess-bot's calls (lib/lichess.py), each with its endpoint's parameters."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/") + "/"
        self.token = token
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}"})
        self.set_user_agent("?")
        # Lichess.__init__: the token must have bot:play
        info = self.post("api/token/test", data=token)[token]
        assert info, "the token is not recognized"
        assert "bot:play" in info["scopes"].split(",")

    def set_user_agent(self, username: str) -> None:
        self.session.headers["User-Agent"] = f"lichess-bot/{VERSION} user:{username}"

    def get(self, path: str, **kwargs: Any) -> Any:
        r = self.session.get(self.base + path, timeout=kwargs.pop("timeout", 2), **kwargs)
        r.raise_for_status()
        r.encoding = "utf-8"
        return r

    def post(self, path: str, *, raise_for_status: bool = True, **kwargs: Any) -> Any:
        r = self.session.post(self.base + path, timeout=2, **kwargs)
        if raise_for_status:
            r.raise_for_status()
        return r.json()

    # the calls, as lichess-bot names them
    def get_profile(self) -> dict[str, Any]:
        profile: dict[str, Any] = self.get("api/account").json()
        self.set_user_agent(profile["username"])
        return profile

    def upgrade_to_bot_account(self) -> None:
        self.post("api/bot/account/upgrade")

    def get_ongoing_games(self) -> list[dict[str, Any]]:
        games: list[dict[str, Any]] = self.get("api/account/playing").json()["nowPlaying"]
        return games

    def get_event_stream(self) -> Stream:
        return Stream(self.get("api/stream/event", stream=True, timeout=15))

    def get_game_stream(self, game_id: str) -> Stream:
        return Stream(self.get(f"api/bot/game/stream/{game_id}", stream=True, timeout=15))

    def accept_challenge(self, challenge_id: str) -> None:
        self.post(f"api/challenge/{challenge_id}/accept")

    def decline_challenge(self, challenge_id: str, reason: str) -> None:
        self.post(
            f"api/challenge/{challenge_id}/decline",
            data=f"reason={reason}",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            raise_for_status=False,
        )

    def make_move(self, game_id: str, move: str, draw_offered: bool = False) -> None:
        self.post(
            f"api/bot/game/{game_id}/move/{move}",
            params={"offeringDraw": str(draw_offered).lower()},
        )

    def accept_takeback(self, game_id: str, accept: bool) -> None:
        self.post(f"api/bot/game/{game_id}/takeback/{'yes' if accept else 'no'}")

    def chat(self, game_id: str, room: str, text: str) -> None:
        self.post(f"api/bot/game/{game_id}/chat", data={"room": room, "text": text})

    def abort(self, game_id: str) -> None:
        self.post(f"api/bot/game/{game_id}/abort")

    def resign(self, game_id: str) -> None:
        self.post(f"api/bot/game/{game_id}/resign")

    def get_game_pgn(self, game_id: str) -> str:
        text: str = self.get(f"game/export/{game_id}").text
        return text

    def get_online_bots(self) -> list[dict[str, Any]]:
        lines = self.get("api/bot/online").text.split("\n")
        return [json.loads(line) for line in lines if line]

    def challenge(self, username: str, payload: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self.post(
            f"api/challenge/{username}", json=payload, raise_for_status=False
        )
        return answer

    def cancel(self, challenge_id: str) -> None:
        self.post(f"api/challenge/{challenge_id}/cancel", raise_for_status=False)

    def is_online(self, user_id: str) -> bool:
        users = self.get("api/users/status", params={"ids": user_id}).json()
        return bool(users and users[0].get("online"))

    def get_public_data(self, username: str) -> dict[str, Any]:
        data: dict[str, Any] = self.get(f"api/user/{username}").json()
        return data


def read_challenge(info: dict[str, Any], username: str) -> dict[str, Any]:
    """model.Challenge: the fields it indexes (a KeyError there stops lichess-bot)."""
    time_control = info.get("timeControl", {})
    color = info["color"]
    challenger = info.get("challenger") or {}
    return {
        "id": info["id"],
        "rated": info["rated"],
        "variant": info["variant"]["key"],
        "perf_name": info["perf"]["name"],
        "speed": info["speed"],
        "increment": time_control.get("increment"),
        "base": time_control.get("limit"),
        "days": time_control.get("daysPerTurn"),
        "challenger": challenger.get("name", ""),
        "challenger_is_bot": challenger.get("title") == "BOT",
        "target": (info.get("destUser") or {}).get("name", ""),
        "from_self": challenger.get("name", "") == username,
        "initial_fen": info.get("initialFen", "startpos"),
        "color": color if color != "random" else info["finalColor"],
        "time_control": info["timeControl"],
    }


def read_game(full: dict[str, Any], username: str) -> dict[str, Any]:
    """model.Game: the gameFull fields it indexes."""
    clock = full.get("clock") or {}
    white, black = full["white"], full["black"]
    is_white = (white.get("name") or "").lower() == username.lower()
    return {
        "id": full["id"],
        "speed": full.get("speed"),
        "clock_initial": clock.get("initial"),
        "perf": (full.get("perf") or {}).get("name", "{perf?}"),
        "variant_name": full["variant"]["name"],
        "white": white.get("name"),
        "black": black.get("name"),
        "opponent_title": (black if is_white else white).get("title"),
        "initial_fen": full.get("initialFen"),
        "state": full["state"],
        "is_white": is_white,
        "created": full["createdAt"],
    }


def clocks(state: dict[str, Any], white_to_move: bool) -> tuple[int, int]:
    """play_game's reads of every gameState: the side to move's time and increment."""
    return (
        state["wtime" if white_to_move else "btime"],
        state["winc" if white_to_move else "binc"],
    )


def board_moves(state: dict[str, Any]) -> list[str]:
    moves: list[str] = state["moves"].split()
    return moves


def board_of(game: dict[str, Any], state: dict[str, Any]) -> Board:
    """setup_board, with an Emergo board in place of python-chess's (the engine's part)."""
    board = Board(variant=game["variant_name"])
    for text in state["moves"].split():
        board.push_move(text)
    return board


def person(token: str) -> Any:
    """A person on the Board API, with requests."""
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {token}"
    return s


def start(live: str, site: Any, name: str) -> tuple[LichessBot, dict[str, Any]]:
    """lichess-bot's start: the token test, the profile, ``-u`` when it is no bot yet."""
    from emergo.server.user.tokens import BOT_SCOPES

    user = site.users.create(name, None)
    bot = LichessBot(live, site.tokens.create(user.id, BOT_SCOPES))
    profile = bot.get_profile()
    if profile.get("title") != "BOT":
        bot.upgrade_to_bot_account()
    assert bot.get_profile()["title"] == "BOT"
    return bot, profile


def test_a_whole_bot_game_as_lichess_bot_plays_it(site, live):
    """Startup, a challenge declined and one accepted, the game stream with the greeting in
    both rooms, moves with offeringDraw, a chat command answered, a takeback declined, the
    opponent's resignation, the goodbye, the record and the online check."""
    bot, profile = start(live, site, "robo")
    username = profile["username"]
    _ann, ann_token = account(site, "ann")
    ann = person(ann_token)
    ongoing = bot.get_ongoing_games()  # lichess_bot_main: the games in progress
    assert ongoing == []
    events = bot.get_event_stream()

    # a challenge lichess-bot's config does not take (variants: [9x9]): declined, "variant"
    r = ann.post(f"{live}/api/challenge/robo", data={"variant": "hex", "clock.limit": 300})
    assert r.status_code == 200, r.text
    hex_challenge = read_challenge(events.next("challenge")["challenge"], username)
    assert hex_challenge["variant"] == "hex" and not hex_challenge["from_self"]
    bot.decline_challenge(hex_challenge["id"], "variant")
    shown = ann.get(f"{live}/api/challenge/{hex_challenge['id']}/show").json()
    assert shown["status"] == "declined" and shown["declineReasonKey"] == "variant"

    made = ann.post(
        f"{live}/api/challenge/robo",
        data={"clock.limit": 300, "clock.increment": 2, "color": "random", "rated": "false"},
    )
    assert made.status_code == 200, made.text
    challenge = read_challenge(events.next("challenge")["challenge"], username)
    assert challenge["challenger"] == "ann" and not challenge["challenger_is_bot"]
    assert challenge["variant"] == "9x9" and challenge["perf_name"]
    assert (challenge["base"], challenge["increment"]) == (300, 2)
    assert challenge["color"] in ("white", "black")  # finalColor: the challenger's
    engagements = [g["opponent"]["username"] for g in bot.get_ongoing_games()]  # handle_challenge
    assert engagements == []
    bot.accept_challenge(challenge["id"])
    active_games = {challenge["id"]}  # accept_challenges counts the challenge's id as the game's
    started = events.next("gameStart")
    game_id = started["game"]["id"]
    assert game_id in active_games

    lines = bot.get_game_stream(game_id)
    full = lines.next("gameFull")
    game = read_game(full, username)
    assert game["is_white"] == (challenge["color"] == "black")  # ann's final colour held
    assert game["opponent_title"] is None and game["clock_initial"] == 300_000
    assert game["initial_fen"] == Board(variant="9x9").position()
    ann_lines = Stream(ann.get(f"{live}/api/board/game/stream/{game_id}", stream=True, timeout=15))
    ann_lines.next("gameFull")
    me, them = ("w", "b") if game["is_white"] else ("b", "w")
    greeted: list[str] = []

    def bot_turn(state: dict[str, Any], draw_offered: bool = False) -> None:
        board = board_of(game, state)
        assert game["is_white"] == (len(board_moves(state)) % 2 == 0)  # bot_to_move
        if len(board_moves(state)) < 2 and not greeted:  # say_hello: both rooms
            bot.chat(game_id, "player", "Hi! I'm robo.")
            bot.chat(game_id, "spectator", "Hi! Type !help for my commands.")
            greeted.append("yes")
        bot.make_move(game_id, board.move_text(board.moves()[0]), draw_offered)

    def ann_move(state: dict[str, Any]) -> None:
        board = board_of(game, state)
        r = ann.post(f"{live}/api/board/game/{game_id}/move/{board.move_text(board.moves()[0])}")
        assert r.status_code == 200, r.text

    def next_state() -> dict[str, Any]:
        state = lines.next("gameState")
        assert state["status"] == "started"  # is_game_over: anything else ends the game
        clocks(state, len(board_moves(state)) % 2 == 0)  # read after every gameState
        return state

    state = game["state"]
    if game["is_white"]:
        bot_turn(state)
        state = next_state()
    while len(board_moves(state)) < 4:
        ann_move(state)
        state = next_state()
        bot_turn(state)
        state = next_state()
    # the engine offers a draw with its move; ann declines it by playing on
    ann_move(state)
    state = next_state()
    bot_turn(state, draw_offered=True)
    state = next_state()
    assert state[f"{me}draw"] is True and not state[f"{them}draw"]
    ann_move(state)
    state = next_state()
    assert not state[f"{me}draw"]
    # ann asks for a takeback on her turn: lichess-bot answers no (max_takebacks_accepted 0)
    bot_turn(state)
    state = next_state()
    r = ann.post(f"{live}/api/board/game/{game_id}/takeback/yes")
    assert r.status_code == 200, r.text
    state = next_state()
    assert state[f"{them}takeback"] is True
    bot_to_move = game["is_white"] == (len(board_moves(state)) % 2 == 0)
    assert not bot_to_move
    bot.accept_takeback(game_id, False)
    state = next_state()
    assert not state[f"{them}takeback"]
    # a chat command in the players' room, answered in the room it came from (Conversation)
    r = ann.post(f"{live}/api/board/game/{game_id}/chat", data={"room": "player", "text": "!name"})
    assert r.status_code == 200, r.text
    line = lines.next("chatLine")
    while line["username"] == username:  # its own greeting comes back on its stream too
        line = lines.next("chatLine")
    assert (line["room"], line["username"], line["text"]) == ("player", "ann", "!name")
    bot.chat(game_id, line["room"], "robo running a first-legal-move engine (lichess-bot)")
    reply = ann_lines.next("chatLine")
    while (
        reply["username"] != username or reply["room"] != "player" or "running" not in reply["text"]
    ):
        reply = ann_lines.next("chatLine")
    r = ann.post(f"{live}/api/board/game/{game_id}/resign")
    assert r.status_code == 200, r.text
    state = lines.next("gameState")
    # the game is over: tell_user_game_result, the goodbyes, the record
    assert state["status"] == "resign"
    assert state.get("winner") == ("white" if game["is_white"] else "black")
    clocks(state, True)
    bot.chat(game_id, "player", "Good game!")
    bot.chat(game_id, "spectator", "Thanks for watching!")
    record = bot.get_game_pgn(game_id)
    assert '[White "' in record and "[Result " in record
    assert bot.is_online(profile["id"])  # check_online_status: its event stream is open
    lines.close()
    ann_lines.close()
    events.close()


def test_matchmaking_and_a_restart_with_a_correspondence_game(site, live):
    """Matchmaking: the online bots, a challenge declined (challengeDeclined read in full), one
    unanswered and cancelled, one accepted (gameStart under its id); then lichess-bot starts
    again with that correspondence game in progress and aborts it."""
    robo, profile = start(live, site, "robo")
    other, _other = start(live, site, "other")
    other_events = other.get_event_stream()  # online from now on
    events = robo.get_event_stream()
    # the server marks a bot online when it has opened the stream, a moment after the answer's
    # headers: lichess-bot asks again at its next matchmaking round
    wait_for(lambda: "other" in [b["username"] for b in robo.get_online_bots()], 60, "other online")
    online = robo.get_online_bots()
    opponent = next(b for b in online if b["username"] == "other")
    assert isinstance(opponent.get("perfs", {}), dict)
    assert not robo.get_public_data("other").get("blocking")

    def create(payload: dict[str, Any]) -> str:
        answer = robo.challenge("other", {"rated": False, "variant": "9x9", **payload})
        challenge_id: str = answer.get("id", "")
        assert challenge_id, answer
        return challenge_id

    # declined by the other bot: matchmaker.declined_challenge reads the whole challenge
    declined_id = create({"clock.limit": 60, "clock.increment": 1})
    incoming = read_challenge(other_events.next("challenge")["challenge"], "other")
    assert incoming["id"] == declined_id and incoming["challenger_is_bot"]
    other.decline_challenge(declined_id, "tooFast")
    event = events.next("challengeDeclined")["challenge"]
    back = read_challenge(event, profile["username"])
    assert back["id"] == declined_id and back["from_self"] and back["target"] == "other"
    assert event["declineReason"] and event["declineReasonKey"].lower() == "toofast"

    # unanswered: cancelled (should_create_challenge, 25 s later in lichess-bot)
    cancelled_id = create({"clock.limit": 180, "clock.increment": 2})
    robo.cancel(cancelled_id)
    assert other_events.next("challengeCanceled")["challenge"]["id"] == cancelled_id

    # accepted: a correspondence game; gameStart's game id is the challenge's
    game_id = create({"days": 2})
    assert other_events.next("challenge")["challenge"]["id"] == game_id
    other.accept_challenge(game_id)
    assert events.next("gameStart")["game"]["id"] == game_id  # matchmaker.accepted_challenge
    events.close()

    # lichess-bot starts again: the correspondence games in progress wait for their gameStart
    ongoing = robo.get_ongoing_games()
    startup_correspondence = [g["gameId"] for g in ongoing if g["speed"] == "correspondence"]
    assert startup_correspondence == [game_id]
    events = robo.get_event_stream()
    started = events.next("gameStart")["game"]
    assert started["id"] == game_id
    # start_game -> enough_time_to_queue: isMyTurn indexed, secondsLeft read if there
    assert isinstance(started["isMyTurn"], bool)
    assert started.get("secondsLeft", 1) > 0
    lines = robo.get_game_stream(game_id)
    full = lines.next("gameFull")
    game = read_game(full, profile["username"])
    assert game["speed"] == "correspondence" and game["clock_initial"] is None
    wtime, winc = clocks(game["state"], True)  # a correspondence game's clocks are there too
    assert wtime > 0 and winc == 0
    assert " " not in game["state"]["moves"]  # is_abortable: lichess-bot aborts an idle game
    robo.abort(game_id)
    assert lines.next("gameState")["status"] == "aborted"
    lines.close()
    events.close()
    other_events.close()


def test_token_test_answers_each_token(site, live):
    """``POST /api/token/test``: lichess's shape for a known token, null for an unknown or
    revoked one, a clear 400 for a body that is no token list."""
    user, token = account(site, "ann")
    spare = site.tokens.create(user.id, ("bot:play",))
    url = f"{live}/api/token/test"
    answer = requests.post(url, data=f"{token},emo_unknown,{spare}", timeout=5).json()
    assert answer[token] == {
        "userId": "ann",
        "scopes": "board:play,challenge:read,challenge:write,tournament:write",
        "expires": None,
    }
    assert answer["emo_unknown"] is None and answer[spare]["scopes"] == "bot:play"
    (info,) = site.tokens.list(user.id)[1:]
    site.tokens.revoke(info.id, user.id)
    assert requests.post(url, data=spare, timeout=5).json() == {spare: None}
    for body in (b"", b" , ", b"\xff", ",".join(f"x{i}" for i in range(101)).encode()):
        r = requests.post(url, data=body, timeout=5)
        assert r.status_code == 400 and "tokens" in r.json()["error"], (body[:10], r.text)
