"""How close the belief's worlds come to the true hidden cards: ``python -m
game.engine.tools.belief_check --games 20``.

Plays seeded games (``--a`` against ``--b``, seats swapped each deal) and at decisions of either seat
while cards are hidden deals ``--worlds`` uniform worlds from the seat's view (bots/sample.py). Each
world is weighed by the belief (bots/belief.py); a hidden card's chance of being in an opponent's
hand is its weighted share of the worlds (add-half smoothed). Printed: the mean log-likelihood per
hidden card of the true holdings (each hidden card in the opponent hand it is really in) under the
uniform worlds and under the belief, and their difference (nats per card; > 0: the belief is
closer to the truth). ``--sweep kind=v1,v2,...`` evaluates the same positions under other model
values of one read kind (the calibration of bots/belief.py's ``MODEL``). A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import math
import random
from typing import Any

from game.engine import Rules, apply_action, new_game, view_for
from game.engine.bots import bot_for
from game.engine.bots.belief import MODEL, Belief
from game.engine.bots.sample import Sampler
from game.engine.reads import advance, reading_view, start
from game.engine.state import GameState
from game.engine.types import View

Position = tuple[View, list[tuple[int, int]], list[GameState]]  # view, (seat idx, hidden), worlds


def positions(games: int, players: int, variant: str, a: str, b: str, worlds: int,
              seed: int) -> list[Position]:
    """Decision points with hidden cards in other hands, and their uniform worlds."""
    out: list[Position] = []
    for g in range(games):
        state = new_game(Rules.from_dict({"variant": variant}), players, seed=f"belief:{seed}:{g // 2}")
        levels = {j + 1: (a if (j + g) % 2 == 0 else b) for j in range(players)}
        rng = random.Random(f"{seed}:{g}")
        reading = start(state)
        while not state.over:
            turn = view_for(state, None)["turn"]
            if not turn:
                break
            seat = turn[0]
            view = reading_view(state, seat, reading)
            if len(view["legal"]) >= 2 and view.get("reads"):
                sampler = Sampler(view)
                truth = [(j, state.hands[j] & ~sampler.known[j]) for j in range(players)
                         if j != seat - 1 and sampler.need[j] > 0]
                if truth and any(h for _, h in truth):
                    wrng = random.Random(f"w:{seed}:{g}:{state.moves}")
                    out.append((view, truth, [sampler.deal(wrng) for _ in range(worlds)]))
            action = bot_for(levels[seat]).choose(view, rng)
            if action is None:
                break
            after = apply_action(state, seat, action)
            reading = advance(reading, state, after, seat, action)
            state = after
    return out


def log_likelihood(pos: list[Position], model: dict[str, float] | None) -> tuple[float, int]:
    """Summed log P(true holding) over hidden cards, and the card count; ``model`` None: uniform."""
    total = 0.0
    cards = 0
    for view, truth, worlds in pos:
        if model is None:
            weights = [1.0] * len(worlds)
        else:
            belief = Belief(view, model=model)
            logs = [belief.log_weight(w) for w in worlds]
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
        mass = sum(weights)
        for j, hidden in truth:
            c = 0
            m = hidden
            while m:
                if m & 1:
                    bit = 1 << c
                    share = sum(w for w, world in zip(weights, worlds, strict=True)
                                if world.hands[j] & bit)
                    total += math.log((share + 0.5 * mass / len(worlds)) / (mass * (1 + 1 / len(worlds))))
                    cards += 1
                m >>= 1
                c += 1
    return total, cards


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.belief_check")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--a", default="heuristic")
    p.add_argument("--b", default="heuristic")
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sweep", action="append", default=[], metavar="KIND=V1,V2")
    args = p.parse_args(argv)
    pos = positions(args.games, args.players, args.variant, args.a, args.b, args.worlds, args.seed)
    uni, n = log_likelihood(pos, None)
    bel, _ = log_likelihood(pos, MODEL)
    print(f"{len(pos)} positions, {n} hidden cards in other hands; {args.games} games "
          f"{args.a} vs {args.b}, {args.players} seats, {args.variant}, {args.worlds} worlds")
    print(f"  log-likelihood per card: uniform {uni / n:.4f}  belief {bel / n:.4f}  "
          f"gain {(bel - uni) / n:+.4f} nats")
    for spec in args.sweep:
        kind, _, values = spec.partition("=")
        for v in values.split(","):
            model: dict[str, Any] = {**MODEL, kind: float(v)}
            ll, _ = log_likelihood(pos, model)
            print(f"  {kind}={v}: gain {(ll - uni) / n:+.4f} nats per card")


if __name__ == "__main__":
    main()
