"""The page stays light and loads at once (issue 18): every module of the analysis board's first
load is preloaded by index.html, and nothing else is."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "emergo" / "web" / "static"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.[^"]+)"', re.M)


def static_imports(start: str) -> set[str]:
    """The modules `start` loads before it runs: its static imports, and theirs."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for target in IMPORT.findall((STATIC / name).read_text()):
            todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), target)))
    return seen


def test_index_preloads_the_first_loads_modules() -> None:
    html = (STATIC / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', html))
    assert '<script type="module" src="/static/page/main.js">' in html
    wanted = (static_imports("page/main.js") | static_imports("page/analysis.js")) - {"page/main.js"}
    assert preloaded == wanted
    assert "page/play.js" not in wanted  # a game's controller comes with the first game
