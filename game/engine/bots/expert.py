"""The ``expert`` bot: determinized Monte Carlo search over the seat's information set.

Each iteration deals one world consistent with the view (bots/sample.py: counts per seat, the cards
others were seen getting, the discard memory, the face-up trump at the bottom of the stock), then
plays every candidate move in that world to the end with the playout habits (bots/rollout.py), all
candidates with the same random stream (common random numbers: the comparison is fair even with
few worlds). The move with the best total over the worlds wins the vote. Heads-up once the stock
is down to the face-up trump, the position is fully known: the exact solver (bots/endgame.py)
decides when it settles the position within its node budget, and a tree search over both seats'
moves (bots/tree.py) when it does not.

In the last rounds before that (heads-up, 2 to 6 cards in the stock) the flat vote misjudges
most: its playouts let the opponent answer by habit, so a position can look won that an opponent
who searches its answers wins. Each of 12 sampled worlds then gets its own tree search over both
seats' moves, and the worlds vote with their shares of the root's visits (perfect information
Monte Carlo). A world's search knows that world's hidden cards and may play to them (strategy
fusion), so it is kept to the last rounds, where few cards are still hidden.

Deterministic for a given ``rng``: the budget is counted in playouts (``iterations``, ``tree``,
``pimc_worlds`` x ``pimc_tree``); the flat vote's time limit is a safety net that a normal
decision never reaches (it would make the choice depend on the clock). It counts this process's
CPU time, not the wall clock, so a busy machine (other processes, the event loop of a worker) does
not make it bite.

Cheater mode: the worlds are played honestly, the expert never cheats (every bot and an attentive
player catch what is provably dishonest, and a caught cheater takes the whole table) and it catches
exactly what is provably dishonest on the table.
"""
from __future__ import annotations

import random
import time

from game.engine.actions import apply_action
from game.engine.bots.base import Bot, honest_actions, settled_move
from game.engine.bots.belief import POOL, Belief
from game.engine.bots.endgame import Solver, heads_up_honest, solvable
from game.engine.bots.heuristic import HeuristicBot
from game.engine.bots.rollout import COST, playout, value
from game.engine.bots.sample import Sampler
from game.engine.bots.tree import uct, uct_visits
from game.engine.cards import SUITS
from game.engine.errors import IllegalAction
from game.engine.state import GameState
from game.engine.types import Action, View

# The head start and the candidate count were tuned on seeded heads-up games against `lowest`
# (a head start of 0.1 with 6 candidates was best; none, or 8-10 candidates, was weaker). The
# playout habits matter more than the budget (game/engine/README.md, the expert paragraph).
MAX_CANDIDATES = 6  # the cheapest plays and the heuristic's move; the rest rarely win anyway
PRIOR = 0.1  # the heuristic's move starts this many points of win share ahead


