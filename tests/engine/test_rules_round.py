"""A round: defence, throw-in ranks and order, limits, «Беру», bito, refill (docs/RULES.md, from
#round to #next-round)."""
import pytest
from scenario_kit import act, game, hand, table

from game.engine import IllegalAction, apply_action, legal_actions, view_for, whose_turn

# Three players, clubs trump (face-up AC). Seat 1 holds the lowest trump (6C) and leads to seat 2.
P1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
P2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
P3 = ["7D", "9D", "10S", "JD", "QH", "KH"]
STOCK = ["AS", "AH", "AD", "KD", "KC", "QC"]


def three(**kw):
    return game([P1, P2, P3], "AC", stock=STOCK, **kw)


def defends(s, seat, target):
    return sorted(a["card"] for a in legal_actions(s, seat)
                  if a["type"] == "defend" and a["target"] == target)


def test_defence_higher_same_suit_or_any_trump():  # docs/RULES.md#defence
    s = act(three(), 1, "attack", "7S")
    assert whose_turn(s) == [2]
    assert defends(s, 2, "7S") == sorted(["8S", "JS", "KS", "7C"])


def test_defence_with_lower_or_other_suit_refused():  # docs/RULES.md#defence
    s = act(three(), 1, "attack", "9S")
    for card in ("8S", "9H"):
        with pytest.raises(IllegalAction) as e:
            apply_action(s, 2, {"type": "defend", "card": card, "target": "9S"})
        assert e.value.code == "does_not_beat"


def test_trump_beaten_only_by_higher_trump():  # docs/RULES.md#defence
    s = act(three(), 1, "attack", "6C")
    assert defends(s, 2, "6C") == ["7C"]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "defend", "card": "KS", "target": "6C"})
    assert e.value.code == "does_not_beat"


def test_throw_in_ranks_include_beating_cards():  # docs/RULES.md#throw-in-ranks: 7♣ beaten by 9♣ → any 7 or 9
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    throws = sorted(a["card"] for a in legal_actions(s, 1) if a["type"] == "attack")
    assert throws == ["7H", "8D"]  # 7 from the attack, 8 from the defence
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "QD"})
    assert e.value.code == "rank_not_on_table"


def test_starter_throws_in_first_then_the_others():  # docs/RULES.md#throw-in-order
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    assert whose_turn(s) == [1]
    assert legal_actions(s, 3) == []
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 3, {"type": "attack", "card": "7D"})
    assert e.value.code == "not_your_turn"
    s = act(s, 1, "pass")
    assert whose_turn(s) == [3]
    s = act(s, 3, "attack", "7D")
    # the starter's «Бито» is final in starter_first (docs/RULES.md#throw-in-order)
    assert all(a["type"] != "attack" for a in legal_actions(s, 1))
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "7H"})
    assert e.value.code == "already_passed"


def test_others_throw_in_when_starter_has_nothing():  # docs/RULES.md#throw-in-order
    s = act(three(), 1, "attack", "9S")
    s = act(s, 2, "defend", "JS", target="9S")
    assert not any(a["type"] == "attack" for a in legal_actions(s, 1))
    assert whose_turn(s) == [3]
    s = act(s, 3, "attack", "9D")
    assert table(s) == [("9S", "JS"), ("9D", None)]


def test_throw_in_anyone_and_a_new_card_resets_passes():  # docs/RULES.md#throw-in-order
    s = act(three(throw_in="anyone"), 1, "attack", "7S")
    assert any(a == {"type": "attack", "card": "7D"} for a in legal_actions(s, 3))
    s = act(s, 2, "defend", "8S", target="7S")
    assert whose_turn(s) == [1, 3]
    s = act(s, 1, "pass")
    assert view_for(s, 1)["passed"] == [1]
    # a passed player may still throw later
    assert {"type": "attack", "card": "7H"} in legal_actions(s, 1)
    s = act(s, 3, "attack", "7D")
    assert view_for(s, 1)["passed"] == []
    s = act(s, 2, "defend", "7C", target="7D")
    assert whose_turn(s) == [1]  # seat 3 has nothing left to throw: not awaited
    s = act(s, 1, "pass")
    assert view_for(s, 1)["discard"] == 4 and view_for(s, 1)["round"] == 2


def test_take_then_others_may_still_throw_in():  # docs/RULES.md#take
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "take")
    v = view_for(s, 1)
    assert v["took"] is True and whose_turn(s) == [1]
    assert legal_actions(s, 2) == []  # the defender is done
    s = act(s, 1, "attack", "7H")
    assert whose_turn(s) == [3]  # seat 1 has no other 7: the right passes on by itself
    s = act(s, 3, "attack", "7D")  # his last throwable card: the round then closes
    # everything went to seat 2; after a take the next player after him leads (docs/RULES.md#next-round)
    assert {"7S", "7H", "7D"} <= set(hand(s, 2))
    assert len(hand(s, 2)) == 9
    assert whose_turn(s) == [3] and s.defender == 0


