"""The seat memory in view_for: ``known`` lists, per seat, the cards everyone saw that seat get
and that it still holds (a take, a caught table, a shown or drawn face-up trump, менка)."""
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
    set_bot_seats,
    view_for,
    whose_turn,
)
from game.engine.tools.selfplay import random_setup

P1 = ["6C", "7S", "7H", "8D", "9S", "QD"]
P2 = ["8S", "9H", "10H", "JS", "KS", "7C"]
P3 = ["7D", "9D", "10S", "JD", "QH", "KH"]


def _taken_by_two():
    """Seat 1 leads 7S, seat 2 covers with 8S, seat 1 throws 7H, seat 2 takes."""
    s = act(game([P1, P2], "AC"), 1, "attack", "7S")
    s = act(s, 2, "defend", "8S", target="7S")
    s = act(s, 1, "attack", "7H")
    s = act(s, 2, "take")
    return act(s, 1, "pass")


def test_a_take_makes_the_taken_cards_known_to_every_seat_and_spectators():
    s = _taken_by_two()
    for seat in (1, 2, None):
        assert view_for(s, seat)["known"] == {"2": ["7S", "7H", "8S"]}


def test_playing_a_known_card_removes_it_from_memory():
    s = _taken_by_two()
    s = act(s, 1, "attack", "8D")  # seat 1 leads again after the take
    s = act(s, 2, "defend", "7C", target="8D")  # seat 1 has no 8 or 7: bito
    s = act(s, 2, "attack", "7S")
    assert view_for(s, 1)["known"]["2"] == ["7H", "8S"]


def test_memory_starts_empty_and_lists_only_seats_with_known_cards():
    assert view_for(game([P1, P2, P3], "AC"), 1)["known"] == {}
    assert set(view_for(_taken_by_two(), 1)["known"]) == {"2"}


def test_a_trump_shown_for_a_transfer_is_known():  # docs/RULES.md#transfer-by-showing-trump
    t2 = ["7D", "7C", "10H", "JS", "KS", "9H"]
    t3 = ["8S", "9D", "10S", "JD", "QH", "KH"]
    s = game([P1, t2, t3], "AC", variant="perevodnoy", transfer_by_showing_trump=True)
    s = act(s, 1, "attack", "7S")
    s = act(s, 2, "transfer", "7C", show=True)
    assert view_for(s, 3)["known"]["2"] == ["7C"]


def test_the_face_up_trump_swapped_in_menka_is_known():  # docs/RULES.md#trump-swap
    s = act(game([P1, P2], "AC", trump_swap="all"), 1, "swap_trump", "6C")
    assert view_for(s, 2)["known"]["1"] == ["AC"]


def test_whoever_draws_the_face_up_trump_is_known_to_hold_it():  # docs/RULES.md#deck
    s = new_game(Rules(), 2, seed=3)
    up = view_for(s, 1)["trump_card"]
    while s.stock:  # play first-listed moves (take as soon as possible) until the stock is gone
        seat = whose_turn(s)[0]
        s = apply_action(s, seat, legal_actions(s, seat)[-1])
    holder = next(k for k in (1, 2) if up in s.hand(k))
    assert up in view_for(s, 3 - holder)["known"][str(holder)]


def test_a_seat_taken_over_by_a_bot_sees_the_same_memory():  # docs/RULES.md#disconnect (takeover), replay
    s = _taken_by_two()
    human = view_for(s, 1)["known"]
    bot = set_bot_seats(GameState.from_json(json.loads(json.dumps(s.to_json()))), [1])
    assert view_for(bot, 1)["known"] == human


def test_a_state_saved_before_the_memory_existed_loads_with_an_empty_memory():
    d = _taken_by_two().to_json()
    del d["known"]
    assert view_for(GameState.from_json(d), 1)["known"] == {}


def test_a_state_saved_with_the_per_seat_memory_of_played_cards_shows_the_same():
    """Until 2026-11-30 the state kept, per seat, every card ever seen entering that hand (played
    ones too); it is now one mask shown per hand. Such a saved state loads to the same views."""
    s = act(_taken_by_two(), 1, "attack", "8D")
    s = act(s, 2, "defend", "7C", target="8D")
    s = act(s, 2, "attack", "7S")  # 7S leaves seat 2's hand: no longer known there
    d = json.loads(json.dumps(s.to_json()))
    assert d["known"] == [[], ["7H", "8S"]]
    d["known"] = [[], ["7S", "7H", "8S"]]  # the old format's record, 7S still listed
    old = GameState.from_json(d)
    for seat in (1, 2, None):
        assert view_for(old, seat)["known"] == view_for(s, seat)["known"] == {"2": ["7H", "8S"]}
    s, old = act(act(s, 1, "take"), 2, "pass"), act(act(old, 1, "take"), 2, "pass")
    assert view_for(old, 2)["known"] == view_for(s, 2)["known"] == {"1": ["7S"], "2": ["7H", "8S"]}


def _public_cards(v):
    cards = {p["attack"] for p in v["table"]} | {p["defense"] for p in v["table"] if p["defense"]}
    last = v["last"] or {}
    return cards | {last.get("card"), last.get("took"), v["trump_card"]}


def test_memory_never_holds_a_card_that_was_not_public_and_is_not_in_that_hand():
    """Secrecy over random games under random settings: every remembered card was once public
    (on the table, shown, swapped or the face-up trump) and is in that seat's hand now."""
    rng = random.Random(11)
    for g in range(60):
        rules, players = random_setup(rng)
        s = new_game(rules, players, seed=g)
        seen: set[str] = set()
        while s.phase != "over":
            if s.phase == "check":
                s = end_check(s)
                continue
            v = view_for(s, None)
            seen |= _public_cards(v)
            for seat, cards in v["known"].items():
                assert set(cards) <= set(s.hand(int(seat))), (g, seat)
                assert set(cards) <= seen, (g, seat, set(cards) - seen)
            turn = whose_turn(s)
            seat = turn[rng.randrange(len(turn))]
            acts = legal_actions(s, seat)
            s = apply_action(s, seat, acts[rng.randrange(len(acts))])
