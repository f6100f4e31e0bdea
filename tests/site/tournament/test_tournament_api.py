"""The tournaments' API and pages (emergo.server.tournament.http, .pages): lichess's shapes, an
event made, joined, left and read through HTTP, the TRF, and who may do what (every endpoint:
no one joins for another, no token without the scope makes an event, a refused request
changes nothing)."""

from __future__ import annotations

import json
import time

import pytest

from tests.plugins.site import HOST, account, bearer
from tests.plugins.site import session_of as _session

pytest.importorskip("py4swiss")


def _ndjson(r):
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines() if line]


@pytest.fixture
def tokens(site):
    out = {}
    for name in ("ann", "bob", "cat"):
        _user, token = account(site, name)
        out[name] = bearer(token)
    dora = site.users.create("dora", "a good password")
    out["dora"] = bearer(site.tokens.create(dora.id, ("challenge:read",)))
    return out


def test_an_arena_through_the_api(client, tokens):
    r = client.post(
        "/api/tournament",
        headers=tokens["ann"],
        data={
            "name": "Friday",
            "clockTime": "3",
            "clockIncrement": "2",
            "minutes": "45",
            "variant": "7x7",
            "start": "recommended",
            "password": "open sesame",
        },
    )
    assert r.status_code == 200, r.text
    arena = r.json()
    assert arena["system"] == "arena" and arena["clock"] == {"limit": 180, "increment": 2}
    assert arena["status"] == 10 and arena["minutes"] == 45 and arena["fullName"] == "Friday Arena"
    assert arena["createdBy"] == "ann" and arena["hasPassword"] and arena["start"] == "recommended"
    path = f"/api/tournament/{arena['id']}"
    assert client.post(f"{path}/join", headers=tokens["bob"]).status_code == 403  # the code
    r = client.post(f"{path}/join", headers=tokens["bob"], data={"password": "wrong"})
    assert r.status_code == 403 and "entry code is wrong" in r.json()["error"]
    assert client.post(
        f"{path}/join", headers=tokens["bob"], data={"password": "open sesame"}
    ).json() == {"ok": True}
    shown = client.get(path).json()
    assert shown["nbPlayers"] == 1
    assert shown["standing"]["players"][0]["username"] == "bob"
    assert "password" not in json.dumps(shown).replace("hasPassword", "")
    lines = _ndjson(client.get(f"{path}/results"))
    assert set(lines[0]) >= {"rank", "score", "rating", "username", "performance"}
    assert _ndjson(client.get(f"{path}/games")) == []
    listing = client.get("/api/tournament").json()
    assert [t["id"] for t in listing["created"]] == [arena["id"]]
    assert client.post(f"{path}/withdraw", headers=tokens["bob"]).json() == {"ok": True}
    assert client.get(path).json()["nbPlayers"] == 0
    # the pages
    page = client.get(f"/tournament/{arena['id']}")
    assert page.status_code == 200 and "Friday Arena" in page.text and "Starts in" in page.text
    assert "Friday Arena" in client.get("/tournament").text
    assert client.get("/tournament/nosuchid").status_code == 404


def test_a_swiss_through_the_api(client, tokens):
    starts = int(time.time()) + 300 * 86400  # a season ahead (366 days at most)
    r = client.post(
        "/api/swiss/new",
        headers=tokens["ann"],
        json={
            "name": "Club",
            "clock": {"limit": 300, "increment": 3},
            "nbRounds": 5,
            "startsAt": starts * 1000,
        },
    )
    assert r.status_code == 200, r.text
    swiss = r.json()
    assert swiss["nbRounds"] == 5 and swiss["status"] == "created" and swiss["round"] == 0
    assert swiss["startsAt"].startswith(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(starts)))
    for name in ("ann", "bob", "cat"):
        assert (
            client.post(f"/api/swiss/{swiss['id']}/join", headers=tokens[name]).status_code == 200
        )
    assert client.get(f"/api/swiss/{swiss['id']}").json()["nbPlayers"] == 3
    lines = _ndjson(client.get(f"/api/swiss/{swiss['id']}/results"))
    assert [line["username"] for line in lines] and "points" in lines[0] and "tieBreak" in lines[0]
    trf = client.get(f"/swiss/{swiss['id']}.trf")
    assert trf.status_code == 200 and trf.text.startswith("012 Club Swiss")
    assert "XXR 5" in trf.text and trf.text.count("\n001 ") == 3
    # a Swiss is not an arena, and the other way round
    assert client.get(f"/api/tournament/{swiss['id']}").status_code == 404
    assert client.get(f"/swiss/{swiss['id']}").status_code == 200


