"""Timeouts (docs/RULES.md#turn-timer), resign (docs/RULES.md#leaving) and the hard cap."""
import pytest
from scenario_kit import act, game

from game.engine import (
    MAX_MOVES,
    STALL_ROUNDS,
    IllegalAction,
    apply_action,
    end_check,
    resign,
    timeout_action,
    view_for,
)

P1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
P2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
P3 = ["7D", "9D", "10S", "JD", "QH", "KH"]


def three(**kw):
    return game([P1, P2, P3], "AC", **kw)


def test_timeout_leader_plays_lowest_non_trump():  # docs/RULES.md#turn-timer
    s = three()
    assert timeout_action(s, 1) == {"type": "attack", "card": "7S"}


def test_timeout_leader_with_only_trumps_plays_lowest_trump():  # docs/RULES.md#turn-timer
    trumps = ["7C", "8C", "9C", "10C", "JC", "QC"]
    s = game([trumps, P3], "AC", first_attacker=1)
    assert timeout_action(s, 1) == {"type": "attack", "card": "7C"}


def test_timeout_defender_takes_and_thrower_passes():  # docs/RULES.md#turn-timer
    s = act(three(), 1, "attack", "7S")
    assert timeout_action(s, 2) == {"type": "take"}
    s = apply_action(s, 2, timeout_action(s, 2))
    assert timeout_action(s, 1) == {"type": "pass"}
    s = apply_action(s, 1, timeout_action(s, 1))
    s = apply_action(s, 3, timeout_action(s, 3))
    assert view_for(s, 1)["round"] == 2


def test_timeout_of_a_seat_not_awaited_is_refused():
    s = three()
    with pytest.raises(IllegalAction) as e:
        timeout_action(s, 2)
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        timeout_action(s, 9)


def test_timeout_lose_while_leading_or_defending_resigns():  # docs/RULES.md#turn-timer
    s = three(timeout="lose")
    a = timeout_action(s, 1)
    assert a == {"type": "resign", "reason": "timeout"}
    over = apply_action(s, 1, a)
    assert over.result == {"loser": 1, "losers": [1], "winners": [2, 3], "draw": False,
                           "reason": "timeout"}
    s = act(s, 1, "attack", "7S")
    assert timeout_action(s, 2) == {"type": "resign", "reason": "timeout"}


def test_timeout_lose_covered_table_just_passes():  # docs/RULES.md#turn-timer
    s = act(three(timeout="lose"), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    assert timeout_action(s, 1) == {"type": "pass"}
    s = act(three(timeout="lose"), 1, "attack", "7S")
    s = act(s, 2, "take")
    assert timeout_action(s, 1) == {"type": "pass"}


def test_resign_each_for_himself():  # docs/RULES.md#leaving
    s = resign(three(), 2)
    assert s.result == {"loser": 2, "losers": [2], "winners": [1, 3], "draw": False,
                        "reason": "resign"}
    assert view_for(s, 1)["phase"] == "over"
    with pytest.raises(IllegalAction) as e:
        resign(s, 1)
    assert e.value.code == "game_over"


def test_resign_in_pairs_loses_for_the_pair():  # docs/RULES.md#leaving
    p4 = ["6D", "6H", "8H", "10D", "JH", "KD"]
    s = game([P1, P2, P3, p4], "AC", pairs=True)
    s2 = apply_action(s, 3, {"type": "resign"})
    assert s2.result["losers"] == [1, 3] and s2.result["winners"] == [2, 4]
    assert s2.result["loser"] == 3
    assert s.result is None  # the input state is untouched


def test_resign_bad_reason_refused():
    with pytest.raises(IllegalAction):
        apply_action(three(), 1, {"type": "resign", "reason": "bored"})
    with pytest.raises(IllegalAction):
        resign(three(), 1, reason="bored")


def test_resign_allowed_during_check_phase():
    s = act(three(cheater=True), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "pass")
    s = act(s, 3, "pass")
    assert s.phase == "check"
    assert resign(s, 3).result["loser"] == 3
    with pytest.raises(IllegalAction):
        timeout_action(s, 1)
    end_check(s)


def test_hard_cap_on_actions_ends_in_a_draw():
    s = three().copy()
    s.moves = MAX_MOVES - 1
    s = apply_action(s, 1, {"type": "attack", "card": "7S"})
    assert s.result == {"loser": None, "losers": [], "winners": [], "draw": True, "reason": "cap"}


def test_hard_cap_on_rounds_without_progress():
    s = act(three(), 1, "attack", "7S")
    s = act(s, 2, "take")
    c = s.copy()
    c.stall = STALL_ROUNDS - 1
    c = apply_action(c, 1, {"type": "pass"})
    c = apply_action(c, 3, {"type": "pass"})
    assert c.result["reason"] == "cap" and c.result["draw"] is True


def test_resign_mid_round_keeps_the_table_cards():  # every card stays somewhere
    s = act(three(), 1, "attack", "7S")
    over = resign(s, 1)
    v = view_for(over, None)
    assert v["table"] == [{"attack": "7S", "defense": None}]
    total = sum(v["hand_counts"].values()) + len(v["table"]) + v["stock"] + v["discard"]
    assert total == 36
