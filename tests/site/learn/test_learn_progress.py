"""A player's progress through /learn, kept in his account, on SQLite and PostgreSQL:
``GET|POST /api/learn/progress`` with a session or a token (``preference:read`` /
``preference:write``), the best stars kept, a visitor's progress merged in after signing up."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from emergo.server.learn import load_course
from emergo.server.learn.progress import Progress, ProgressError, checked
from emergo.server.site import Site

PATH = "/api/learn/progress"
KNOWN = set(load_course().levels)


@pytest.fixture
def tokens(site: Site) -> dict[str, str]:
    """Ann's tokens: one with each preference scope, one with both, one with neither."""
    user = site.users.create("ann", "a good password")
    make = site.tokens.create
    return {
        "read": make(user.id, ("preference:read",)),
        "write": make(user.id, ("preference:write",)),
        "both": make(user.id, ("preference:read", "preference:write")),
        "none": make(user.id, ("board:play", "challenge:read")),
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def session(client: Any) -> Iterator[dict[str, str]]:
    """Bob signed up in the page: the headers a page's POST sends (its Origin, the CSRF token);
    the session's cookie stays in the client."""
    client.get("/signup")
    r = client.post(
        "/signup",
        data={
            "username": "bob",
            "password": "pass word 1",
            "password2": "pass word 1",
            "csrf": client.cookies.get("emergo_csrf"),
        },
        headers={"Origin": str(client.base_url).rstrip("/")},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    csrf = client.get("/api/account").json()["csrf"]
    yield {"Origin": str(client.base_url).rstrip("/"), "X-CSRF-Token": csrf}


def test_anonymous_gets_401(client: Any) -> None:
    assert client.get(PATH).status_code == 401
    assert client.post(PATH, json={"level": "capture/jump", "stars": 3}).status_code == 401


def test_tokens_need_the_preference_scopes(client: Any, tokens: dict[str, str]) -> None:
    post = {"level": "capture/jump", "stars": 2}
    assert client.get(PATH, headers=bearer(tokens["none"])).status_code == 403
    assert client.get(PATH, headers=bearer(tokens["write"])).status_code == 403
    assert client.post(PATH, json=post, headers=bearer(tokens["none"])).status_code == 403
    assert client.post(PATH, json=post, headers=bearer(tokens["read"])).status_code == 403
    r = client.post(PATH, json=post, headers=bearer(tokens["write"]))
    assert r.status_code == 200 and r.json() == {"levels": {"capture/jump": 2}}
    r = client.get(PATH, headers=bearer(tokens["read"]))
    assert r.status_code == 200 and r.json() == {"levels": {"capture/jump": 2}}
    bad = client.get(PATH, headers=bearer("emo_" + "x" * 32))
    assert bad.status_code == 401


def test_the_best_stars_are_kept(client: Any, tokens: dict[str, str]) -> None:
    auth = bearer(tokens["both"])
    client.post(PATH, json={"levels": {"capture/jump": 1, "board/centre": 3}}, headers=auth)
    r = client.post(PATH, json={"levels": {"capture/jump": 3, "board/centre": 1}}, headers=auth)
    assert r.json()["levels"] == {"capture/jump": 3, "board/centre": 3}
    r = client.post(PATH, data={"level": "board/corner", "stars": "2"}, headers=auth)  # a form
    assert r.json()["levels"] == {"capture/jump": 3, "board/centre": 3, "board/corner": 2}
    assert client.get(PATH, headers=auth).json()["levels"]["board/corner"] == 2


def test_a_session_reads_and_writes_with_its_csrf_token(
    client: Any, session: dict[str, str]
) -> None:
    assert client.get(PATH).json() == {"levels": {}}
    post = {"levels": {"feed/weak-piece": 2}}
    assert client.post(PATH, json=post).status_code == 403  # no Origin, no token
    assert client.post(PATH, json=post, headers={"Origin": session["Origin"]}).status_code == 403
    wrong = {**session, "X-CSRF-Token": "nope"}
    assert client.post(PATH, json=post, headers=wrong).status_code == 403
    assert client.get(PATH).json() == {"levels": {}}
    r = client.post(PATH, json=post, headers=session)
    assert r.status_code == 200 and r.json() == {"levels": {"feed/weak-piece": 2}}


def test_a_visitor_s_progress_is_merged_after_signing_up(
    client: Any, session: dict[str, str], site: Site
) -> None:
    bob = site.users.by_name("bob")
    assert bob is not None
    Progress(site.db).merge(bob.id, {"board/centre": 1, "capture/jump": 3})  # done signed in
    browser = {"board/centre": 3, "capture/jump": 1, "entering/first-move": 2}
    r = client.post(PATH, json={"levels": browser}, headers=session)
    assert r.json()["levels"] == {"board/centre": 3, "capture/jump": 3, "entering/first-move": 2}


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"levels": {"capture/nope": 3}}, "no level 'capture/nope'"),
        ({"levels": {f"x/{i}": 1 for i in range(7)}}, "and 2 more"),
        ({"levels": {"capture/jump": 4}}, "from 1 to 3"),
        ({"levels": {"capture/jump": 0}}, "from 1 to 3"),
        ({"levels": {"capture/jump": True}}, "from 1 to 3"),
        ({"levels": {"capture/jump": "3"}}, "from 1 to 3"),
        ({"levels": {"capture/jump": 2.5}}, "from 1 to 3"),
        ({"levels": ["capture/jump"]}, "must be an object"),
        ({"levels": {f"x{i}": 1 for i in range(len(KNOWN) + 1)}}, "entries"),
        ({"level": 3, "stars": 1}, "level's id"),
        ({"level": "capture/jump"}, "from 1 to 3"),
        ({}, "send levels"),
        ({"level": "capture/jump\x00", "stars": 1}, "no level"),
    ],
)
def test_bad_progress_is_refused_and_nothing_is_stored(
    client: Any, tokens: dict[str, str], body: dict[str, Any], said: str
) -> None:
    auth = bearer(tokens["both"])
    r = client.post(PATH, json=body, headers=auth)
    assert r.status_code == 400, r.text
    assert said in r.json()["error"]
    assert client.get(PATH, headers=auth).json() == {"levels": {}}


def test_a_lone_surrogate_or_a_huge_body_is_refused(client: Any, tokens: dict[str, str]) -> None:
    auth = {**bearer(tokens["both"]), "content-type": "application/json"}
    r = client.post(PATH, content=b'{"levels": {"\\udc00": 1}}', headers=auth)
    assert r.status_code == 400
    r = client.post(PATH, content=b'{"levels": {' + b'"a": 1,' * 20000 + b'"b": 1}}', headers=auth)
    assert r.status_code == 413


def test_merges_at_once_keep_every_level(site: Site) -> None:
    """Two merges of one account at the same moment (two tabs, or the visitor's merge and a
    level done): neither is lost, and neither fails (the account's row is locked)."""
    user = site.users.create("carl", "a good password")
    store = Progress(site.db)
    levels = sorted(KNOWN)
    errors: list[BaseException] = []

    def merge(part: list[str]) -> None:
        try:
            for level in part:
                store.merge(user.id, {level: 2})
        except BaseException as e:  # pragma: no cover - the failure the test looks for
            errors.append(e)

    threads = [threading.Thread(target=merge, args=(levels[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert store.stars(user.id) == dict.fromkeys(levels, 2)


def test_checked_names_the_fault() -> None:
    assert checked({"capture/jump": 3}, KNOWN) == {"capture/jump": 3}
    with pytest.raises(ProgressError, match="no level 'a/b'"):
        checked({"a/b": 1}, KNOWN)
