"""Reports over HTTP: ``POST /api/report`` (``username``, ``reason``, ``text``, and ``line``,
a chat line's id, to report that line) from a signed-in player. The queue and the actions are
the moderators': ``emergo admin reports``."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import ApiError, fields_of, require, site_of


async def report_post(request: Request) -> Response:
    fields = await fields_of(request)
    actor = await require(request, fields=fields)
    if actor.via != "session":
        raise ApiError("reports are made from the site's pages, signed in", 403)
    site = site_of(request)
    name = fields.get("username")
    target = await asyncio.to_thread(site.users.by_name, name if isinstance(name, str) else "")
    if target is None:
        raise ApiError(f"no player named {str(name)[:30]!r}", 404)
    line = fields.get("line")
    if isinstance(line, str) and line.isascii() and line.isdigit():  # not "²"
        line = int(line[:12])
    site.local_limits.hit("reports", str(actor.user.id), 20, 3600)
    report = await asyncio.to_thread(
        site.reports.report,
        actor.user,
        target,
        fields.get("reason"),
        fields.get("text", ""),
        line_id=line,
    )
    return JSONResponse({"ok": True, "report": {"id": report.id, "status": report.status}})
