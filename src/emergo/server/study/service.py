"""Studies (lichess's): an account's chapters of annotated lines, kept on the site and shared by
address (``studies`` and ``chapters``; docs/web.md).

A study has an owner, a name, a visibility and one or more chapters in order; each chapter is a
record (:mod:`emergo.server.study.chapters`).  Who may do what:

* **private**: its owner alone reads it (a session, or a token with ``study:read``);
* **unlisted**: anyone with its address reads it; it is listed for its owner only;
* **public**: anyone reads it, and it is listed on its owner's profile;
* only its owner changes it (a session, or a token with ``study:write``).

Each chapter carries a revision (its ``updated`` time): an edit may name the revision it was
made on, and is refused when the chapter changed since (another tab), so no edit lands on a
tree it was not made for.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.study.chapters import (
    MAX_CHAPTERS,
    ChapterRecord,
    StudyError,
    apply_edits,
)
from emergo.server.user.accounts import DELETED_NAME, User

__all__ = [
    "MAX_STUDIES",
    "VISIBILITIES",
    "Chapter",
    "ChapterInfo",
    "Studies",
    "Study",
    "StudyError",
]

VISIBILITIES = ("private", "unlisted", "public")
MAX_STUDIES = 1000
"""Most studies an account may own."""
MAX_NAME = 100
_ALPHABET = string.ascii_letters + string.digits


def new_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


@dataclass(frozen=True)
class ChapterInfo:
    """A chapter as a study's list shows it."""

    id: str
    name: str
    variant: str
    nodes: int
    updated: float

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.variant,
            "nodes": self.nodes,
            "rev": self.updated,
        }


@dataclass(frozen=True)
class Chapter:
    """A chapter with its record."""

    info: ChapterInfo
    study_id: str
    record: str


@dataclass(frozen=True)
class Study:
    """A study and its chapters in order."""

    id: str
    owner_id: int
    owner: str
    name: str
    visibility: str
    created: float
    updated: float
    chapters: tuple[ChapterInfo, ...]

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "visibility": self.visibility,
            "createdAt": int(self.created * 1000),
            "updatedAt": int(self.updated * 1000),
            "chapters": [c.json() for c in self.chapters],
        }


def visibility_of(value: Any, default: str = "private") -> str:
    if value is None:
        return default
    if value not in VISIBILITIES:
        raise StudyError(f"visibility must be one of {', '.join(VISIBILITIES)}")
    result: str = value
    return result


def may_read(study: Study, viewer: int | None) -> bool:
    """Whether a viewer (an account's id, None: signed out) may read the study."""
    return study.visibility != "private" or viewer == study.owner_id


