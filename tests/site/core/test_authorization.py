"""Who may do what: an authorization test for every endpoint (the WebSocket messages are in
test_streams.py and test_fuzz.py).  Nobody moves, offers, answers, resigns, aborts, claims or
chats for another player or in a game not theirs; spectators only read; a refused request
changes nothing."""

from __future__ import annotations

import pytest

from emergo.server.user.tokens import SCOPES
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import HOST, account, bearer
from tests.plugins.site import session_of as _session

GAME_ACTIONS = [
    "move/c5",
    "resign",
    "abort",
    "draw/yes",
    "draw/no",
    "takeback/yes",
    "takeback/no",
    "claim-victory",
    "claim-draw",
    "chat/off",
    "chat/on",
]


@pytest.fixture
def cast(site, client):
    """Ann (White) and Bob play a game after d4 e6; Carl watches; Dora's token has no scope
    but challenge:read."""
    names = {}
    for name in ("ann", "bob", "carl"):
        _user, token = account(site, name)
        names[name] = Player(client, name, token)
    dora = site.users.create("dora", "a good password")
    names["dora"] = Player(client, "dora", site.tokens.create(dora.id, ("challenge:read",)))
    game = new_game(names["ann"], names["bob"])
    names["ann"].play(game, "d4")
    names["bob"].play(game, "e6")
    return names, game


def snapshot(site, game):
    view = site.rounds.get(game)
    return view.state.to_json(), view.player_chat


@pytest.mark.parametrize("action", GAME_ACTIONS)
def test_no_one_acts_in_a_game_not_theirs(site, client, cast, action):
    people, game = cast
    before = snapshot(site, game)
    path = f"/api/board/game/{game}/{action}"
    assert people["carl"].post(path).status_code == 403  # a spectator
    assert client.post(path).status_code == 401  # no one
    assert client.post(path, headers=bearer("emo_not-a-token")).status_code == 401
    assert people["dora"].post(path).status_code == 403  # the token lacks board:play
    assert snapshot(site, game) == before


def test_no_one_moves_for_the_other_side(site, cast):
    people, game = cast
    before = snapshot(site, game)
    r = people["bob"].move(game, "c5")  # White's move, sent by Black's token
    assert r.status_code == 400 and "not Black's turn" in r.json()["error"]
    # draw and takeback answers are the other side's: Bob cannot answer his own offer
    people["bob"].ok(f"/api/board/game/{game}/draw/yes")
    offered = snapshot(site, game)
    assert people["bob"].post(f"/api/board/game/{game}/draw/no").status_code == 409
    assert snapshot(site, game) == offered
    assert before != offered


def test_chat_rooms(site, cast):
    people, game = cast
    path = f"/api/board/game/{game}/chat"
    carl, ann = people["carl"], people["ann"]
    assert carl.post(path, data={"room": "player", "text": "hi"}).status_code == 403
    # a player writes to the spectators during the game (lichess's Bot API: a bot's greeting)
    assert ann.post(path, data={"room": "spectator", "text": "hello all"}).status_code == 200
    assert carl.post(path, data={"room": "spectator", "text": "hi"}).status_code == 200
    assert ann.post(path, data={"room": "player", "text": "x" * 141}).status_code == 400
    assert ann.post(path, data={"room": "player", "text": "a\u202eb"}).status_code == 400
    assert ann.post(path, data={"room": "lobby", "text": "hi"}).status_code == 400
    # what each may read: the players their room, the spectators theirs
    seen = {x["text"] for x in carl.get(path).json()}
    ann.ok(path, data={"room": "player", "text": "secret"})
    assert "secret" not in {x["text"] for x in carl.get(path).json()}
    assert {x["text"] for x in ann.get(path).json()} == {"secret"}  # not the spectators'
    assert seen == {"hi", "hello all"}


def test_challenges_answered_only_by_whom_they_concern(site, cast):
    people, _game = cast
    ann, bob, carl, dora = (people[n] for n in ("ann", "bob", "carl", "dora"))
    challenge = ann.challenge("bob")
    assert carl.post(f"/api/challenge/{challenge}/accept").status_code == 403
    assert carl.post(f"/api/challenge/{challenge}/decline").status_code == 403
    assert bob.post(f"/api/challenge/{challenge}/cancel").status_code == 403
    assert ann.post(f"/api/challenge/{challenge}/accept").status_code == 403
    assert dora.post(f"/api/challenge/{challenge}/accept").status_code == 403  # scope
    assert dora.post("/api/challenge/ann", data={}).status_code == 403
    assert site.challenges.get(challenge).status == "created"
    bob.ok(f"/api/challenge/{challenge}/decline")
    assert ann.post(f"/api/challenge/{challenge}/accept").status_code == 403
    assert bob.post(f"/api/challenge/{challenge}/accept").status_code == 409
    assert ann.post("/api/challenge/ann").status_code == 400  # yourself
    assert ann.post("/api/challenge/nobody").status_code == 404
    link = ann.ok("/api/challenge/open", data={"days": 2})["id"]
    game = carl.accept(link)  # anyone with the link
    assert bob.post(f"/api/challenge/{link}/accept").status_code == 409
    assert site.rounds.get(game).seats.color_of(site.users.by_name("carl").id) is not None


