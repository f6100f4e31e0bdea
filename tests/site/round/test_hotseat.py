"""Hot-seat games (issue 26): one player holds both seats (two people at one screen); the side to
move is the seat, the other side answers an offer, a takeback is granted at once, the game is
casual, a local round (no first-move deadline), and counts in no result; and games from a
position (lichess's ``fen``: casual, checked)."""

from __future__ import annotations

from typing import Any

import pytest

from emergo import Board
from tests.plugins.game_helpers import Player
from tests.plugins.site import account

pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")


def hotseat(player: Player, **terms: Any) -> str:
    data = player.ok("/api/hotseat", data=terms)
    assert data["gameId"] == data["id"]
    return str(data["gameId"])


def full(player: Player, game: str) -> dict[str, Any]:
    r = player.get(f"/api/game/{game}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_one_player_plays_both_sides_the_side_to_move_being_the_seat(
    site: Any, client: Any
) -> None:
    _user, token = account(site, "ann")
    ann = Player(client, "ann", token)
    game = hotseat(ann, variant="7x7", **{"clock.limit": 180, "clock.increment": 2})
    data = full(ann, game)
    assert data["you"] == "both" and data["rated"] is False
    assert data["white"]["name"] == data["black"]["name"] == "ann"
    board = Board(variant="7x7")
    for _ in range(4):  # White's move, then Black's, then White's ...
        text = str(board.moves()[0])
        ann.play(game, text)
        board.push_move(text)
    assert ann.state(game)["moves"].split() == [str(m) for m in board.move_stack]
    assert site.rounds.get(game).state.local  # no first-move deadline: a local round


def test_the_other_side_answers_a_draw_offer_and_a_takeback_is_granted_at_once(
    site: Any, client: Any
) -> None:
    _user, token = account(site, "ann")
    ann = Player(client, "ann", token)
    game = hotseat(ann)
    ann.play(game, "d4")
    ann.play(game, "f6")
    ann.ok(f"/api/board/game/{game}/takeback/yes")  # Black's f6 goes back, nobody asks
    assert ann.state(game)["moves"] == "d4"
    ann.ok(f"/api/board/game/{game}/draw/yes")  # Black (to move) offers
    state = ann.state(game)
    assert state["status"] == "started" and state["bdraw"] is True
    ann.ok(f"/api/board/game/{game}/draw/no")  # White declines at the same screen
    ann.ok(f"/api/board/game/{game}/draw/yes")
    ann.ok(f"/api/board/game/{game}/draw/yes")  # and now White accepts Black's offer
    assert ann.state(game)["status"] == "draw"


def test_a_finished_hot_seat_game_is_in_the_players_games_but_no_result(
    site: Any, client: Any
) -> None:
    user, token = account(site, "ann")
    ann = Player(client, "ann", token)
    game = hotseat(ann)
    ann.play(game, "d4")
    ann.ok(f"/api/board/game/{game}/resign")
    assert ann.state(game)["status"] == "resign"
    archived = site.archive.one(game)
    assert archived is not None and archived.rated is False
    profile = client.get(f"/api/user/{user.name}").json()
    assert profile["count"]["win"] == profile["count"]["loss"] == 0


def test_another_player_cannot_act_in_a_hot_seat_game(site: Any, client: Any) -> None:
    _a, ann_token = account(site, "ann")
    _b, bob_token = account(site, "bob")
    game = hotseat(Player(client, "ann", ann_token))
    r = Player(client, "bob", bob_token).move(game, "d4")
    assert r.status_code == 403


def test_a_game_from_a_position_starts_there_and_is_casual(site: Any, client: Any) -> None:
    _a, ann_token = account(site, "ann")
    _b, bob_token = account(site, "bob")
    ann, bob = Player(client, "ann", ann_token), Player(client, "bob", bob_token)
    inventor = "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2"
    challenge = ann.challenge("bob", color="black", fen=inventor)
    shown = client.get(f"/api/challenge/{challenge}/show").json()
    assert shown["initialFen"] == inventor
    game = bob.accept(challenge)
    assert full(ann, game)["initialFen"] == inventor
    ann.play(game, "hd4x")  # Black to move in that position: the inventor's capture (R11)
    assert ann.state(game)["moves"] == "h4xf4xd4"


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ({"fen": "w 13/12"}, "fen"),
        ({"fen": "hello"}, "fen"),
        ({"fen": "b 11/12 d4:w", "rated": "true"}, "cannot be rated"),
        ({"fen": "7x7 w 8/8", "variant": "9x9"}, "7x7 position"),
        ({"fen": "w 0/0 e5:w"}, "over"),
        ({"fen": "x" * 500}, "400 characters"),
    ],
)
def test_a_bad_position_is_refused_saying_why(
    site: Any, client: Any, terms: dict[str, str], said: str
) -> None:
    _a, token = account(site, "ann")
    account(site, "bob")
    r = Player(client, "ann", token).post("/api/challenge/bob", data=terms)
    assert r.status_code == 400 and said in r.json()["error"], r.text
