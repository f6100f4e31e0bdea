"""Every page loads one bundle with a fixed name (issue 26): ``static/built/emergo.js``, built
from frontend/src by frontend/build.mjs (`npm run check` fails when it is stale), whole (it
imports nothing), and runs the controller its ``<body data-page>`` names."""

from __future__ import annotations

import re

from tests.plugins.common import ROOT

STATIC = ROOT / "src" / "emergo" / "server" / "static"


def test_every_page_runs_the_one_bundle_and_it_stands_alone() -> None:
    from emergo.server.core.frame import document

    html = document("A page", "<main></main>", None, script="lobby").body.decode()
    assert re.findall(r'<script type="module" src="([^"]+)">', html) == ["/static/built/emergo.js"]
    assert 'data-page="lobby"' in html
    assert {p.name for p in (STATIC / "built").iterdir()} == {"emergo.js"}
    text = (STATIC / "built" / "emergo.js").read_text()
    assert text.startswith("// Built from frontend/src by frontend/build.mjs")
    # no module of its own to fetch: no static import and no import() of a relative path
    assert not re.search(r'(?:^|[;}\s])import\s*(?:\(|[^("]*from\s*)\s*"\./', text)
