"""The expert's playout habits (bots/rollout.py) on positions whose sound answer is plain."""
from __future__ import annotations

from game.engine import legal_actions
from game.engine.bots.rollout import policy
from tests.engine.scenario_kit import act, game

ATTACKER = ["7C", "10D", "8D", "9D", "JD", "6S"]


def _defender_answer(defender_hand: list[str], attack: str) -> dict:
    s = game([ATTACKER, defender_hand], trump="6H", first_attacker=1)
    s = act(s, 1, "attack", attack)
    return policy(s, 2, legal_actions(s, 2))


def test_a_plain_attack_is_covered_with_the_cheapest_plain_beater():
    answer = _defender_answer(["KC", "9C", "QH", "AH", "7S", "8S"], "7C")
    assert answer == {"type": "defend", "card": "9C", "target": "7C"}


def test_a_small_plain_table_is_taken_rather_than_covered_with_a_high_trump_early():
    answer = _defender_answer(["KC", "9C", "QH", "AH", "7S", "8S"], "10D")
    assert answer["type"] == "take"


def test_a_low_trump_covers_where_only_a_trump_can():
    answer = _defender_answer(["KC", "9C", "7H", "AH", "7S", "8S"], "10D")
    assert answer == {"type": "defend", "card": "7H", "target": "10D"}


def test_a_lead_spends_the_cheapest_plain_card_not_a_trump():
    s = game([["KC", "9C", "7H", "AH", "7S", "8S"], ATTACKER], trump="6H", first_attacker=1)
    answer = policy(s, 1, legal_actions(s, 1))
    assert answer == {"type": "attack", "card": "7S"}
