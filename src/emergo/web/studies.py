"""Studies: the analysis board's variation trees, kept in the store (``/api/studies``).

A study is a start position (R22) and a tree of moves from it, as JSON::

    {"start": "w 12/12", "name": "", "tree": [{"move": "d4", "children": [...]}, ...]}

A node may also carry the player's ``comment`` and ``mark`` (``!?`` ...: the record's MARKS),
kept as they are given.

``tree`` holds the root's children; a node's first child continues its line, the others are
variations (the page's order).  The server replays every node with :class:`emergo.Board`
before it stores anything: a move that is not legal where it stands, two children with the
same move, a tree too deep, is refused with a 400 whose JSON names the node (``path``: the
child indices from the root), a tree of more than :data:`MAX_NODES` moves with a 413 --
nothing is stored then.  Moves are stored in
canonical text; ``GET`` answers each node's move as the page's move data (texts, route).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from emergo.board import Board
from emergo.record import MARKS
from emergo.web.inputs import body_json, clean_name, id_of
from emergo.web.positions import JSON, MAX_MOVES, MAX_TEXT, RequestError, board_from, move_data
from emergo.web.store import Store

MAX_NODES = 5000
"""Most moves a study holds (all its variations)."""
MAX_DEPTH = MAX_MOVES
"""Most moves of one line from the start."""
MAX_COMMENT = 1000
"""Most characters of a node's comment."""


def check_tree(start: Any, tree: Any) -> tuple[Board, list[JSON], int]:
    """The start board, the tree in canonical texts and its node count; a
    :class:`RequestError` (400, ``path`` the node's child indices) when anything is wrong."""
    board = board_from(start)
    board = Board(board.position())  # the start itself: no moves before it
    if not isinstance(tree, list):
        raise RequestError("tree must be a list of nodes {'move': text, 'children': [...]}")
    out: list[JSON] = []
    count = 0
    # depth first, without recursion: (nodes to check, where their checked copies go, path)
    stack: list[tuple[list[Any], list[JSON], list[int], int]] = [(tree, out, [], 0)]
    while stack:
        nodes, target, path, index = stack.pop()
        if index > 0:
            board.pop()  # back from the previous sibling's subtree
        if index >= len(nodes):
            continue
        node = nodes[index]
        here = [*path, index]
        count += 1
        if count > MAX_NODES:
            raise RequestError(f"a study holds at most {MAX_NODES} moves", 413, path=here)
        if len(here) > MAX_DEPTH:
            raise RequestError(f"a line holds at most {MAX_DEPTH} moves", path=here)
        if not isinstance(node, dict) or not isinstance(node.get("move"), str):
            raise RequestError(f"node {_where(here)} must be {{'move': text, ...}}", path=here)
        children = node.get("children", [])
        if not isinstance(children, list):
            raise RequestError(f"node {_where(here)}: children must be a list", path=here)
        text = node["move"]
        if len(text) > MAX_TEXT:
            raise RequestError(f"node {_where(here)}: the move text is too long", path=here)
        if board.outcome() is not None:
            raise RequestError(
                f"node {_where(here)} ({text!r}) follows the end of the game", path=here
            )
        try:
            move = board.parse_move(text)
        except ValueError as e:
            raise RequestError(f"node {_where(here)} ({text!r}): {e}", path=here) from None
        canonical = board.move_text(move)
        if any(sibling["move"] == canonical for sibling in target):
            raise RequestError(f"node {_where(here)}: {canonical} is there twice", path=here)
        checked: JSON = {"move": canonical, "children": []}
        checked.update(_annotation(node, here))
        target.append(checked)
        board.push(move)
        stack.append((nodes, target, path, index + 1))  # the next sibling, after the subtree
        stack.append((children, checked["children"], here, 0))
    return board, out, count


