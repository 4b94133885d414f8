"""Reference bots: legal play over many seeded games, strength, and view-only decisions."""
from __future__ import annotations

import random

import pytest

from game.engine.bots import BOTS, choose_action

LEVELS = sorted(BOTS)
# whole seeded games at every seat: the searching expert has its own, smaller-budget game tests
# (test_expert.py), at its real budget these would take minutes
GAME_LEVELS = sorted(set(BOTS) - {"expert"})


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
        "rules": {"deck_size": 36, "variant": "podkidnoy", "cheater": False},
        "round": 3,
        "gone": [],
        "known": {"1": [], "2": []},
        "leader": 1,
        "took": False,
        "passed": [],
        "limit": 6,
        "swap_used": False,
        "shown": [],
        "bots": [],
        "moves": 10,
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


def test_heuristic_transfers_with_plain_card_at_a_bigger_table():
    legal = [
        {"type": "defend", "card": "9H", "target": "7H"},
        {"type": "transfer", "card": "7S"},
        {"type": "take"},
    ]
    view = _view(
        hand=["9H", "7S"], table=[{"attack": "7H", "defense": None}], legal=legal,
        variant="perevodnoy", players=3, hand_counts={"1": 6, "2": 2, "3": 6},
    )
    assert choose_action("heuristic", view, random.Random(0)) == {"type": "transfer", "card": "7S"}


def test_heuristic_heads_up_transfers_only_when_covering_costs_a_trump():
    # heads-up a transfer hands the attack straight back to the attacker
    table = [{"attack": "7H", "defense": None}]
    legal = [
        {"type": "defend", "card": "9H", "target": "7H"},
        {"type": "defend", "card": "QD", "target": "7H"},
        {"type": "transfer", "card": "7S"},
        {"type": "take"},
    ]
    view = _view(hand=["9H", "QD", "7S"], table=table, legal=legal, variant="perevodnoy")
    assert choose_action("heuristic", view, random.Random(0)) == legal[0]
    no_plain = [a for a in legal if a.get("card") != "9H"]
    view = _view(hand=["QD", "7S"], table=table, legal=no_plain, variant="perevodnoy")
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


# -- seeded games -----------------------------------------------------------------------------

from game.engine import Rules  # noqa: E402
from game.engine.tools.arena import play_bot_game  # noqa: E402
from game.engine.tools.selfplay import random_setup  # noqa: E402


@pytest.mark.parametrize("level", GAME_LEVELS)
@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_bots_never_play_an_illegal_move(level, variant):
    """Every level at every seat over seeded games (strict arena: each choice is in ``legal``)."""
    for seed in range(12):
        players = 2 + seed % 5
        rules = Rules(variant=variant, cheater=seed % 3 == 0, trump_swap="all")
        out = play_bot_game(rules, players, seed, {k: level for k in range(1, players + 1)})
        assert out.result, f"seed {seed}: no result"


def test_bots_never_play_an_illegal_move_under_any_rules():
    """Mixed levels over sampled rule combinations (cheater mode, pairs, менка, transfers...)."""
    import random as _random

    for seed in range(40):
        rng = _random.Random(seed)
        rules, players = random_setup(rng)
        levels = {k: rng.choice(GAME_LEVELS) for k in range(1, players + 1)}
        out = play_bot_game(rules, players, seed, levels)
        assert out.result


def _match(hero: str, opp: str, variant: str, players: int, games: int) -> tuple[int, int]:
    """(hero losses, decided games) with the hero rotating over the seats."""
    losses = decided = 0
    for seed in range(games):
        h = 1 + seed % players
        levels = {k: hero if k == h else opp for k in range(1, players + 1)}
        r = play_bot_game(Rules(variant=variant), players, seed, levels).result
        if not r["draw"]:
            decided += 1
            losses += h in r["losers"]
    return losses, decided


def test_heuristic_beats_lowest_heads_up_podkidnoy():
    # measured: heuristic is the durak in 41% of 286 decided games (an equal bot: 50%)
    losses, decided = _match("heuristic", "lowest", "podkidnoy", 2, 300)
    assert losses / decided < 0.44, (losses, decided)


def test_heuristic_is_not_worse_than_lowest_heads_up_perevodnoy():
    # measured: 47.5% of 377 decided games; perevodnoy heads-up is where the heuristic's edge is
    # smallest (see the bench figures)
    losses, decided = _match("heuristic", "lowest", "perevodnoy", 2, 400)
    assert losses / decided < 0.5, (losses, decided)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_crushes_random(variant, players):
    # measured: heuristic is the durak in ~4% (2p) and <1% (4p) of the games
    losses, decided = _match("heuristic", "random", variant, players, 100)
    assert losses / decided < 0.12


def test_lowest_beats_random_heads_up():
    """The yardstick itself plays: a bot that lost to random would make the comparisons moot."""
    losses, decided = _match("lowest", "random", "podkidnoy", 2, 150)
    assert losses / decided < 0.2


def test_bots_get_only_the_view_never_the_state():
    """The bot API takes a plain dict: a JSON round-trip of a real view changes no decision."""
    import json

    from game.engine import new_game, view_for

    s = new_game(Rules(variant="perevodnoy"), 3, seed=4)
    for seat in (1, 2, 3):
        view = view_for(s, seat)
        copy = json.loads(json.dumps(view))
        for level in LEVELS:
            assert choose_action(level, view, random.Random(1)) == choose_action(
                level, copy, random.Random(1)
            )


def test_heuristic_catches_cheats_and_never_accuses_falsely():
    """Cheater mode (docs/RULES.md#cheater): random cheats, the heuristic catches only provable cheats."""
    from collections import Counter

    from game.engine import view_for

    catches: Counter = Counter()
    levels = {1: "heuristic", 2: "random", 3: "lowest"}

    def seen(state, seat, action):
        if action["type"] == "catch":
            catches[(levels[seat], view_for(state, None)["last"].get("caught"))] += 1

    for seed in range(30):
        play_bot_game(Rules(cheater=True), 3, seed, levels, on_action=seen)
    assert catches[("heuristic", True)] >= 30
    assert catches[("heuristic", False)] == 0
    assert catches[("lowest", True)] + catches[("lowest", False)] == 0
