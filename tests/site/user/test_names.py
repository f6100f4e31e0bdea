"""Names at sign-up and log-in (issue 31, defect 5): the spaces a phone's keyboard adds are
trimmed, a refusal says which rule the name breaks in words, a long name is refused rather than
cut, and the form states no browser pattern (whose bubble names no rule) nor a length that cuts."""

from __future__ import annotations

import re

import pytest

from emergo.server.user.accounts import AccountError, check_name, name_problem
from tests.plugins.site import HOST

ORIGIN = {"Origin": HOST}


def _post(client, path, name, password="pass word 1"):
    client.get(path)
    data = {"username": name, "password": password, "csrf": client.cookies.get("emergo_csrf")}
    if path == "/signup":
        data["password2"] = password
    return client.post(path, data=data, headers=ORIGIN, follow_redirects=False)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Zoë", "not ë"),
        ("ann smith", "no spaces"),
        ("_ann", "starts with a letter or a digit"),
        ("a", "at least 2"),
        ("x" * 30, "at most 20 characters; this one has 30"),
        ("ann\N{GRINNING FACE}", "only the letters a-z"),
        ("", "write a name"),
    ],
)
def test_a_bad_name_says_which_rule(name: str, words: str) -> None:
    assert words in (name_problem(name) or "")
    with pytest.raises(AccountError, match=re.escape(words)):
        check_name(name)


def test_good_names_and_the_trim() -> None:
    for name in ("alice4", "Ann_1", "x-y", "9lives", "a" * 20):
        assert name_problem(name) is None
    assert check_name(" alice4 ") == "alice4"


def test_sign_up_trims_refuses_in_words_and_never_cuts(site, client) -> None:
    form = client.get("/signup").text
    assert 'name="username"' in form
    field = re.search(r'<input name="username"[^>]*>', form)
    assert field and "pattern=" not in field[0] and "maxlength" not in field[0]
    r = _post(client, "/signup", "x" * 30)
    assert r.status_code == 400 and "at most 20 characters; this one has 30" in r.text
    assert 'value="' + "x" * 30 + '"' in r.text  # kept in the form to be corrected
    assert site.users.by_name("x" * 20) is None  # not cut into an account
    r = _post(client, "/signup", "ann smith")
    assert r.status_code == 400 and "no spaces" in r.text
    r = _post(client, "/signup", "alice4 ")
    assert r.status_code == 303
    user = site.users.by_name("alice4")
    assert user is not None and user.name == "alice4"


def test_log_in_trims_and_says_which_rule(site, client) -> None:
    site.users.create("alice4", "pass word 1")
    form = client.get("/login").text
    field = re.search(r'<input name="username"[^>]*>', form)
    assert field and "pattern=" not in field[0] and "maxlength" not in field[0]
    r = _post(client, "/login", "Zoë")
    assert r.status_code == 400 and "not ë" in r.text
    assert _post(client, "/login", "alice4", "wrong password").status_code == 401
    r = _post(client, "/login", "alice4 ")  # the space a phone's keyboard adds
    assert r.status_code == 303
    assert client.get("/api/account").json()["username"] == "alice4"