def _annotation(node: JSON, path: list[int]) -> JSON:
    """A node's hand-written comment (one line, at most MAX_COMMENT characters, no ``}``: the
    record format's comments) and mark (one of the record's MARKS), checked; absent ones omitted."""
    out: JSON = {}
    try:
        comment = clean_name(node.get("comment"), "a comment", limit=MAX_COMMENT)
    except RequestError as e:
        raise RequestError(f"node {_where(path)}: {e}", path=path) from None
    if "}" in comment:
        raise RequestError(f"node {_where(path)}: a comment cannot hold a }}", path=path)
    comment = " ".join(comment.split())
    if comment:
        out["comment"] = comment
    mark = node.get("mark", "")
    if mark not in ("", *MARKS):
        raise RequestError(
            f"node {_where(path)}: a mark is one of {' '.join(MARKS)}, not {mark!r}", path=path
        )
    if mark:
        out["mark"] = mark
    return out


def _where(path: list[int]) -> str:
    return ".".join(str(i) for i in path) or "root"


def tree_data(start: str, tree: list[Any]) -> list[JSON]:
    """A stored tree with each node's move as the page's move data (texts and route)."""
    board = Board(start)
    out: list[JSON] = []
    stack: list[tuple[list[Any], list[JSON], int]] = [(tree, out, 0)]
    while stack:
        nodes, target, index = stack.pop()
        if index > 0:
            board.pop()
        if index >= len(nodes):
            continue
        move = board.parse_move(nodes[index]["move"])
        node: JSON = {"move": move_data(board, move), "children": []}
        node.update({k: nodes[index][k] for k in ("comment", "mark") if k in nodes[index]})
        target.append(node)
        board.push(move)
        stack.append((nodes, target, index + 1))
        stack.append((nodes[index].get("children", []), node["children"], 0))
    return out


# --- routes ---------------------------------------------------------------------------------------


def _store(request: Request) -> Store:
    store: Store | None = request.app.state.store
    if store is None:
        raise RequestError("this server has no store: start it with a database", 503)
    return store


def _study_id(request: Request) -> int:
    return id_of(request.path_params.get("study_id"), "study")


async def _save(request: Request, study_id: int | None) -> Response:
    store = _store(request)
    data = await body_json(request)
    start = data.get("start")
    if not isinstance(start, str) or not start.strip():  # no default: a study says where
        raise RequestError("start must be a position (R22), such as 'w 12/12'")
    name = clean_name(data.get("name"), "the study's name", limit=200)
    board, tree, nodes = await asyncio.to_thread(check_tree, start, data.get("tree"))
    saved = await asyncio.to_thread(
        store.save_study,
        study_id,
        start=board.position(),
        variant=board.variant,
        tree=tree,
        nodes=nodes,
        name=name,
    )
    if saved is None:
        raise RequestError(f"no study {study_id}", 404)
    return JSONResponse({"id": saved, "nodes": nodes}, 201 if study_id is None else 200)


async def create_study(request: Request) -> Response:
    """``POST /api/studies {"start", "tree", "name"?}``: a new study (201, its id)."""
    return await _save(request, None)


async def put_study(request: Request) -> Response:
    """``PUT /api/studies/{id}``: the study's whole tree replaced (checked first)."""
    return await _save(request, _study_id(request))


async def list_studies(request: Request) -> Response:
    store = _store(request)
    return JSONResponse({"studies": await asyncio.to_thread(store.studies)})


async def get_study(request: Request) -> Response:
    store = _store(request)
    study_id = _study_id(request)
    saved = await asyncio.to_thread(store.study, study_id)
    if saved is None:
        raise RequestError(f"no study {study_id}", 404)
    saved["tree"] = await asyncio.to_thread(tree_data, saved["start"], saved["tree"])
    return JSONResponse(saved)


async def delete_study(request: Request) -> Response:
    store = _store(request)
    study_id = _study_id(request)
    if not await asyncio.to_thread(store.delete_study, study_id):
        raise RequestError(f"no study {study_id}", 404)
    return JSONResponse({"deleted": study_id})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/studies", list_studies, methods=["GET"]),
        Route("/api/studies", create_study, methods=["POST"]),
        Route("/api/studies/{study_id}", get_study, methods=["GET"]),
        Route("/api/studies/{study_id}", put_study, methods=["PUT"]),
        Route("/api/studies/{study_id}", delete_study, methods=["DELETE"]),
    ]
