"""Reference bots: legal play over many seeded games, strength, and view-only decisions."""
from __future__ import annotations

import random

import pytest

from game.engine.bots import BOTS, choose_action

LEVELS = sorted(BOTS)


def _view(**kw):
    """A hand-made seat view: bots need nothing but the view, so no GameState is built here."""
    base = {
        "seat": 2,
        "hand": [],
        "table": [],
        "trump": "D",
        "trump_card": "8D",
        "stock": 12,
        "discard": 0,
        "hand_counts": {"1": 6, "2": 6},
        "attacker": 1,
        "defender": 2,
        "turn": [2],
        "legal": [],
        "out": [],
        "result": None,
        "players": 2,
        "pairs": False,
        "variant": "podkidnoy",
        "phase": "play",
    }
    base.update(kw)
    return base


# -- view-only decisions (no engine state involved) ---------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_bot_returns_none_without_legal_moves(level):
    assert choose_action(level, _view(legal=[]), random.Random(0)) is None


@pytest.mark.parametrize("level", LEVELS)
def test_bot_picks_from_legal_list_of_a_bare_view(level):
    legal = [
        {"type": "defend", "card": "9H", "target": "7H"},
        {"type": "defend", "card": "AD", "target": "7H"},
        {"type": "take"},
    ]
    view = _view(hand=["9H", "AD", "6S"], table=[{"attack": "7H", "defense": None}], legal=legal)
    for seed in range(20):
        assert choose_action(level, view, random.Random(seed)) in legal


def test_lowest_plays_lowest_card_trump_above_plain():
    legal = [
        {"type": "attack", "card": "6D"},  # trump six
        {"type": "attack", "card": "AS"},
        {"type": "attack", "card": "10H"},
    ]
    view = _view(hand=["6D", "AS", "10H"], legal=legal, attacker=2, defender=1)
    assert choose_action("lowest", view, random.Random(0)) == {"type": "attack", "card": "10H"}


def test_lowest_takes_when_it_cannot_beat():
    view = _view(
        hand=["6S", "7C"],
        table=[{"attack": "KH", "defense": None}],
        legal=[{"type": "take"}],
    )
    assert choose_action("lowest", view, random.Random(0)) == {"type": "take"}


def test_heuristic_covers_with_cheapest_plain_card_not_trump():
    legal = [
        {"type": "defend", "card": "9H", "target": "7H"},
        {"type": "defend", "card": "KH", "target": "7H"},
        {"type": "defend", "card": "6D", "target": "7H"},
        {"type": "take"},
    ]
    view = _view(hand=["9H", "KH", "6D"], table=[{"attack": "7H", "defense": None}], legal=legal)
    assert choose_action("heuristic", view, random.Random(0)) == legal[0]


def test_heuristic_takes_small_table_rather_than_burn_high_trump_while_stock_deep():
    legal = [{"type": "defend", "card": "AD", "target": "7H"}, {"type": "take"}]
    table = [{"attack": "7H", "defense": None}]
    deep = _view(hand=["AD", "6S"], table=table, legal=legal, stock=18)
    assert choose_action("heuristic", deep, random.Random(0)) == {"type": "take"}
    endgame = _view(hand=["AD", "6S"], table=table, legal=legal, stock=0)
    assert choose_action("heuristic", endgame, random.Random(0)) == legal[0]


def test_heuristic_transfers_with_plain_card():
    legal = [
        {"type": "defend", "card": "9H", "target": "7H"},
        {"type": "transfer", "card": "7S"},
        {"type": "take"},
    ]
    view = _view(
        hand=["9H", "7S"], table=[{"attack": "7H", "defense": None}], legal=legal, variant="perevodnoy"
    )
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "transfer", "card": "7S"}


def test_heuristic_leads_lowest_plain_card_and_keeps_trumps():
    legal = [{"type": "attack", "card": c} for c in ("6D", "QS", "8C", "AH")]
    view = _view(hand=["6D", "QS", "8C", "AH"], legal=legal, attacker=2, defender=1)
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "attack", "card": "8C"}


