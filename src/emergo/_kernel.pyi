"""Type stub of the C extension ``emergo._kernel`` (use :mod:`emergo.kernel`).

Every integer argument is range-checked in C (ValueError or OverflowError, never a silent
wrap); :mod:`emergo.kernel` checks first and names the argument.  Long calls (perft,
perft_divide, playouts, playouts_batch, legal_batch, selfcheck, bench_generate and
``Searcher.search``) release the GIL and, on the main thread, look for signals about every
20 ms: Ctrl-C stops them with KeyboardInterrupt.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

_Packed = tuple[str, bytes]
_Stats = tuple[int, int, int, int, int, int, int, int]

MAX_PATH: int
MAX_MEN: int
MAX_PERFT_DEPTH: int

def register_geometry(
    name: str,
    men: int,
    centre: int,
    directions: Sequence[int],
    squares: Sequence[int],
    names: Sequence[str],
    jumps: Sequence[tuple[int, int, int, int]],
) -> None:
    """Register a board once: the same tables again are a no-op, others a ValueError."""

def legal(packed: _Packed) -> tuple[int, int, list[tuple[int, ...]]]: ...
def legal_batch(packed: Sequence[_Packed]) -> list[list[str]]: ...
def key(packed: _Packed) -> int: ...
def perft(packed: _Packed, depth: int) -> int: ...
def perft_divide(packed: _Packed, depth: int) -> tuple[int, list[tuple[tuple[int, ...], int]]]: ...
def playouts(packed: _Packed, n: int, seed: int) -> _Stats: ...
def playouts_batch(packed: Sequence[_Packed], n: int, seed: int) -> list[_Stats]: ...
def game(
    packed: _Packed, seed: int, paths: Iterable[Sequence[int]] | None
) -> tuple[list[list[str]], list[str], str, str | None, str]: ...
def selfcheck(packed: _Packed, n: int, seed: int) -> tuple[_Stats, list[str]]: ...
def bench_generate(packed: Sequence[_Packed], reps: int) -> int: ...

WIN_VALUE: int
MAX_DEPTH: int
MAX_MULTIPV: int
MAX_HASH_MB: int

_RawMove = tuple[int, int, tuple[int, ...]]
_RawLine = tuple[int, int, int, list[_RawMove], int, int]
"""value, depth, seldepth, moves, exact (a proven value), source (1: the endgame tables)"""

def eval_terms_info() -> list[tuple[str, int, str]]: ...
def eval_terms(packed: _Packed) -> list[int]: ...
def eval_terms_batch(packed: Sequence[_Packed]) -> list[list[int]]: ...
def evaluate(packed: _Packed, weights: Sequence[int]) -> int: ...

class Searcher:
    """One search at a time: ``search`` while another search of the same object runs (in any
    thread), or ``clear``/``resize``/``set_weights``/``set_option`` meanwhile, raise
    RuntimeError; ``stop`` is the call for a running search.  A search interrupted by
    Ctrl-C raises KeyboardInterrupt and leaves the searcher usable."""

    def __init__(self, hash_mb: int = 16) -> None: ...
    def search(
        self,
        root: _Packed,
        paths: Iterable[Sequence[int]],
        depth: int,
        nodes: int,
        soft: float,
        hard: float,
        multipv: int,
        callback: Callable[[list[_RawLine], int, float, int, int], None] | None,
        t2: Table | None = None,
        t3: Table | None = None,
    ) -> tuple[str | None, list[_RawLine], int, float, int, int]: ...
    def stop(self) -> None: ...
    def clear(self) -> None: ...
    def resize(self, hash_mb: int) -> None: ...
    def set_weights(self, weights: Sequence[int]) -> None: ...
    def set_option(self, name: str, value: int) -> None: ...

class BatchEnv:
    """Batched games (src/emergo/_kernel/batchenv.h).  ``bind`` gives the buffers once (held
    until the next bind): writable C-contiguous obs float32 or uint8, mask int8, rewards
    float32, terminated and truncated bool, to_play int8, actions int64; every later call
    reads the actions there and writes the outputs there (the planes incrementally: nobody
    else may write into obs).  ``step``, ``reset``, ``sample`` and ``rollout`` release the
    GIL; a call while another runs on the same object raises RuntimeError.  ``rollout`` is a
    long call: Ctrl-C stops it between two batch steps."""

    def __init__(
        self,
        n: int,
        root: _Packed,
        max_plies: int,
        seed: int,
        cells: Sequence[int],
        size: int,
        compact: bool,
    ) -> None: ...
    def bind(
        self,
        obs: object,
        mask: object,
        rewards: object,
        terminated: object,
        truncated: object,
        to_play: object,
        actions: object,
    ) -> None: ...
    def reset(self, seed: int | None, /) -> None: ...
    def step(self, illegal_ends: bool = False, /) -> None: ...
    def rollout(self, steps: int, /) -> tuple[int, int]: ...
    def observe(self, white: bool, obs: object) -> None: ...
    def sample(self) -> None: ...
    def info(self) -> tuple[int, int, int, int, int]: ...

TB_VERSION: int
TB_MAXDTM: int

_Progress = Callable[[str, int, int], None] | None

class Table:
    """An endgame table (src/emergo/_kernel/tb.h; use emergo.tablebase).  A value is 0 for a
    draw, else the distance to the end in plies (odd: the player to move wins); -1 outside.
    ``verify`` and ``check_raw`` are long calls (Ctrl-C, progress); ``close`` raises
    RuntimeError while a search uses the table."""

    def close(self) -> None: ...
    def write(self, path: str, /) -> None: ...
    def probe(self, position: _Packed, /) -> int: ...
    def index(self, position: _Packed, /) -> int: ...
    def decode(self, entry: int, /) -> str: ...
    def value(self, entry: int, /) -> int: ...
    def info(self) -> dict[str, Any]: ...
    def verify(
        self, sub: Table | None, symmetries: bool, progress: _Progress, /
    ) -> tuple[int, int, str]: ...
    def check_raw(
        self, sub: Table | None, progress: _Progress, stride: int = 1, /
    ) -> tuple[int, int, str]: ...

def tb_build(variant: str, columns: int, sub: Table | None, progress: _Progress, /) -> Table: ...
def tb_open(path: str, verify: bool = False, /) -> Table: ...
def tb_size(variant: str, columns: int, /) -> int: ...
