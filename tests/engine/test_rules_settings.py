"""Rules settings: validation, defaults, player counts (docs/RULES.md)."""
import json

import pytest

from game.engine import RULE_CHOICES, InvalidRules, Rules, new_game


def test_defaults_are_first_choices():
    r = Rules()
    for name, choices in RULE_CHOICES.items():
        assert getattr(r, name) == choices[0]
    assert r.deck_size == 36 and r.variant == "podkidnoy" and r.round_limit == 6


def test_to_dict_from_dict_round_trip_is_json_ready():
    r = Rules(deck_size=52, variant="perevodnoy", round_limit=None, trump_swap="all")
    d = json.loads(json.dumps(r.to_dict()))
    assert Rules.from_dict(d) == r
    assert set(d) == set(RULE_CHOICES)


def test_from_dict_partial_uses_defaults():
    assert Rules.from_dict({"cheater": True}) == Rules(cheater=True)
    assert Rules.from_dict({}) == Rules()


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"deck_size": 32}, "deck_size"),
        ({"deck_size": "36"}, "deck_size"),
        ({"variant": "podkidnoi"}, "variant"),
        ({"pairs": 1}, "pairs"),  # bools are not ints
        ({"round_limit": 7}, "round_limit"),
        ({"round_limit": True}, "round_limit"),
        ({"first_round_limit": 4}, "first_round_limit"),
        ({"timeout": None}, "timeout"),
        ({"colour": "red"}, "colour"),  # unknown keys are refused
    ],
)
def test_from_dict_refuses_bad_values_naming_the_field(bad, field):
    with pytest.raises(InvalidRules) as e:
        Rules.from_dict(bad)
    assert field in str(e.value)
    assert isinstance(e.value, ValueError)


def test_from_dict_refuses_non_dict():
    with pytest.raises(InvalidRules):
        Rules.from_dict(["deck_size", 36])


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        Rules().deck_size = 24  # type: ignore[misc]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(players):  # docs/RULES.md#seats
    s = new_game(Rules(), players, seed=1)
    assert all(len(s.hand(k)) == 6 for k in range(1, players + 1))


@pytest.mark.parametrize("players", [1, 7, 0, "4", None, 4.0])
def test_bad_player_counts_refused(players):
    with pytest.raises(InvalidRules):
        new_game(Rules(), players, seed=1)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_pairs_need_exactly_four_players(players):  # docs/RULES.md#pairs
    with pytest.raises(InvalidRules, match="pairs"):
        new_game(Rules(pairs=True), players, seed=1)


def test_deck_must_hold_six_cards_per_player():
    with pytest.raises(InvalidRules, match="deck_size"):
        new_game(Rules(deck_size=24), 5, seed=1)
    new_game(Rules(deck_size=24), 4, seed=1)  # 4×6 = 24: fully dealt


def test_check_players_for_the_lobby():
    Rules(pairs=True).check_players(4)
    with pytest.raises(InvalidRules):
        Rules(pairs=True).check_players(3)


def test_bad_explicit_deck_refused():
    with pytest.raises(InvalidRules):
        new_game(Rules(), 2, deck=["6S"] * 36)
    with pytest.raises(InvalidRules):
        new_game(Rules(), 2, deck=["XX"])
    with pytest.raises(InvalidRules):
        new_game(Rules(deck_size=24), 2, deck=[c for c in Rules().to_dict()])
