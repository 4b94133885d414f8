"""A server-rendered rating-over-time chart: the geometry here, the SVG in a template."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.models import START_RATING

WIDE, NARROW = 760, 400  # two renderings: CSS shows the wide one on desktops, the narrow one on phones
HEIGHT = 240
LEFT, RIGHT, TOP, BOTTOM = 46, 16, 16, 30
MAX_POINTS = 240
STEPS = (15, 30, 45, 60, 75, 150, 300, 450, 600, 750, 1500, 3000)


def _nice_step(span: float) -> int:
    for step in STEPS:
        if span / step <= 5:
            return step
    return STEPS[-1]


def rating_chart(points: Sequence[tuple[int, object]], width: int = WIDE) -> dict | None:
    """``points``: [(rating, when)] oldest first, the first being the start. None if no games."""
    if len(points) < 2:
        return None
    if len(points) > MAX_POINTS:  # keep the first and last, thin the middle evenly
        k = (len(points) - 1) / (MAX_POINTS - 1)
        points = [points[round(i * k)] for i in range(MAX_POINTS - 1)] + [points[-1]]
    values = [v for v, _ in points]
    lo, hi = min(values + [START_RATING]), max(values + [START_RATING])
    step = _nice_step(max(hi - lo, 30))
    y_min = (lo // step) * step
    y_max = -(-hi // step) * step
    if y_max == y_min:
        y_max += step
    pw, ph = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(points) - 1

    def x(i: int) -> float:
        return round(LEFT + pw * i / n, 1)

    def y(v: float) -> float:
        return round(TOP + ph * (y_max - v) / (y_max - y_min), 1)

    coords = [(x(i), y(v)) for i, (v, _) in enumerate(points)]
    line = "M" + " L".join(f"{a},{b}" for a, b in coords)
    base = TOP + ph
    area = f"{line} L{coords[-1][0]},{base} L{coords[0][0]},{base} Z"
    ticks = [{"y": y(v), "label": v} for v in range(int(y_min), int(y_max) + 1, step)]
    dots = [{"x": a, "y": b, "value": points[i][0], "when": points[i][1]} for i, (a, b) in enumerate(coords)]
    last_v = values[-1]
    return {
        "width": width, "height": HEIGHT, "left": LEFT, "right": width - RIGHT, "top": TOP, "bottom": base,
        "line": line, "area": area, "ticks": ticks,
        "dots": dots if len(dots) <= (60 if width >= 600 else 30) else [],
        "size": "wide" if width >= 600 else "narrow",
        "last": {"x": coords[-1][0], "y": coords[-1][1], "value": last_v,
                 "anchor": "end" if coords[-1][0] > width - 80 else "start"},
        "start_y": y(START_RATING) if y_min <= START_RATING <= y_max else None,
        "first_when": points[0][1], "last_when": points[-1][1],
        "games": n, "min": min(values), "max": max(values),
        "trend": "up" if last_v > values[0] else ("down" if last_v < values[0] else "flat"),
    }
