"""Reference bots that play from a seat's view only.

``choose_action(level, view, rng)`` is what the server calls for a bot seat (or a disconnected
player's seat): it gets ``view_for(state, seat)`` (``reading_view`` with the table's reads when
``needs_reads(level)``) and a seeded ``random.Random`` and returns one of
``view["legal"]``, or None when the list is empty or only optional moves (catches) remain that the
bot does not want.

``level`` is an engine bot name (``BOTS``) or a level offered to people (``LEVELS``, levels.py),
which plays as its engine bot.
"""
from __future__ import annotations

import random

from game.engine.bots.base import Bot
from game.engine.bots.expert import ExpertBot
from game.engine.bots.heuristic import HeuristicBot
from game.engine.bots.levels import DEFAULT_LEVEL, LEVEL_BY_CODE, LEVELS, TAKEOVER_LEVEL, Level
from game.engine.bots.simple import LowestBot, RandomBot
from game.engine.types import Action, View

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "lowest": LowestBot,
    "heuristic": HeuristicBot,
    "expert": ExpertBot,
}

_INSTANCES: dict[str, Bot] = {name: cls() for name, cls in BOTS.items()}
_INSTANCES.update({lv.code: _INSTANCES[lv.bot] for lv in LEVELS})


def bot_for(level: str) -> Bot:
    """The shared instance that plays ``level``; raises KeyError for an unknown level."""
    return _INSTANCES[level]


def needs_reads(level: str) -> bool:
    """Whether ``level``'s bot reads the table: its view should then be ``reading_view`` (the
    game's log replayed with reads.py), else ``view_for`` is enough; KeyError for an unknown level."""
    return _INSTANCES[level].reads_table


def choose_action(level: str, view: View, rng: random.Random) -> Action | None:
    """The action bot ``level`` takes in ``view``; raises KeyError for an unknown level."""
    return _INSTANCES[level].choose(view, rng)


__all__ = [
    "BOTS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_BY_CODE",
    "TAKEOVER_LEVEL",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "Level",
    "LowestBot",
    "RandomBot",
    "bot_for",
    "choose_action",
    "needs_reads",
]
