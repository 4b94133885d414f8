"""What the hidden cards cost: ``python -m game.engine.tools.oracle --games 200 --jobs 2``.

Plays the expert handed the true state (every world it deals is the real position: the others'
hands and the stock order) against the heuristic, on the tournament's seeded heads-up deals with
the seats swapped (game g: deal g // 2, the expert in seat 1 + g % 2), and prints its W/L/D with
a Wilson interval. Set beside `tournament --a expert --b heuristic` on the same deals, the gap is
what the expert loses by not seeing the cards, which no budget can buy back. A measuring stick
only: the bots the server runs get a seat's view and nothing else.
"""
from __future__ import annotations

import argparse
import random
from multiprocessing import Pool

from game.engine.bots import bot_for
from game.engine.bots.expert import ExpertBot
from game.engine.bots.sample import Sampler
from game.engine.deal import new_game
from game.engine.rules import Rules
from game.engine.state import GameState, clone
from game.engine.tools.arena import play_bot_game
from game.engine.tools.tournament import a_seats, outcome, wilson
from game.engine.types import Action, View

_TRUE: list[GameState] = []  # the position being played, kept current by ``_follow``


class TrueWorld(Sampler):
    """A "sampler" whose every world is the true position."""

    def __init__(self, view: View, honest: bool = True) -> None:  # noqa: ARG002 (the view is not needed)
        pass

    def deal(self, rng: random.Random) -> GameState:  # noqa: ARG002
        return clone(_TRUE[0])


class OracleExpert(ExpertBot):
    """The expert, every part of its search on the true position."""

    name = "oracle"
    sampler = TrueWorld


def _follow(s: GameState, seat: int, action: Action) -> None:  # noqa: ARG001
    _TRUE[0] = s


def play(g: int) -> str:
    """Game ``g`` of the match: "win" / "loss" / "draw" for the oracle."""
    mine, seed = a_seats(g, 2, False, 1)  # the tournament's deal and seat for game g
    rules = Rules()
    _TRUE[:] = [new_game(rules, 2, seed=seed, bot_seats=[1, 2])]  # play_bot_game's own deal
    levels = {s: ("oracle" if s in mine else "heuristic") for s in (1, 2)}
    r = play_bot_game(rules, 2, seed, levels, on_action=_follow,
                      bots={"oracle": OracleExpert(), "heuristic": bot_for("heuristic")}).result
    return outcome(r, mine)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    with Pool(args.jobs) as pool:
        out = pool.map(play, range(args.games), chunksize=4)
    w, lost, d = out.count("win"), out.count("loss"), out.count("draw")
    lo, hi = wilson(w, w + lost)
    share = w / (w + lost) if w + lost else 0.0
    print(f"expert with the true state vs heuristic: {args.games} games, heads-up, seats swapped")
    print(f"  W {w}  L {lost}  D {d}   win share of decided {share:.1%} (Wilson 95% {lo:.1%}-{hi:.1%})")


if __name__ == "__main__":
    main()
