"""The JSON form of a node's annotations (docs/records.md), checked when it is read back."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from emergo.geometry import Geometry
from emergo.record.commands import NAG_MAX, Eval, Shape, square_name


@dataclass(slots=True)
class Fields:
    """What a node's JSON says besides its move and children."""

    comment: str = ""
    starting_comment: str = ""
    nags: set[int] = field(default_factory=set)
    clock: float | None = None
    eval: Eval | None = None
    shapes: list[Shape] = field(default_factory=list)


def fields_json(fields: Fields, out: dict[str, Any]) -> None:
    """Put a node's non-empty fields into ``out``, then its (empty) ``children``."""
    if fields.starting_comment:
        out["starting_comment"] = fields.starting_comment
    if fields.comment:
        out["comment"] = fields.comment
    if fields.nags:
        out["nags"] = sorted(fields.nags)
    if fields.clock is not None:
        out["clock"] = fields.clock
    if fields.eval is not None:
        value: dict[str, Any] = {"kind": fields.eval.kind, "value": fields.eval.value}
        if fields.eval.depth is not None:
            value["depth"] = fields.eval.depth
        out["eval"] = value
    if fields.shapes:
        out["shapes"] = [
            {"orig": s.orig, **({"dest": s.dest} if s.dest else {}), "brush": s.brush}
            for s in fields.shapes
        ]
    out["children"] = []


def json_fields(data: Mapping[str, Any], geo: Geometry, *, move: bool) -> Fields:
    """A node's fields from its JSON, checked (``move``: a child node, which may have NAGs and a
    starting comment); a ``ValueError`` says what is wrong."""
    out = Fields()
    for key in ("comment", "starting_comment"):
        value = data.get(key, "")
        if not isinstance(value, str):
            raise ValueError(f"{key} must be a string")
        setattr(out, key, value)
    if out.starting_comment and not move:
        raise ValueError("the game has no starting comment (it has no move)")
    nags = data.get("nags", [])
    if not isinstance(nags, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= NAG_MAX for n in nags
    ):
        raise ValueError(f"nags must be a list of ints 0 to {NAG_MAX}")
    if nags and not move:
        raise ValueError("the game has no NAGs (it has no move)")
    out.nags = set(nags)
    clock = data.get("clock")
    if clock is not None:
        if isinstance(clock, bool) or not isinstance(clock, int | float):
            raise ValueError("clock must be seconds")
        if not math.isfinite(clock) or clock < 0:
            raise ValueError("clock must be 0 or more seconds")
        out.clock = float(clock)
    value = data.get("eval")
    if value is not None:
        if not isinstance(value, Mapping) or set(value) - {"kind", "value", "depth"}:
            raise ValueError("eval must be an object {kind, value, depth}")
        out.eval = Eval(value.get("kind", ""), value.get("value", 0), value.get("depth"))
    shapes = data.get("shapes", [])
    if not isinstance(shapes, list):
        raise ValueError("shapes must be a list")
    for shape in shapes:
        if not isinstance(shape, Mapping) or set(shape) - {"orig", "dest", "brush"}:
            raise ValueError("a shape is an object {orig, dest, brush}")
        made = Shape(shape.get("orig", ""), shape.get("dest"), shape.get("brush", "green"))
        for square in (made.orig, made.dest):
            if square is not None:
                square_name(geo, square, "oblique")
        out.shapes.append(made)
    return out
