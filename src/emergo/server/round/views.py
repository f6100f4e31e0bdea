"""A stored game as its readers see it: who plays it (:class:`Seats`) and its row with the
round's state (:class:`GameView`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from emergo import round as rnd
from emergo.board import BLACK, WHITE, Color
from emergo.server.core import models as m
from emergo.server.user.accounts import DELETED_NAME


def color_name(color: Color) -> str:
    return "white" if color == WHITE else "black"


@dataclass(frozen=True)
class Seats:
    """Who plays a game: the users' ids and names."""

    white_id: int
    black_id: int
    white: str
    black: str
    white_bot: bool = False
    black_bot: bool = False

    @property
    def hotseat(self) -> bool:
        """One player holds both seats (two people at one screen): the side to move is the seat."""
        return self.white_id == self.black_id

    def color_of(self, user_id: int) -> Color | None:
        """The user's colour (a hot-seat game's player: White; :meth:`seat_of` says more)."""
        if user_id == self.white_id:
            return WHITE
        if user_id == self.black_id:
            return BLACK
        return None

    def seat_of(
        self, user_id: int, state: rnd.RoundState, action: str | None = None
    ) -> Color | None:
        """The side ``user_id`` acts for with ``action`` (:mod:`emergo.server.round.commands`):
        their colour; in a hot-seat game the side to move, but the side asked for an offer's
        answer (the other side of the offer), and the side that just moved for a takeback."""
        if not self.hotseat:
            return self.color_of(user_id)
        if user_id != self.white_id:
            return None
        if action in ("draw-yes", "draw-no") and state.draw_offer is not None:
            return not state.draw_offer
        if action in ("takeback-yes", "takeback-no") and state.takeback_offer is not None:
            return not state.takeback_offer
        if action == "takeback-yes" and state.moves:
            return not state.turn  # its own last move goes back
        return state.turn

    def id_of(self, color: Color) -> int:
        return self.white_id if color == WHITE else self.black_id

    def name_of(self, color: Color) -> str:
        return self.white if color == WHITE else self.black


@dataclass(frozen=True)
class GameView:
    """A stored game as a reader sees it: its row's fields and the round's state."""

    id: str
    seats: Seats
    state: rnd.RoundState
    variant: str
    speed: str
    time_control: str | None
    rated: bool
    status: str
    player_chat: bool
    created: float
    updated: float
    swap: str | None = None
    """The game's ``Swap`` tag (issue 30, :mod:`emergo.server.round.swap`): ``swap-N`` while
    Black's choice is ahead, ``swap-N taken`` or ``swap-N declined`` after; None: no swap rule."""
    learn: str | None = None
    """The game's ``Learn`` tag (issue 28, :mod:`emergo.server.learn.practice`): the id of the
    practice level it plays; None: not a practice game."""

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def swap_rule(self) -> bool:
        """The game started under the swap rule: its commands take the locked transaction,
        which checks the choice."""
        return self.swap is not None


_white = m.users.alias("white")
_black = m.users.alias("black")
GAME_ROWS = (
    select(
        m.games,
        _white.c.name.label("white_name"),
        _black.c.name.label("black_name"),
        _white.c.bot.label("white_bot"),
        _black.c.bot.label("black_bot"),
    )
    .join(_white, _white.c.id == m.games.c.white_id)
    .join(_black, _black.c.id == m.games.c.black_id)
)


def view_of(row: Any) -> GameView:
    """A row of :data:`GAME_ROWS` as a reader sees it."""
    return GameView(
        id=row.id,
        seats=Seats(
            white_id=row.white_id,
            black_id=row.black_id,
            white=row.white_name or DELETED_NAME,
            black=row.black_name or DELETED_NAME,
            white_bot=bool(row.white_bot),
            black_bot=bool(row.black_bot),
        ),
        state=rnd.RoundState.from_json(row.state),
        variant=row.variant,
        speed=row.speed,
        time_control=row.time_control,
        rated=row.rated,
        status=row.status,
        player_chat=row.player_chat,
        created=row.created,
        updated=row.updated,
        swap=(row.tags or {}).get("Swap"),
        learn=(row.tags or {}).get("Learn"),
    )
