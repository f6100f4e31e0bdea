"""The game's refusals: :class:`GameError`, and :class:`StaleVersionError` for an old version."""

from __future__ import annotations

from emergo.round import RoundError

__all__ = ["GameError", "StaleVersionError"]


class GameError(RoundError):
    """A request the game refuses now: not that side's turn, a computer's side, the game over.

    A :class:`~emergo.round.RoundError` (so a ``ValueError``): the round's refusals come as it.
    """


class StaleVersionError(GameError):
    """A request made at a :attr:`Game.version` the game has left (``version`` is the current
    one): the engine replied, a flag fell or another client acted in between, so the request
    would act on a state its sender never saw.  Nothing changed.

    The commands of :class:`Game` take the version their sender saw (``version=``) and raise
    this, under the game's lock, when it is not the game's.
    """

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version
