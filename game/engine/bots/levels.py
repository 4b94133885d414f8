"""The bot levels offered to people: a stable code, a display name, and the bot that plays it.

Codes are stored with tables and games, so they never change; the engine's own bot names
(``lowest``, ``heuristic``, ``expert``, ``random``) stay valid codes too (saved tables use them).
``label`` is plain English (the Django side wraps it in gettext_lazy, the engine cannot import
Django); ``label_ru`` is the Russian name the translation should use. Each level is measurably
stronger than the one below (the tournament table in game/engine/README.md).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One offered level: ``code`` (stable), ``label`` (English), ``label_ru``, ``bot`` (the
    engine bot in game.engine.bots.BOTS that plays it)."""

    code: str
    label: str
    label_ru: str
    bot: str


LEVELS: tuple[Level, ...] = (
    Level("novice", "novice", "новичок", "lowest"),
    Level("amateur", "amateur", "любитель", "heuristic"),
    Level("master", "master", "мастер", "expert"),
)
LEVEL_BY_CODE: dict[str, Level] = {lv.code: lv for lv in LEVELS}

DEFAULT_LEVEL = "amateur"
# a disconnected player's seat is played by the strongest level: his team is not punished
TAKEOVER_LEVEL = "master"
