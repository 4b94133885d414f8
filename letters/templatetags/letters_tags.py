"""The letters' marks on other pages: the unread badge at «Друзья» (base.html), «Написать» with a
friend's unread count (the social people pages' panels) and the live script's words."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import gettext as _

from letters import services

register = template.Library()


def _user_id(context: Any) -> int | None:
    user = context.get("user")
    return user.pk if user is not None and user.is_authenticated else None


@register.simple_tag(takes_context=True)
def letters_unread(context: Any) -> int:
    """His unread letters over every conversation, as the shared cache keeps them (no statement)."""
    player_id = _user_id(context)
    return services.unread_badge(player_id) if player_id is not None else 0


def _by_partner(context: Any) -> dict[int, int]:
    """{friend: unread letters from him}, read from the rows once per page."""
    request, player_id = context.get("request"), _user_id(context)
    if player_id is None:
        return {}
    found = getattr(request, "_letters_by_partner", None)
    if found is None:
        found = services.unread_by_partner(player_id)
        if request is not None:
            request._letters_by_partner = found
    return dict(found)


@register.simple_tag(takes_context=True)
def unread_from(context: Any, partner_id: int) -> int:
    """His unread letters from one player (the friends page)."""
    return int(_by_partner(context).get(partner_id, 0))


@register.simple_tag(takes_context=True)
def unread_counted(context: Any) -> int:
    """His unread letters in all, counted from the rows (the friends page, which reads them anyway)."""
    return sum(_by_partner(context).values())


@register.simple_tag
def letters_words() -> dict[str, str]:
    """The words of the script that shows arriving letters on every page (a notice, the badges),
    the catalogue's %(nick)s as the pages' fmt fills it ({nick})."""
    words = {"toast": _("%(nick)s writes: %(text)s"), "open": _("Open"), "close": _("Close"),
             "failed": _("The message could not be sent: check the connection and try again."),
             "reported": _("Thank you: the moderators will read the conversation.")}
    return {key: re.sub(r"%\((\w+)\)s", r"{\1}", str(text)) for key, text in words.items()}


@register.inclusion_tag("letters/nav_badge.html", takes_context=True)
def letters_badge(context: Any) -> dict[str, Any]:
    """The unread count at «Друзья» in the site's menu (hidden at zero; live.js keeps it)."""
    return {"n": letters_unread(context)}
