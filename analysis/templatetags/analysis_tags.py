"""`{% load analysis_tags %}{% game_analysis game as a %}`: a game's analysis for the panels."""

from __future__ import annotations

from django import template

from analysis import describe, services

register = template.Library()


@register.simple_tag
def game_analysis(game):
    """The game's Analysis row, or None."""
    return services.analysis_for(game) if getattr(game, "pk", None) else None


@register.simple_tag
def analysis_profile(player) -> dict:
    """{"summary": accuracy over his last analysed games or None, "auto": his automatic choice}."""
    summary = services.profile_summary(player)
    if summary and summary["pattern"]:
        summary["pattern_label"] = describe.pattern(summary["pattern"])
    return {"summary": summary, "auto": services.auto_enabled(player)}
