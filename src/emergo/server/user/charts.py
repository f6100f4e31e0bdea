"""The rating history chart of a profile: an SVG drawn here, no script and no outside host.

:func:`rating_chart` draws one line per rating (a :class:`Series` of ``(time, rating)`` points,
time in wall seconds), rating on the vertical axis with round steps, dates (UTC) along the
bottom, a legend when there is more than one line.  The drawing is 400 by 220 units (16 more for
each further row of the legend) and scales
to its container (``width="100%"``, ``viewBox``): on a phone 360 pixels wide the text is still
about 11 pixels high.  Every text that comes from outside (labels, the title) is escaped; the
result is a standalone SVG document that a page inlines or serves as ``image/svg+xml``.

>>> svg = rating_chart([Series("9x9 live", [(0.0, 1500.0), (86400.0, 1540.0)])])
>>> svg.startswith("<svg") and "9x9 live" in svg and "<script" not in svg
True
>>> "No rated games yet" in rating_chart([])
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

__all__ = ["COLORS", "HEIGHT", "PLOT", "WIDTH", "Series", "rating_chart"]

WIDTH = 400
"""Width of the drawing in SVG units (it scales to its container)."""
HEIGHT = 220
"""Height of the drawing in SVG units."""
PLOT = (44.0, 12.0, 392.0, 184.0)
"""The plot area: left, top, right, bottom; axis labels are outside it."""
COLORS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f")
"""Line colours, one a series in turn: apart for colour-blind eyes too, on white."""
_FONT = 'font-family="sans-serif" font-size="12"'
_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
"""Rating steps of the horizontal grid lines: the first that gives at most 5 lines."""
_DAY = 86400.0
_INSET = 6.0
"""Room inside the plot around the points: a dot on the first or last game, or on the highest
or lowest rating, is drawn whole (its radius is 2.5)."""
_LEGEND_ROW = 16
"""Height of a row of the legend; the drawing grows by a row for each after the first."""
_LABEL_MAX = 24
"""A legend shows at most this many characters of a label."""
_CHAR = 7
"""The width a character of the legend takes, about (12-unit sans-serif)."""


@dataclass(frozen=True)
class Series:
    """One line: ``label`` (e.g. ``9x9 live``) and its ``(time, rating)`` points in time order."""

    label: str
    points: Sequence[tuple[float, float]]


def _a(value: str) -> str:
    """Text for an attribute value or element content."""
    return escape(value, quote=True)


def _n(value: float) -> str:
    """A coordinate: short, never in exponent notation."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _clean(series: Sequence[Series]) -> list[Series]:
    """The series with their finite points only, sorted by time; empty ones dropped."""
    kept = []
    for s in series:
        points = sorted(
            (float(t), float(r)) for t, r in s.points if math.isfinite(t) and math.isfinite(r)
        )
        if points:
            kept.append(Series(str(s.label), points))
    return kept


def _rating_ticks(low: float, high: float) -> tuple[int, int, list[int]]:
    """Round bounds and grid values that hold ``low`` to ``high`` with a margin."""
    if high - low < 20:
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    step = next((s for s in _STEPS if (high - low) / s <= 5), 0)
    step = step or 10 ** math.ceil(math.log10((high - low) / 5))  # beyond any rating
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        top += step
    ticks = [bottom + i * step for i in range(round((top - bottom) / step) + 1)]
    return bottom, top, ticks


def _time_ticks(first: float, last: float) -> list[float]:
    if last - first <= 0:
        return [first]
    return [first + (last - first) * i / 3 for i in range(4)]


def _date(t: float, span: float) -> str:
    moment = datetime.fromtimestamp(t, UTC)
    return moment.strftime("%Y-%m-%d") if span >= 2 * _DAY else moment.strftime("%m-%d %H:%M")


