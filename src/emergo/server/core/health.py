"""``GET /api/health``: whether this process and its database answer (for a balancer or a
monitor)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.server.core.auth import site_of
from emergo.server.core.db import RETRY_AFTER

HEALTH_TIMEOUT = 3.0
"""Seconds the health check waits for the database before it says 503."""


async def health(request: Request) -> Response:
    """``GET /api/health``: 200 when this process is up and its database answers, else 503
    (a balancer or a monitor takes the process out meanwhile)."""
    site = site_of(request)
    try:
        await asyncio.wait_for(asyncio.to_thread(site.db.ping), HEALTH_TIMEOUT)
    except Exception as e:  # any failure to answer is "not healthy"
        reason = "timed out" if isinstance(e, TimeoutError) else type(e).__name__
        return JSONResponse(
            {"ok": False, "db": False, "error": f"the database does not answer ({reason})"},
            status_code=503,
            headers={"retry-after": str(RETRY_AFTER), "cache-control": "no-store"},
        )
    return JSONResponse({"ok": True, "db": True}, headers={"cache-control": "no-store"})
