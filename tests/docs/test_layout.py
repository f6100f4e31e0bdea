"""The test suite's own layout: tests in folders by module, support code in tests/plugins/, and no
test module importing another test module (fixtures and helpers come from the plugins)."""

from __future__ import annotations

import ast

from tests.plugins.common import ROOT

TESTS = ROOT / "tests"


def test_tests_live_in_folders() -> None:
    assert not sorted(p.name for p in TESTS.glob("test_*.py"))


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if "data" in path.relative_to(TESTS).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                last = name.rsplit(".", 1)[-1]
                if last.startswith("test_") or last == "conftest":
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders
