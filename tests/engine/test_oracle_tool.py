"""The perfect-information measuring stick (tools/oracle.py) deals the true position, and only there."""
from __future__ import annotations

import random

from game.engine import Rules, apply_action, legal_actions, new_game, view_for, whose_turn
from game.engine.bots.belief import Belief
from game.engine.bots.expert import ExpertBot
from game.engine.bots.sample import Sampler
from game.engine.tools import oracle


def test_every_world_of_the_oracle_is_the_true_position() -> None:
    s = new_game(Rules(), 2, seed=3)
    seat = whose_turn(s)[0]
    s = apply_action(s, seat, legal_actions(s, seat)[0])
    oracle._TRUE[:] = [s]
    world = oracle.TrueWorld(view_for(s, 1)).deal(random.Random(0))
    assert world.hands == s.hands and world.stock == s.stock
    sampled = Sampler(view_for(s, 1)).deal(random.Random(0))
    assert sampled.hands[0] == s.hands[0]  # a view's world keeps the seat's own hand...
    assert sampled.hands[1] != s.hands[1]  # ...and re-deals the hidden one (this seed)


def test_the_server_bots_deal_from_the_view() -> None:
    # the belief weighs the sampler's worlds by the view's reads: still the view only
    assert ExpertBot.sampler is Belief and issubclass(Belief, Sampler)
    assert oracle.OracleExpert.sampler is oracle.TrueWorld


def test_a_game_of_the_oracle_ends_with_a_result() -> None:
    assert oracle.play(0) in ("win", "loss", "draw")
