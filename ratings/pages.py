"""Panels that apps above ratings add to the replay page (e.g. the analysis' button and summary).

Ratings never imports an app above it: such an app registers its template here in its ready(), and
the replay page includes whatever is registered (`{% replay_panels as panels %}`, ratings_tags).
"""

from __future__ import annotations

from durak_site.panels import Panels

PLACES = ("actions",)
_panels = Panels("the replay page", PLACES)


def register_replay_panel(template_name: str, place: str = "actions") -> None:
    """`template_name` is rendered at `place` of the replay page of a finished game (with `game`)."""
    _panels.register(template_name, place)


def replay_panels(place: str = "actions") -> tuple[str, ...]:
    return _panels.at(place)
