"""The static evaluation: its terms (in C), the weights that multiply them, their files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from emergo import _kernel
from emergo.kernel.positions import Position, pack

__all__ = [
    "MAX_WEIGHT",
    "TERMS",
    "TERM_NAMES",
    "WEIGHTS_FILE",
    "WEIGHTS_FILES",
    "EvalTerm",
    "eval_features",
    "eval_terms",
    "evaluate",
    "load_weights",
    "shipped_weights",
    "weight_vector",
    "weights_file",
    "write_weights",
]

WEIGHTS_FILE = Path(__file__).parent.parent / "data" / "eval_weights.txt"
"""The shipped evaluation weights (``name value`` per line; tools/tune.py writes it)."""

WEIGHTS_FILES: dict[str, Path] = {"hex": WEIGHTS_FILE.with_name("eval_weights_hex.txt")}
"""Weights tuned for one variant (R4); a variant not listed (7x7) plays :data:`WEIGHTS_FILE`."""


def weights_file(variant: str | None = None) -> Path:
    """The shipped weights file of ``variant`` (default 9x9)."""
    return WEIGHTS_FILES.get(variant or "9x9", WEIGHTS_FILE)


MAX_WEIGHT = 10_000
"""Largest magnitude of a weight (centi-men per unit of its term)."""


class EvalTerm(NamedTuple):
    """One term of the linear evaluation: its name, hand-set default weight and meaning."""

    name: str
    default: int
    doc: str


def eval_terms() -> list[EvalTerm]:
    """The evaluation's terms in the kernel's order."""
    return [EvalTerm(*row) for row in _kernel.eval_terms_info()]


TERMS = eval_terms()
"""The terms, in the kernel's order."""
TERM_NAMES = [t.name for t in TERMS]


def weight_vector(weights: Mapping[str, int]) -> list[int]:
    """``weights`` (by name, a term left out at its default) as the kernel's checked vector."""
    unknown = sorted(set(weights) - set(TERM_NAMES))
    if unknown:
        raise ValueError(f"unknown evaluation terms: {', '.join(unknown)}")
    vector = []
    for term in TERMS:
        value = weights.get(term.name, term.default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"weight {term.name} must be an int, not {type(value).__name__}")
        if abs(value) > MAX_WEIGHT:
            raise ValueError(f"weight {term.name} = {value} is beyond +/-{MAX_WEIGHT}")
        vector.append(value)
    return vector


def load_weights(path: str | Path | None = None, *, variant: str | None = None) -> dict[str, int]:
    """Read evaluation weights: ``name value`` per line, ``#`` starts a comment.

    ``path`` defaults to the shipped file of ``variant`` (:func:`weights_file`).
    Terms the file leaves out keep their hand-set defaults; an unknown name or a
    value that is not an integer is an error naming the line.
    """
    file = weights_file(variant) if path is None else Path(path)
    weights = {t.name: t.default for t in TERMS}
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read evaluation weights {file}: {e.strerror}") from None
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{file}:{number}"
        if len(words) != 2:
            raise ValueError(f"{where}: expected 'name value', got {line.strip()!r}")
        name, value = words
        if name not in weights:
            raise ValueError(f"{where}: unknown evaluation term {name!r}")
        try:
            weights[name] = int(value)
        except ValueError:
            raise ValueError(f"{where}: {name} needs an integer, not {value!r}") from None
    weight_vector(weights)  # range check
    return weights


def write_weights(weights: Mapping[str, int], path: str | Path, header: str = "") -> None:
    """Write weights in the format :func:`load_weights` reads, each with its term's meaning."""
    vector = weight_vector(weights)
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    width = max(len(n) for n in TERM_NAMES)
    for term, value in zip(TERMS, vector, strict=True):
        lines.append(f"{term.name:<{width}} {value:>6}  # {term.doc}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def eval_features(position: Position, *, variant: str | None = None) -> dict[str, int]:
    """The evaluation's term counts for the player to move (what the weights multiply)."""
    return dict(zip(TERM_NAMES, _kernel.eval_terms(pack(position, variant=variant)), strict=True))


def evaluate(
    position: Position, *, weights: Mapping[str, int] | None = None, variant: str | None = None
) -> int:
    """Static value of a position for the player to move, in centi-men (never 0: 0 is a draw).

    ``weights`` defaults to the shipped file of the position's variant (:func:`weights_file`).
    """
    packed = pack(position, variant=variant)
    vector = weight_vector(weights if weights is not None else shipped_weights(packed[0]))
    return int(_kernel.evaluate(packed, vector))


_SHIPPED: dict[Path, dict[str, int]] = {}


def shipped_weights(variant: str | None = None) -> dict[str, int]:
    """The shipped weights of ``variant``, read once per file."""
    file = weights_file(variant)
    if file not in _SHIPPED:
        _SHIPPED[file] = load_weights(file)
    return _SHIPPED[file]
