"""view_for (game/engine/README.md): fields, redaction, spectators; JSON round trip."""
import json
import random

from scenario_kit import act, game

from game.engine import (
    GameState,
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    view_for,
    whose_turn,
)

P1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
P2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
P3 = ["7D", "9D", "10S", "JD", "QH", "KH"]

REQUIRED = {"seat", "hand", "table", "trump", "trump_card", "stock", "discard", "hand_counts",
            "attacker", "defender", "turn", "legal", "out", "result", "players", "pairs", "variant",
            "phase", "round", "took", "passed", "limit", "last", "cheater"}


def test_view_has_the_contract_fields():
    s = act(game([P1, P2, P3], "AC"), 1, "attack", "7S")
    v = view_for(s, 2)
    assert set(v) >= REQUIRED
    assert v["seat"] == 2 and v["hand"] == sorted(P2, key=v["hand"].index)
    assert set(v["hand"]) == set(P2)
    assert v["table"] == [{"attack": "7S", "defense": None}]
    assert v["trump"] == "C" and v["trump_card"] == "AC"
    assert v["stock"] == 18 and v["discard"] == 0
    assert v["hand_counts"] == {"1": 5, "2": 6, "3": 6}
    assert v["attacker"] == 1 and v["defender"] == 2 and v["turn"] == [2]
    assert v["legal"] == legal_actions(s, 2)
    assert v["out"] == [] and v["result"] is None and v["phase"] == "play" and v["round"] == 1
    assert v["last"] == {"seat": 1, "type": "attack", "card": "7S"}
    json.dumps(v)


def test_spectator_view_has_no_hand_and_no_legal():
    s = game([P1, P2, P3], "AC")
    v = view_for(s, None)
    assert v["seat"] is None and v["hand"] == [] and v["legal"] == []
    assert view_for(s, 99)["hand"] == []


def _secret_free(v, s, seat, seen):
    """No card of another hand, nor any stock card but the face-up trump, appears in a view,
    unless it was public at some moment (``seen``: the seat memory may name such cards)."""
    text = json.dumps(v)
    public = {p["attack"] for p in v["table"]} | {p["defense"] for p in v["table"] if p["defense"]}
    public |= set(v["gone"]) | {v["trump_card"]}
    last = v["last"] or {}
    public |= {last.get(k) for k in ("card", "target", "took")}
    seen |= public
    public = seen
    own = set(v["hand"])
    for other in range(1, s.n + 1):
        if other == seat:
            continue
        for c in s.hand(other):
            if c in own or c in public:
                continue
            assert f'"{c}"' not in text, (c, seat)
    for c in s.to_json()["stock"][:-1]:
        if c not in public:
            assert f'"{c}"' not in text
    assert "rng" not in text and "seed" not in text and "honest" not in text


def test_views_leak_nothing_during_random_games():
    rng = random.Random(7)
    for k, rules in enumerate([Rules(), Rules(variant="perevodnoy", cheater=True),
                               Rules(pairs=True, trump_swap="all")]):
        s = new_game(rules, 4, seed=k)
        seen: set[str] = set()
        while s.phase != "over":
            if s.phase == "check":
                s = end_check(s)
                continue
            for seat in (None, 1, 2, 3, 4):
                _secret_free(view_for(s, seat), s, seat, seen)
            seat = whose_turn(s)[0]
            s = apply_action(s, seat, rng.choice(legal_actions(s, seat)))


def test_state_json_round_trip_mid_game_continues_identically():
    rng = random.Random(1)
    rules = Rules(variant="perevodnoy", cheater=True, first_move="lowest_trump_or_random")
    s = new_game(rules, 5, seed=11)
    for _ in range(40):
        if s.phase == "check":
            s = end_check(s)
        if s.phase == "over":
            break
        d = json.loads(json.dumps(s.to_json()))
        back = GameState.from_json(d)
        assert back.to_json() == s.to_json() and back == s
        seat = whose_turn(s)[0]
        a = rng.choice(legal_actions(s, seat))
        assert legal_actions(back, seat) == legal_actions(s, seat)
        assert apply_action(back, seat, a).to_json() == apply_action(s, seat, a).to_json()
        s = apply_action(s, seat, a)


def test_apply_returns_a_new_state_and_moves_counts():
    s = game([P1, P2, P3], "AC")
    before = s.to_json()
    s2 = apply_action(s, 1, {"type": "attack", "card": "7S"})
    assert s.to_json() == before and s2 is not s
    assert s2.moves == s.moves + 1
