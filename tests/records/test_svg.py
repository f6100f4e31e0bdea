"""Tests of emergo.svg: well-formed, deterministic pictures of both views (R1, R3, R6)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from emergo import Board, Move, square
from emergo.geometry import Names
from emergo.svg import VIEWS, View, board_svg

NS = "{http://www.w3.org/2000/svg}"
P1 = "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b"
P2 = "b 0/5 c3:wb2 e5:w f5:w7 g4:b2w h6:w2b3"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in g.get("class", "").split()]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def disc_centre(root: ET.Element, name: str) -> tuple[float, float]:
    (piece,) = [g for g in groups(root, "piece") if g.get("data-square") == name]
    (disc,) = [c for c in piece.iter(f"{NS}circle") if c.get("class") == "disc"]
    return float(disc.get("cx", "nan")), float(disc.get("cy", "nan"))


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("position", [P1, P2, "w 12/12", "7x7 w 8/8", "7x7 b 6/7 c3:w d4:b e5:w"])
def test_standalone_svg_is_well_formed(view: View, position: str) -> None:
    svg = board_svg(Board(position), view=view)
    root = parse(svg)
    assert root.get("viewBox")
    assert float(root.get("width", "0")) > 0
    assert float(root.get("height", "0")) > 0
    title = root.find(f"{NS}title")
    assert title is not None and Board(position).position() in (title.text or "")


@pytest.mark.parametrize("view", VIEWS)
def test_r6_one_disc_per_piece_with_readable_counts(view: View) -> None:
    board = Board(P2)
    root = parse(board_svg(board, view=view))
    pieces = groups(root, "piece")
    stacks = board.stacks()
    assert len(pieces) == len(stacks) == 5
    whites = [g for g in pieces if "white" in g.get("class", "").split()]
    assert len(whites) == sum(st.owner for st in stacks.values())
    by_name = {g.get("data-square"): g for g in pieces}
    for sq, st in stacks.items():
        piece = by_name[board.geometry.square_name(sq)]
        assert piece.get("data-stack") == f"{st.caps}/{st.prisoners}"
        discs = [c for c in piece.iter(f"{NS}circle") if c.get("class") == "disc"]
        badges = [c for c in piece.iter(f"{NS}circle") if c.get("class") == "badge"]
        assert len(discs) == 1
        assert len(badges) == (1 if st.prisoners else 0)
        expected = ([str(st.caps)] if st.caps > 1 else []) + (
            [str(st.prisoners)] if st.prisoners else []
        )
        assert texts(piece) == expected


@pytest.mark.parametrize("view", VIEWS)
def test_pieces_never_overlap_their_neighbours(view: View) -> None:
    # Adjacent squares (R2) hold full stacks; their discs and badges must stay apart.
    board = Board("w 0/0 d4:w2b4 d5:b3w3 e4:b2w3 e5:w3b2 f5:b")
    root = parse(board_svg(board, view=view))
    circles = []
    for piece in groups(root, "piece"):
        for c in piece.iter(f"{NS}circle"):
            if c.get("class") in ("disc", "badge"):
                x, y, r = (float(c.get(k, "nan")) for k in ("cx", "cy", "r"))
                circles.append((piece.get("data-square"), x, y, r))
    for i, (a, xa, ya, ra) in enumerate(circles):
        for b, xb, yb, rb in circles[i + 1 :]:
            if a != b:
                assert ((xa - xb) ** 2 + (ya - yb) ** 2) ** 0.5 > ra + rb, (a, b)


def test_r1_diamond_orientation_e1_bottom_e9_top_a5_left_i5_right() -> None:
    root = parse(board_svg(Board("w 8/8 a5:w e1:w e9:b i5:b")))
    (xa, ya), (xi, yi) = disc_centre(root, "a5"), disc_centre(root, "i5")
    (x1, y1), (x9, y9) = disc_centre(root, "e1"), disc_centre(root, "e9")
    assert y1 > y9 and x1 == pytest.approx(x9)  # e1 below e9 (SVG y grows downwards)
    assert xa < xi and ya == pytest.approx(yi)
    assert x1 == pytest.approx((xa + xi) / 2, abs=0.01)


def test_r3_checker_orientation_a1_bottom_left() -> None:
    # Oblique e1 = checker a1, a5 = a9, i5 = i1, e9 = i9 (R3).
    root = parse(board_svg(Board("w 8/8 a5:w e1:w e9:b i5:b"), view="checker"))
    (xa9, ya9), (xi1, yi1) = disc_centre(root, "a5"), disc_centre(root, "i5")
    (xa1, ya1), (xi9, yi9) = disc_centre(root, "e1"), disc_centre(root, "e9")
    assert xa1 == pytest.approx(xa9) and ya1 > ya9
    assert yi1 == pytest.approx(ya1) and xi1 > xa1
    assert xi9 == pytest.approx(xi1) and yi9 == pytest.approx(ya9)


def test_flipped_turns_the_board_round() -> None:
    board = Board("w 8/8 a5:w e1:w e9:b i5:b")
    root = parse(board_svg(board, flipped=True))
    assert disc_centre(root, "e1")[1] < disc_centre(root, "e9")[1]
    assert disc_centre(root, "a5")[0] > disc_centre(root, "i5")[0]


@pytest.mark.parametrize("view", VIEWS)
def test_r5_r7_hands_and_side_to_move(view: View) -> None:
    board = Board(P2)
    root = parse(board_svg(board, view=view))
    players = groups(root, "player")
    assert {g.get("data-hand") for g in players} == {"0", "5"}
    (mover,) = groups(root, "to-move")
    assert "black" in mover.get("class", "")
    assert "Black to move" in texts(mover)
    assert "5 in hand" in texts(mover)


@pytest.mark.parametrize("variant", ["9x9", "7x7"])
@pytest.mark.parametrize("view", VIEWS)
def test_coordinates_name_every_line(variant: str, view: View) -> None:
    board = Board(variant=variant)
    n = board.geometry.size
    namings: tuple[Names, ...] = ("oblique", "checker")
    for names in namings:
        root = parse(board_svg(board, view=view, names=names))
        (coords,) = groups(root, "coordinates")
        labels = set(texts(coords))
        assert labels == set("abcdefghi"[:n]) | {str(i) for i in range(1, n + 1)}
    root = parse(board_svg(board, view=view, coordinates=False))
    assert not groups(root, "coordinates")


@pytest.mark.parametrize("variant", ["9x9", "7x7"])
def test_r1_oblique_lines_are_drawn_where_they_are_named(variant: str) -> None:
    board = Board(variant=variant)
    n = board.geometry.size
    for view, names, drawn in [
        ("diamond", None, True),
        ("diamond", "checker", True),
        ("checker", None, False),
        ("checker", "oblique", True),
    ]:
        root = parse(board_svg(board, view=view, names=names))  # type: ignore[arg-type]
        lines = groups(root, "lines")
        assert len(lines) == int(drawn)
        if drawn:
            assert len(lines[0].findall(f"{NS}line")) == 2 * n  # n letter and n digit lines


@pytest.mark.parametrize("view", VIEWS)
def test_highlighted_squares_and_arrows(view: View) -> None:
    board = Board(P1)
    svg = board_svg(
        board,
        view=view,
        squares=[square("e5"), "d6"],
        arrows=[(square("e4"), square("e6")), ("c5", "c5"), ("e4", "c4", "c6")],
    )
    root = parse(svg)
    (highlight,) = groups(root, "highlight")
    assert len(highlight.findall(f"{NS}polygon")) == 2
    arrows = groups(root, "arrow")
    assert len(arrows) == 2  # the pair and the path; the ring is a lone circle
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "arrow"]) == 1
    assert len(arrows[1].find(f"{NS}polyline").get("points", "").split()) == 3  # type: ignore[union-attr]
    plain = parse(board_svg(board, view=view))
    assert not groups(plain, "highlight") and not groups(plain, "arrow")


def test_squares_given_in_checker_names() -> None:
    board = Board(P1)
    a = board_svg(board, view="checker", names="checker", squares=["a1"], arrows=[("a1", "c3")])
    b = board_svg(
        board,
        view="checker",
        names="checker",
        squares=[square("e1")],
        arrows=[(square("e1"), square("e3"))],
    )
    assert a == b


def test_last_move_path_after_a_capture_goes_through_every_landing_square() -> None:
    board = Board(P1)
    assert "lastmove" not in board_svg(board)
    board.push_move("e4xc4xc6xe6xe4xc4")  # R12: one move, five landing squares
    for view in VIEWS:
        root = parse(board_svg(board, view=view))
        paths = [g for g in groups(root, "lastmove") if g.find(f"{NS}polyline") is not None]
        assert len(paths) == 1
        points = paths[0].find(f"{NS}polyline").get("points", "").split()  # type: ignore[union-attr]
        assert len(points) == 6
        (tint,) = [g for g in groups(root, "lastmove") if g.find(f"{NS}polyline") is None]
        assert len(tint.findall(f"{NS}polygon")) == 4  # e4, c4, c6, e6: each square once
    title = parse(board_svg(board)).find(f"{NS}title")
    assert title is not None and "e4xc4xc6xe6xe4xc4" in (title.text or "")
    assert "lastmove" not in board_svg(board, lastmove=False)


def test_last_move_after_an_entry_and_a_step() -> None:
    board = Board()
    board.push_move("d4")
    root = parse(board_svg(board))
    assert [c for c in root.iter(f"{NS}circle") if c.get("class") == "lastmove"]
    board = Board("w 0/0 e4:w g6:b")
    board.push_move("e4-e5")
    root = parse(board_svg(board, view="checker"))
    (path,) = [g for g in groups(root, "lastmove") if g.find(f"{NS}polyline") is not None]
    assert path.find(f"{NS}polygon") is not None  # the arrowhead


def test_an_explicit_last_move_is_drawn() -> None:
    board = Board("b 11/12 d4:w")
    svg = board_svg(board, lastmove=Move.enter(square("d4")))
    assert svg == (lambda b: (b.push_move("d4"), board_svg(b))[1])(Board())


def test_deterministic_output() -> None:
    board = Board(P1)
    board.push_move("e4xc4xc6xe6xe4xc4")
    for view in VIEWS:
        first = board_svg(board, view=view, squares=[square("e5")])
        again = board_svg(board.copy(), view=view, squares=[square("e5")])
        assert first == again


def test_size_sets_width_and_keeps_the_aspect() -> None:
    board = Board()
    natural = parse(board_svg(board, view="checker"))
    scaled = parse(board_svg(board, view="checker", size=300))
    assert scaled.get("width") == "300"
    ratio = float(natural.get("height", "0")) / float(natural.get("width", "1"))
    assert float(scaled.get("height", "0")) == pytest.approx(300 * ratio, abs=0.01)
    assert scaled.get("viewBox") == natural.get("viewBox")


def test_repr_svg_for_notebooks() -> None:
    board = Board(P2)
    assert board._repr_svg_() == board_svg(board)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"view": "hexagon"}, "unknown view"),
        ({"names": "algebraic"}, "unknown naming"),
        ({"size": 0}, "size must be"),
        ({"squares": ["z9"]}, "highlighted square 'z9'"),
        ({"squares": [0]}, "highlighted square 0"),
        ({"arrows": ["e4"]}, "an arrow must be"),
        ({"arrows": [("e4", "e10")]}, "arrow square 'e10'"),
        ({"lastmove": "e4"}, "lastmove must be"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_svg(Board(), **kwargs)


def test_7x7_squares_are_checked_against_the_7x7_board() -> None:
    with pytest.raises(ValueError, match="7x7"):
        board_svg(Board(variant="7x7"), squares=["e1"])
