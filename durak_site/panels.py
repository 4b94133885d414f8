"""Panels: templates that apps above a page's own app add to it, at named places.

A lower app's page may not name an app above it (tests/site/test_architecture.py), so the upper app
registers its templates in its ready() and the page includes whatever is registered at each place.
lobby.pages (the table pages) and accounts.pages (the profile) each keep one `Panels`.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


class Panels:
    def __init__(self, page: str, places: tuple[str, ...]) -> None:
        self.page, self.places = page, places
        self._at: dict[str, list[str]] = {}

    def register(self, template_name: str, place: str) -> None:
        """`template_name` is rendered at `place` of the page (once, in the order registered)."""
        if place not in self.places:
            raise ImproperlyConfigured(f"no place {place!r} on {self.page} (one of {self.places})")
        panels = self._at.setdefault(place, [])
        if template_name not in panels:
            panels.append(template_name)

    def at(self, place: str) -> tuple[str, ...]:
        return tuple(self._at.get(place, ()))
