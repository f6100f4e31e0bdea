"""What the game page shows of correspondence and ratings: a finished game's rating changes and
a player's conditional moves (their form, ``POST /game/{id}/conditional``).
"""

from __future__ import annotations

import asyncio
from html import escape as e

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.core.auth import Actor, site_of
from emergo.server.core.frame import hidden_fields, page, player_link, rating_html
from emergo.server.correspondence.conditional import ConditionalError
from emergo.server.notify.pages import session_post
from emergo.server.round.service import GameError, GameView
from emergo.server.site import Site


def game_extras(site: Site, game: GameView, actor: Actor | None) -> str:
    """For :func:`emergo.server.user.pages.game_page`: a finished game's ratings and the
    replay's data; a correspondence player's own conditional moves while he waits."""
    s = game.state
    out = ""
    if s.is_over:
        row = site.archive.one(game.id)
        if row is not None:
            out += (
                f'<p class="players">{player_link(row.white)}'
                f"{rating_html(row.white_rating, row.white_diff, row.white_provisional)} – "
                f"{player_link(row.black)}"
                f"{rating_html(row.black_rating, row.black_diff, row.black_provisional)} · "
                f"{e(row.result)}</p>"
            )
        out += (
            f'<div id="replay" data-variant="{e(game.variant)}" data-root="{e(s.root)}" '
            f'data-moves="{e(" ".join(s.moves))}"></div>'
        )
        return out
    color = game.seats.color_of(actor.user.id) if actor is not None else None
    if (
        actor is None
        or actor.via != "session"
        or color is None
        or game.speed != "correspondence"
        or s.turn == color
    ):
        return out
    tree = site.correspondence.conditional(game.id, actor.user.id)
    lines = "\n".join(" ".join(x) for x in tree.lines()) if tree is not None else ""
    return out + _conditional_form(game.id, actor, lines)


def _conditional_form(game_id: str, actor: Actor, lines: str, error: str = "") -> str:
    """The conditional moves' form, with ``lines`` as the text (kept as typed after a refusal)."""
    rows = max(4, min(20, lines.count("\n") + 2))
    shown = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    # a newline right after <textarea> is eaten by the HTML parser: one more keeps the first line
    return (
        '<section class="conditional"><h2>Conditional moves</h2>'
        "<p>Only you see them. A line a row: his move, your reply, his next, your reply... "
        "A line that begins a longer one is kept within it.</p>"
        f'{shown}<form method="post" action="/game/{e(game_id)}/conditional">{hidden_fields(actor)}'
        f'<label>Lines <textarea name="lines" rows="{rows}">\n{e(lines)}</textarea></label>'
        '<button type="submit">Keep</button></form></section>'
    )


async def conditional_post(request: Request) -> Response:
    """The game page's conditional moves form."""
    site = site_of(request)
    actor, fields = await session_post(request)
    game_id = request.path_params["id"]
    raw = str(fields.get("lines", ""))
    lines = [x for x in raw.splitlines() if x.strip()][:100]
    try:
        await asyncio.to_thread(site.correspondence.set_conditional, game_id, actor.user.id, lines)
    except (ConditionalError, GameError) as err:
        status = getattr(err, "status", 400)
        # the player's lines come back as typed, with the refusal: nothing he wrote is lost
        form = (
            _conditional_form(game_id, actor, "\n".join(lines), str(err))
            if status == 400
            else (f'<p class="error" role="alert">{e(str(err))}</p>')
        )
        return page(
            "Conditional moves",
            f'{form}<p><a href="/game/{e(game_id)}">Back to the game</a></p>',
            actor,
            status,
        )
    return RedirectResponse(f"/game/{game_id}", status_code=303)
