"""A tree search over one fully known position of two seats: UCT with the habit playouts.

Heads-up with the stock down to the face-up trump, every card is known (bots/endgame.py), but the
exact solver settles only small positions within a live budget; a few rounds earlier the expert runs
this search in each of several sampled worlds (``ExpertBot.world_trees``). A flat vote over the
moves, with one deterministic playout each, judges a move by how the habits would go on after it; it
never asks how the opponent could answer. Here the moves of both seats are searched: each iteration
walks down the tree by UCB1 (our seat maximises its chance of not being the durak, the other seat
minimises it), adds one position, and scores it by a playout. The first move tried at a new position
is the habit's, so a small budget already searches the lines a sound player would play.
"""
from __future__ import annotations

import math
import random

from game.engine.actions import apply_action, legal_actions
from game.engine.bots.rollout import playout, policy, value
from game.engine.seats import TURN_OF
from game.engine.state import GameState
from game.engine.types import Action

EXPLORE = 0.7  # UCB1's exploration weight for values in [0, 1]


class _Node:
    __slots__ = ("state", "mover", "untried", "children", "n", "w")

    def __init__(
        self, state: GameState, moves: list[Action] | None = None, mover: int = 0
    ) -> None:
        self.state = state
        self.children: list[tuple[Action, _Node]] = []
        self.n = 0
        self.w = 0.0  # total value for the searching seat
        if state.phase != "play":
            self.mover = 0
            self.untried: list[Action] = []
            return
        self.mover = mover or TURN_OF[state.turn][0]
        legal = moves if moves is not None else legal_actions(state, self.mover)
        first = policy(state, self.mover, legal)
        self.untried = [a for a in reversed(legal) if a is not first] + [first]  # pop() = habit


def uct(s: GameState, seat: int, moves: list[Action], iterations: int,
        rng: random.Random) -> Action:
    """The move of ``moves`` (``seat``'s legal choices at ``s``) that the search visits most."""
    visits = uct_visits(s, seat, moves, iterations, rng)
    return moves[max(range(len(moves)), key=lambda k: (visits[k], -k))]


def uct_visits(s: GameState, seat: int, moves: list[Action], iterations: int,
               rng: random.Random) -> list[float]:
    """How often the search visited each of ``moves``, plus half the move's mean value (less than
    one visit: equal counts go to the better line). Raises IllegalAction if a move does not fit
    ``s``."""
    root = _Node(s, list(moves), seat)
    for _ in range(iterations):
        node = root
        path = [root]
        while not node.untried and node.children:
            log_n = math.log(node.n)
            mine = node.mover == seat
            best, best_u = node.children[0][1], -1.0
            for _a, child in node.children:
                q = child.w / child.n
                u = (q if mine else 1.0 - q) + EXPLORE * math.sqrt(log_n / child.n)
                if u > best_u:
                    best, best_u = child, u
            node = best
            path.append(node)
        if node.untried:
            a = node.untried.pop()
            child = _Node(apply_action(node.state, node.mover, a))
            node.children.append((a, child))
            node = child
            path.append(node)
        st = node.state
        v = value(st.result if st.phase != "play" else playout(st, rng), seat)
        for p in path:
            p.n += 1
            p.w += v
    visits = [0.0] * len(moves)
    for a, child in root.children:
        visits[next(k for k, m in enumerate(moves) if m is a)] = child.n + child.w / child.n / 2
    return visits
