"""The reports' queue and the moderators' actions (migration 0008).

A report names a player (``target``), a reason (:data:`REASONS`), the reporter's words, and
optionally one chat line of a game (its text is kept as it was: a line removed later is still
judged on what was said). A reporter has at most :data:`MAX_OPEN` open reports; the same
player or line reported again while open is the same report. An action closes the report it
answers and is one ``moderation_log`` row: ``warn`` (a notice to the player in the moderators'
words), ``mute`` (no chat line from the player until ``unmute``; a reported line is removed),
``disable`` (the account can no longer log in or play: :meth:`Users.disable`), ``dismiss``
(nothing wrong). Moderators are the site's admins: the CLI's ``emergo admin reports``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.report.terms import ACTIONS, REASONS
from emergo.server.user.accounts import DELETED_NAME, User

__all__ = ["ACTIONS", "MAX_OPEN", "REASONS", "Report", "ReportError", "Reports", "muted"]

MAX_OPEN = 10
"""Open reports a player may have made at once."""
MAX_TEXT = 1000


class ReportError(SiteError):
    """A report or an action that cannot be made: the message says why."""


@dataclass(frozen=True)
class Report:
    id: int
    reporter: str | None
    target: str
    reason: str
    text: str
    game_id: str | None
    line_id: int | None
    line_text: str | None
    created: float
    status: str
    tournament_id: str | None = None  # the reported line is an event's chat (issue 30)

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reporter": self.reporter,
            "user": self.target,
            "reason": self.reason,
            "reasonText": REASONS.get(self.reason, self.reason),
            "text": self.text,
            "gameId": self.game_id,
            "tournamentId": self.tournament_id,
            "lineId": self.line_id,
            "line": self.line_text,
            "createdAt": int(self.created * 1000),
            "status": self.status,
        }


_reporter = m.users.alias("reporter")
_target = m.users.alias("target")
_SELECT = (
    select(
        m.reports,
        _reporter.c.name.label("reporter_name"),
        _target.c.name.label("target_name"),
        m.chat.c.tournament_id,
    )
    .outerjoin(_reporter, _reporter.c.id == m.reports.c.reporter_id)
    .join(_target, _target.c.id == m.reports.c.target_id)
    .outerjoin(m.chat, m.chat.c.id == m.reports.c.line_id)
)


def _report(row: Any) -> Report:
    return Report(
        id=row.id,
        reporter=row.reporter_name,
        target=row.target_name or DELETED_NAME,
        reason=row.reason,
        text=row.text,
        game_id=row.game_id,
        line_id=row.line_id,
        line_text=row.line_text,
        created=row.created,
        status=row.status,
        tournament_id=row.tournament_id,
    )


def muted(c: Any, user_id: int) -> bool:
    """Whether the moderators muted ``user_id`` in chat (asked by the chat in its transaction)."""
    found = c.execute(select(m.chat_mutes.c.user_id).where(m.chat_mutes.c.user_id == user_id))
    return found.first() is not None


class Reports:
    """The reports and the moderation log of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def report(
        self,
        reporter: User,
        target: User,
        reason: Any,
        text: Any = "",
        *,
        line_id: Any = None,
    ) -> Report:
        """A report of ``target`` (or of his chat line ``line_id``) by ``reporter``."""
        if reason not in REASONS:
            raise ReportError(f"reason is one of {', '.join(REASONS)}")
        words = text.strip() if isinstance(text, str) else ""
        if len(words) > MAX_TEXT:
            raise ReportError(f"a report says at most {MAX_TEXT} characters")
        if target.id == reporter.id:
            raise ReportError("you cannot report yourself")
        if line_id is not None and (isinstance(line_id, bool) or not isinstance(line_id, int)):
            raise ReportError("line is a chat line's id (a whole number)")
        t = now()
        with self.db.write() as tx:
            game_id = line_text = None
            if line_id is not None:
                line = tx.execute(
                    select(m.chat.c.game_id, m.chat.c.user_id, m.chat.c.text).where(
                        m.chat.c.id == line_id
                    )
                ).first()
                if line is None or line.user_id != target.id:
                    raise ReportError(f"{target.name} wrote no such chat line", 404)
                game_id, line_text = line.game_id, line.text
            same = tx.execute(
                select(m.reports.c.id)
                .where(m.reports.c.reporter_id == reporter.id)
                .where(m.reports.c.target_id == target.id)
                .where(m.reports.c.status == "open")
                .where(
                    m.reports.c.line_id.is_(None)
                    if line_id is None
                    else m.reports.c.line_id == line_id
                )
            ).scalar()
            if same is not None:
                report_id = int(same)
            else:
                count = tx.execute(
                    select(func.count())
                    .select_from(m.reports)
                    .where(m.reports.c.reporter_id == reporter.id)
                    .where(m.reports.c.status == "open")
                ).scalar()
                if (count or 0) >= MAX_OPEN:
                    raise ReportError(
                        f"you have {MAX_OPEN} reports waiting for the moderators: thank you, "
                        "they will read them",
                        429,
                    )
                result = tx.execute(
                    insert(m.reports).values(
                        reporter_id=reporter.id,
                        target_id=target.id,
                        reason=reason,
                        text=words,
                        game_id=game_id,
                        line_id=line_id,
                        line_text=line_text,
                        created=t,
                        status="open",
                    )
                )
                report_id = int(result.inserted_primary_key[0])
            row = tx.execute(_SELECT.where(m.reports.c.id == report_id)).first()
        return _report(row)

    def queue(self, *, status: str = "open", limit: int = 100) -> list[Report]:
        """The reports of ``status`` (``open``, ``closed``, ``all``), oldest first."""
        query = _SELECT.order_by(m.reports.c.id).limit(limit)
        if status != "all":
            query = query.where(m.reports.c.status == status)
        with self.db.read() as c:
            return [_report(r) for r in c.execute(query).all()]

    def get(self, report_id: int) -> Report | None:
        with self.db.read() as c:
            row = c.execute(_SELECT.where(m.reports.c.id == report_id)).first()
        return _report(row) if row is not None else None

    def act(
        self,
        moderator: str,
        action: str,
        target_id: int,
        *,
        report_id: int | None = None,
        note: str = "",
        tx: Tx | None = None,
    ) -> int:
        """Log ``action`` on ``target_id`` by ``moderator`` and do what it does to the chat (a
        mute); close ``report_id`` (and the player's other open reports for ``disable``). The
        log row's id. A warning's notice and a disabling are the site's (they touch other
        services): :meth:`emergo.server.site.Site.moderate`."""
        if action not in ACTIONS:
            raise ReportError(f"action is one of {', '.join(ACTIONS)}")
        if tx is None:
            with self.db.write() as own:
                return self.act(
                    moderator, action, target_id, report_id=report_id, note=note, tx=own
                )
        t = now()
        if action == "mute" and not muted(tx, target_id):
            tx.execute(insert(m.chat_mutes).values(user_id=target_id, since=t))
        if action == "unmute":
            tx.execute(delete(m.chat_mutes).where(m.chat_mutes.c.user_id == target_id))
        if report_id is not None:
            found = tx.execute(_SELECT.where(m.reports.c.id == report_id)).first()
            if found is None or found.target_id != target_id:
                raise ReportError(f"no report {report_id} of that player", 404)
            if action == "mute" and found.line_id is not None:
                tx.execute(update(m.chat).where(m.chat.c.id == found.line_id).values(removed=True))
                # the topics of emergo.server.chat.service.topic_of (which imports this module)
                topic = (
                    f"c:{found.game_id}"
                    if found.game_id is not None
                    else f"ec:{found.tournament_id}"
                )
                tx.notify(topic, f"removed:{found.line_id}")
            tx.execute(update(m.reports).where(m.reports.c.id == report_id).values(status="closed"))
        if action == "disable":
            tx.execute(
                update(m.reports)
                .where(m.reports.c.target_id == target_id)
                .where(m.reports.c.status == "open")
                .values(status="closed")
            )
        result = tx.execute(
            insert(m.moderation_log).values(
                at=t,
                moderator=moderator[:40],
                target_id=target_id,
                action=action,
                report_id=report_id,
                note=note[:MAX_TEXT],
            )
        )
        return int(result.inserted_primary_key[0])

    def log(self, limit: int = 100) -> list[dict[str, Any]]:
        """The moderators' actions, newest first."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.moderation_log, m.users.c.name)
                .outerjoin(m.users, m.users.c.id == m.moderation_log.c.target_id)
                .order_by(m.moderation_log.c.id.desc())
                .limit(limit)
            ).all()
        return [
            {
                "id": r.id,
                "at": r.at,
                "moderator": r.moderator,
                "user": r.name or DELETED_NAME,
                "action": r.action,
                "report": r.report_id,
                "note": r.note,
            }
            for r in rows
        ]
