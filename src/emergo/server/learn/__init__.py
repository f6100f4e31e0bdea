"""Learn: the course of /learn, from the first man entered to the feeder (issue 28, docs/learn.md).

The domain core, pure: the course as data (``stages/``, one TOML file a stage), its texts in a
catalogue a translation replaces (``catalogue/en.toml``), and the checker that loads and
validates the course and judges a player's attempt move by move
(:mod:`emergo.server.learn.course`).  No database, no web framework, no search at request time.
"""

from emergo.server.learn.catalogue import Catalogue, CatalogueError
from emergo.server.learn.course import (
    STATUSES,
    Attempt,
    AttemptError,
    Course,
    Verdict,
    load_course,
    rule_table,
    stars,
)
from emergo.server.learn.goals import GOAL_KINDS, Goal
from emergo.server.learn.levels import OPPONENTS, RULES, CourseError, Level, Stage

__all__ = [
    "GOAL_KINDS",
    "OPPONENTS",
    "RULES",
    "STATUSES",
    "Attempt",
    "AttemptError",
    "Catalogue",
    "CatalogueError",
    "Course",
    "CourseError",
    "Goal",
    "Level",
    "Stage",
    "Verdict",
    "load_course",
    "rule_table",
    "stars",
]
