"""Fuzzing: the HTTP API from its OpenAPI description (schemathesis) and the game socket's
messages (hypothesis).  Never a 500 or a dropped socket, never a half-applied change (the game's
row, moves and events agree after every request)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from emergo.server.core import models as m
from emergo.server.core.config import AnalysisSettings, Config
from emergo.server.openapi import describe
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import FAST, account

schemathesis = pytest.importorskip("schemathesis")


@pytest.fixture(scope="module")
def fuzz_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db = tmp_path_factory.mktemp("fuzz") / "site.sqlite3"
    # searches of a tenth of a second at most: the fuzz looks for failures, not lines (an
    # example asking for longer is refused, a path of its own)
    analysis = AnalysisSettings(max_seconds=0.1)
    site = Site.open(Config(db=str(db), allow_hosts=("testserver",), analysis=analysis, **FAST))
    yield site
    site.close()


@pytest.fixture(scope="module")
def fuzz_game(fuzz_site: Site) -> dict[str, Any]:
    """Ann and Bob in a game after d4 e6, and their tokens."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    _a, ann_token = account(fuzz_site, "ann")
    _b, bob_token = account(fuzz_site, "bob")
    with TestClient(create_app(fuzz_site, start=False), base_url="http://testserver") as c:
        ann, bob = Player(c, "ann", ann_token), Player(c, "bob", bob_token)
        game = new_game(ann, bob)
        ann.play(game, "d4")
        bob.play(game, "e6")
    return {"game": game, "ann": ann_token, "bob": bob_token}


def consistent(site: Site) -> None:
    """Every game's row, moves and events tell one story (nothing half-applied)."""
    with site.db.read() as c:
        for row in c.execute(select(m.games)).all():
            state = row.state
            moves = c.execute(
                select(m.moves.c.text).where(m.moves.c.game_id == row.id).order_by(m.moves.c.ply)
            ).scalars()
            assert list(moves) == list(state["moves"]), row.id
            assert state["version"] == row.version
            # a version's events: its row of game_events, or (a version that is only a move)
            # its row of moves (issue 27)
            events = c.execute(
                select(func.max(m.game_events.c.version)).where(m.game_events.c.game_id == row.id)
            ).scalar()
            moved = c.execute(
                select(func.max(m.moves.c.version)).where(m.moves.c.game_id == row.id)
            ).scalar()
            assert max(events or 0, moved or 0) == row.version
            assert (row.status == "over") == (state["outcome"] is not None)


# the streams never end: they are tested in test_streams.py
SCHEMA = schemathesis.openapi.from_dict(describe())
LABELS = [
    result.ok().label for result in SCHEMA.get_all_operations() if "stream" not in result.ok().path
]


def _request(case: Any, token: str) -> dict[str, Any]:
    """The request of a schemathesis case for an httpx client (its form fields as text)."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    headers = {k: v for k, v in kwargs.get("headers", {}).items() if k.lower() != "authorization"}
    headers["Authorization"] = f"Bearer {token}"
    out: dict[str, Any] = {
        "method": kwargs["method"],
        "url": kwargs["url"],
        "headers": headers,
        "params": kwargs.get("params") or None,
    }
    if "json" in kwargs:
        out["content"] = json.dumps(kwargs["json"], default=str)
    elif isinstance(kwargs.get("data"), dict):
        out["content"] = urlencode({str(k): str(v) for k, v in kwargs["data"].items()})
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        out["content"] = data if isinstance(data, bytes) else str(data).encode()
    return out


@pytest.mark.parametrize("label", LABELS)
def test_the_http_api_never_fails(label: str, fuzz_site: Site, fuzz_game: dict[str, Any]) -> None:
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    operation = SCHEMA.find_operation_by_label(label)
    assert operation is not None
    app = create_app(fuzz_site, start=False)
    statuses: list[int] = []
    with TestClient(app, base_url="http://testserver") as client:

        @settings(
            max_examples=25,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(case=operation.as_strategy(), real=st.booleans(), as_bob=st.booleans())
        def call(case: Any, real: bool, as_bob: bool) -> None:
            # some requests name the real game, so the fuzz reaches the rounds
            if real and "id" in (case.path_parameters or {}):
                case.path_parameters["id"] = fuzz_game["game"]
            token = fuzz_game["bob" if as_bob else "ann"]
            response = client.request(**_request(case, token))
            statuses.append(response.status_code)
            assert response.status_code < 500, (label, response.text)
            if response.headers.get("content-type", "").startswith("application/json"):
                response.json()
            consistent(fuzz_site)

        call()
    assert statuses  # hypothesis ran the requests


# --- the game socket ----------------------------------------------------------------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["d4", "c5", "e6", "b4-c4", "zz", "\ud800", "<script>"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
_kinds = st.sampled_from(
    [
        "move",
        "resign",
        "abort",
        "draw-yes",
        "draw-no",
        "takeback-yes",
        "takeback-no",
        "claim-victory",
        "claim-draw",
        "chat",
        "chat-room",
        "resync",
        "ping",
        "nonsense",
    ]
)
_messages = st.one_of(
    st.fixed_dictionaries(
        {"t": _kinds, "id": st.integers(0, 1000)},
        optional={
            "move": _values,
            "v": _values,
            "lag": _values,
            "text": _values,
            "room": st.sampled_from(["player", "spectator", "x"]) | _values,
            "open": _values,
            "offeringDraw": _values,
        },
    ).map(lambda d: json.dumps(d)),
    st.text(max_size=50),
    st.just("[]"),
    st.just('{"t": "move", "id": 1, "move": "d4"' + "]" * 10000),
)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(messages=st.lists(_messages, min_size=1, max_size=6), as_bob=st.booleans())
def test_socket_messages_never_break_the_socket_or_the_game(
    fuzz_site: Site, fuzz_game: dict[str, Any], messages: list[str], as_bob: bool
) -> None:
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    token = fuzz_game["bob" if as_bob else "ann"]
    app = create_app(fuzz_site, start=False)
    with (
        TestClient(app, base_url="http://testserver") as client,
        client.websocket_connect(
            f"/ws/game/{fuzz_game['game']}", headers={"Authorization": f"Bearer {token}"}
        ) as ws,
    ):
        assert ws.receive_json()["t"] == "full"
        for raw in messages:
            ws.send_text(raw)
            while True:  # every message is answered: ack, error, pong or full
                reply = ws.receive_json()
                if reply["t"] in ("ack", "error", "pong", "full"):
                    if reply["t"] == "error":
                        assert 400 <= reply["status"] < 500, reply
                    break
        ws.send_text(json.dumps({"t": "ping"}))
        while ws.receive_json()["t"] != "pong":
            pass
    consistent(fuzz_site)
