"""Random legal play across settings: legal_actions and apply_action agree, every card stays in
exactly one place, games end (a scenario-side smoke check; the property tests go further)."""
import random

import pytest

from game.engine import RULE_CHOICES, GameState, Rules, apply_action, end_check, legal_actions, new_game
from game.engine.cards import BIT, DECK_MASK
from game.engine.flow import table_mask


def _cards_conserved(s: GameState) -> None:
    seen = 0
    count = 0
    for part in s.hands + [s.discard, table_mask(s)] + [BIT[c] for c in s.stock]:
        assert not seen & part
        seen |= part
        count += part.bit_count()
    assert seen == DECK_MASK[s.rules.deck_size] and count == s.rules.deck_size


@pytest.mark.parametrize("seed", range(12))
def test_random_settings_play_to_the_end(seed):
    rng = random.Random(seed)
    d = {k: rng.choice(v) for k, v in RULE_CHOICES.items()}
    players = 4 if d["pairs"] else rng.randint(2, 6)
    if d["deck_size"] < 6 * players:
        d["deck_size"] = 52
    s = new_game(Rules.from_dict(d), players, seed=seed, bot_seats=[1])
    while s.phase != "over":
        if s.phase == "check":
            s = end_check(s)
            continue
        options = [(seat, a) for seat in range(1, players + 1) for a in legal_actions(s, seat)]
        assert options, s.to_json()
        seat, a = rng.choice(options)
        before = s.to_json()
        nxt = apply_action(s, seat, a)
        assert s.to_json() == before
        _cards_conserved(nxt)
        s = nxt
    assert s.result is not None and s.result["reason"] in ("normal", "cap")
