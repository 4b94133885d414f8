"""Going out, the durak, draws, pairs (docs/RULES.md#going-out, docs/RULES.md#end, docs/RULES.md#pairs-end)."""
from scenario_kit import act, game, hand

from game.engine import view_for, whose_turn

# Two players, no refill: seat 1 empties his hand, seat 2 keeps cards.
D1 = ["6S", "6H", "6D", "6C", "8D", "8C"]
D2 = ["8S", "8H", "9S", "9H", "10S", "10H"]


def test_last_player_with_cards_is_the_durak():  # docs/RULES.md#end
    s = game([D1, D2], "AC", refill=False)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "8S", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "take")
    for c in ("6D", "6C", "8D", "8C"):
        s = act(s, 1, "attack", c)
    v = view_for(s, 1)
    assert v["phase"] == "over" and v["out"] == [1]
    assert v["result"] == {"loser": 2, "losers": [2], "winners": [1], "draw": False,
                           "reason": "normal"}
    assert v["turn"] == [] and v["legal"] == []


# Everybody empties in the same final bito.
E1 = ["6S", "6H", "6D", "6C", "7S", "7H"]
E2 = ["7C", "8C", "9C", "10C", "JC", "QC"]


def _final_bito(**kw):
    s = game([E1, E2], "AC", refill=False, **kw)
    pairs = [("6S", "7C"), ("6H", "8C"), ("6D", "9C"), ("6C", "10C"), ("7S", "JC"), ("7H", "QC")]
    for a, d in pairs:
        s = act(s, 1, "attack", a)
        s = act(s, 2, "defend", d, target=a)
    return s


def test_simultaneous_last_cards_is_a_draw():  # docs/RULES.md#end
    s = _final_bito()
    v = view_for(s, None)
    assert v["phase"] == "over"
    assert v["result"] == {"loser": None, "losers": [], "winners": [], "draw": True,
                           "reason": "normal"}


def test_no_draw_setting_last_defender_loses():  # docs/RULES.md#end
    s = _final_bito(draw=False)
    assert view_for(s, None)["result"]["loser"] == 2
    assert view_for(s, None)["result"]["draw"] is False


def test_player_out_only_when_stock_is_empty():  # docs/RULES.md#going-out
    s = game([E1, E2], "AC")  # with refill: seat 1 draws back up to 6
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "7C", target="6S")
    s = act(s, 1, "pass")
    assert view_for(s, 1)["out"] == [] and len(hand(s, 1)) == 6


def test_finished_players_are_skipped_when_attacking():  # docs/RULES.md#seats
    # three players, no refill: seat 1 runs out in round 1, seat 2 then attacks seat 3
    a = ["6S", "6H", "6D", "6C", "8D", "8C"]
    b = ["8S", "8H", "9S", "9H", "10S", "10H"]
    c = ["JS", "JH", "QS", "QH", "KS", "KH"]
    s = game([a, b, c], "AC", refill=False)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "8S", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "take")
    for card in ("6D", "6C", "8D", "8C"):
        s = act(s, 1, "attack", card)
    v = view_for(s, 3)
    assert v["out"] == [1] and v["phase"] == "play"
    # after a take the next active player after the taker leads: seat 3, against seat 2
    assert whose_turn(s) == [3] and v["defender"] == 2


# Pairs 1&3 vs 2&4, no refill: seats 1 and 3 each empty their hand on a take.
Q1 = ["6C", "6S", "6H", "6D", "7S", "7H"]
Q2 = ["7C", "10S", "10H", "10D", "JS", "JH"]
Q3 = ["8S", "8H", "8D", "8C", "9S", "9H"]
Q4 = ["9C", "JD", "QS", "QH", "QD", "KS"]


def _pairs(**kw):
    return game([Q1, Q2, Q3, Q4], "AC", pairs=True, refill=False, **kw)


def test_pairs_partner_of_defender_never_throws_in():  # docs/RULES.md#throw-in-order
    q3 = ["7D", "8H", "8D", "8C", "9S", "9H"]
    q4 = ["9C", "JD", "QS", "QH", "QD", "8S"]
    s = game([Q1, Q2, q3, q4], "AC", pairs=True)
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "7C", target="6S")
    assert view_for(s, 4)["legal"] == []  # seat 4 is seat 2's partner
    s = act(s, 1, "pass")
    assert whose_turn(s) == [3]  # the right passes to the starter's partner


def test_pair_out_first_wins():  # docs/RULES.md#pairs-end
    s = _pairs()
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "7C", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "take")
    for c in ("6D", "6C", "7S", "7H"):  # the 6th attack card: the round closes by itself
        s = act(s, 1, "attack", c)
    v = view_for(s, 3)
    assert v["out"] == [1]
    # after the take the next opponent of seat 2 (seat 3) leads against seat 4
    assert whose_turn(s) == [3] and v["defender"] == 4
    s = act(s, 3, "attack", "8S")
    s = act(s, 4, "defend", "9C", target="8S")
    s = act(s, 3, "attack", "8H")
    s = act(s, 4, "take")
    for c in ("8D", "8C", "9S", "9H"):
        s = act(s, 3, "attack", c)
    v = view_for(s, None)
    assert v["phase"] == "over"
    assert v["result"]["winners"] == [1, 3] and v["result"]["losers"] == [2, 4]
    assert v["result"]["draw"] is False


def test_lone_partner_plays_on_and_out_seats_are_skipped():  # docs/RULES.md#pairs-end
    s = _pairs()
    s = act(s, 1, "attack", "6S")
    s = act(s, 2, "defend", "7C", target="6S")
    s = act(s, 1, "attack", "6H")
    s = act(s, 2, "take")
    for c in ("6D", "6C", "7S", "7H"):  # the 6th attack card: the round closes by itself
        s = act(s, 1, "attack", c)
    assert view_for(s, 1)["out"] == [1]
    s = act(s, 3, "attack", "8S")
    s = act(s, 4, "defend", "QS", target="8S")
    s = act(s, 3, "pass")
    # bito: seat 4 leads; seat 1 is out and seat 2 is his partner, so he attacks seat 3
    v = view_for(s, 4)
    assert whose_turn(s) == [4] and v["defender"] == 3


def test_pairs_both_out_at_once_is_a_draw_or_last_defenders_pair_loses():  # docs/RULES.md#pairs-end
    from game.engine.flow import finish_round

    s = _pairs()
    for draw, expect in ((True, None), (False, [2, 4])):
        c = _pairs(draw=draw).copy()
        c.hands = [0, 0, 0, 0]
        c.out = [0]
        c.out_mask = 1
        finish_round(c, "bito")
        r = c.result
        assert r["draw"] is draw
        if expect:
            assert r["losers"] == expect  # seat 2 was the last defender
    assert s.result is None
