"""Read the themes of a puzzle file's puzzles again with the taggers as they are now.

    python tools/retag_puzzles.py FILE...

A puzzle's themes depend on its line alone (emergo.puzzles.themes), not on a search: after a
tagger changes, this gives each line of a file the themes the generator would write now, and
changes nothing else (ids, solutions and ratings do not depend on the themes).  Prints how many
puzzles changed.  (The shipped set's themes were read by the final taggers this way.)
"""

from __future__ import annotations

import sys
from pathlib import Path

from emergo.puzzles import format_line, parse_line
from emergo.puzzles.themes import Line, tag


def retag(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = 0
    for i, text in enumerate(lines):
        if text.startswith("#") or not text.strip():
            continue
        puzzle = parse_line(text)
        themes = tag(Line.play(puzzle.position, puzzle.solution))
        if themes != puzzle.themes:
            changed += 1
            fields = vars(puzzle) | {"themes": themes}
            lines[i] = format_line(type(puzzle)(**fields)) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {retag(Path(name))} puzzles with other themes now")