def test_bito_moves_the_table_to_the_discard_and_defender_leads():  # docs/RULES.md#bito, docs/RULES.md#next-round
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    v = view_for(s, 2)
    assert v["discard"] == 2 and v["table"] == [] and v["round"] == 2
    assert whose_turn(s) == [2] and v["defender"] == 3
    assert v["last"]["closed"] == "bito"


def test_refill_order_attacker_others_clockwise_defender_last():  # docs/RULES.md#refill
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "attack", "7H")
    s = act(s, 2, "defend", "9H", target="7H")
    s = act(s, 1, "pass")
    s = act(s, 3, "attack", "7D")
    s = act(s, 2, "defend", "7C", target="7D")
    s = act(s, 3, "pass")
    assert {"AS", "AH"} <= set(hand(s, 1))
    assert "AD" in hand(s, 3)
    assert {"KD", "KC", "QC"} <= set(hand(s, 2))
    assert [len(hand(s, k)) for k in (1, 2, 3)] == [6, 6, 6]


def test_no_refill_setting_keeps_the_stock():  # docs/RULES.md#refill
    s = act(three(refill=False), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    assert [len(hand(s, k)) for k in (1, 2, 3)] == [5, 5, 6]
    assert view_for(s, 1)["stock"] == 36 - 18


def test_auto_bito_ends_the_round_when_all_are_beaten():  # docs/RULES.md#auto-bito
    s = act(three(auto_bito=True), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    assert view_for(s, 1)["round"] == 2 and view_for(s, 1)["discard"] == 2
    assert whose_turn(s) == [2]


# Two players for limits: seat 1 leads (6C), seat 2 beats with hearts trumps... clubs trump here.
L1 = ["6S", "6H", "6D", "8C", "6C", "JH"]
L2 = ["8S", "8H", "8D", "9C", "9S", "9H"]


def _limit_game(**kw):
    return game([L1, L2], "AC", **kw)


def _throw_sixes(s):
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "8S", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "defend", "8H", target="6H")
    s = act(s, 1, "attack", "6D")
    s = act(s, 2, "defend", "8D", target="6D")
    s = act(s, 1, "attack", "8C")
    s = act(s, 2, "defend", "9C", target="8C")
    return s


def test_first_round_limit_five():  # docs/RULES.md#attack-limit
    s = _throw_sixes(_limit_game(first_round_limit=5))
    assert view_for(s, 1)["limit"] == 5
    s = act(s, 1, "attack", "6C")
    assert not any(a["type"] == "attack" for a in legal_actions(s, 1))
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "take"})
    assert e.value.code == "not_your_turn"


def test_round_closes_itself_when_the_limit_th_card_is_beaten():  # docs/RULES.md#bito
    s = _throw_sixes(_limit_game(first_round_limit=5))
    s = act(s, 1, "attack", "6C")
    # 9S cannot beat the trump 6C; seat 2 has no trump left, so he takes
    s = act(s, 2, "take")
    assert view_for(s, 1)["round"] == 2  # limit reached: nothing to wait for
    assert len(hand(s, 2)) == 6 - 4 + 9  # 5 attacks + 4 defences


def test_limit_is_defenders_hand_at_round_start():  # docs/RULES.md#attack-limit
    s = game([L1, L2], "AC", refill=False)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "8S", target="6S")
    s = act(s, 1, "pass")
    # seat 2 leads round 2 against seat 1, who holds 5 cards
    v = view_for(s, 2)
    assert v["round"] == 2 and v["defender"] == 1 and v["limit"] == 5


def test_round_limit_none_lets_more_than_six():  # docs/RULES.md#attack-limit
    s = game([L1, L2], "AC", round_limit=None)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "take")
    s = act(s, 1, "pass")
    # seat 2 now holds 7; seat 1 attacks him again
    v = view_for(s, 1)
    assert v["defender"] == 2 and v["limit"] == 7
    s6 = game([L1, L2], "AC")
    s6 = act(s6, 1, "attack", "6S")
    s6 = act(s6, 2, "take")
    s6 = act(s6, 1, "pass")
    assert view_for(s6, 1)["limit"] == 6


def test_pass_only_with_cards_on_the_table():
    s = three()
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "pass"})
    assert e.value.code == "not_your_turn"


def test_defender_cannot_throw_in_or_pass():
    s = act(three(), 1, "attack", "7S")
    for a in ({"type": "pass"}, {"type": "attack", "card": "KS"}):
        with pytest.raises(IllegalAction) as e:
            apply_action(s, 2, a)
        assert e.value.code == "not_your_turn"


def test_cannot_take_when_everything_is_beaten():
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "take"})
    assert e.value.code == "nothing_to_take"


def test_only_leader_may_lead():
    s = three()
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "attack", "card": "8S"})
    assert e.value.code == "not_your_turn"


def test_defend_bad_target():
    s = act(three(), 1, "attack", "7S")
    for target in ("7H", "XX", None, 5):
        with pytest.raises(IllegalAction) as e:
            apply_action(s, 2, {"type": "defend", "card": "8S", "target": target})
        assert e.value.code == "bad_target"
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "attack", "7H")
    with pytest.raises(IllegalAction) as e:  # already beaten
        apply_action(s, 2, {"type": "defend", "card": "JS", "target": "7S"})
    assert e.value.code == "bad_target"
