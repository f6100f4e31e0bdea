"""The fast C kernel: legal moves, perft, playouts, whole games and the engine's search (R8-R19).

The rules live twice in this package: readable in :mod:`emergo.board` (the
reference) and fast in the C extension ``emergo._kernel``, which the tests
prove equal.  This module is the typed front door of the C side.  Positions are
R22 strings (parsed by :class:`~emergo.board.Board`, the one parser) or boards;
a board's move history is not used: the position given counts as the first
occurrence for repetition (R19b).  Long calls release the GIL and stop at
Ctrl-C (KeyboardInterrupt) within a few hundredths of a second; integers out
of the kernel's range are a ValueError naming the argument and the range.

>>> from emergo import kernel
>>> kernel.legal_moves("b 11/12 d4:w")[:3]
['a5', 'b4', 'b5']
>>> kernel.perft("w 12/12", 3)
55172

:class:`Searcher` is the engine's search (iterative-deepening PVS in C, see
docs/kernel.md); unlike the calls above it uses the board's move history, so
that repetitions (R19b) count from the game's start.

One module per concern, everything public imported here (``kernel.perft``...):
:mod:`~emergo.kernel.positions` (positions in the kernel's form, the variants registered),
:mod:`~emergo.kernel.moves` (legal moves, perft, keys), :mod:`~emergo.kernel.games`
(playouts, whole games, the self-check), :mod:`~emergo.kernel.evaluation` (the terms and
weights), :mod:`~emergo.kernel.search` (:class:`Searcher`) and :mod:`~emergo.kernel.batch`
(:class:`BatchEnv`).
"""

# The extension is looked at before anything is imported from it: without it, importing
# emergo.kernel fails with the reason every time (not only the first), as tests/docs/test_install.py
# checks.
# ruff: noqa: E402

from __future__ import annotations

from importlib.util import find_spec

_NOT_BUILT = (
    "the C kernel emergo._kernel is not built (no C compiler when emergo was installed?); "
    "the rules and the pure-Python search work without it: install a C compiler and "
    "reinstall emergo to build it"
)
"""The ImportError's message when the extension is missing (``name`` is ``emergo._kernel``)."""

try:
    from emergo import _kernel
except ImportError:
    _spec = find_spec("emergo._kernel")
    if _spec is not None and _spec.origin is not None:  # built but refuses to load: say why
        raise
    raise ImportError(_NOT_BUILT, name="emergo._kernel") from None
if not hasattr(_kernel, "register_geometry"):  # the C sources' folder, not the built module
    raise ImportError(_NOT_BUILT, name="emergo._kernel")

from emergo.kernel.batch import BatchEnv
from emergo.kernel.evaluation import (
    MAX_WEIGHT,
    WEIGHTS_FILE,
    WEIGHTS_FILES,
    EvalTerm,
    eval_features,
    eval_terms,
    evaluate,
    load_weights,
    weights_file,
    write_weights,
)
from emergo.kernel.games import (
    KernelGame,
    PlayoutStats,
    playouts,
    playouts_batch,
    random_game,
    replay,
    self_check,
)
from emergo.kernel.moves import legal_moves, legal_moves_batch, perft, perft_divide, zobrist
from emergo.kernel.positions import MAX_COUNT, MAX_SEED, Packed, Position, pack, supports
from emergo.kernel.search import Searcher, Tables

__all__ = [
    "MAX_COUNT",
    "MAX_SEED",
    "MAX_WEIGHT",
    "WEIGHTS_FILE",
    "WEIGHTS_FILES",
    "BatchEnv",
    "EvalTerm",
    "KernelGame",
    "Packed",
    "PlayoutStats",
    "Position",
    "Searcher",
    "Tables",
    "eval_features",
    "eval_terms",
    "evaluate",
    "legal_moves",
    "legal_moves_batch",
    "load_weights",
    "pack",
    "perft",
    "perft_divide",
    "playouts",
    "playouts_batch",
    "random_game",
    "replay",
    "self_check",
    "supports",
    "weights_file",
    "write_weights",
    "zobrist",
]
