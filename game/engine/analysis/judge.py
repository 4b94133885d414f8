"""One decision judged from the deciding seat's information set only.

The judge is given ``view_for(state, seat)`` and nothing else, so an estimate can never lean on a
card the seat could not know: the worlds it plays are dealt by the expert's belief (bots/belief.py: the sampler's worlds
consistent with the own hand, table, discard memory, the cards seen going to others and the counts,
kept in proportion to how well they explain the other seats' past moves, as a strong player reads
the table). For every move
compared it estimates the seat's chance of not being the durak:

- heads-up with the stock down to the face-up trump the one world is the real one: the exact
  endgame solver (bots/endgame.py) gives each move's value, with no uncertainty;
- otherwise Monte Carlo: worlds are dealt in batches and each compared move is played in every
  world to the end with the expert's playout habits (bots/rollout.py), all moves with the same random
  stream (common random numbers: the difference between two moves is far less noisy than either
  chance). Sampling stops when the played and the best move are both known to ``target`` (95 %
  half-width), or at ``max_worlds``. Moves clearly worse than the best stop being sampled early.

Seeded: the same view, moves and seed give the same figures, on any machine.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from game.engine.actions import apply_action
from game.engine.bots.belief import POOL, Belief
from game.engine.bots.endgame import Solver, solvable
from game.engine.bots.rollout import playout, value
from game.engine.bots.sample import Sampler
from game.engine.errors import IllegalAction
from game.engine.types import Action, View

Z95 = 1.96


@dataclass(frozen=True)
class Budget:
    """How hard the judge looks: worlds per decision (a batch at a time), the half-width it aims
    for, the exact solver's node budget, and how many moves it compares at most."""

    min_worlds: int = 48
    max_worlds: int = 400
    batch: int = 16
    target: float = 0.05
    max_nodes: int = 30000
    max_moves: int = 6
    belief: int = POOL  # uniform worlds dealt per world kept (bots/belief.py); 1: uniform worlds


@dataclass
class Estimate:
    """A move's chance (0..1) of not being the durak, its 95 % half-width, and the worlds used."""

    action: Action
    chance: float
    half_width: float
    worlds: int


@dataclass
class Judgement:
    """Every compared move's estimate (the legal list's order), and the paired half-width of
    each move's difference from the best (0 when exact)."""

    estimates: list[Estimate]
    best: int
    drop_half_width: list[float]
    exact: bool
    worlds: int


def _half_width(total: float, n: int) -> float:
    """Agresti–Coull style 95 % half-width of a mean of values in [0, 1]: never 0 from few worlds."""
    p = (total + 2.0) / (n + 4.0)
    return Z95 * math.sqrt(p * (1.0 - p) / (n + 4.0))


def _paired_half_width(a: list[float], b: list[float]) -> float:
    """95 % half-width of mean(a - b) over the same worlds (one world's pair counts once)."""
    n = len(a)
    if n < 2:
        return 1.0
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return max(Z95 * math.sqrt(var / n), 1.0 / n)


def exact(view: View, moves: list[Action], max_nodes: int) -> list[float] | None:
    """Each move's exact value when the position is a solvable heads-up endgame, else None."""
    world = Sampler(view).deal(random.Random(0))  # every card is known: any deal is the real one
    if not solvable(world):
        return None
    return Solver(int(view["seat"] or 0), max_nodes).values(world, moves)


def judge(view: View, moves: list[Action], played: int, seed: str, budget: Budget) -> Judgement | None:
    """Estimates for ``moves`` (``played`` is the index of the move made); None if no world fitted."""
    known = exact(view, moves, budget.max_nodes)
    if known is not None:
        best = max(range(len(moves)), key=lambda k: (known[k], k == played, -k))
        ests = [Estimate(a, v, 0.0, 1) for a, v in zip(moves, known, strict=True)]
        return Judgement(ests, best, [0.0] * len(moves), True, 1)
    return _sample(view, moves, played, seed, budget)


def confirm(view: View, played: Action, best: Action, seed: str, budget: Budget) -> Judgement | None:
    """The played and the best move measured again on fresh worlds (estimates in that order).
    Choosing the best of several noisy means favours a lucky one; a second, independent measurement
    of just the two removes that bias before a move is called a mistake."""
    return _sample(view, [played, best], 0, seed, budget)


def _sample(view: View, moves: list[Action], played: int, seed: str, budget: Budget) -> Judgement | None:
    seat = int(view["seat"] or 0)
    sampler = Belief(view, pool=budget.belief) if budget.belief > 1 else Sampler(view)
    rng = random.Random(seed)
    scores: list[list[float]] = [[] for _ in moves]  # per move, per world (None-free: all or none)
    active = list(range(len(moves)))
    worlds = failures = 0
    best = played
    while worlds < budget.max_worlds and failures < 4 * budget.max_worlds:
        for _ in range(budget.batch):
            world = sampler.deal(rng)
            stream = rng.getrandbits(48)
            row = []
            for k in active:
                try:
                    after = apply_action(world, seat, moves[k])
                except IllegalAction:  # the world contradicts the view: deal another
                    break
                row.append(value(playout(after, random.Random(stream)), seat))
            if len(row) < len(active):
                failures += 1
                continue
            worlds += 1
            for k, v in zip(active, row, strict=True):
                scores[k].append(v)
        if not worlds:
            if failures >= 4 * budget.max_worlds:
                break
            continue
        means = {k: sum(scores[k]) / len(scores[k]) for k in active}
        best = max(active, key=lambda k: (means[k], k == played, -k))
        hw = {k: _half_width(sum(scores[k]), len(scores[k])) for k in active}
        if worlds >= budget.min_worlds and max(hw[played], hw[best]) <= budget.target:
            break
        # a move whose upper bound is below the best's lower bound by a margin is settled as worse
        floor = means[best] - hw[best] - budget.target
        active = [k for k in active if k in (played, best) or means[k] + hw[k] >= floor]
    if not worlds:
        return None
    ests = [Estimate(a, sum(s) / len(s), _half_width(sum(s), len(s)), len(s))
            for a, s in zip(moves, scores, strict=True)]
    drop_hw = []
    for k, s in enumerate(scores):
        n = len(s)  # the first n worlds were shared with the best move
        drop_hw.append(0.0 if k == best else _paired_half_width(scores[best][:n], s))
    return Judgement(ests, best, drop_hw, False, worlds)
