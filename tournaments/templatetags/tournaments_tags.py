"""Tags for the panels tournaments adds to other apps' pages (lobby, home, table, profile)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static

from .. import selectors
from ..models import TournamentGame

register = template.Library()


@register.simple_tag(takes_context=True)
def next_tournaments(context, limit: int = 3):
    request = context.get("request")
    return selectors.next_events(getattr(request, "user", None), limit=limit)


@register.simple_tag
def tournament_of_table(table):
    if table is None or not table.pk:  # no table row (the table client's DEBUG harness): no tournament
        return None
    return (TournamentGame.objects.filter(table_id=table.pk, status=TournamentGame.Status.PENDING)
            .select_related("tournament").first())


@register.simple_tag
def podiums_of(player_id):
    return selectors.podiums_of(player_id)


@register.simple_tag
def static_url(path: str) -> str:
    return static(path)
