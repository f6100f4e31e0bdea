"""A practice level of /learn against a house bot, on SQLite and PostgreSQL:
``POST /api/learn/practice`` starts a real game from the level's position tagged with the level,
and the command that meets the level gives its stars in its transaction (a won ``win`` level,
a ``hold`` level at its par, the game still going on); a lost or aborted game gives none, and
nobody but the game's learner gets any.  The house bot's moves come through the Bot API with
its own token."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from emergo.board import BLACK, WHITE, Board, Outcome, Termination
from emergo.server.learn import load_course
from emergo.server.learn.practice import LEARN_TAG, next_level, practice_stars
from emergo.server.round.jsonview import game_full
from emergo.server.round.starts import tags_of
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, new_game

COURSE = load_course()
PATH = "/api/learn/practice"


@pytest.fixture
def people(site: Site, client: Any) -> dict[str, Player]:
    """Ann the learner, Bob another player, and the house bot of level 4, each with a token."""
    house = site.bots.ensure_house((4,))
    out = {}
    for name in ("ann", "bob"):
        user = site.users.create(name, "a good password")
        scopes = ("challenge:write", "board:play", "preference:read")
        out[name] = Player(client, name, site.tokens.create(user.id, scopes))
    bot = house[4]
    out["bot"] = Player(client, bot.name, site.tokens.create(bot.id, ("bot:play",)))
    return out


def start(player: Player, level: str) -> str:
    return str(player.ok(PATH, json={"level": level})["gameId"])


def stars(player: Player) -> dict[str, int]:
    r = player.get("/api/learn/progress")
    assert r.status_code == 200, r.text
    levels: dict[str, int] = r.json()["levels"]
    return levels


def play_line(learner: Player, bot: Player, game: str, level_id: str, moves: int) -> None:
    """The level's sample game, its first ``moves`` moves of the learner (and the bot's replies
    between them): the learner through the Board API, the bot through the Bot API."""
    level = COURSE.levels[level_id]
    for i, text in enumerate(level.solution[:moves]):
        learner.play(game, text)
        if i < len(level.replies) and i + 1 < moves:
            r = bot.post(f"/api/bot/game/{game}/move/{level.replies[i]}")
            assert r.status_code == 200, r.text


def test_the_game_starts_from_the_level_s_position_and_carries_the_level(
    site: Site, people: dict[str, Player]
) -> None:
    for level_id, learner_is_white in (
        ("middlegames/convert", True),
        ("middlegames/defend", False),
    ):
        level = COURSE.levels[level_id]
        game_id = start(people["ann"], level_id)
        game = site.rounds.get(game_id)
        assert game is not None
        assert Board(game.state.root).position() == Board(level.position).position()
        assert (game.seats.white == "ann") is learner_is_white
        assert not game.rated and game.time_control is None
        assert tags_of(site.db, game_id) == {LEARN_TAG: level_id}
        assert game.learn == level_id
        assert game_full(game, 0.0)["learn"] == level_id  # the page's and a client's word
    other = site.rounds.get(new_game(people["ann"], people["bob"]))
    assert other is not None and other.learn is None and "learn" not in game_full(other, 0.0)


def test_a_won_practice_game_gives_its_stars(site: Site, people: dict[str, Player]) -> None:
    ann, bot = people["ann"], people["bot"]
    level = COURSE.levels["middlegames/convert"]
    game = start(ann, level.id)
    play_line(ann, bot, game, level.id, len(level.solution))
    state = ann.state(game)
    assert state["status"] == "mate" and state["winner"] == "white", state  # R18
    assert stars(ann) == {level.id: 3}  # the sample game's moves are the par
    assert stars(people["bob"]) == {}


def test_the_bot_s_resignation_is_a_win(site: Site, people: dict[str, Player]) -> None:
    ann, bot = people["ann"], people["bot"]
    level = COURSE.levels["middlegames/convert"]
    game = start(ann, level.id)
    play_line(ann, bot, game, level.id, 10)
    r = bot.post(f"/api/bot/game/{game}/resign")
    assert r.status_code == 200, r.text
    assert stars(ann) == {level.id: 3}  # 10 moves, within par
    assert next_level(COURSE, level.id) == "middlegames/convert-black"


def test_stars_count_the_learner_s_moves_against_par() -> None:
    convert, defend = COURSE.levels["middlegames/convert"], COURSE.levels["middlegames/defend"]

    def game(moves: int, termination: Termination, winner: bool | None) -> Any:
        return SimpleNamespace(moves=["m"] * moves, outcome=Outcome(termination, winner))

    won = Termination.NO_PIECES
    assert practice_stars(convert, WHITE, game(2 * 26 - 1, won, WHITE)) == 3  # 26 moves: par
    assert practice_stars(convert, WHITE, game(2 * 27 - 1, won, WHITE)) == 2
    assert practice_stars(convert, WHITE, game(2 * 40 - 1, won, WHITE)) == 1
    assert practice_stars(convert, WHITE, game(2 * 26 - 1, won, BLACK)) is None
    assert practice_stars(convert, WHITE, game(30, Termination.REPETITION, None)) is None
    assert practice_stars(convert, WHITE, game(0, Termination.ABORTED, None)) is None
    assert practice_stars(defend, BLACK, game(2 * 12 - 1, Termination.RESIGNATION, WHITE)) == 3
    assert practice_stars(defend, BLACK, game(2 * 11 - 1, Termination.RESIGNATION, WHITE)) is None
    assert practice_stars(defend, BLACK, game(2 * 5, Termination.RESIGNATION, BLACK)) == 3
    assert practice_stars(defend, BLACK, game(2 * 30, Termination.REPETITION, None)) == 3
    # a game going on: a hold level is met at its par, a win level only by the win
    going = SimpleNamespace(moves=["m"] * (2 * 12 - 1), outcome=None)
    assert practice_stars(defend, BLACK, going) == 3
    assert practice_stars(defend, BLACK, SimpleNamespace(moves=["m"] * 22, outcome=None)) is None
    assert practice_stars(convert, WHITE, going) is None


def test_a_lost_or_aborted_game_gives_no_stars(site: Site, people: dict[str, Player]) -> None:
    ann, bot = people["ann"], people["bot"]
    lost = start(ann, "middlegames/convert")
    play_line(ann, bot, lost, "middlegames/convert", 2)
    r = ann.post(f"/api/board/game/{lost}/resign")
    assert r.status_code == 200, r.text
    aborted = start(ann, "middlegames/convert-black")
    r = ann.post(f"/api/board/game/{aborted}/abort")
    assert r.status_code == 200, r.text
    assert ann.state(aborted)["status"] == "aborted"
    # a hold level lost before its par: none
    short = start(ann, "middlegames/defend")
    play_line(ann, bot, short, "middlegames/defend", 3)
    r = ann.post(f"/api/board/game/{short}/resign")
    assert r.status_code == 200, r.text
    assert stars(ann) == {}


def test_a_hold_level_gives_its_stars_at_its_par_not_at_the_game_s_end(
    site: Site, people: dict[str, Player]
) -> None:
    """lichess's "survive N moves": the level is met at the learner's N-th move, the game still
    going on; a loss after that still holds."""
    ann, bot = people["ann"], people["bot"]
    level = COURSE.levels["middlegames/defend"]
    game = start(ann, level.id)
    play_line(ann, bot, game, level.id, level.par - 1)
    r = bot.post(f"/api/bot/game/{game}/move/{level.replies[level.par - 2]}")
    assert r.status_code == 200, r.text
    assert stars(ann) == {}  # one move short of par
    ann.play(game, level.solution[level.par - 1])
    assert ann.state(game)["status"] == "started"
    assert stars(ann) == {level.id: 3}  # par reached: done, no need to finish the game
    r = ann.post(f"/api/board/game/{game}/resign")
    assert r.status_code == 200, r.text
    assert stars(ann) == {level.id: 3}


def test_only_a_game_the_server_started_for_the_level_gives_stars(
    site: Site, people: dict[str, Player]
) -> None:
    """The same position against the same bot as an ordinary game (``/api/challenge/ai``, no
    tag) gives nothing; another player cannot act in ann's practice game, and her win gives
    him nothing."""
    ann, bob, bot = people["ann"], people["bob"], people["bot"]
    level = COURSE.levels["middlegames/convert"]
    plain = site.challenge(
        site.users.by_name("ann"),
        {"fen": level.position, "color": "white"},
        kind="direct",
        dest_name=bot.name,
    )
    game = bot.accept(plain.id)
    assert tags_of(site.db, game) == {}
    play_line(ann, bot, game, level.id, len(level.solution))
    assert ann.state(game)["winner"] == "white"
    assert stars(ann) == {}
    practice = start(ann, level.id)
    assert bob.post(f"/api/board/game/{practice}/resign").status_code in (403, 404)
    assert bob.move(practice, level.solution[0]).status_code in (403, 404)
    play_line(ann, bot, practice, level.id, len(level.solution))
    assert stars(ann) == {level.id: 3}
    assert stars(bob) == {}


def test_who_may_start_a_practice_game(site: Site, client: Any, people: dict[str, Player]) -> None:
    assert client.post(PATH, json={"level": "middlegames/convert"}).status_code == 401
    user = site.users.by_name("ann")
    assert user is not None
    weak = Player(client, "ann", site.tokens.create(user.id, ("preference:read",)))
    assert weak.post(PATH, json={"level": "middlegames/convert"}).status_code == 403
    r = people["bot"].post(PATH, json={"level": "middlegames/convert"})
    assert r.status_code == 403
    ann = people["ann"]
    for body, code in (
        ({"level": "no/such"}, 404),
        ({"level": "capture/jump"}, 409),  # judged move by move, not a game
        ({"level": 3}, 400),
        ({}, 400),
    ):
        r = ann.post(PATH, json=body)
        assert r.status_code == code, (body, r.text)
        assert "error" in r.json()


def test_no_house_bot_of_the_level_s_strength_is_a_503(
    site: Site, people: dict[str, Player]
) -> None:
    level = COURSE.levels["middlegames/convert"]
    assert level.bot == 4
    levels = site.config.bots.levels
    object.__setattr__(site.config.bots, "levels", (1, 2))  # the config is shared: put back
    try:
        r = people["ann"].post(PATH, json={"level": level.id})
    finally:
        object.__setattr__(site.config.bots, "levels", levels)
    assert r.status_code == 503, r.text
    assert "level 4" in r.json()["error"]


def test_a_session_starts_a_practice_game_with_its_csrf_token(site: Site, client: Any) -> None:
    """The level's page posts with the session's cookie, its Origin and its CSRF token: without
    the token it is refused and no game starts."""
    site.bots.ensure_house((4,))
    client.get("/signup")
    origin = str(client.base_url).rstrip("/")
    r = client.post(
        "/signup",
        data={
            "username": "cleo",
            "password": "pass word 1",
            "password2": "pass word 1",
            "csrf": client.cookies.get("emergo_csrf"),
        },
        headers={"Origin": origin},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    body = {"level": "middlegames/convert"}
    assert client.post(PATH, json=body, headers={"Origin": origin}).status_code == 403
    csrf = client.get("/api/account").json()["csrf"]
    r = client.post(PATH, json=body, headers={"Origin": origin, "X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    game = site.rounds.get(r.json()["gameId"])
    assert game is not None and game.seats.white == "cleo"


def test_practice_games_are_limited_as_challenges_to_the_computer(
    site: Site, people: dict[str, Player], steady_limits: float
) -> None:
    """Each is a game a house bot searches for: as many a minute as challenges (an attacker
    started 60 in a row), and counted with them."""
    limits = site.config.limits
    most = limits.challenges_per_minute
    object.__setattr__(limits, "challenges_per_minute", 3)  # the config is shared: put back
    try:
        ann, bob = people["ann"], people["bob"]
        for _ in range(3):
            start(ann, "middlegames/convert")
        r = ann.post(PATH, json={"level": "middlegames/convert"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
        assert "try again" in r.json()["error"]
        r = ann.post("/api/challenge/ai", data={"level": 4})  # the same count
        assert r.status_code == 429, r.text
        start(bob, "middlegames/convert")  # per player
    finally:
        object.__setattr__(limits, "challenges_per_minute", most)


def test_a_practice_level_s_stars_are_not_posted(site: Site, people: dict[str, Player]) -> None:
    """Only the game's end (or a hold's par) gives a practice level's stars: a post of them is
    refused, whole (a post of every level's 3 stars gave 288 with no game played)."""
    ann = people["ann"]
    user = site.users.by_name("ann")
    assert user is not None
    writer = Player(ann.http, "ann", site.tokens.create(user.id, ("preference:write",)))
    for body in (
        {"level": "middlegames/convert", "stars": 3},
        {"levels": {"capture/jump": 3, "middlegames/convert": 3}},
    ):
        r = writer.post("/api/learn/progress", json=body)
        assert r.status_code == 409, r.text
        assert "middlegames/convert" in r.json()["error"]
    assert stars(ann) == {}  # nothing half-applied
    assert writer.post("/api/learn/progress", json={"level": "capture/jump", "stars": 3}).json()[
        "levels"
    ] == {"capture/jump": 3}
