"""Template tags of the accounts pages."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from accounts import key_once, pages

register = template.Library()


@register.simple_tag
def profile_panels(place: str) -> tuple[str, ...]:
    """The templates apps above accounts add to the profile page at `place` (accounts.pages):
    `{% profile_panels "facts" as panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.profile_panels(place)


@register.inclusion_tag("accounts/_key_reminder.html", takes_context=True)
def key_reminder(context) -> dict:
    """The reminder of a recovery key not shown yet (accounts.key_once), for base.html: a sheet that
    opens the key page and comes back here, or at a table (the lobby:table URL, where a game may be
    running) a line only, since nothing should take the player away from a game."""
    request = context.get("request")
    state = key_once.reminder(request) if request is not None else None
    match = getattr(request, "resolver_match", None)
    view = match.view_name if match else ""
    if state is None or view == "accounts:key":
        return {"state": None}
    return {"state": state, "at_table": view == "lobby:table",
            "key_url": reverse("accounts:key") + "?" + urlencode({"next": request.get_full_path()})}
