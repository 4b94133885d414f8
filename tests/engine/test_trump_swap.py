"""Менка козыря: swap the deck's lowest trump for the face-up trump (docs/RULES.md#trump-swap)."""
import pytest
from scenario_kit import act, game, hand

from game.engine import (
    IllegalAction,
    Rules,
    apply_action,
    legal_actions,
    new_game,
    set_bot_seats,
    view_for,
)

S1 = ["6C", "7S", "7H", "8D", "9S", "QD"]  # seat 1 holds 6C, the lowest trump of a 36-card deck
S2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
SWAP = {"type": "swap_trump", "card": "6C"}


def test_swap_gives_the_face_up_trump_and_puts_the_six_under_the_stock():  # docs/RULES.md#trump-swap
    s = game([S1, S2], "AC", trump_swap="all")
    assert SWAP in legal_actions(s, 1)
    s = act(s, 1, "swap_trump", "6C")
    v = view_for(s, 1)
    assert "AC" in v["hand"] and "6C" not in v["hand"]
    assert v["trump_card"] == "6C" and v["trump"] == "C" and v["swap_used"] is True
    assert s.stock[-1] == s.trump_card
    assert v["turn"] == [1]  # still seat 1's lead
    assert SWAP not in legal_actions(s, 1)  # once per game


def test_swap_not_by_default():
    s = game([S1, S2], "AC")
    assert SWAP not in legal_actions(s, 1)
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, SWAP)
    assert e.value.code == "swap_not_allowed"


def test_swap_only_at_a_round_start():
    s = game([S1, S2], "AC", trump_swap="all")
    s = act(s, 1, "attack", "7S")
    assert SWAP not in legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        apply_action(s, 1, SWAP)


def test_swap_by_a_seat_that_is_not_leading():
    # seat 2 holds the 6 of trumps, seat 1 leads (lowest trump rule is moot: force seat 1)
    s = game([S2, S1], "AC", trump_swap="all", first_attacker=1)
    assert legal_actions(s, 2) == [SWAP]


def test_swap_only_with_a_card_under_the_stock():  # stock ≥ 2
    from game.engine import deck_cards

    s = new_game(Rules(trump_swap="all"), 6, deck=deck_cards(36))  # fully dealt
    for seat in range(1, 7):
        assert not any(a["type"] == "swap_trump" for a in legal_actions(s, seat))


@pytest.mark.parametrize("who, bots, allowed", [
    ("humans", [], True), ("humans", [1], False), ("bots", [1], True), ("bots", [], False),
    ("all", [1], True), ("nobody", [], False),
])
def test_who_may_swap(who, bots, allowed):  # docs/RULES.md#trump-swap
    s = game([S1, S2], "AC", trump_swap=who, bot_seats=bots)
    assert (SWAP in legal_actions(s, 1)) is allowed


def test_set_bot_seats_changes_who_may_swap():  # a bot takes a seat over (docs/RULES.md#disconnect)
    s = game([S1, S2], "AC", trump_swap="humans")
    s2 = set_bot_seats(s, [1])
    assert SWAP in legal_actions(s, 1) and SWAP not in legal_actions(s2, 1)
    assert view_for(s2, None)["bots"] == [1]
    with pytest.raises(IllegalAction):
        set_bot_seats(s, [7])


def test_swap_wrong_card_refused():
    s = game([S1, S2], "AC", trump_swap="all")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "swap_trump", "card": "7S"})
    assert e.value.code == "swap_not_allowed"
    assert "6C" in hand(s, 1)
