"""Template tags of the accounts pages."""

from __future__ import annotations

from django import template

from accounts import pages

register = template.Library()


@register.simple_tag
def profile_panels(place: str) -> tuple[str, ...]:
    """The templates apps above accounts add to the profile page at `place` (accounts.pages):
    `{% profile_panels "facts" as panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.profile_panels(place)
