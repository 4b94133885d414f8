"""The expert bot: always legal, deterministic by seed, under every rule setting; its worlds are
consistent with the view; its strength is measured by the tournament (README), not here."""
from __future__ import annotations

import functools
import json
import random

from game.engine import (
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    reading_view,
    view_for,
    whose_turn,
)
from game.engine.analysis import plan
from game.engine.analysis.bench import record_game
from game.engine.bots import choose_action
from game.engine.bots import expert as expert_module
from game.engine.bots.endgame import Solver
from game.engine.bots.expert import ExpertBot
from game.engine.bots.sample import Sampler
from game.engine.tools.arena import play_bot_game
from game.engine.tools.selfplay import random_setup

# the clock never decides here; the last rounds' world trees run at a small budget too
SMALL = ExpertBot(iterations=24, min_worlds=3, time_limit=5.0, pimc_worlds=3, pimc_tree=24)


def _random_positions(count: int, seed: int):
    """(state, seat) pairs from random games under sampled rule settings: every awaited seat and,
    in the check phase, every seat that may catch."""
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        rules, players = random_setup(rng)
        s = new_game(rules, players, seed=seed * 1000 + g, bot_seats=[1])
        g += 1
        while s.phase != "over" and len(out) < count:
            if s.phase == "check":
                for k in range(1, players + 1):
                    if legal_actions(s, k) and rng.random() < 0.3:
                        out.append((s, k))
                s = end_check(s)
                continue
            turn = whose_turn(s)
            seat = turn[rng.randrange(len(turn))]
            acts = legal_actions(s, seat)
            if rng.random() < 0.15:
                out.append((s, seat))
            s = apply_action(s, seat, acts[rng.randrange(len(acts))])
    return out


def test_expert_never_chooses_an_illegal_action_and_is_deterministic_by_seed():
    """Property over random positions under sampled settings (transfers, pairs, cheater mode,
    менка, limits, no refill, draw rules, 2-6 players)."""
    for k, (s, seat) in enumerate(_random_positions(150, 5)):
        view = view_for(s, seat)
        a = SMALL.choose(view, random.Random(k))
        assert a is None or a in view["legal"], (k, a)
        if seat in whose_turn(s):
            assert a is not None, (k, view["legal"])
        assert SMALL.choose(view, random.Random(k)) == a


def test_expert_at_every_seat_finishes_games_under_sampled_rules():
    rng = random.Random(3)
    for seed in range(6):
        rules, players = random_setup(rng)
        levels = {k: "expert" if k % 2 else "heuristic" for k in range(1, players + 1)}
        out = play_bot_game(rules, players, seed, levels, bots={"expert": SMALL})
        assert out.result


def test_sampled_worlds_agree_with_the_view_and_keep_the_seats_hand():
    for k, (s, seat) in enumerate(_random_positions(60, 8)):
        if s.phase != "play":
            continue
        view = view_for(s, seat)
        world = Sampler(view, honest=False).deal(random.Random(k))
        assert world.hand(seat) == view["hand"]
        assert [len(world.hand(j)) for j in range(1, s.n + 1)] == [
            view["hand_counts"][str(j)] for j in range(1, s.n + 1)
        ]
        assert len(world.stock) == view["stock"]
        if world.stock:
            assert world.stock[-1] == s.trump_card
        for j, cards in view["known"].items():
            assert set(cards) <= set(world.hand(int(j)))
        assert view_for(world, seat)["table"] == view["table"]
        assert view_for(world, seat)["legal"] == view["legal"] or s.rules.cheater


def test_sampled_worlds_hold_no_card_twice():
    for k, (s, seat) in enumerate(_random_positions(150, 9)):
        world = Sampler(view_for(s, seat)).deal(random.Random(k))
        places = [c for h in world.hands for c in range(52) if h >> c & 1]
        places += list(world.stock) + [c for c in world.atk + world.dfn if c >= 0]
        places += [c for c in range(52) if world.discard >> c & 1]
        assert len(places) == len(set(places)), k
        if not s.rules.cheater:  # penalties may lend the discard out: a count can't be exact
            assert len(places) == s.rules.deck_size


def test_expert_registered_under_its_level_code():
    view = view_for(new_game(Rules(), 2, seed=1), 1)
    assert choose_action("master", view, random.Random(4)) == choose_action(
        "expert", view, random.Random(4)
    )


