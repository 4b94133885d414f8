"""Tags for the panels tournaments adds to other apps' pages (lobby, home, table, profile)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static

from .. import selectors
from ..models import TournamentGame, TournamentSeat

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
def berserk_of(pairing, player) -> bool | None:
    """His berserk at this pairing: None when he does not play in it, else whether he chose it (at a
    table of 3 or 4 it is kept on his seat, not on the pairing's berserk_a / berserk_b)."""
    pid = getattr(player, "pk", None)
    if pairing is None or pid is None:
        return None
    if pairing.size > 2:
        chosen: bool | None = (TournamentSeat.objects.filter(pairing=pairing, player_id=pid)
                               .values_list("berserk", flat=True).first())
        return chosen
    if pid == pairing.player_a_id:
        return bool(pairing.berserk_a)
    if pid == pairing.player_b_id:
        return bool(pairing.berserk_b)
    return None


@register.simple_tag
def podiums_of(player_id):
    return selectors.podiums_of(player_id)


@register.simple_tag
def static_url(path: str) -> str:
    return static(path)
