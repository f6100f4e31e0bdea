"""The course as data: stages and levels read from the stage files (docs/learn.md).

One TOML file a stage in ``stages/``, named ``NN-id.toml`` (``NN`` orders the course): the
stage's ``id`` and its levels, each a ``[[level]]`` table.  A level holds no text: its texts are
in the catalogue under the key ``<stage>.<level>.*`` (:mod:`emergo.server.learn.catalogue`).
Reading a file checks its shape (the fields, their types, the names of squares and rules);
whether its moves are legal and reach the goal is :mod:`emergo.server.learn.course`'s check.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from emergo.errors import InvalidPositionError, InvalidSquareError
from emergo.geometry import NAMINGS, Names, Square, geometry
from emergo.notation import parse_position, parse_square
from emergo.server.learn.goals import DRAWS, GOAL_KINDS, Goal

__all__ = [
    "OPPONENTS",
    "RULES",
    "VIEWS",
    "CourseError",
    "Level",
    "Stage",
    "read_stage",
    "read_stages",
    "stages_dir",
]

RULES = (
    *(f"R{n}" for n in range(1, 19)),
    "R19a",
    "R19b",
    "R19c",
    "R20",
    "R21",
    "R22",
)
"""The rules of docs/rules.md a level may say it teaches (R19 by its three parts)."""
OPPONENTS = ("script", "tables", "bot")
"""Who answers the player's moves: the replies written in the level, the endgame tables' best
replies (:mod:`emergo.tablebase`), or a house bot in a real game (the server plays it)."""
VIEWS = ("diamond", "checker")
"""How the page draws the board (docs/board.md); the hexagon has one picture."""
_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_FILE = re.compile(r"(\d\d)-([a-z0-9-]+)\.toml")
_FIELDS = {
    "id",
    "position",
    "prelude",
    "goal",
    "only",
    "targets",
    "men",
    "by",
    "solution",
    "replies",
    "opponent",
    "bot",
    "par",
    "rules",
    "answer",
    "choices",
    "view",
    "names",
    "wrong",
}


class CourseError(ValueError):
    """A course that does not hold together; ``problems`` lists every fault found."""

    def __init__(self, problems: list[str]) -> None:
        shown = "\n".join(f"  {p}" for p in problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        super().__init__(f"the course has {len(problems)} problem(s):\n{shown}{more}")
        self.problems = problems


@dataclass(frozen=True)
class Level:
    """One level: a position, a goal, and the line that reaches it (docs/learn.md)."""

    id: str
    """``stage/level``, unique in the course."""
    stage: str
    key: str
    """The catalogue prefix of its texts: ``stage.level``."""
    variant: str
    position: str
    """Where the level's line starts (R22): the prelude is played from here."""
    prelude: tuple[str, ...]
    """Moves played before the player's first move (a game so far), both sides in turn."""
    goal: Goal
    only: bool
    """The one right move: at the last step exactly one legal move meets the goal."""
    solution: tuple[str, ...]
    """The player's moves, in order (canonical R21 texts)."""
    replies: tuple[str, ...]
    """The opponent's answer after each of the player's moves (one fewer, or as many)."""
    opponent: str
    bot: int | None
    """The house bot's level, for ``opponent = "bot"``."""
    par: int
    rules: tuple[str, ...]
    answer: str | None
    """A question's answer: a number, or the id of one of ``choices``."""
    choices: tuple[str, ...]
    view: str
    names: Names
    wrong: bool
    """The level has its own text for a move that fails the goal (``<key>.wrong``)."""
    source: str
    """The stage file and the level's place in it, for messages."""

    @property
    def is_question(self) -> bool:
        return self.goal.kind == "question"

    def text_keys(self) -> dict[str, set[str] | None]:
        """The catalogue keys of this level's texts (``None``: a list of plain texts)."""
        keys: dict[str, set[str] | None] = {f"{self.key}.goal": set(), f"{self.key}.hint": None}
        keys[f"{self.key}.done"] = set()
        if self.wrong:
            keys[f"{self.key}.wrong"] = set()
        for choice in self.choices:
            keys[f"choice.{choice}"] = set()
        return keys


@dataclass(frozen=True)
class Stage:
    """A stage: levels that teach one thing, in order."""

    id: str
    number: int
    levels: tuple[Level, ...]
    source: str

    def text_keys(self) -> dict[str, set[str] | None]:
        return {f"{self.id}.title": set(), f"{self.id}.intro": set()}


def stages_dir() -> Path:
    """The shipped stage files (``stages/`` beside this module)."""
    return Path(str(resources.files("emergo.server.learn"))) / "stages"


def _strings(value: Any, what: str, problems: list[str]) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    problems.append(f"{what} must be a list of texts")
    return ()


