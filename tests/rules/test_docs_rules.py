"""docs/rules.md cannot drift: every rule is there, and every name in its tables exists."""

from __future__ import annotations

import importlib
import re

import pytest

from tests.plugins.common import ROOT

PAGE = ROOT / "docs" / "rules.md"
KERNEL = ROOT / "src" / "emergo" / "_kernel"
TESTS = ROOT / "tests"

RULES = [f"R{n}" for n in range(1, 23) if n != 19] + ["R19a", "R19b", "R19c"]
C_PENDING = "<!--c-->"
"""Marks a C cell whose function the kernel refactoring renames or moves: not checked yet."""


def _table() -> list[dict[str, str]]:
    """The rows of the 'Where each rule lives' table, as column name -> cell text."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Where each rule lives")
    header: list[str] | None = None
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(line) <= set("|-: "):
            rows.append(dict(zip(header, cells, strict=True)))
    return rows


def _rule(row: dict[str, str]) -> str:
    m = re.match(r"\[(R\d+[abc]?)\]", row["Rule"])
    assert m, f"rule cell without a rule link: {row['Rule']!r}"
    return m.group(1)


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


ROWS = _table()
PYTHON = [
    pytest.param(rule, name, marks=pytest.mark.requires_kernel)
    if name.split(".")[0] in ("kernel", "mcts")
    else (rule, name)
    for rule, name in sorted({(_rule(r), n) for r in ROWS for n in _names(r["Python"])})
]
C_NAMES = sorted(
    {(_rule(r), n) for r in ROWS if not r["C"].endswith(C_PENDING) for n in _names(r["C"])}
)
TEST_NAMES = sorted({(_rule(r), n) for r in ROWS for n in _names(r["Tests"])})


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_has_a_heading_and_a_table_row(rule: str) -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert re.search(rf"^#+ {rule} ", text, re.MULTILINE), f"no heading for {rule}"
    assert rule in [_rule(r) for r in ROWS], f"no table row for {rule}"


@pytest.mark.parametrize(("rule", "name"), PYTHON)
def test_python_names_resolve(rule: str, name: str) -> None:
    """``board.Board._forbidden_entries``: import ``emergo.board``, then get the attributes."""
    module_name, *attrs = name.split(".")
    obj: object = importlib.import_module(f"emergo.{module_name}")
    for attr in attrs:
        assert hasattr(obj, attr), f"{rule}: {name} does not resolve (no {attr})"
        obj = getattr(obj, attr)


@pytest.mark.parametrize(("rule", "name"), C_NAMES)
def test_c_names_exist(rule: str, name: str) -> None:
    """``movegen.c: gen_moveset()``: the identifier occurs in that kernel file."""
    m = re.fullmatch(r"(\w+\.[ch]): (\w+)(?:\(\))?", name)
    assert m, f"{rule}: C cell entry {name!r} is not 'file.c: function()'"
    path = KERNEL / m.group(1)
    assert path.is_file(), f"{rule}: no kernel file {m.group(1)}"
    text = path.read_text(encoding="utf-8")
    assert re.search(rf"\b{m.group(2)}\b", text), f"{rule}: {m.group(2)} not in {m.group(1)}"


@pytest.mark.parametrize(("rule", "name"), TEST_NAMES)
def test_cited_tests_exist(rule: str, name: str) -> None:
    """``test_rules.py::test_r15_*``: some test function in that file matches the pattern."""
    file_name, _, pattern = name.partition("::")
    path = TESTS / file_name
    assert path.is_file(), f"{rule}: no test file {file_name}"
    regex = re.escape(pattern).replace(r"\*", r"\w*")
    text = path.read_text(encoding="utf-8")
    assert re.search(rf"^def {regex}\(", text, re.MULTILINE), f"{rule}: no test {name}"
