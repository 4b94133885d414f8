"""Perevodnoy: transferring the attack (docs/RULES.md#transfer, docs/RULES.md#transfer-by-showing-trump)."""
import pytest
from scenario_kit import act, game, hand, table

from game.engine import IllegalAction, apply_action, legal_actions, view_for, whose_turn

# Clubs trump. Seat 1 (6C) leads.
T1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
T2 = ["7D", "7C", "10H", "JS", "KS", "9H"]
T3 = ["8S", "9D", "10S", "JD", "QH", "KH"]


def three(**kw):
    return game([T1, T2, T3], "AC", variant="perevodnoy", **kw)


def transfers(s, seat):
    return [a for a in legal_actions(s, seat) if a["type"] == "transfer"]


def test_transfer_passes_the_defence_clockwise_and_transferrer_throws_first():  # docs/RULES.md#transfer
    s = act(three(), 1, "attack", "7S")
    assert {"type": "transfer", "card": "7D"} in transfers(s, 2)
    s = act(s, 2, "transfer", "7D")
    v = view_for(s, 3)
    assert v["defender"] == 3 and v["attacker"] == 2
    assert table(s) == [("7S", None), ("7D", None)]
    assert whose_turn(s) == [3]
    # seat 2 (the transferrer) throws in first, seat 1 waits
    assert {"type": "attack", "card": "7C"} in legal_actions(s, 2)
    assert not any(a["type"] == "attack" for a in legal_actions(s, 1))
    s = act(s, 2, "attack", "7C")
    assert v["limit"] == 6
    assert view_for(s, 3)["last"] == {"seat": 2, "type": "attack", "card": "7C"}


def test_transfer_with_trump_allowed_by_default():  # docs/RULES.md#transfer
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "transfer", "7C")
    assert view_for(s, 3)["defender"] == 3


def test_transfer_with_trump_can_be_forbidden():  # docs/RULES.md#transfer
    s = act(three(transfer_with_trump=False), 1, "attack", "7S")
    assert transfers(s, 2) == [{"type": "transfer", "card": "7D"}]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7C"})
    assert e.value.code == "transfer_not_allowed"


def test_transfer_needs_same_rank():  # docs/RULES.md#transfer
    s = act(three(), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "10H"})
    assert e.value.code == "rank_mismatch"


def test_transfer_refused_in_podkidnoy():
    s = act(game([T1, T2, T3], "AC"), 1, "attack", "7S")
    assert transfers(s, 2) == []
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D"})
    assert e.value.code == "transfer_not_allowed"


def test_transfer_refused_once_a_card_is_beaten():  # docs/RULES.md#transfer
    s = act(three(), 1, "attack", "7S")
    s = act(s, 1, "attack", "7H")
    s = act(s, 2, "defend", "JS", target="7S")
    assert transfers(s, 2) == []
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D"})
    assert e.value.code == "transfer_not_allowed"


def test_transfer_refused_after_take():  # docs/RULES.md#transfer
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "take")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D"})
    assert e.value.code == "already_took" or e.value.code == "transfer_not_allowed"


def test_transfer_refused_in_first_round_when_set():  # docs/RULES.md#transfer
    s = act(three(transfer_in_first_round=False), 1, "attack", "7S")
    assert transfers(s, 2) == []
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D"})
    assert e.value.code == "transfer_not_allowed"


