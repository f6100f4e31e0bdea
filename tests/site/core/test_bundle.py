"""Every page loads the bundle's entry with a fixed name (issue 26), ``static/built/emergo.js``,
built from frontend/src by frontend/build.mjs (`npm run check` fails when static/built is stale),
and runs the controller its ``<body data-page>`` names: a chunk of its own, which the page's
shell preloads with the chunks it imports (``static/built/pages.json``), so a page loads its
controller's code and no other page's."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.plugins.common import ROOT

BUILT = ROOT / "src" / "emergo" / "server" / "static" / "built"
PAGES = ("analysis", "lobby", "game", "learn", "training", "event", "forms")


def _pages() -> dict[str, list[str]]:
    pages: dict[str, list[str]] = json.loads((BUILT / "pages.json").read_text())
    return pages


def _imports(name: str) -> set[str]:
    """The files a built file imports, statically or with ``import()``."""
    text = (BUILT / name).read_text()
    return set(re.findall(r'(?:from|import\(?)\s*"\./([\w-]+\.js)"', text))


def test_every_page_runs_the_entry_and_preloads_its_chunks() -> None:
    from emergo.server.core.frame import document

    pages = _pages()
    assert set(pages) == set(PAGES)
    for script in PAGES:
        html = document("A page", "<main></main>", None, script=script).body.decode()
        scripts = re.findall(r'<script type="module" src="([^"]+)">', html)
        assert scripts == ["/static/built/emergo.js"]
        assert f'data-page="{script}"' in html
        preloads = re.findall(r'<link rel="modulepreload" href="/static/built/([^"]+)">', html)
        assert preloads == pages[script]
        # all it runs: its chunks import only each other (the entry loads one of them)
        assert all(_imports(f) <= set(preloads) for f in preloads)
    html = document("A page", "<main></main>", None, script="nothing").body.decode()
    assert re.findall(r'modulepreload" href="/static/built/([^"]+)"', html) == pages["forms"]


def test_the_built_folder_is_the_entry_its_chunks_and_the_manifest() -> None:
    names = {p.name for p in BUILT.iterdir()}
    entry = _imports("emergo.js")
    assert len(entry) == len(PAGES)  # one import() a page, nothing shared in the entry
    reached = set(entry).union(*(_imports(f) for f in names if f.endswith(".js")))
    assert names == {"emergo.js", "pages.json"} | reached  # no file left over
    for name in names - {"pages.json"}:
        assert (BUILT / name).read_text().startswith("// Built from frontend/src by frontend/")
    game, training = set(_pages()["game"]), set(_pages()["training"])
    assert game - training and training - game  # neither page loads the other's controller


def test_the_chunks_are_served_as_the_entry_is(client: Any) -> None:
    entry = client.get("/static/built/emergo.js")
    chunk = client.get(f"/static/built/{_pages()['game'][0]}")
    for r in (entry, chunk):
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/javascript")
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "etag" in r.headers and "last-modified" in r.headers
    assert chunk.headers.get("cache-control") == entry.headers.get("cache-control")
    again = client.get(chunk.url, headers={"if-none-match": chunk.headers["etag"]})
    assert again.status_code == 304
