"""Garbled input: apply_action raises IllegalAction (never another type) and leaves the state
untouched."""
import json
import random

import pytest
from scenario_kit import act, game

from game.engine import (
    IllegalAction,
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    timeout_action,
    view_for,
)

P1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
P2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
P3 = ["7D", "9D", "10S", "JD", "QH", "KH"]

GARBAGE_VALUES = [None, 0, -1, 1.5, True, "", "X", "7", "S", "10", "1OH", "7s", " 7S", "7S ",
                  "A" * 100_000, ["7S"], {"card": "7S"}, ("7S",), b"7S", float("nan"), 2**70]

ACTION_TYPES = ["attack", "defend", "transfer", "take", "pass", "swap_trump", "catch", "resign"]


def _states():
    s0 = game([P1, P2, P3], "AC", variant="perevodnoy", cheater=True)
    s1 = act(s0, 1, "attack", "7S")
    s2 = act(s1, 2, "defend", "8S", target="7S")
    return [s0, s1, s2]


def _garbled_actions():
    yield from [None, [], "attack", 7, {"type": None}, {}, {"type": "ATTACK", "card": "7S"},
                {"type": "fly"}, {"type": ["attack"]}, {"type": "attack" * 1000},
                {"card": "7S"}, {"type": {"a": 1}}]
    for t in ACTION_TYPES:
        for v in GARBAGE_VALUES:
            yield {"type": t, "card": v}
            yield {"type": t, "card": "7S", "target": v}
            yield {"type": t, "card": "7C", "show": v}
            yield {"type": t, "reason": v}


@pytest.mark.parametrize("k", [0, 1, 2])
def test_garbled_actions_raise_illegal_action_and_change_nothing(k):
    s = _states()[k]
    before = json.dumps(s.to_json(), sort_keys=True)
    legal = {seat: legal_actions(s, seat) for seat in (1, 2, 3)}
    for a in _garbled_actions():
        for seat in (1, 2, 3):
            if isinstance(a, dict) and a in legal[seat]:
                continue
            if isinstance(a, dict) and a.get("type") == "resign" and a.get("reason") in (None,) \
                    and "reason" not in a:
                continue
            try:
                apply_action(s, seat, a)
            except IllegalAction as e:
                assert e.code and isinstance(e.code, str) and isinstance(e.message, str)
    assert json.dumps(s.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("seat", [0, 4, -1, None, "1", 1.0, True, 2**80, [1]])
def test_bad_seats_refused(seat):
    s = _states()[1]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, seat, {"type": "take"})
    assert e.value.code == "no_such_seat"
    assert legal_actions(s, seat) == []
    with pytest.raises(IllegalAction):
        timeout_action(s, seat)


def test_non_state_refused():
    with pytest.raises(IllegalAction):
        apply_action({"not": "a state"}, 1, {"type": "take"})
    with pytest.raises(IllegalAction):
        end_check(None)


def test_card_not_in_hand_and_bad_card_codes():
    s = _states()[0]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "AS"})
    assert e.value.code == "card_not_in_hand"
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "1S"})
    assert e.value.code == "bad_card"
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack"})
    assert e.value.code == "bad_card"
    # a real card that is not in a 36-card deck
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "attack", "card": "2S"})
    assert e.value.code == "card_not_in_hand"


def test_unknown_action_and_game_over_codes():
    s = _states()[0]
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, {"type": "dance"})
    assert e.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as e:
        apply_action(s, 1, "attack 7S")
    assert e.value.code == "bad_action"
    over = apply_action(s, 1, {"type": "resign"})
    with pytest.raises(IllegalAction) as e:
        apply_action(over, 2, {"type": "take"})
    assert e.value.code == "game_over"


def test_random_garbage_fuzz_never_escapes_illegal_action():
    rng = random.Random(3)
    pool = GARBAGE_VALUES + ACTION_TYPES + ["7S", "8S", "7H", "7D", "7C", "QD"]
    for rules in (Rules(), Rules(variant="perevodnoy", cheater=True, trump_swap="all")):
        s = new_game(rules, 3, seed=1)
        for _ in range(3000):
            a = {rng.choice(["type", "card", "target", "show", "reason", "x"]): rng.choice(pool)
                 for _ in range(rng.randint(0, 4))}
            if rng.random() < 0.7:
                a["type"] = rng.choice(ACTION_TYPES[:-1])
            seat = rng.choice([1, 2, 3, 4, 0])
            before = s.to_json()
            try:
                new = apply_action(s, seat, a)
            except IllegalAction:
                assert s.to_json() == before
                continue
            assert s.to_json() == before
            if a["type"] != "resign":  # whatever applied was listed as legal (extra keys ignored)
                keys = {"take": (), "pass": (), "defend": ("card", "target"),
                        "transfer": ("card", "show")}.get(a["type"], ("card",))
                known = {k: v for k, v in a.items() if k == "type" or k in keys}
                if known.get("show") is False:
                    del known["show"]
                assert known in legal_actions(s, seat), a
            if new.phase == "check":
                new = end_check(new)
            if new.phase != "over":
                s = new
        view_for(s, 1)


def test_every_raised_code_is_documented():
    import pathlib
    import re

    from game.engine import ERROR_CODES

    src = pathlib.Path(__file__).resolve().parents[2] / "game" / "engine"
    codes = set()
    for f in src.glob("*.py"):
        text = f.read_text()
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'return \("([a-z_]+)", ', text))
        codes |= set(re.findall(r'"(bad_[a-z_]+)"\)', text))
    assert codes - set(ERROR_CODES) == set()