def test_heuristic_throws_in_cheap_card_but_not_trump_or_ace_early():
    table = [{"attack": "8S", "defense": "10S"}]
    legal = [{"type": "attack", "card": "10D"}, {"type": "attack", "card": "8H"}, {"type": "pass"}]
    view = _view(hand=["10D", "8H"], table=table, legal=legal, attacker=2, defender=1)
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "attack", "card": "8H"}
    legal2 = [{"type": "attack", "card": "10D"}, {"type": "pass"}]
    view2 = _view(hand=["10D", "AH"], table=table, legal=legal2, attacker=2, defender=1)
    assert choose_action("heuristic", view2, random.Random(0)) == {"type": "pass"}


def test_heuristic_swaps_trump_when_allowed():
    legal = [{"type": "swap_trump", "card": "6D"}, {"type": "attack", "card": "6D"}]
    view = _view(hand=["6D"], legal=legal, attacker=2, defender=1, trump_card="KD")
    assert choose_action("heuristic", view, random.Random(0)) == legal[0]


def test_heuristic_catches_a_defence_that_does_not_beat():
    table = [{"attack": "QH", "defense": "9H"}]
    legal = [{"type": "catch", "card": "QH"}, {"type": "catch", "card": "9H"}]
    view = _view(seat=3, hand=["7C"], table=table, legal=legal, phase="check", turn=[])
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "catch", "card": "9H"}


def test_heuristic_catches_a_throw_in_of_a_rank_not_on_table():
    table = [{"attack": "7H", "defense": "9H"}, {"attack": "KC", "defense": None}]
    legal = [{"type": "catch", "card": c} for c in ("7H", "9H", "KC")] + [
        {"type": "defend", "card": "AC", "target": "KC"},
        {"type": "take"},
    ]
    view = _view(hand=["AC"], table=table, legal=legal)
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "catch", "card": "KC"}


def test_heuristic_never_accuses_honest_table():
    table = [{"attack": "7H", "defense": "9H"}, {"attack": "9C", "defense": "6D"}]
    legal = [{"type": "catch", "card": c} for c in ("7H", "9H", "9C", "6D")]
    view = _view(seat=3, hand=["7C"], table=table, legal=legal, phase="check", turn=[])
    assert choose_action("heuristic", view, random.Random(0)) is None


def test_heuristic_plays_honestly_in_cheater_mode():
    # cheater mode lists every card as a possible defence; the bot must only use beating ones
    table = [{"attack": "QH", "defense": None}]
    legal = [
        {"type": "defend", "card": "7H", "target": "QH"},
        {"type": "defend", "card": "6S", "target": "QH"},
        {"type": "defend", "card": "KH", "target": "QH"},
        {"type": "take"},
    ]
    view = _view(hand=["7H", "6S", "KH"], table=table, legal=legal)
    assert choose_action("heuristic", view, random.Random(0)) == legal[2]
    assert choose_action("lowest", view, random.Random(0)) == legal[2]


@pytest.mark.parametrize("level", LEVELS)
def test_bot_decision_is_deterministic_for_a_seed(level):
    legal = [{"type": "attack", "card": c} for c in ("6D", "QS", "8C", "AH")]
    view = _view(hand=["6D", "QS", "8C", "AH"], legal=legal, attacker=2, defender=1)
    a = [choose_action(level, view, random.Random(s)) for s in range(10)]
    b = [choose_action(level, view, random.Random(s)) for s in range(10)]
    assert a == b


@pytest.mark.parametrize("level", LEVELS)
def test_bot_does_not_mutate_the_view(level):
    import copy

    legal = [{"type": "defend", "card": "9H", "target": "7H"}, {"type": "take"}]
    view = _view(hand=["9H"], table=[{"attack": "7H", "defense": None}], legal=legal)
    before = copy.deepcopy(view)
    choose_action(level, view, random.Random(3))
    assert view == before