# Found by `make bench` (ms per decision over views of random games): two seats left in perevodnoy,
# no stock, and the exact endgame search recursed until Python's limit (transfers and takes can bring
# a position back, so the game tree has cycles).
CYCLIC_ENDGAME_VIEW = json.loads('{"seat": 4, "players": 4, "pairs": false, "partner": null, "variant": "perevodnoy", "rules": {"deck_size": 36, "variant": "perevodnoy", "pairs": false, "cheater": false, "transfer_with_trump": true, "transfer_by_showing_trump": false, "transfer_in_first_round": true, "throw_in": "starter_first", "round_limit": 6, "first_round_limit": 6, "first_move": "lowest_trump", "trump_swap": "nobody", "refill": true, "auto_bito": false, "draw": true, "timeout": "auto", "memory_aid": false}, "phase": "play", "round": 24, "hand": ["10H", "JS", "AS"], "table": [], "trump": "D", "trump_card": "6D", "stock": 0, "discard": 24, "gone": ["6S", "6H", "6D", "6C", "8S", "8D", "8C", "9S", "9D", "10S", "10D", "10C", "JD", "QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC", "AH", "AD", "AC"], "hand_counts": {"1": 0, "2": 0, "3": 9, "4": 3}, "leader": 4, "attacker": 4, "defender": 3, "turn": [4], "legal": [{"type": "attack", "card": "10H"}, {"type": "attack", "card": "JS"}, {"type": "attack", "card": "AS"}], "took": false, "passed": [], "limit": 6, "out": [1, 2], "result": null, "last": {"seat": 3, "type": "pass", "closed": "bito"}, "swap_used": false, "shown": [], "bots": [], "cheater": {"enabled": false, "check": false, "pending": null, "banned": [], "can_catch": false}, "moves": 104, "known": {"3": ["7S", "7D", "8H", "9H", "9C", "JH", "JC"], "4": ["10H", "JS", "AS"]}}')


def test_expert_answers_in_a_two_seat_perevodnoy_endgame_whose_tree_has_cycles():
    view = CYCLIC_ENDGAME_VIEW
    for seed in range(3):
        action = choose_action("expert", view, random.Random(seed))
        assert action in view["legal"]


# seeds of recorded games (_decision_views) holding a last-rounds position of the kind below
SURE_WIN_SEEDS = (28, 35, 45)


def _decision_views(seed: int):
    """The view of every decision of a recorded heuristic-vs-lowest perevodnoy game."""
    levels = {1: "lowest", 2: "heuristic"} if seed % 2 else {1: "heuristic", 2: "lowest"}
    initial, log = record_game(Rules(variant="perevodnoy"), 2, seed, levels)
    return [reading_view(d.state, d.seat, d.reading) for d in plan(initial, log).decisions if d.reading]


@functools.cache
def _last_rounds_with_a_sure_win():
    """Heads-up positions with 2-3 cards in the stock where the exact solver settles every legal
    move in each of 16 sampled worlds, some move wins in all of them and another loses in some:
    (view, seat, moves, sure) with ``sure[k]`` true for the moves that win in every world."""
    found = []
    for seed in SURE_WIN_SEEDS:
        for view in _decision_views(seed):
            moves = view["legal"]
            if not (2 <= view["stock"] <= 3 and len(moves) >= 2):
                continue
            seat = view["seat"]
            sampler = Sampler(view)
            values = [Solver(seat, 20000).values(sampler.deal(random.Random(k)), moves)
                      for k in range(16)]
            if any(v is None for v in values):
                continue
            sure = [all(v[i] == 1.0 for v in values) for i in range(len(moves))]
            if any(sure) and any(any(v[i] == 0.0 for v in values) for i in range(len(moves))):
                found.append((view, seat, moves, sure))
                break
    assert len(found) == len(SURE_WIN_SEEDS)
    return found


def test_in_the_last_rounds_the_world_trees_vote_for_a_move_that_wins_in_every_world():
    for view, seat, moves, sure in _last_rounds_with_a_sure_win():
        move = ExpertBot().world_trees(Sampler(view), seat, moves, random.Random(5))
        assert sure[moves.index(move)], (moves, sure, move)


def test_the_expert_searches_a_tree_per_world_only_in_the_last_rounds_of_heads_up(monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[0].stock)
        return real(*args, **kwargs)

    real = expert_module.uct_visits
    monkeypatch.setattr(expert_module, "uct_visits", counted)
    bot = ExpertBot(pimc_worlds=4, pimc_tree=30)
    view, _seat, moves, _sure = _last_rounds_with_a_sure_win()[0]
    bot.search(view, moves, random.Random(2))
    assert len(calls) == 4
    assert all(2 <= len(stock) <= 6 for stock in calls)
    calls.clear()
    early = next(v for v in _decision_views(SURE_WIN_SEEDS[0])
                 if v["stock"] > 6 and len(v["legal"]) >= 2)
    bot.search(early, early["legal"], random.Random(2))
    assert calls == []
    ExpertBot(pimc_stock=0).search(view, moves, random.Random(2))
    assert calls == []
