"""Deck, deal, trump and the first move (docs/RULES.md#deck, docs/RULES.md#first-move)."""
import pytest
from scenario_kit import act, deck_for, game

from game.engine import Rules, deck_cards, new_game, view_for, whose_turn


def test_deal_is_one_card_at_a_time_from_seat_1():  # docs/RULES.md#deck
    deck = deck_cards(36)
    s = new_game(Rules(), 3, deck=deck)
    for seat in (1, 2, 3):
        assert sorted(s.hand(seat)) == sorted(deck[seat - 1:18:3])
    v = view_for(s, None)
    assert v["stock"] == 36 - 18
    assert v["trump_card"] == deck[-1] and v["trump"] == deck[-1][-1]


@pytest.mark.parametrize(
    "size, ranks",
    [(24, "9 10 J Q K A"), (36, "6 7 8 9 10 J Q K A"), (52, "2 3 4 5 6 7 8 9 10 J Q K A")],
)
def test_deck_sizes_have_the_right_ranks(size, ranks):  # docs/RULES.md#deck
    cards = deck_cards(size)
    assert len(cards) == size
    assert {c[:-1] for c in cards} == set(ranks.split())


def test_seeded_shuffle_is_deterministic():
    a = new_game(Rules(), 4, seed=42)
    b = new_game(Rules(), 4, seed=42)
    c = new_game(Rules(), 4, seed=43)
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


def test_inlined_shuffle_matches_random_shuffle():
    """deal.shuffled inlines random.shuffle for speed: same seed, same order (int and str seeds,
    every deck size), so seeded games deal exactly as before."""
    import random

    from game.engine.deal import _DECK_CODES, shuffled

    for size, codes in _DECK_CODES.items():
        for seed in [*range(300), "a", "game:17", 2**60 + 3]:
            expect = list(codes)
            random.Random(seed).shuffle(expect)
            assert shuffled(codes, seed) == expect, (size, seed)


def test_face_up_trump_is_drawn_last():  # docs/RULES.md#deck
    hands = [["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]]
    s = game(hands, "AC", stock=["QS"])
    # 22 cards in the stock + the face-up trump, which is stock[-1]
    assert view_for(s, 1)["stock"] == 24
    assert s.stock[-1] == s.trump_card
    assert view_for(s, 1)["trump_card"] == "AC" and view_for(s, 1)["trump"] == "C"


@pytest.mark.parametrize("players, size", [(6, 36), (4, 24)])
def test_fully_dealt_deck_trump_is_last_card_dealt(players, size):  # 6×6=36, 4×6=24
    deck = deck_cards(size)
    s = new_game(Rules(deck_size=size), players, deck=deck)
    v = view_for(s, players)
    assert v["stock"] == 0
    assert v["trump_card"] == deck[-1]
    assert deck[-1] in s.hand(players)  # seat N got it
    assert v["trump"] == deck[-1][-1]


def test_first_move_lowest_trump():  # docs/RULES.md#first-move
    hands = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "JH"],
             ["6D", "7D", "8D", "9D", "10D", "8C"]]
    s = game(hands, "AC")  # trump clubs: seat 3 holds 8C, the only trump dealt
    assert whose_turn(s) == [3]
    assert s.defender == 0  # attacks go clockwise: 3 → 1


def test_first_move_lowest_trump_among_several():
    hands = [["7C", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "6C"]]
    s = game(hands, "AC")
    assert whose_turn(s) == [2]


def test_first_move_without_trumps_lowest_card_then_lowest_seat():  # docs/RULES.md#first-move
    hands = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "JH"],
             ["6D", "7D", "8D", "9D", "10D", "JD"]]
    s = game(hands, "AC")  # no clubs dealt; seats 2 and 3 both hold a 6
    assert whose_turn(s) == [2]


def test_first_move_random_fallback_uses_state_rng():  # docs/RULES.md#first-move
    hands = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "JH"],
             ["6D", "7D", "8D", "9D", "10D", "JD"]]
    seats = set()
    for seed in range(30):
        s = game(hands, "AC", first_move="lowest_trump_or_random", seed=seed)
        again = game(hands, "AC", first_move="lowest_trump_or_random", seed=seed)
        assert whose_turn(s) == whose_turn(again)  # deterministic from the seed
        seats.add(whose_turn(s)[0])
    assert seats == {1, 2, 3}


def test_first_move_random_setting_still_prefers_lowest_trump():  # docs/RULES.md#first-move
    hands = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "9C"]]
    for seed in range(5):
        assert whose_turn(game(hands, "AC", first_move="lowest_trump_or_random", seed=seed)) == [2]


def test_first_move_left_of_dealer():  # docs/RULES.md#first-move
    s = new_game(Rules(first_move="left_of_dealer"), 4, seed=3)
    assert whose_turn(s) == [1]  # default dealer: seat N
    s = new_game(Rules(first_move="left_of_dealer"), 4, seed=3, dealer=2)
    assert whose_turn(s) == [3]
    assert s.defender == 3


def test_first_attacker_forced():  # the winners' pair chooses who leads (docs/RULES.md#series)
    s = new_game(Rules(pairs=True), 4, seed=3, first_attacker=2)
    assert whose_turn(s) == [2]
    assert view_for(s, None)["defender"] == 3


def test_leader_may_lead_any_card():  # docs/RULES.md#round
    hands = [["7S", "8H", "9D", "10S", "JS", "6C"], ["6H", "7H", "8D", "9H", "10H", "JH"]]
    s = game(hands, "AC")
    legal = [a["card"] for a in view_for(s, 1)["legal"]]
    assert sorted(legal) == sorted(hands[0])
    s = act(s, 1, "attack", "9D")
    assert whose_turn(s) == [2]


def test_deck_for_helper_round_trips():
    hands = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "JH"]]
    deck = deck_for(hands, "AC")
    assert len(deck) == 36 and len(set(deck)) == 36


THREE = [["7S", "8S", "9S", "10S", "JS", "QS"], ["6H", "7H", "8H", "9H", "10H", "9C"],
         ["6D", "7D", "8D", "9D", "10D", "7C"]]  # trump clubs: seat 3 holds the lowest (7C)


def test_first_move_humans_first_picks_the_lowest_trump_among_humans():  # docs/RULES.md#first-move
    s = game(THREE, "AC", first_move="humans_first", bot_seats=[1, 3])
    assert whose_turn(s) == [2]
    s = game(THREE, "AC", first_move="humans_first", bot_seats=[2, 3])
    assert whose_turn(s) == [1]  # no human holds a trump: his lowest card leads


def test_first_move_bots_first_picks_a_bot_seat():  # docs/RULES.md#first-move
    s = game(THREE, "AC", first_move="bots_first", bot_seats=[2])
    assert whose_turn(s) == [2]
    s = game(THREE, "AC", first_move="bots_first", bot_seats=[1, 2])
    assert whose_turn(s) == [2]  # 9C is the lowest trump among the bots


def test_first_move_humans_or_bots_first_without_such_seats_falls_back_to_lowest_trump():
    assert whose_turn(game(THREE, "AC", first_move="humans_first", bot_seats=[1, 2, 3])) == [3]
    assert whose_turn(game(THREE, "AC", first_move="bots_first")) == [3]
