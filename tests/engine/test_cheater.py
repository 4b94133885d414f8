"""Cheater mode «Шулер» (docs/RULES.md#cheater)."""
import pytest
from scenario_kit import act, game, hand

from game.engine import (
    IllegalAction,
    Rules,
    apply_action,
    deck_cards,
    end_check,
    legal_actions,
    new_game,
    view_for,
    whose_turn,
)

C1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
C2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
C3 = ["7D", "9D", "10S", "JD", "QH", "KH"]
STOCK = ["AS", "AH", "AD"]


def three(**kw):
    return game([C1, C2, C3], "AC", stock=STOCK, cheater=True, **kw)


def test_any_card_may_be_played_when_a_card_could_be_played():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    # the defender may "beat" with anything, e.g. a lower card of another suit
    assert {"type": "defend", "card": "9H", "target": "7S"} in legal_actions(s, 2)
    s = act(s, 2, "defend", "8S", target="7S")
    # the starter may throw in a rank that is not on the table
    assert {"type": "attack", "card": "QD"} in legal_actions(s, 1)
    # ...but never out of turn: seat 3 waits for the starter
    assert not any(a["type"] == "attack" for a in legal_actions(s, 3))


def test_dishonest_throw_in_caught_cheater_takes_table_like_bito():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "attack", "QD")  # not a rank on the table
    s = act(s, 2, "catch", "QD")
    v = view_for(s, 2)
    assert v["last"]["caught"] is True and v["last"]["cheater"] == 1
    assert {"7S", "8S", "QD"} <= set(hand(s, 1))
    assert v["discard"] == 0 and v["round"] == 2
    # as after a bito: the defender (seat 2) leads the next round
    assert whose_turn(s) == [2]


def test_dishonest_defence_caught_defender_takes_like_take():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "9H", target="7S")  # 9H does not beat 7S
    s = act(s, 3, "catch", "9H")
    assert {"7S", "9H"} <= set(hand(s, 2))
    assert view_for(s, 1)["last"]["cheater"] == 2
    # as after a take: the next player after the defender leads
    assert whose_turn(s) == [3]


def test_false_accusation_costs_a_stock_card_and_the_right_to_catch():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "catch", "7S")
    v = view_for(s, 2)
    assert v["last"]["caught"] is False and v["last"]["penalty"] is True
    assert "AS" in hand(s, 2) and len(hand(s, 2)) == 7
    assert v["cheater"]["banned"] == [2] and v["cheater"]["can_catch"] is False
    s = act(s, 2, "defend", "9H", target="7S")
    assert not any(a["type"] == "catch" for a in legal_actions(s, 2))
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "catch", "card": "7S"})
    assert e.value.code == "catch_banned"


def test_false_accusation_with_empty_stock_takes_a_random_discard_card():  # docs/RULES.md#cheater
    s = new_game(Rules(cheater=True), 6, deck=deck_cards(36), seed=5)
    lead = whose_turn(s)[0]
    d = view_for(s, lead)["defender"]
    card = view_for(s, lead)["legal"][0]["card"]
    s = apply_action(s, lead, {"type": "attack", "card": card})
    s = apply_action(s, d, {"type": "take"})
    while s.phase == "play":  # everyone passes
        s = apply_action(s, whose_turn(s)[0], {"type": "pass"})
    s = end_check(s)
    # nothing in the discard yet: a false accusation costs nothing but the right to catch
    lead = whose_turn(s)[0]
    d = view_for(s, lead)["defender"]
    s = apply_action(s, lead, {"type": "attack", "card": view_for(s, lead)["legal"][0]["card"]})
    before = len(hand(s, d))
    s = apply_action(s, d, {"type": "catch", "card": view_for(s, None)["table"][0]["attack"]})
    assert view_for(s, 1)["last"]["penalty"] is False and len(hand(s, d)) == before


def test_false_accusation_draws_a_random_discard_card_when_stock_is_empty():  # docs/RULES.md#cheater
    from game.engine.cards import CARD_CODE

    base = act(three(), 1, "attack", "7S")
    c = base.copy()
    c.stock = ()
    c.discard = (1 << CARD_CODE["AS"]) | (1 << CARD_CODE["AH"])
    got = set()
    for seed in range(12):
        c.seed = seed
        s = apply_action(c, 2, {"type": "catch", "card": "7S"})
        new = set(hand(s, 2)) - set(C2)
        assert len(new) == 1 and new <= {"AS", "AH"}
        assert view_for(s, 2)["discard"] == 1
        again = apply_action(c, 2, {"type": "catch", "card": "7S"})
        assert again.to_json() == s.to_json()  # the state's own RNG: deterministic
        got |= new
    assert got == {"AS", "AH"}


def test_check_phase_before_the_round_closes_only_catches():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    v = view_for(s, 3)
    assert v["phase"] == "check" and v["turn"] == [] and v["cheater"]["check"] is True
    assert [a["type"] for a in v["legal"]] == ["catch", "catch"]
    assert legal_actions(s, 1) == [{"type": "catch", "card": "8S"}]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "7H"})
    assert e.value.code == "check_phase"
    s = end_check(s)
    v = view_for(s, 3)
    assert v["phase"] == "play" and v["discard"] == 2 and whose_turn(s) == [2]
    with pytest.raises(IllegalAction) as e:
        end_check(s)
    assert e.value.code == "not_check_phase"


def test_catch_in_check_phase_of_a_dishonest_card():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "9H", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    assert s.phase == "check"
    s = act(s, 1, "catch", "9H")
    assert s.phase == "play" and {"7S", "9H"} <= set(hand(s, 2))


def test_check_phase_after_take():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "take")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    assert s.phase == "check" and s.pending == "take"
    s = end_check(s)
    assert "7S" in hand(s, 2) and whose_turn(s) == [3]


def test_cannot_catch_own_or_partners_card():  # docs/RULES.md#cheater
    s = act(three(), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "catch", "card": "7S"})
    assert e.value.code == "own_card"
    p4 = ["6D", "6H", "8H", "10D", "JH", "KD"]
    s = game([C1, C2, C3, p4], "AC", cheater=True, pairs=True)
    s = act(s, 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 3, {"type": "catch", "card": "7S"})
    assert e.value.code == "own_card"
    assert {"type": "catch", "card": "7S"} in legal_actions(s, 4)


def test_catch_only_in_cheater_mode_and_cards_on_the_table():
    s = act(game([C1, C2, C3], "AC"), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "catch", "card": "7S"})
    assert e.value.code == "not_cheater_mode"
    s = act(three(), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "catch", "card": "KH"})
    assert e.value.code == "bad_target"


def test_views_never_show_honesty():  # docs/RULES.md#cheater: the cheat is hidden until caught
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "9H", target="7S")
    for seat in (None, 1, 2, 3):
        text = repr(view_for(s, seat))
        assert "honest" not in text
