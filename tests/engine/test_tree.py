"""The tree search over a fully known heads-up position (bots/tree.py): it finds the move the exact
solver proves winning, the expert uses it where its solver gives up, and it is seeded."""
from __future__ import annotations

import functools
import random

from game.engine import Rules, view_for
from game.engine.analysis import plan
from game.engine.analysis.bench import record_game
from game.engine.bots.endgame import Solver, solvable
from game.engine.bots.expert import ExpertBot
from game.engine.bots.sample import Sampler
from game.engine.bots.tree import uct, uct_visits


@functools.cache
def _settled_endgames(count: int = 6):
    """Heads-up endgames (view, world, seat, moves, exact values) where the solver proves that one
    of three or more moves wins and another loses; one per game."""
    found = []
    for seed in range(60):
        levels = {1: "lowest", 2: "heuristic"} if seed % 2 else {1: "heuristic", 2: "lowest"}
        initial, log = record_game(Rules(variant="perevodnoy"), 2, seed, levels)
        for d in plan(initial, log).decisions:
            view = view_for(d.state, d.seat)
            world = Sampler(view).deal(random.Random(0))
            if not solvable(world) or len(view["legal"]) < 3:
                continue
            moves = view["legal"]
            values = Solver(d.seat, 10000).values(world, moves)
            if values and 1.0 in values and 0.0 in values:
                found.append((view, world, d.seat, moves, values))
                break
        if len(found) == count:
            return found
    raise AssertionError(f"fewer than {count} settled endgames in 60 games")


def test_the_search_picks_a_move_the_solver_proves_winning():
    for _view, world, seat, moves, values in _settled_endgames():
        move = uct(world, seat, moves, 2000, random.Random(1))
        assert values[moves.index(move)] == 1.0, (moves, values, move)


def test_the_expert_searches_the_tree_where_its_solver_gives_up():
    """Where the flat vote (tree=0) picks a losing move, the expert's tree finds the winning one."""
    fixed = 0
    for view, _world, _seat, moves, values in _settled_endgames():
        flat = ExpertBot(max_nodes=1, tree=0).search(view, moves, random.Random(3))
        if values[moves.index(flat)] == 1.0:
            continue
        move = ExpertBot(max_nodes=1).search(view, moves, random.Random(3))  # the solver gives up
        assert values[moves.index(move)] == 1.0
        fixed += 1
    assert fixed >= 1


def test_the_same_seed_gives_the_same_visits():
    _view, world, seat, moves, _ = _settled_endgames()[0]
    first = uct_visits(world, seat, moves, 300, random.Random(7))
    assert first == uct_visits(world, seat, moves, 300, random.Random(7))
    assert sum(int(v) for v in first) == 300
