"""Invariant helpers for the engine property tests.

The checks themselves live in ``game.engine.tools.selfplay`` (so the long self-play run and these tests
check exactly the same things); this module adds the Hypothesis strategies and profiles.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from game.engine import RULE_CHOICES, Rules
from game.engine.tools.selfplay import (
    Checker,
    InvariantError,
    card_places,
    cards_in_json,
    deck_of,
    play_checked_game,
    round_cap,
)

__all__ = [
    "PROFILE",
    "Checker",
    "InvariantError",
    "card_places",
    "cards_in_json",
    "deck_of",
    "play_checked_game",
    "round_cap",
    "setups",
]

_PROFILES = {
    # CI: a few dozen whole games per test, well under a minute for the module
    "ci": settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
        print_blob=True,
    ),
    # HYPOTHESIS_PROFILE=long: a proper search
    "long": settings(
        max_examples=1500,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    ),
}
PROFILE = _PROFILES.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), _PROFILES["ci"])


@st.composite
def setups(draw: st.DrawFn) -> tuple[Rules, int]:
    """Any combination of rule settings, with a seat count it allows (pairs: 4)."""
    kw = {name: draw(st.sampled_from(values)) for name, values in RULE_CHOICES.items()}
    rules = Rules(**kw)
    if rules.pairs:
        return rules, 4
    return rules, draw(st.integers(2, min(6, rules.deck_size // 6)))
