"""A seat's chance across the game: geometry for a server-rendered SVG (analysis/_chart.html).

One drawing sized for a phone (viewBox 360 wide, scaled to the page width): x is the step of the
game's log, y the estimated chance of not being the durak after the move played.
"""

from __future__ import annotations

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 12, 24


def chance_chart(rows: list[dict], events: int, turning: int | None) -> dict | None:
    """``rows``: the seat's judged decisions (step, chance, mark) in order; None if fewer than 2."""
    if len(rows) < 2:
        return None
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(events, 1)

    def x(step: int) -> float:
        return round(LEFT + pw * step / span, 1)

    def y(chance: float) -> float:
        return round(TOP + ph * (1 - chance), 1)

    dots = [{"x": x(r["step"]), "y": y(r["chance"]), "step": r["step"], "mark": r["mark"],
             "percent": round(100 * r["chance"]), "turning": r["step"] == turning} for r in rows]
    line = "M" + " L".join(f"{d['x']},{d['y']}" for d in dots)
    turn = next((d for d in dots if d["turning"]), None)
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": TOP + ph,
        "line": line, "dots": dots, "turning": turn,
        "ticks": [{"y": y(v / 100), "label": f"{v}%"} for v in (0, 50, 100)],
        "turn_anchor": "end" if turn and turn["x"] > WIDTH / 2 else "start",
    }
