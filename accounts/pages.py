"""Panels that the apps above accounts add to the player's own profile page.

Accounts is the lowest app: it never imports ratings, so the profile names no rating and links no
public page of its own accord. Ratings adds both in RatingsConfig.ready(): "facts" inside the list
of facts about him, "links" after it; "settings" are sections of their own (notifications). `{% profile_panels place as panels %}` (accounts_tags) names
them to the page.
"""

from __future__ import annotations

from durak_site.panels import Panels

PLACES = ("facts", "links", "settings")
_panels = Panels("the profile page", PLACES)


def register_profile_panel(template_name: str, place: str) -> None:
    """`template_name` is rendered at `place` (PLACES) of the profile page (once, in order)."""
    _panels.register(template_name, place)


def profile_panels(place: str) -> tuple[str, ...]:
    return _panels.at(place)
