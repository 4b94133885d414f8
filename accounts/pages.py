"""Panels that the apps above accounts add to the player's own profile page.

Accounts is the lowest app: it never imports ratings, so the profile names no rating and links no
public page of its own accord. Ratings adds both in RatingsConfig.ready(): "facts" inside the list
of facts about him, "links" after it. `{% profile_panels place as panels %}` (accounts_tags) names
them to the page.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

PLACES = ("facts", "links")
_panels: dict[str, list[str]] = {}


def register_profile_panel(template_name: str, place: str) -> None:
    """`template_name` is rendered at `place` (PLACES) of the profile page (once, in order)."""
    if place not in PLACES:
        raise ImproperlyConfigured(f"no place {place!r} on the profile page (one of {PLACES})")
    panels = _panels.setdefault(place, [])
    if template_name not in panels:
        panels.append(template_name)


def profile_panels(place: str) -> tuple[str, ...]:
    return tuple(_panels.get(place, ()))
