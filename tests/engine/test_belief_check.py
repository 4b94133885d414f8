"""The belief's distance from the true hidden cards (tools/belief_check.py): the joint measure.

Uniform dealing gives the true deal of the hidden cards exactly ``1 / C(unseen, need)`` heads-up.
On a position whose past move gives the truth away (a defender who took a six when a seven of that
suit would have covered it, and really held no such card), the belief's weights and its
resampling make the true deal likelier than uniform dealing, the full weights most.
"""
from __future__ import annotations

import math
import random

from game.engine import reading_view
from game.engine.bots.sample import Sampler
from game.engine.tools.belief_check import Position, joint, main, uniform_joint
from tests.engine.test_belief import _took_a_six


def _position(worlds: int = 400) -> Position:
    s, reading = _took_a_six()
    view = reading_view(s, 1, reading)
    sampler = Sampler(view)
    rng = random.Random(7)
    truth = [(1, s.hands[1] & ~sampler.known[1])]
    return Position(view, truth, s, [sampler.deal(rng) for _ in range(worlds)], {})


def test_uniform_dealing_gives_the_true_deal_one_in_unseen_choose_need():
    p = _position()
    sampler = Sampler(p.view)
    need = sampler.need[1]
    assert need > 0
    assert math.isclose(uniform_joint(p), -math.log(math.comb(len(sampler.pool), need)))


def test_a_telling_take_makes_the_true_deal_likelier_under_the_belief():
    sums = joint([_position()], (2, 6, 24))
    assert sums["cards"] > 0
    assert sums["belief"] > sums["uniform"] + 0.5, sums
    # resampling moves toward the full weights as its pool grows
    assert sums["uniform"] < sums["pool 2"] < sums["pool 6"] < sums["pool 24"] <= sums["belief"] + 0.05, sums


def test_the_tool_prints_the_joint_and_drawn_figures(capsys):
    main(["--games", "1", "--worlds", "20", "--drawn", "--joint", "--pool", "3"])
    out = capsys.readouterr().out
    assert "drawn worlds, pool 3" in out and "joint log-likelihood" in out and "pool 3:" in out
