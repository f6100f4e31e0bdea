"""Write tests/durations.json, each test file's seconds in a run, from that run's JUnit XML.

    PYTEST_ADDOPTS="--junitxml=junit.xml" bash tools/test.sh
    .venv/bin/python tools/test_durations.py junit.xml

The suite sends its files to the workers longest first (tests/plugins/common.py), so that no
worker starts a two-minute file while the other has nothing left: a file missing from the list
goes last, a stale figure only changes the order.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "durations.json"


def durations(junit: Path) -> dict[str, float]:
    seconds: Counter[str] = Counter()
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = case.get("classname", "")
        if name.startswith("tests."):  # not the doctests of the sources and docs
            seconds[name.replace(".", "/") + ".py"] += float(case.get("time", 0))
    return {path: round(s, 1) for path, s in seconds.most_common()}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: tools/test_durations.py JUNIT.xml", file=sys.stderr)
        return 2
    try:
        found = durations(Path(argv[0]))
    except (OSError, ET.ParseError) as e:
        print(f"test_durations.py: cannot read {argv[0]}: {e}", file=sys.stderr)
        return 1
    OUT.write_text(json.dumps(found, indent=0) + "\n", encoding="utf-8")
    print(f"{len(found)} files, {sum(found.values()) / 60:.1f} worker-minutes: {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