def _level(data: dict[str, Any], stage: str, where: str, problems: list[str]) -> Level | None:
    before = len(problems)
    level_id = data.get("id")
    if not isinstance(level_id, str) or not _ID.fullmatch(level_id):
        problems.append(f"{where}: id must be a name like 'first-capture', not {level_id!r}")
        return None
    where = f"{where} ({level_id})"
    for name in sorted(set(data) - _FIELDS):
        problems.append(f"{where}: unknown field {name!r}")
    position = data.get("position")
    variant = "9x9"
    if not isinstance(position, str):
        problems.append(f"{where}: position must be a position string (R22)")
        position = ""
    else:
        try:
            variant = parse_position(position).variant
        except InvalidPositionError as e:
            problems.append(f"{where}: {e}")
    kind = data.get("goal")
    if kind not in GOAL_KINDS:
        problems.append(f"{where}: goal must be one of {', '.join(GOAL_KINDS)}, not {kind!r}")
        kind = "question"
    geo = geometry(variant)
    targets: list[Square] = []
    for name in _strings(data.get("targets", []), f"{where}: targets", problems):
        try:
            targets.append(parse_square(geo, name))
        except InvalidSquareError as e:
            problems.append(f"{where}: targets: {e}")
    men = data.get("men", 0)
    if isinstance(men, bool) or not isinstance(men, int) or men < 0:
        problems.append(f"{where}: men must be a count of men")
        men = 0
    by = data.get("by")
    if by is not None and (kind != "draw" or by not in DRAWS):
        problems.append(f"{where}: by is for a draw goal: {' or '.join(DRAWS)}")
        by = None
    if kind == "reach" and not targets:
        problems.append(f"{where}: a reach goal needs targets")
    opponent = data.get("opponent", "script")
    if opponent not in OPPONENTS:
        problems.append(f"{where}: opponent must be one of {', '.join(OPPONENTS)}")
        opponent = "script"
    bot = data.get("bot")
    if (opponent == "bot") != isinstance(bot, int) or isinstance(bot, bool):
        problems.append(f"{where}: a bot opponent needs bot = its level (1-11), and only it")
        bot = None
    solution = _strings(data.get("solution", []), f"{where}: solution", problems)
    replies = _strings(data.get("replies", []), f"{where}: replies", problems)
    prelude = _strings(data.get("prelude", []), f"{where}: prelude", problems)
    rules = _strings(data.get("rules", []), f"{where}: rules", problems)
    for rule in rules:
        if rule not in RULES:
            problems.append(f"{where}: {rule!r} is not a rule of docs/rules.md")
    if not rules:
        problems.append(f"{where}: rules must name the rules the level teaches")
    answer = data.get("answer")
    choices = _strings(data.get("choices", []), f"{where}: choices", problems)
    if kind == "question":
        if isinstance(answer, int) and not isinstance(answer, bool):
            answer = str(answer)
        if not isinstance(answer, str) or (choices and answer not in choices):
            problems.append(f"{where}: a question needs answer = a number or one of its choices")
        if solution or replies:
            problems.append(f"{where}: a question has no solution and no replies")
        for choice in choices:
            if not _ID.fullmatch(choice):
                problems.append(f"{where}: choice {choice!r} must be a name like 'white'")
    elif answer is not None or choices:
        problems.append(f"{where}: answer and choices are for questions")
    elif not solution and opponent != "bot":
        problems.append(f"{where}: solution must list the player's moves")
    par = data.get("par", max(1, len(solution)))
    if isinstance(par, bool) or not isinstance(par, int) or par < 1:
        problems.append(f"{where}: par must be a number of moves, at least 1")
        par = 1
    view = data.get("view", "diamond")
    if view not in VIEWS or (view == "checker" and variant == "hex"):
        problems.append(f"{where}: view must be one of {', '.join(VIEWS)} (the hexagon: diamond)")
        view = "diamond"
    names = data.get("names", "oblique")
    if names not in NAMINGS or (names == "checker" and variant == "hex"):
        problems.append(f"{where}: names must be one of {', '.join(NAMINGS)}")
        names = "oblique"
    only, wrong = data.get("only", False), data.get("wrong", False)
    if not isinstance(only, bool) or not isinstance(wrong, bool):
        problems.append(f"{where}: only and wrong are true or false")
    if len(problems) > before:
        return None
    return Level(
        id=f"{stage}/{level_id}",
        stage=stage,
        key=f"{stage}.{level_id}",
        variant=variant,
        position=position,
        prelude=prelude,
        goal=Goal(kind, tuple(targets), men, by),
        only=bool(only),
        solution=solution,
        replies=replies,
        opponent=opponent,
        bot=bot,
        par=par,
        rules=rules,
        answer=answer,
        choices=choices,
        view=view,
        names=names,
        wrong=bool(wrong),
        source=where,
    )


def read_stage(path: Path, problems: list[str]) -> Stage | None:
    """A stage file, or ``None`` with its faults added to ``problems``."""
    match = _FILE.fullmatch(path.name)
    if not match:
        problems.append(f"{path.name}: a stage file is named NN-id.toml")
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        problems.append(f"{path.name}: {e}")
        return None
    stage_id = data.get("id")
    if stage_id != match.group(2) or not _ID.fullmatch(str(stage_id)):
        problems.append(f"{path.name}: id must be {match.group(2)!r}, as the file is named")
        return None
    for name in sorted(set(data) - {"id", "level"}):
        problems.append(f"{path.name}: unknown field {name!r}")
    raw = data.get("level", [])
    if not isinstance(raw, list) or not raw or not all(isinstance(x, dict) for x in raw):
        problems.append(f"{path.name}: a stage has one [[level]] table or more")
        return None
    levels = []
    for i, entry in enumerate(raw, 1):
        level = _level(entry, stage_id, f"{path.name} level {i}", problems)
        if level is not None:
            levels.append(level)
    ids = [level.id for level in levels]
    for dup in sorted({x for x in ids if ids.count(x) > 1}):
        problems.append(f"{path.name}: two levels are called {dup}")
    return Stage(stage_id, int(match.group(1)), tuple(levels), path.name)


def read_stages(directory: Path, problems: list[str]) -> list[Stage]:
    """Every stage file of ``directory``, in the order of their numbers."""
    files = sorted(directory.glob("*.toml"))
    if not files:
        problems.append(f"{directory}: no stage files")
    stages = [s for s in (read_stage(f, problems) for f in files) if s is not None]
    numbers = [s.number for s in stages]
    for number in sorted({n for n in numbers if numbers.count(n) > 1}):
        problems.append(f"two stage files are numbered {number:02d}")
    ids = [s.id for s in stages]
    for name in sorted({x for x in ids if ids.count(x) > 1}):
        problems.append(f"two stages are called {name}")
    return stages