def _legend(lines: Sequence[Series]) -> list[tuple[float, float, str]]:
    """Where each series' key goes: (x, y, label), in rows that wrap inside the width."""
    placed = []
    lx, ly = PLOT[0], float(HEIGHT - 14)
    for s in lines:
        label = s.label if len(s.label) <= _LABEL_MAX else s.label[: _LABEL_MAX - 1] + "…"
        wide = 22 + _CHAR * len(label)
        if lx > PLOT[0] and lx + wide > WIDTH:
            lx, ly = PLOT[0], ly + _LEGEND_ROW
        placed.append((lx, ly, label))
        lx += wide
    return placed


def rating_chart(series: Sequence[Series], *, title: str = "Rating history") -> str:
    """The SVG of ``series`` (one line each); a drawing that says so when there is no point.

    Points that are not finite numbers are left out.  ``title`` is the accessible name.
    """
    lines = _clean(series)
    legend = _legend(lines) if len(lines) > 1 else []
    height = HEIGHT + _LEGEND_ROW * max(len({y for _, y, _ in legend}) - 1, 0)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%"'
        f' role="img" aria-label="{_a(title)}" class="rating-chart">'
        f"<title>{_a(title)}</title>"
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#fff"/>'
    )
    if not lines:
        return (
            f'{head}<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle" fill="#555" '
            f"{_FONT}>No rated games yet</text></svg>"
        )
    left, top, right, bottom = PLOT
    times = [t for s in lines for t, _ in s.points]
    ratings = [r for s in lines for _, r in s.points]
    first, last = min(times), max(times)
    low, high, ticks = _rating_ticks(min(ratings), max(ratings))

    def x(t: float) -> float:
        if last == first:
            return (left + right) / 2
        return left + _INSET + (t - first) / (last - first) * (right - left - 2 * _INSET)

    def y(r: float) -> float:
        return bottom - _INSET - (r - low) / (high - low) * (bottom - top - 2 * _INSET)

    parts = [head]
    for value in ticks:
        parts.append(
            f'<line x1="{_n(left)}" y1="{_n(y(value))}" x2="{_n(right)}" y2="{_n(y(value))}" '
            f'stroke="#ddd" stroke-width="1"/>'
            f'<text x="{_n(left - 4)}" y="{_n(y(value) + 4)}" text-anchor="end" fill="#444" '
            f"{_FONT}>{value:g}</text>"
        )
    span = last - first
    said: set[str] = set()
    for i, t in enumerate(_time_ticks(first, last)):
        label = _date(t, span)
        if label in said:  # games minutes apart: one label for the moment, never twice
            continue
        said.add(label)
        anchor = "start" if i == 0 and span > 0 else "end" if t == last and span > 0 else "middle"
        parts.append(
            f'<text x="{_n(x(t))}" y="{_n(bottom + 16)}" text-anchor="{anchor}" fill="#444" '
            f"{_FONT}>{label}</text>"
        )
    parts.append(
        f'<line x1="{_n(left)}" y1="{_n(bottom)}" x2="{_n(right)}" y2="{_n(bottom)}" '
        f'stroke="#888" stroke-width="1"/>'
    )
    for index, s in enumerate(lines):
        color = COLORS[index % len(COLORS)]
        coords = " ".join(f"{_n(x(t))},{_n(y(r))}" for t, r in s.points)
        parts.append(f'<g class="series" data-label="{_a(s.label)}">')
        if len(s.points) > 1:
            parts.append(
                f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="2" '
                f'stroke-linejoin="round"/>'
            )
        if len(s.points) <= 60:  # a dot a game while dots stay apart
            for t, r in s.points:
                parts.append(
                    f'<circle cx="{_n(x(t))}" cy="{_n(y(r))}" r="2.5" fill="{color}">'
                    f"<title>{_a(s.label)}: {r:.0f} ({_date(t, 3 * _DAY)})</title></circle>"
                )
        parts.append("</g>")
    for index, (lx, ly, label) in enumerate(legend):
        color = COLORS[index % len(COLORS)]
        parts.append(
            f'<rect x="{_n(lx)}" y="{_n(ly)}" width="10" height="10" fill="{color}"/>'
            f'<text x="{_n(lx + 13)}" y="{_n(ly + 9)}" fill="#222" {_FONT}>{_a(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