class Studies:
    """The site's studies (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- reading ------------------------------------------------------------------------------

    def _study(self, c: Any, study_id: str) -> Study | None:
        if not isinstance(study_id, str) or len(study_id) != 8:
            return None
        row = c.execute(
            select(m.studies, m.users.c.name.label("owner_name"))
            .join(m.users, m.users.c.id == m.studies.c.owner_id)
            .where(m.studies.c.id == study_id)
        ).first()
        if row is None:
            return None
        chapters = c.execute(
            select(
                m.chapters.c.id,
                m.chapters.c.name,
                m.chapters.c.variant,
                m.chapters.c.nodes,
                m.chapters.c.updated,
            )
            .where(m.chapters.c.study_id == study_id)
            .order_by(m.chapters.c.place, m.chapters.c.id)
        ).all()
        return Study(
            id=row.id,
            owner_id=row.owner_id,
            owner=row.owner_name or DELETED_NAME,
            name=row.name,
            visibility=row.visibility,
            created=row.created,
            updated=row.updated,
            chapters=tuple(
                ChapterInfo(r.id, r.name, r.variant, r.nodes, r.updated) for r in chapters
            ),
        )

    def get(self, study_id: str) -> Study | None:
        with self.db.read() as c:
            return self._study(c, study_id)

    def chapter(self, study_id: str, chapter_id: str) -> Chapter | None:
        """A chapter of a study, with its record."""
        if not isinstance(chapter_id, str) or len(chapter_id) != 8:
            return None
        with self.db.read() as c:
            row = c.execute(
                select(m.chapters).where(
                    m.chapters.c.study_id == study_id, m.chapters.c.id == chapter_id
                )
            ).first()
        if row is None:
            return None
        info = ChapterInfo(row.id, row.name, row.variant, row.nodes, row.updated)
        return Chapter(info, row.study_id, row.record)

    def records(self, study_id: str) -> list[str]:
        """The records of every chapter of a study, in order."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.chapters.c.record)
                .where(m.chapters.c.study_id == study_id)
                .order_by(m.chapters.c.place, m.chapters.c.id)
            ).all()
        return [r.record for r in rows]

    def of_owner(self, owner_id: int, *, listed_only: bool, limit: int = 100) -> list[Study]:
        """An account's studies, the last changed first: every one (its owner looking) or the
        public ones (``listed_only``)."""
        q = select(m.studies.c.id).where(m.studies.c.owner_id == owner_id)
        if listed_only:
            q = q.where(m.studies.c.visibility == "public")
        q = q.order_by(m.studies.c.updated.desc(), m.studies.c.id).limit(limit)
        with self.db.read() as c:
            ids = [r.id for r in c.execute(q).all()]
            found = [self._study(c, i) for i in ids]
        return [s for s in found if s is not None]

    def public(self, limit: int = 30) -> list[Study]:
        """The public studies of everyone, the last changed first (``/study``)."""
        q = (
            select(m.studies.c.id)
            .where(m.studies.c.visibility == "public")
            .order_by(m.studies.c.updated.desc(), m.studies.c.id)
            .limit(limit)
        )
        with self.db.read() as c:
            ids = [r.id for r in c.execute(q).all()]
            found = [self._study(c, i) for i in ids]
        return [s for s in found if s is not None]

    # --- writing ------------------------------------------------------------------------------

    def _owned(self, tx: Tx, study_id: str, user: User) -> Study:
        """The study, locked for the change, when ``user`` owns it."""
        tx.execute(tx.locked(select(m.studies.c.id).where(m.studies.c.id == study_id)))
        study = self._study(tx, study_id)
        if study is None:
            raise StudyError("no such study", 404)
        if study.owner_id != user.id:
            raise StudyError("only the study's owner may change it", 403)
        return study

    def _insert_chapters(
        self, tx: Tx, study_id: str, first_place: int, chapters: Sequence[ChapterRecord], t: float
    ) -> list[ChapterInfo]:
        made = []
        for place, chapter in enumerate(chapters, first_place):
            chapter_id = new_id()
            tx.execute(
                insert(m.chapters).values(
                    id=chapter_id,
                    study_id=study_id,
                    place=place,
                    name=chapter.name,
                    variant=chapter.variant,
                    record=chapter.text,
                    nodes=chapter.nodes,
                    updated=t,
                )
            )
            made.append(ChapterInfo(chapter_id, chapter.name, chapter.variant, chapter.nodes, t))
        return made

    def create(
        self,
        owner: User,
        name: str,
        visibility: str,
        chapters: Sequence[ChapterRecord],
        *,
        tx: Tx | None = None,
        t: float | None = None,
    ) -> Study:
        """A new study of ``owner`` with ``chapters`` (at least one), in ``tx`` when given."""
        if not chapters:
            raise StudyError("a study has at least one chapter")
        if len(chapters) > MAX_CHAPTERS:
            raise StudyError(f"a study holds at most {MAX_CHAPTERS} chapters")
        visibility = visibility_of(visibility)
        t = now() if t is None else t
        if tx is None:
            with self.db.write() as own:
                return self.create(owner, name, visibility, chapters, tx=own, t=t)
        tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == owner.id)))
        count = tx.execute(
            select(func.count()).select_from(m.studies).where(m.studies.c.owner_id == owner.id)
        ).scalar_one()
        if count >= MAX_STUDIES:
            raise StudyError(f"an account owns at most {MAX_STUDIES} studies: delete some first")
        study_id = new_id()
        tx.execute(
            insert(m.studies).values(
                id=study_id,
                owner_id=owner.id,
                name=name or "Study",
                visibility=visibility,
                created=t,
                updated=t,
            )
        )
        made = self._insert_chapters(tx, study_id, 0, chapters, t)
        return Study(study_id, owner.id, owner.name, name or "Study", visibility, t, t, tuple(made))

    def change(
        self, study_id: str, user: User, *, name: str | None = None, visibility: str | None = None
    ) -> Study:
        """Rename a study or change who may read it."""
        with self.db.write() as tx:
            study = self._owned(tx, study_id, user)
            values: dict[str, Any] = {"updated": now()}
            if name is not None:
                values["name"] = name or study.name
            if visibility is not None:
                values["visibility"] = visibility_of(visibility)
            tx.execute(update(m.studies).where(m.studies.c.id == study_id).values(**values))
            found = self._study(tx, study_id)
        assert found is not None
        return found

    def delete(self, study_id: str, user: User) -> None:
        with self.db.write() as tx:
            self._owned(tx, study_id, user)
            tx.execute(delete(m.chapters).where(m.chapters.c.study_id == study_id))
            tx.execute(delete(m.studies).where(m.studies.c.id == study_id))

    def add_chapters(
        self, study_id: str, user: User, chapters: Sequence[ChapterRecord]
    ) -> list[ChapterInfo]:
        """New chapters after the study's last."""
        t = now()
        with self.db.write() as tx:
            study = self._owned(tx, study_id, user)
            if len(study.chapters) + len(chapters) > MAX_CHAPTERS:
                raise StudyError(
                    f"a study holds at most {MAX_CHAPTERS} chapters; this one has "
                    f"{len(study.chapters)}"
                )
            last = tx.execute(
                select(func.max(m.chapters.c.place)).where(m.chapters.c.study_id == study_id)
            ).scalar()
            made = self._insert_chapters(tx, study_id, (last or 0) + 1, chapters, t)
            tx.execute(update(m.studies).where(m.studies.c.id == study_id).values(updated=t))
        return made

    def edit_chapter(
        self,
        study_id: str,
        chapter_id: str,
        user: User,
        *,
        edits: Any = None,
        name: str | None = None,
        rev: float | None = None,
    ) -> Chapter:
        """A chapter renamed or its tree edited (:func:`apply_edits`); ``rev``: the revision
        the edits were made on (a 409 when the chapter changed since)."""
        with self.db.write() as tx:
            self._owned(tx, study_id, user)
            row = tx.execute(
                select(m.chapters).where(
                    m.chapters.c.study_id == study_id, m.chapters.c.id == chapter_id
                )
            ).first()
            if row is None:
                raise StudyError("no such chapter", 404)
            if rev is not None and rev != row.updated:
                raise StudyError(
                    "the chapter was changed elsewhere (another tab?) since this page read it",
                    409,
                    words="This chapter was changed elsewhere: it is shown as it is now.",
                    rev=row.updated,
                )
            new_name = name or row.name
            changed = apply_edits(row.record, edits or [], new_name)
            t = max(now(), row.updated + 1e-6)  # the revision always moves on
            tx.execute(
                update(m.chapters)
                .where(m.chapters.c.id == chapter_id)
                .values(
                    name=new_name,
                    record=changed.text,
                    nodes=changed.nodes,
                    updated=t,
                )
            )
            tx.execute(update(m.studies).where(m.studies.c.id == study_id).values(updated=t))
        info = ChapterInfo(chapter_id, new_name, changed.variant, changed.nodes, t)
        return Chapter(info, study_id, changed.text)

    def delete_chapter(self, study_id: str, chapter_id: str, user: User) -> None:
        """Delete a chapter (a study keeps at least one)."""
        with self.db.write() as tx:
            study = self._owned(tx, study_id, user)
            if not any(c.id == chapter_id for c in study.chapters):
                raise StudyError("no such chapter", 404)
            if len(study.chapters) == 1:
                raise StudyError("a study keeps at least one chapter: delete the study instead")
            tx.execute(delete(m.chapters).where(m.chapters.c.id == chapter_id))
            tx.execute(update(m.studies).where(m.studies.c.id == study_id).values(updated=now()))
