"""The page loads few files (issue 18): index.html runs the built bundle, static/built/ (the modules
of static/page/ and static/board/ built by tools/web-check/build.mjs; `npm run check` fails when it
is stale), and every file the bundle imports is there."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "emergo" / "web" / "static"
# a static `import ... from "./x.js"` or a dynamic `import("./x.js")`, not the JSDoc types that
# the bundle keeps in comments (`typeof import("./x.js")`, `import("./x.js").Type`)
IMPORT = re.compile(
    r'(?:^import\s[^;]*?from\s*|(?<!typeof )(?<![\w."])import\()\s*"(\./[^"]+)"(?!\)\.)', re.M
)


def test_the_page_runs_the_bundle_and_its_files_are_there() -> None:
    html = (STATIC / "index.html").read_text()
    assert re.findall(r'<script type="module" src="([^"]+)">', html) == ["/static/built/main.js"]
    seen, todo = set(), ["main.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (STATIC / "built" / name).read_text()
        assert text.startswith("// Built from static/page/ and static/board/")
        todo += [target[2:] for target in IMPORT.findall(text)]
    assert {p.name for p in (STATIC / "built").iterdir()} == seen  # no stale chunk left
    assert any(name.startswith("play-") for name in seen)  # a game's code: its own chunk