def test_transfer_allowed_from_round_two_when_first_round_forbidden():  # docs/RULES.md#transfer
    s = act(three(transfer_in_first_round=False), 1, "attack", "7S")
    s = act(s, 2, "defend", "JS", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")  # bito: seat 2 leads round 2 to seat 3
    s = act(s, 2, "attack", "9H")
    assert view_for(s, 3)["round"] == 2
    assert transfers(s, 3) == [{"type": "transfer", "card": "9D"}]


def test_transfer_refused_when_next_player_has_too_few_cards():  # docs/RULES.md#transfer
    # no refill: after round 1 seats 1 and 2 hold 2 cards each
    a = ["6S", "6H", "6D", "8C", "6C", "JH"]
    b = ["8S", "8H", "8D", "9C", "9S", "9H"]
    c = ["9D", "10S", "JS", "QS", "KS", "AS"]
    s = game([a, b, c], "AC", variant="perevodnoy", refill=False)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "8S", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "defend", "8H", target="6H")
    s = act(s, 1, "attack", "6D")
    s = act(s, 2, "defend", "8D", target="6D")
    s = act(s, 1, "attack", "8C")
    s = act(s, 2, "defend", "9C", target="8C")
    s = act(s, 1, "pass")  # seat 3 has no 6/8/9... except 9D? ranks 6,8,9 on table
    if view_for(s, 1)["round"] == 1:
        s = act(s, 3, "pass")
    assert [len(hand(s, k)) for k in (1, 2)] == [2, 2]
    # round 2: seat 2 leads two nines to seat 3, whose next opponent (seat 1) holds only 2
    s = act(s, 2, "attack", "9S")
    s = act(s, 2, "attack", "9H")
    assert transfers(s, 3) == []
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 3, {"type": "transfer", "card": "9D"})
    assert e.value.code == "too_few_cards"


def test_two_players_transfer_goes_back_to_the_attacker():
    s = game([T1, T2], "AC", variant="perevodnoy")
    s = act(s, 1, "attack", "7S")
    s = act(s, 2, "transfer", "7D")
    assert view_for(s, 1)["defender"] == 1 and view_for(s, 1)["limit"] == 5
    s = act(s, 1, "transfer", "7H")
    assert view_for(s, 1)["defender"] == 2 and len(table(s)) == 3


def test_transfer_by_showing_trump_keeps_it_in_hand_once_per_round():  # docs/RULES.md#transfer-by-showing-trump
    s = game([T1, T2], "AC", variant="perevodnoy", transfer_by_showing_trump=True)
    s = act(s, 1, "attack", "7S")
    assert {"type": "transfer", "card": "7C", "show": True} in transfers(s, 2)
    s = act(s, 2, "transfer", "7C", show=True)
    assert "7C" in hand(s, 2)
    assert table(s) == [("7S", None)]
    v = view_for(s, 1)
    assert v["defender"] == 1 and v["shown"] == [2] and v["last"]["show"] is True
    s = act(s, 1, "transfer", "7H")  # back to seat 2, who already showed this round
    assert {"type": "transfer", "card": "7C", "show": True} not in transfers(s, 2)
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7C", "show": True})
    assert e.value.code == "transfer_not_allowed"
    assert {"type": "transfer", "card": "7D"} in transfers(s, 2)


def test_show_transfer_needs_the_setting_and_a_trump():
    s = act(three(), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7C", "show": True})
    assert e.value.code == "transfer_not_allowed"
    s = act(three(transfer_by_showing_trump=True), 1, "attack", "7S")
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D", "show": True})
    assert e.value.code == "rank_mismatch"
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 2, {"type": "transfer", "card": "7D", "show": "yes"})
    assert e.value.code == "bad_action"


def test_transfer_limit_rebased_on_new_defender():  # docs/RULES.md#transfer (the limit is rebased)
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "transfer", "7D")
    assert view_for(s, 1)["limit"] == 6


def test_pairs_transfer_skips_the_partner_when_next_seat_is_out():  # docs/RULES.md#pairs
    from game.engine.seats import next_opponent

    s = game([T1, T2, T3, ["6D", "6H", "8H", "10D", "JH", "KD"]], "AC", variant="perevodnoy",
             pairs=True)
    assert next_opponent(s, 1) == 2  # seat 2 → seat 3 (0-based 1 → 2)
    c = s.copy()
    c.out_mask = 1 << 2  # seat 3 out: seat 2's next opponent is seat 1, never partner seat 4
    assert next_opponent(c, 1) == 0
