"""The rating history chart (emergo.server.user.charts): valid SVG, points inside, escaped,
empty."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from emergo.server.user.charts import HEIGHT, PLOT, WIDTH, Series, rating_chart

SVG = "{http://www.w3.org/2000/svg}"
T0 = 1_700_000_000.0


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # a well-formed XML document, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def points_of(root: ET.Element) -> list[tuple[float, float]]:
    found = []
    for line in root.iter(f"{SVG}polyline"):
        for pair in line.attrib["points"].split():
            x, y = pair.split(",")
            found.append((float(x), float(y)))
    for dot in root.iter(f"{SVG}circle"):
        found.append((float(dot.attrib["cx"]), float(dot.attrib["cy"])))
    return found


def inside_plot(point: tuple[float, float]) -> bool:
    left, top, right, bottom = PLOT
    return left <= point[0] <= right and top <= point[1] <= bottom


def test_no_history_draws_a_valid_picture_that_says_so() -> None:
    root = parse(rating_chart([]))
    assert "No rated games yet" in "".join(root.itertext())
    assert points_of(root) == []
    assert root.attrib["viewBox"] == f"0 0 {WIDTH} {HEIGHT}" and root.attrib["width"] == "100%"
    # series without a finite point are no history either
    assert "No rated games yet" in rating_chart([Series("9x9 live", [(T0, float("nan"))])])


def test_one_game_is_one_dot_in_the_middle() -> None:
    root = parse(rating_chart([Series("9x9 live", [(T0, 1540.0)])]))
    (dot,) = points_of(root)
    assert dot[0] == (PLOT[0] + PLOT[2]) / 2 and inside_plot(dot)
    assert list(root.iter(f"{SVG}polyline")) == []


def test_a_line_per_rating_with_a_legend_and_every_point_inside() -> None:
    series = [
        Series("9x9 live", [(T0 + i * 3600, 1500 + 10 * i) for i in range(20)]),
        Series("hex correspondence", [(T0 + i * 86400, 1480 - 7 * i) for i in range(5)]),
    ]
    root = parse(rating_chart(series))
    assert len(list(root.iter(f"{SVG}polyline"))) == 2
    dots = points_of(root)
    assert len(dots) == 20 + 5 + 20 + 5  # each polyline's vertices and its dots
    assert all(inside_plot(p) for p in dots)
    text = "".join(root.itertext())
    assert "9x9 live" in text and "hex correspondence" in text
    # the highest rating is drawn highest (smallest y), the earliest game leftmost
    first_line = next(iter(root.iter(f"{SVG}polyline"))).attrib["points"].split()
    ys = [float(p.split(",")[1]) for p in first_line]
    assert ys == sorted(ys, reverse=True)
    # the grid's labels hold the ratings
    labels = [int(t) for t in re.findall(r">(\d{3,4})<", rating_chart(series))]
    assert min(labels) <= 1452 and max(labels) >= 1690


def test_the_legend_wraps_and_the_drawing_grows_rather_than_run_off() -> None:
    series = [
        Series(name, [(T0, 1500.0), (T0 + 86400, 1510.0)])
        for name in ("9x9 live", "9x9 correspondence", "7x7 live", "7x7 correspondence",
                     "hex live", "hex correspondence", "x" * 80)
    ]  # fmt: skip
    root = parse(rating_chart(series))
    width, height = map(float, root.attrib["viewBox"].split()[2:])
    assert width == WIDTH and height > HEIGHT
    for text in root.iter(f"{SVG}text"):
        assert float(text.attrib["x"]) < WIDTH and float(text.attrib["y"]) <= height
        assert len(text.text or "") <= 24


def test_labels_and_title_are_escaped() -> None:
    evil = "<script>alert(1)</script>\"&'<img src=x onerror=alert(2)>"
    svg = rating_chart(
        [Series(evil, [(T0, 1500.0), (T0 + 60, 1490.0)]), Series("b", [(T0, 1500.0)])],
        title=evil,
    )
    root = parse(svg)
    assert not [e for e in root.iter() if e.tag in (f"{SVG}script", f"{SVG}img", "script", "img")]
    assert "<script" not in svg and "<img" not in svg
    assert root.attrib["aria-label"] == evil  # the same text, as text
    assert any(evil in (e.text or "") for e in root.iter(f"{SVG}title"))


def test_dates_along_the_bottom_in_utc() -> None:
    svg = rating_chart([Series("9x9 live", [(0.0, 1500.0), (30 * 86400.0, 1600.0)])])
    assert "1970-01-01" in svg and "1970-01-31" in svg
    short = rating_chart([Series("9x9 live", [(0.0, 1500.0), (3600.0, 1600.0)])])
    assert "01-01 00:00" in short and "01-01 01:00" in short


histories = st.lists(
    st.tuples(st.floats(0, 4e9, allow_nan=False), st.floats(400, 4000) | st.just(float("inf"))),
    max_size=80,
)


@given(st.lists(histories, max_size=6))
def test_any_history_is_valid_svg_with_every_point_inside(
    lists: list[list[tuple[float, float]]],
) -> None:
    svg = rating_chart([Series(f"r{i}", points) for i, points in enumerate(lists)])
    root = parse(svg)
    assert all(inside_plot(p) for p in points_of(root))
    assert "nan" not in svg and "inf" not in svg


def test_one_game_minutes_after_the_start_shows_whole_dots_and_each_date_once() -> None:
    """Issue 31, defect 8: the rating before and after one game, minutes apart: each dot drawn
    whole inside the plot (none cut at its edge) and no axis label twice."""
    root = parse(rating_chart([Series("9x9 live", [(T0, 1500.0), (T0 + 300, 1662.0)])]))
    left, top, right, bottom = PLOT
    for cx, cy in (
        (float(c.attrib["cx"]), float(c.attrib["cy"])) for c in root.iter(f"{SVG}circle")
    ):
        r = 2.5
        assert left <= cx - r and cx + r <= right and top <= cy - r and cy + r <= bottom
    labels = [t.text for t in root.iter(f"{SVG}text")]
    assert len(labels) == len(set(labels)), labels
