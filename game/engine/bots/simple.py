"""The two baseline bots: ``random`` (uniform over the legal list) and ``lowest``.

They are yardsticks for the heuristic bot and for the site's own bots: a bot worth shipping must
beat both by a clear margin (see ``python -m game.engine.tools.bench``).
"""
from __future__ import annotations

import random

from game.engine.bots.base import PLAY_TYPES, Bot, fallback, honest_actions
from game.engine.card_strings import value
from game.engine.types import Action, View

_TYPE_ORDER = {"defend": 0, "attack": 1, "transfer": 2}


class RandomBot(Bot):
    """Uniform over the legal actions, never resigning.

    When only catches are on offer (cheater mode's check phase, or between turns) doing nothing is
    one more equally likely choice, so a random seat does not accuse on every chance it gets.
    """

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        legal = [a for a in view.get("legal") or () if a["type"] != "resign"]
        if not legal:
            return None
        if all(a["type"] == "catch" for a in legal):
            pick = rng.randrange(len(legal) + 1)
            return legal[pick] if pick < len(legal) else None
        return legal[rng.randrange(len(legal))]


class LowestBot(Bot):
    """Always plays its lowest honest card (any trump above any non-trump); takes when it cannot
    beat, passes when it has nothing to play; never swaps, catches or resigns."""

    name = "lowest"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        legal = view.get("legal") or []
        if not legal:
            return None
        trump = view.get("trump")
        plays = [a for a in honest_actions(legal, view) if a["type"] in PLAY_TYPES]
        if plays:
            return min(
                plays,
                key=lambda a: (
                    value(a["card"], trump),
                    _TYPE_ORDER[a["type"]],
                    bool(a.get("show")),
                    a.get("target") or "",
                    a["card"],
                ),
            )
        return fallback(legal)