ENDPOINTS = [
    ("POST", "/api/tournament", {"minutes": "30"}),
    ("POST", "/api/swiss/new", {"nbRounds": "5"}),
    ("POST", "/api/tournament/{arena}/join", {}),
    ("POST", "/api/tournament/{arena}/withdraw", {}),
    ("POST", "/api/swiss/{swiss}/join", {}),
    ("POST", "/api/swiss/{swiss}/withdraw", {}),
]


@pytest.mark.parametrize(("method", "path", "data"), ENDPOINTS)
def test_who_may_do_what(site, client, tokens, method, path, data):
    arena = client.post("/api/tournament", headers=tokens["ann"], data={"minutes": "30"}).json()
    swiss = client.post("/api/swiss/new", headers=tokens["ann"], data={"nbRounds": "5"}).json()
    url = path.format(arena=arena["id"], swiss=swiss["id"])
    before = (
        client.get(f"/api/tournament/{arena['id']}").json(),
        client.get(f"/api/swiss/{swiss['id']}").json(),
    )
    assert client.post(url, data=data).status_code == 401  # no one
    assert client.post(url, data=data, headers=bearer("emo_not-a-token")).status_code == 401
    assert client.post(url, data=data, headers=tokens["dora"]).status_code == 403  # no scope
    # a session's post needs the site's Origin and its CSRF token
    _session(client, "eve")
    assert client.post(url, data=data).status_code == 403
    client.cookies.clear()
    after = (
        client.get(f"/api/tournament/{arena['id']}").json(),
        client.get(f"/api/swiss/{swiss['id']}").json(),
    )
    assert [a["nbPlayers"] for a in after] == [b["nbPlayers"] for b in before]
    assert len(client.get("/api/tournament").json()["created"]) == 1


