"""`{% load ratings_tags %}{% series_standings table %}`: the series panel for the table pages."""

from __future__ import annotations

from django import template

from ratings import pages, services

register = template.Library()


@register.inclusion_tag("ratings/series_standings.html", takes_context=True)
def series_standings(context, table):
    """Standings of the table's current (or just finished) series, and the leader choice (docs/RULES.md#series)."""
    standings = services.series_standings(table) if table is not None else None
    user = context.get("user")
    request = context.get("request")
    can_choose = False
    if standings and standings["running"] and user is not None and user.is_authenticated:
        between_games = getattr(table, "status", "") != "playing"
        can_choose = between_games and any(e.player_id == user.pk for e in standings["winner_entries"])
    return {"standings": standings, "table": table, "can_choose": can_choose, "user": user,
            "request": request, "csrf_token": context.get("csrf_token"),
            "next": request.get_full_path() if request is not None else ""}


@register.filter
def signed(value) -> str:
    """+15, −15 (a real minus sign) and ±0 for rating and series deltas."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return ""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "\u00b10"


@register.simple_tag
def replay_panels(place: str = "actions") -> tuple[str, ...]:
    """Templates apps above ratings registered for the replay page (ratings.pages)."""
    return pages.replay_panels(place)
