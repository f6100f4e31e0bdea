"""What the opening explorer counts of a game, and how its answer is put together: pure (no
database, no web framework; :mod:`emergo.server.explorer.service` stores it).

A game is counted at each position it passed through before :data:`PLY_LIMIT` plies: the
position's key (:func:`emergo.symmetry.canonical`: the least symmetric image, so move orders
and mirror images meet), the move played there written in the key's orientation, who played
it, the game's result and the mover's rating.  A game passing a position twice counts there
once, with the last move it played from it (lila-openingexplorer does the same).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from emergo.board import WHITE, Board, Color, Move, MoveKind
from emergo.errors import IllegalMoveError
from emergo.geometry import VARIANTS, Names
from emergo.symmetry import Canonical, canonical

__all__ = [
    "PLY_LIMIT",
    "RECENT_GAMES",
    "SOURCES",
    "TOP_GAMES",
    "Counts",
    "Game",
    "Seen",
    "answer",
    "digest",
    "merge_lists",
    "moves_of",
    "seen_in",
    "tally",
]

SOURCES = ("archive", "engine")
"""``archive``: the site's finished games; ``engine``: games of the engine against itself."""
PLY_LIMIT = 40
"""The plies of a game the explorer counts: the positions before each of its first 40 moves.
The entering phase (until both hands are empty) ends around ply 31 on 9x9 (27 to 41 in engine
games), 20 on 7x7 and 28 on the hexagon: 40 plies hold it and a few moves after on every board.
Later, two games almost never meet in a position again, so counting further would fill the
tables with positions no second game reaches (lila-openingexplorer stops at 50 plies of chess
for the same reason)."""
TOP_GAMES = 4
"""Top games kept a position: the rated games of the highest average rating (lila's 4)."""
RECENT_GAMES = 8
"""Recent games kept a position, the newest first (lila's 8)."""


def digest(key: str) -> str:
    """The stored form of a position's key: 128 bits of BLAKE2b, in hex (32 characters)."""
    return hashlib.blake2b(key.encode(), digest_size=16).hexdigest()


def start_of(variant: str) -> str:
    """The canonical start position of a variant (R22)."""
    return Board(variant=variant).position()


@dataclass(frozen=True)
class Seen:
    """One position of a game: its key (:func:`digest`), the move played from it (canonical
    text, the key's orientation) and whether White played it."""

    key: str
    move: str
    white: bool


def seen_in(root: Board, moves: Iterable[Move], limit: int = PLY_LIMIT) -> list[Seen]:
    """The positions of a game from ``root`` (its move stack left alone) before each of its
    first ``limit`` moves, each once (the last move played from it)."""
    board = root.copy(stack=False)
    seen: dict[str, Seen] = {}
    for ply, move in enumerate(moves):
        if ply >= limit:
            break
        c = canonical(board)
        key = digest(c.key)
        seen[key] = Seen(key, c.move(move), board.turn == WHITE)
        board.push_unchecked(move)
    return list(seen.values())


def moves_of(root: Board, texts: Sequence[str], limit: int = PLY_LIMIT) -> list[Move]:
    """The first ``limit`` moves of canonical R21 texts from ``root``, each checked legal;
    :class:`IllegalMoveError` names the first that is not."""
    board = root.copy(stack=False)
    out: list[Move] = []
    for ply, text in enumerate(texts[:limit], 1):
        men = board.entry_size() if "-" not in text and "x" not in text else 1
        move = Move.from_text(text, board.variant, men=men)
        if not board.is_legal(move):
            raise IllegalMoveError(f"move {ply} {text!r} is not legal in {board.position()!r}")
        board.push_unchecked(move)
        out.append(move)
    return out


@dataclass(frozen=True)
class Game:
    """A game as the explorer counts it.

    ``winner``: the colour that won, None for a draw; ``ratings``: White's and Black's before
    the game, in a rated game (else None: the game counts, its ratings do not); ``listed``: what
    a position's lists of top and recent games keep of it (archive games: :func:`listed_of`),
    None for a game no page shows (the engine's)."""

    source: str
    id: str
    variant: str
    winner: Color | None
    seen: tuple[Seen, ...]
    ratings: tuple[int | None, int | None] = (None, None)
    listed: dict[str, Any] | None = None


def winner_of(result: str) -> Color | None:
    """The winner of an R20 result; ``ValueError`` for an unfinished or aborted game."""
    if result == "1-0":
        return WHITE
    if result == "0-1":
        return not WHITE
    if result == "1/2-1/2":
        return None
    raise ValueError(f"{result!r} is not the result of a finished game")


def archive_game(row: Mapping[str, Any], root: str, moves: Sequence[Move]) -> Game | None:
    """An archive row's game (``emergo.server.core.models.archive``'s columns), or None when the
    explorer does not count it: aborted, no move played, or not from the variant's start."""
    variant = row["variant"]
    if row["result"] not in ("1-0", "0-1", "1/2-1/2") or not moves or variant not in VARIANTS:
        return None
    if root != start_of(variant):
        return None
    board = Board(root, variant=variant)
    winner = winner_of(row["result"])
    ratings = (row.get("white_rating"), row.get("black_rating"))
    if None in ratings:
        ratings = (None, None)
    listed = {
        "id": row["game_id"],
        "white": row["white_id"],
        "black": row["black_id"],
        "ratings": list(ratings),
        "winner": None if winner is None else "white" if winner == WHITE else "black",
        "speed": row["speed"],
        "rated": bool(row["rated"]),
        "ended": float(row["ended"]),
    }
    return Game(
        "archive", row["game_id"], variant, winner, tuple(seen_in(board, moves)), ratings, listed
    )