class ExpertBot(Bot):
    """Flat determinized Monte Carlo with a habit-driven playout; see the module docstring."""

    name = "expert"
    reads_table = True
    # deals the worlds from a view (bots/belief.py: weighed by the other seats' reads); a
    # measuring tool may give it the true state instead (tools/oracle.py), which no bot the
    # server runs ever does
    sampler: type[Sampler] = Belief

    def __init__(
        self,
        iterations: int = 320,
        min_worlds: int = 8,
        time_limit: float = 0.45,
        max_nodes: int = 4000,
        prior: float = PRIOR,
        max_candidates: int = MAX_CANDIDATES,
        tree: int = 320,
        pimc_stock: int = 6,
        pimc_worlds: int = 12,
        pimc_tree: int = 200,
        belief: int = POOL,
        weigh: bool = False,
        model: dict[str, float] | None = None,
        temper: float = 1.0,
    ) -> None:
        self.belief = belief  # uniform worlds dealt per world kept (bots/belief.py); 1: uniform
        # the belief's read model (a kind's floor; 1 ignores the kind) and temper (bots/belief.py)
        self.model = model
        self.temper = temper
        # instead, uniform worlds whose votes count by the belief's weight (importance weights)
        self.weigh = weigh
        self.tree = tree
        self.pimc_stock = pimc_stock
        self.pimc_worlds = pimc_worlds
        self.pimc_tree = pimc_tree
        self.iterations = iterations
        self.prior = prior
        self.max_candidates = max_candidates
        self.max_nodes = max_nodes
        self.min_worlds = min_worlds
        self.time_limit = time_limit
        self._fallback = HeuristicBot()

    def choose(self, view: View, rng: random.Random) -> Action | None:
        settled, action, rest = settled_move(view)
        if settled:
            return action
        habit = self._fallback.choose(view, rng)
        moves = candidates(honest_actions(rest, view) or rest, view, habit, self.max_candidates)
        if len(moves) == 1:
            return moves[0]
        return self.search(view, moves, rng, habit) or habit

    def search(
        self, view: View, moves: list[Action], rng: random.Random, habit: Action | None = None
    ) -> Action | None:
        """The move with the best total value over sampled worlds; None if no world fitted.
        Heads-up with the stock down to the face-up trump the one world is the real one: an
        exact search (bots/endgame.py) decides when it fits in its node budget, else a tree
        search of ``tree`` playouts over both seats' moves (bots/tree.py). Heads-up with 2 to
        ``pimc_stock`` cards in the stock, a tree search in each of several worlds votes
        (``world_trees``)."""
        seat = int(view["seat"] or 0)  # a bot's view always has its seat
        sampler = self.worlds(view)
        world = sampler.deal(rng)
        if solvable(world):
            found = Solver(seat, self.max_nodes).best(world, moves)
            if found is not None:
                return found[0]
            if self.tree:
                return uct(world, seat, moves, self.tree, rng)
        elif self.pimc_stock and _last_rounds(world, self.pimc_stock):
            voted = self.world_trees(sampler, seat, moves, rng)
            if voted is not None:
                return voted
        totals = [0.0] * len(moves)
        worlds = failures = 0
        weigh = self.weigh and isinstance(sampler, Belief)
        deal = sampler.uniform if weigh and isinstance(sampler, Belief) else sampler.deal
        mass = 0.0
        # playouts grow with the seats left: keep the time per decision about level (scaled by
        # 3 / (seats left + 1): 4 seats play 3/5 of the heads-up budget)
        active = int(view["players"]) - len(view["out"])
        playouts = self.iterations * 3 // (max(active, 2) + 1)
        budget = max(playouts // len(moves), self.min_worlds)
        deadline = time.process_time() + self.time_limit
        while worlds < budget and failures < 4 * budget:
            world = deal(rng)
            seed = rng.getrandbits(48)
            scores = []
            for a in moves:
                try:
                    after = apply_action(world, seat, a)
                except IllegalAction:  # the world contradicts the view (e.g. who may throw in)
                    break
                scores.append(value(playout(after, random.Random(seed)), seat))
            if len(scores) < len(moves):
                failures += 1
                continue
            worlds += 1
            w = sampler.weight(world) if weigh and isinstance(sampler, Belief) else 1.0
            mass += w
            for k, v in enumerate(scores):
                totals[k] += w * v
            if time.process_time() > deadline:
                break
        if not worlds:
            return None
        if habit in moves:  # the heuristic's move wins ties and near-ties (sampling noise)
            totals[moves.index(habit)] += self.prior * mass
        best = max(range(len(moves)), key=lambda k: (totals[k], -k))
        return moves[best]

    def worlds(self, view: View) -> Sampler:
        """The dealer of this decision's worlds: the belief (``belief`` uniform worlds dealt per
        world kept), the uniform sampler with ``belief=1``."""
        if self.sampler is Belief:
            if self.weigh:
                return Belief(view, pool=1, model=self.model, temper=self.temper)
            if self.belief > 1:
                return Belief(view, pool=self.belief, model=self.model, temper=self.temper)
            return Sampler(view)
        return self.sampler(view)

    def world_trees(
        self, sampler: Sampler, seat: int, moves: list[Action], rng: random.Random
    ) -> Action | None:
        """The move the most worlds' tree searches favour: each of ``pimc_worlds`` sampled worlds
        gets a tree search of ``pimc_tree`` playouts (bots/tree.py) and votes with its share of
        the root's visits; None if no world fitted the moves."""
        votes = [0.0] * len(moves)
        for _ in range(self.pimc_worlds):
            world = sampler.deal(rng)
            try:
                visits = uct_visits(world, seat, moves, self.pimc_tree, rng)
            except IllegalAction:  # the world contradicts the view (e.g. who may throw in)
                continue
            total = sum(visits)
            for k, v in enumerate(visits):
                votes[k] += v / total
        if not any(votes):
            return None
        return moves[max(range(len(moves)), key=lambda k: (votes[k], -k))]


def _last_rounds(s: GameState, most: int) -> bool:
    """The endgame solver's heads-up play phase, but with 2 to ``most`` cards in the stock."""
    return 1 < len(s.stock) <= most and heads_up_honest(s)


def candidates(
    legal: list[Action], view: View, habit: Action | None = None, most: int = MAX_CANDIDATES
) -> list[Action]:
    """The moves worth searching: all of them when few; else the cheapest few plays (by the card
    they spend) and the heuristic's choice ``habit``, always with take / pass / transfers, in the
    legal list's order."""
    if len(legal) <= most:
        return legal
    plays = [a for a in legal if a["type"] in ("attack", "defend")]
    cost = COST[SUITS.index(view["trump"])]
    keep = {id(a) for a in sorted(plays, key=lambda a: cost[a["card"]])[:max(most - 2, 1)]}
    return [a for a in legal
            if a["type"] not in ("attack", "defend") or id(a) in keep or a == habit]
