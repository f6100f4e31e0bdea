"""schemathesis over the whole OpenAPI description against a running server (issue 20): real
HTTP to uvicorn on SQLite, every operation but the endless streams, as a person and as a bot
(so the Bot API's routes are reached past their authorization); never a 500, never a response
that breaks its own schema or content type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from emergo.server.openapi import describe
from tests.plugins.game_helpers import Player, new_game

schemathesis = pytest.importorskip("schemathesis")
httpx = pytest.importorskip("httpx2")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
)

pytestmark = pytest.mark.slow
SCHEMA = schemathesis.openapi.from_dict(describe())
OPERATIONS = [r.ok() for r in SCHEMA.get_all_operations() if "stream" not in r.ok().path]


@pytest.fixture
def db_url(tmp_path: Path) -> str:  # SQLite is enough: the description is the same on both
    return f"sqlite:///{tmp_path / 'online.sqlite3'}"


def test_the_whole_description_holds_against_the_running_server(
    site: Any, live: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from emergo.server.bots import http as online_bot

    monkeypatch.setattr(online_bot, "AI_WAIT", 0.3)  # no house bot runs: it never answers
    ann = site.users.create("ann", "a good password")
    bob = site.users.create("bob", "a good password")
    robo = site.users.create("robo", None, bot=True)
    tokens = {
        "ann": site.tokens.create(ann.id),
        "bob": site.tokens.create(bob.id),
        "robo": site.tokens.create(robo.id, ("bot:play",)),
    }
    with httpx.Client(base_url=live, timeout=15) as http:
        a, b, r = (Player(http, n, tokens[n]) for n in ("ann", "bob", "robo"))
        person_game = new_game(a, b)
        a.play(person_game, "d4")
        bot_game = r.accept(a.challenge("robo", color="white", **{"clock.limit": 300}))
        a.play(bot_game, "d4")
    games = {"ann": person_game, "bob": person_game, "robo": bot_game}
    failures: list[str] = []
    calls = 0
    for operation in OPERATIONS:

        @settings(
            max_examples=12,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=operation.as_strategy(), who=st.sampled_from(sorted(tokens)), real=st.booleans()
        )
        def call(case: Any, who: str, real: bool) -> None:
            nonlocal calls
            if real and "id" in (case.path_parameters or {}):
                case.path_parameters["id"] = games[who]
            response = case.call(
                base_url=live, headers={"Authorization": f"Bearer {tokens[who]}"}, timeout=15
            )
            calls += 1
            described = str(response.status_code) in case.operation.definition.raw["responses"]
            if response.status_code >= 500 and not described:
                failures.append(f"{case.operation.label}: {response.status_code} {response.text}")
                return
            try:
                case.validate_response(
                    response, checks=[response_schema_conformance, content_type_conformance]
                )
            except Exception as e:  # every failure listed at the end
                failures.append(f"{case.operation.label} as {who}: {str(e)[:400]}")

        call()
    assert calls > len(OPERATIONS)
    assert not failures, "\n".join(failures[:20])