@dataclass
class Counts:
    """One row of the explorer: games by result and the movers' ratings (rated games)."""

    white: int = 0
    draws: int = 0
    black: int = 0
    rating_sum: int = 0
    rating_count: int = 0

    def add(self, winner: Color | None, rating: int | None) -> None:
        if winner is None:
            self.draws += 1
        elif winner == WHITE:
            self.white += 1
        else:
            self.black += 1
        if rating is not None:
            self.rating_sum += int(rating)
            self.rating_count += 1

    @property
    def games(self) -> int:
        return self.white + self.draws + self.black


def tally(games: Iterable[Game]) -> dict[tuple[str, str, str, str], Counts]:
    """The counts of some games by (source, variant, key, move)."""
    out: dict[tuple[str, str, str, str], Counts] = {}
    for game in games:
        white, black = game.ratings
        for seen in game.seen:
            row = (game.source, game.variant, seen.key, seen.move)
            counts = out.get(row)
            if counts is None:
                counts = out[row] = Counts()
            counts.add(game.winner, white if seen.white else black)
    return out


def _average(entry: Mapping[str, Any]) -> float | None:
    white, black = entry["ratings"]
    return None if white is None or black is None else (white + black) / 2


def merge_lists(
    lists: Mapping[str, list[dict[str, Any]]] | None, games: Iterable[dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """A position's lists with more games (``listed`` with the ``move`` played there): the
    :data:`TOP_GAMES` rated ones of the highest average rating (the newer first on a tie), the
    :data:`RECENT_GAMES` newest."""
    top = list(lists["top"]) if lists else []
    recent = list(lists["recent"]) if lists else []
    for game in games:
        if all(g["id"] != game["id"] for g in recent):
            recent.append(game)
        if _average(game) is not None and all(g["id"] != game["id"] for g in top):
            top.append(game)
    top.sort(key=lambda g: (-(_average(g) or 0.0), -g["ended"], g["id"]))
    recent.sort(key=lambda g: (-g["ended"], g["id"]))
    return {"top": top[:TOP_GAMES], "recent": recent[:RECENT_GAMES]}


# --- the answer (lila-openingexplorer's shape) -------------------------------------------------


@dataclass
class Found:
    """What the store holds of one position: its move rows and its lists."""

    moves: list[tuple[str, Counts]] = field(default_factory=list)
    lists: Mapping[str, list[dict[str, Any]]] | None = None
    names: Mapping[int, str] = field(default_factory=dict)


def _move_json(board: Board, c: Canonical, text: str) -> dict[str, Any]:
    """A move of the key as the position asked sees it: its canonical text (``move``, and
    ``san`` where lichess's clients read it) and its text in checkerboard names (R3; the
    oblique names on the hexagon, which has no others)."""
    shown = c.shown(text)
    geo = board.geometry
    names: Names = "checker" if "checker" in geo.namings else "oblique"
    move = Move.from_text(shown, board.variant)
    sep = "x" if move.kind is MoveKind.CAPTURE else "-"
    checker = sep.join(geo.square_name(sq, names) for sq in move.path)
    return {"move": shown, "san": shown, "checker": checker}


def _game_json(
    board: Board, c: Canonical, game: Mapping[str, Any], names: Mapping[int, str]
) -> dict[str, Any]:
    ended = datetime.fromtimestamp(game["ended"], UTC)
    white, black = game["ratings"]
    return {
        **_move_json(board, c, game["move"]),
        "id": game["id"],
        "winner": game["winner"],
        "speed": game["speed"],
        "mode": "rated" if game["rated"] else "casual",
        "white": {"name": names.get(game["white"]), "rating": white},
        "black": {"name": names.get(game["black"]), "rating": black},
        "year": ended.year,
        "month": ended.strftime("%Y-%m"),
    }


def answer(board: Board, c: Canonical, found: Found) -> dict[str, Any]:
    """The explorer's answer for the position of ``board`` (``c`` its canonical form): the
    totals, each move with its counts and average rating (the most played first), the top and
    recent games, in the orientation of the position asked."""
    moves = []
    total = Counts()
    for text, counts in found.moves:
        total.white += counts.white
        total.draws += counts.draws
        total.black += counts.black
        average = round(counts.rating_sum / counts.rating_count) if counts.rating_count else None
        moves.append(
            {
                **_move_json(board, c, text),
                "white": counts.white,
                "draws": counts.draws,
                "black": counts.black,
                "averageRating": average,
            }
        )
    moves.sort(key=lambda m: (-(m["white"] + m["draws"] + m["black"]), m["move"]))
    top = list(found.lists["top"]) if found.lists else []
    recent = list(found.lists["recent"]) if found.lists else []
    on_top = {g["id"] for g in top}
    recent = [g for g in recent if g["id"] not in on_top]  # lila: a top game is not repeated
    return {
        "white": total.white,
        "draws": total.draws,
        "black": total.black,
        "moves": moves,
        "topGames": [_game_json(board, c, g, found.names) for g in top],
        "recentGames": [_game_json(board, c, g, found.names) for g in recent],
        "opening": None,
    }
