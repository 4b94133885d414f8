"""`{% load analysis_tags %}{% game_analysis game as a %}`: a game's analysis for the panels."""

from __future__ import annotations

from django import template

from analysis import services

register = template.Library()


@register.simple_tag
def game_analysis(game):
    """The game's Analysis row, or None."""
    return services.analysis_for(game) if getattr(game, "pk", None) else None
