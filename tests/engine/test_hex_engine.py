"""HexEmergo (R4 ``hex``) in the engine: its own evaluation weights and opening suite."""

from __future__ import annotations

from pathlib import Path

from emergo import Board
from emergo.search import Limit
from tests.plugins.common import requires_kernel

kernel = requires_kernel()

HEX_MIDGAME = "hex b 6/5 b2:w b4:b c3:b c5:w d2:w d5:b e4:w e6:b f4:w g6:b g7:b"


def test_each_variant_has_its_weights_file() -> None:
    assert kernel.weights_file() == kernel.weights_file("9x9") == kernel.WEIGHTS_FILE
    assert kernel.weights_file("7x7") == kernel.WEIGHTS_FILE  # 7x7 plays the 9x9 weights
    hex_file = kernel.weights_file("hex")
    assert hex_file == kernel.WEIGHTS_FILES["hex"] and hex_file.name == "eval_weights_hex.txt"
    assert hex_file.is_file()
    square, hexagon = kernel.load_weights(), kernel.load_weights(variant="hex")
    assert kernel.load_weights(hex_file) == hexagon
    assert set(hexagon) == set(square) and hexagon["men"] == 100  # the same scale
    assert hexagon != square  # tuned for the hexagon (tools/tune.py --variant hex)


def test_evaluate_takes_the_weights_of_the_position_variant() -> None:
    hexagon = kernel.load_weights(variant="hex")
    square = kernel.load_weights()
    assert kernel.evaluate(HEX_MIDGAME) == kernel.evaluate(HEX_MIDGAME, weights=hexagon)
    assert kernel.evaluate(HEX_MIDGAME) != kernel.evaluate(HEX_MIDGAME, weights=square)
    assert kernel.evaluate("w 10/10 b5:w d4:w f6:b h5:b") == kernel.evaluate(
        "w 10/10 b5:w d4:w f6:b h5:b", weights=square
    )


def test_searcher_sets_the_weights_of_the_searched_variant() -> None:
    searcher = kernel.Searcher()
    square, hexagon = kernel.load_weights(), kernel.load_weights(variant="hex")
    assert searcher.weights == square  # before any search: 9x9
    assert searcher.weights_for("hex") == hexagon and searcher.weights_for("7x7") == square
    limit = Limit(depth=5)
    board = Board(HEX_MIDGAME)
    got = searcher.search(board, limit)
    assert searcher.weights == hexagon
    same = kernel.Searcher(weights=hexagon).search(board, limit)
    other = kernel.Searcher(weights=square).search(board, limit)
    assert (got.move, got.infos[0].score, got.infos[0].nodes) == (
        same.move,
        same.infos[0].score,
        same.infos[0].nodes,
    )
    assert got.infos[0].nodes != other.infos[0].nodes  # the weights made a difference
    searcher.search(Board(), Limit(depth=3))  # back to 9x9: its weights, empty tables
    assert searcher.weights == square
    again = searcher.search(board, limit)
    assert (again.move, again.infos[0].nodes) == (got.move, got.infos[0].nodes)
    fixed = kernel.Searcher(weights=square)  # given weights serve every variant
    assert fixed.weights_for("hex") == square


def test_hex_engine_data_ships_with_the_package() -> None:
    data = Path(kernel.weights_file("hex")).parent
    assert (data / "eval_weights_hex.txt").is_file() and (data / "ballots_hex.txt").is_file()