def test_streams_and_accounts_need_credentials(site, client, cast):
    people, game = cast
    assert client.get("/api/account").status_code == 401
    assert client.get("/api/account/playing").status_code == 401
    assert client.get("/api/challenge").status_code == 401
    assert client.get("/api/stream/event").status_code == 401
    assert client.get(f"/api/board/game/stream/{game}").status_code == 401
    assert people["carl"].get(f"/api/board/game/stream/{game}").status_code == 403
    # tokens manage tokens only from a signed-in browser, never with a token
    assert people["ann"].get("/api/account/tokens").status_code == 403
    assert people["ann"].post("/api/account/tokens").status_code == 403
    # public: a game, its record, the lobby, a user
    assert client.get(f"/api/game/{game}").status_code == 200
    assert client.get(f"/game/export/{game}").status_code == 200
    assert client.get("/api/lobby/seeks").status_code == 200
    assert client.get("/api/user/ann").json()["username"] == "ann"


def test_cookie_posts_need_the_origin_and_the_csrf_token(site, client, cast):
    _people, game = cast
    csrf = _session(client, "erin")
    path = "/api/challenge/ann"
    assert client.post(path).status_code == 403  # no Origin, no token
    assert client.post(path, headers={"Origin": HOST}).status_code == 403  # no token
    assert client.post(path, headers={"X-CSRF-Token": csrf}).status_code == 403  # no Origin
    evil = {"Origin": "http://evil.example", "X-CSRF-Token": csrf}
    assert client.post(path, headers=evil).status_code == 403
    wrong = {"Origin": HOST, "X-CSRF-Token": csrf + "x"}
    assert client.post(path, headers=wrong).status_code == 403
    assert site.challenges.of_user(site.users.by_name("erin"))["out"] == []
    good = {"Origin": HOST, "X-CSRF-Token": csrf}
    assert client.post(path, headers=good).status_code == 200
    # a cookie alone never acts in a game either
    r = client.post(f"/api/board/game/{game}/resign", headers={"Origin": HOST})
    assert r.status_code == 403


def test_the_scopes():
    assert SCOPES == (
        "board:play",
        "challenge:read",
        "challenge:write",
        "bot:play",
        "preference:read",
        "preference:write",
        "follow:read",
        "follow:write",
        "study:read",  # issue 26: your studies, private ones too
        "study:write",  # issue 26: studies made and edited
        "tournament:write",  # issue 30: making, joining and leaving events
        "puzzle:read",  # issue 29: your puzzle history
        "puzzle:write",  # issue 29: your attempts kept and rated
        "email:read",  # issue 27: your e-mail address (lichess's)
    )


def test_puzzle_endpoints_and_their_scopes(site, client):
    """Issue 29: a puzzle is public; your history needs puzzle:read, a result kept puzzle:write;
    a token without the scope is refused (never taken for a visitor), a cookie POST needs the
    CSRF token; a refused result changes nothing."""
    from emergo.puzzles import load

    user = site.users.create("erin", "a good password")
    reader = bearer(site.tokens.create(user.id, ("puzzle:read",)))
    writer = bearer(site.tokens.create(user.id, ("puzzle:write",)))
    neither = bearer(site.tokens.create(user.id, ("board:play",)))
    p = next(x for x in load("7x7") if len(x.solution) >= 3)
    reads = [
        "/api/puzzle/daily",
        f"/api/puzzle/{p.id}",
        "/api/puzzle/next",
        "/api/storm",
    ]
    mine = ["/api/puzzle/activity", "/api/puzzle/dashboard/30", "/api/puzzle/replay/30/mix"]
    for path in reads:
        assert client.get(path).status_code == 200, path  # public
        assert client.get(path, headers=reader).status_code == 200, path
        assert client.get(path, headers=neither).status_code == 403, path
        assert client.get(path, headers=bearer("emo_not-a-token")).status_code == 401, path
    for path in mine:
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=writer).status_code == 403, path
        assert client.get(path, headers=neither).status_code == 403, path
        assert client.get(path, headers=reader).status_code == 200, path
    posts = [
        (f"/api/puzzle/{p.id}/result", {"moves": list(p.solution)}),
        ("/api/storm", {"solved": [{"id": p.id, "moves": list(p.solution)}]}),
    ]
    csrf = _session(client, "fred")
    for path, body in posts:
        assert client.post(path, json=body, headers=reader).status_code == 403, path
        assert client.post(path, json=body, headers=neither).status_code == 403, path
        assert client.post(path, json=body, headers={"Origin": HOST}).status_code == 403, path
        ok = {"Origin": HOST, "X-CSRF-Token": csrf}
        assert client.post(path, json=body, headers=ok).status_code == 200, path
    assert site.puzzles.perf(user.id)[1] == 0  # nothing kept for the refused tokens
    fred = site.users.by_name("fred")
    assert site.puzzles.perf(fred.id)[1] == 1
    client.cookies.clear()
    assert client.post(posts[0][0], json=posts[0][1], headers=writer).status_code == 200
    assert site.puzzles.perf(user.id)[1] == 1
