"""Why each card of a seat's hand cannot be played now (placeholder until the client work lands)."""

from __future__ import annotations


def why_not(view: dict) -> dict[str, str]:
    """{card: IllegalAction code} for the viewer's unplayable cards, from his own view only."""
    return {}
