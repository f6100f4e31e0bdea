"""The old local app's studies brought into the site (``emergo admin import-local``, the first
start of ``emergo serve``): each one a private study of the player with one chapter holding its
whole tree, every comment kept and every mark as the NAG it stands for; the database made by
the code of main before the one server (tests/data/local/make_old_local_db.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from emergo import record
from emergo.server.local_import import import_local
from emergo.server.site import Site
from tests.plugins.common import ROOT

OLD = ROOT / "tests" / "data" / "local" / "emergo-0002.sqlite3"


def old_copy(folder: Path) -> Path:
    """The old store copied with its write-ahead log (the data may be in either)."""
    for suffix in ("", "-wal", "-shm"):
        source = OLD.with_name(OLD.name + suffix)
        if source.exists():
            shutil.copy(source, folder / (OLD.name + suffix))
    return folder / OLD.name


def old_studies(path: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(path) as c:
        c.row_factory = sqlite3.Row
        rows = c.execute("SELECT name, variant, start, tree FROM studies ORDER BY id").fetchall()
    return [{**dict(r), "tree": json.loads(r["tree"])} for r in rows]


def as_old_tree(node: record.GameNode) -> list[dict[str, Any]]:
    """A chapter's tree in the old store's form: moves, children, comments and marks."""
    out = []
    for child in node.variations:
        item: dict[str, Any] = {"move": child.move_text(), "children": as_old_tree(child)}
        if child.comment:
            item["comment"] = child.comment
        marks = [record.MARK_OF_NAG[n] for n in sorted(child.nags) if n in record.MARK_OF_NAG]
        if marks:
            item["mark"] = marks[0]
        out.append(item)
    return out


def test_every_old_study_is_a_private_study_with_its_tree_comments_and_marks(
    site: Site, tmp_path: Path
) -> None:
    path = old_copy(tmp_path)
    old = old_studies(path)
    assert len(old) == 2 and any("comment" in json.dumps(s["tree"]) for s in old)
    owner = site.users.create("ann", "a good password")
    summary = import_local(site, path, owner)
    assert summary.studies == len(old) and not [s for s in summary.skipped if "study" in s]
    studies = sorted(site.studies.of_owner(owner.id, listed_only=False), key=lambda s: s.created)
    assert [s.name for s in studies] == [s["name"] for s in old]
    for study, before in zip(studies, old, strict=True):
        assert study.visibility == "private" and len(study.chapters) == 1
        chapter = site.studies.chapter(study.id, study.chapters[0].id)
        assert chapter is not None and chapter.info.variant == before["variant"]
        game = record.read_game(chapter.record)
        assert game.board().position() == before["start"]
        assert as_old_tree(game) == before["tree"]  # every move, comment and mark
    # the one with side lines: its nags are the marks' ($1 for !, $6 for ?!)
    first = site.studies.chapter(studies[0].id, studies[0].chapters[0].id)
    assert first is not None and "1. d4! {White enters off the centre (R16)}" in first.record
    assert "?!" in first.record and "{too slow}" in first.record