def test_no_one_leaves_for_another_and_nothing_unknown_is_found(client, tokens):
    arena = client.post("/api/tournament", headers=tokens["ann"], data={"minutes": "30"}).json()
    path = f"/api/tournament/{arena['id']}"
    client.post(f"{path}/join", headers=tokens["bob"])
    r = client.post(f"{path}/withdraw", headers=tokens["cat"])  # cat never joined
    assert r.status_code == 409
    assert client.get(path).json()["nbPlayers"] == 1
    for url in (
        "/api/tournament/abcdefgh",
        "/api/swiss/abcdefgh",
        "/swiss/abcdefgh.trf",
        "/api/tournament/abcdefgh/results",
        "/api/tournament/x/games",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post("/api/tournament/abcdefgh/join", headers=tokens["bob"]).status_code == 404


def test_bad_fields_are_named(client, tokens):
    for data, words in (
        ({"minutes": "2"}, "minutes"),
        ({"clockTime": "x"}, "clockTime"),
        ({"variant": "chess"}, "variant"),
        ({"start": "whatever"}, "start"),
        ({"system": "robin", "maxPlayers": "50"}, "maxPlayers"),
        ({"system": "match"}, "opponent"),
        ({"conditions.minRating.rating": "1900", "conditions.maxRating.rating": "1800"}, "empty"),
        ({"startDate": "1000"}, "in the past"),
        ({"startDate": "1e300"}, "days away"),  # no date past any calendar's end: no 500
    ):
        r = client.post("/api/tournament", headers=tokens["ann"], data=data)
        assert r.status_code == 400 and words in r.json()["error"], (data, r.text)


def test_a_bad_nb_of_results_is_named(client, tokens):
    arena = client.post("/api/tournament", headers=tokens["ann"], data={"minutes": "30"}).json()
    swiss = client.post("/api/swiss/new", headers=tokens["ann"], data={"nbRounds": "3"}).json()
    for path in (f"/api/tournament/{arena['id']}", f"/api/swiss/{swiss['id']}"):
        # "²" and "¹⁰" are digits to str.isdigit but not to int(): once a 500
        for nb in ("²", "¹⁰", "0", "10001", "-1", "x", "1e3"):
            r = client.get(f"{path}/results", params={"nb": nb})
            assert r.status_code == 400 and "nb must be" in r.json()["error"], (path, nb, r.text)
        assert _ndjson(client.get(f"{path}/results", params={"nb": "1"})) == []


@pytest.mark.parametrize(
    ("path", "data", "words"),
    [("/api/tournament", {"minutes": 0}, "minutes"),
     ("/api/tournament", {"system": "robin", "maxPlayers": 0}, "maxPlayers"),
     ("/api/tournament", {"system": "robin", "cycles": 0}, "cycles"),
     ("/api/tournament", {"system": "match", "opponent": "bob", "nbGames": 0}, "nbGames"),
     ("/api/swiss/new", {"nbRounds": 0}, "nbRounds"),
     ("/api/swiss/new", {"clock": 5}, "clock"),
     ("/api/tournament", {"conditions": "x"}, "conditions"),
     ("/api/tournament", {"conditions": {"minRating": 1800}}, "conditions.minRating")],
)  # fmt: skip
def test_a_zero_or_a_wrong_shape_is_named_not_a_default(site, client, tokens, path, data, words):
    """``0`` was taken for "not given" (an arena of 0 minutes made one of 45, a Swiss of 0
    rounds one of 7) and a ``clock`` or ``conditions`` that is no object was dropped."""
    r = client.post(path, headers=tokens["ann"], json={"minutes": 30, "nbRounds": 3, **data})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert site.tournaments.created_since(site.users.by_name("ann").id, 0) == 0


def test_conditions_as_nested_json_are_kept(client, tokens):
    """lichess's form fields ``conditions.minRating.rating`` as JSON objects: the condition was
    silently dropped (an open event made of one meant for 1800 and up)."""
    body = {
        "minutes": 30,
        "conditions": {"minRating": {"rating": 1800}, "maxRating": {"rating": 2200}},
    }
    r = client.post("/api/tournament", headers=tokens["ann"], json=body)
    assert r.status_code == 200, r.text
    described = " ".join(r.json()["conditions"])
    assert "1800" in described and "2200" in described, described
    r = client.post(f"/api/tournament/{r.json()['id']}/join", headers=tokens["bob"])
    assert r.status_code == 403, r.text  # bob is 1500


def test_an_entry_code_is_not_guessed_without_end(site, client, tokens, steady_limits):
    """A wrong entry code was answered at once, as often as asked: a short code fell to a
    loop.  Tries are counted per player and event as log-ins are; the page's form too."""
    arena = client.post(
        "/api/tournament", headers=tokens["ann"], data={"minutes": "30", "password": "7391"}
    ).json()
    path = f"/api/tournament/{arena['id']}/join"
    most = site.config.limits.login_per_minute
    for guess in range(most):
        r = client.post(path, headers=tokens["bob"], data={"password": f"{guess:04d}"})
        assert r.status_code == 403, r.text
    r = client.post(path, headers=tokens["bob"], data={"password": "7391"})  # right, too late
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
    assert client.get(f"/api/tournament/{arena['id']}").json()["nbPlayers"] == 0
    # another player, and the page's form: counted on their own
    assert client.post(path, headers=tokens["cat"], data={"password": "7391"}).status_code == 200
    csrf = _session(client, "eve")
    form = {"Origin": HOST}
    for guess in range(most):
        r = client.post(
            f"/tournament/{arena['id']}/join",
            data={"csrf": csrf, "password": f"{guess:04d}"},
            headers=form,
            follow_redirects=False,
        )
        assert r.status_code == 403, r.text
    r = client.post(
        f"/tournament/{arena['id']}/join",
        data={"csrf": csrf, "password": "7391"},
        headers=form,
        follow_redirects=False,
    )
    assert r.status_code == 429, r.text


def test_making_events_is_limited_per_day(site, client, tokens):
    from emergo.server.tournament.service import CREATED_PER_DAY

    for _ in range(CREATED_PER_DAY):
        assert client.post("/api/tournament", headers=tokens["ann"]).status_code == 200
    r = client.post("/api/swiss/new", headers=tokens["ann"])
    assert r.status_code == 429 and "limit" in r.json()["error"]


def test_the_event_page_joins_and_withdraws_with_the_session(client):
    _csrf = _session(client, "eve")
    form = {"csrf": _csrf}
    r = client.post(
        "/tournament/new",
        data={**form, "name": "Page", "minutes": "30", "clockTime": "1"},
        headers={"Origin": HOST},
        follow_redirects=False,
    )
    assert r.status_code == 303
    page = r.headers["location"]
    r = client.post(f"{page}/join", data=form, headers={"Origin": HOST}, follow_redirects=False)
    assert r.status_code == 303
    assert "Withdraw" in client.get(page).text
    profile = client.get("/@/eve").text
    assert "Page Arena" in profile and "(created)" in profile  # the player's events
    client.post(f"{page}/withdraw", data=form, headers={"Origin": HOST})
    assert "Join" in client.get(page).text


def test_without_the_tournament_extra_an_event_is_refused_in_words(client, tokens, monkeypatch):
    # a site installed with emergo[server] alone runs; making an event says what to install
    import sys

    monkeypatch.setitem(sys.modules, "rustworkx", None)  # an import of it fails
    r = client.post(
        "/api/tournament",
        headers=tokens["ann"],
        data={"name": "Friday", "clockTime": "3", "clockIncrement": "2", "minutes": "45"},
    )
    assert r.status_code == 501
    assert "rustworkx" in r.json()["error"] and "emergo[tournament]" in r.json()["error"]
    assert client.get("/api/tournament").status_code == 200
