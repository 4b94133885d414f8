"""Panels that the apps above social add to its people pages: the top of the friends page
("friends"), each friend's row there ("friend", given `p`, the friend) and the player card's
actions ("person", given `other` and `relation`). `{% person_panels place as panels %}` (social_tags)
names them to the page; the apps register them in their ready() (durak_site.panels)."""

from __future__ import annotations

from durak_site.panels import Panels

PLACES = ("friends", "friend", "person")
_panels = Panels("the people pages", PLACES)


def register_person_panel(template_name: str, place: str) -> None:
    """`template_name` is rendered at `place` (PLACES) of the people pages (once, in order)."""
    _panels.register(template_name, place)


def person_panels(place: str) -> tuple[str, ...]:
    return _panels.at(place)
