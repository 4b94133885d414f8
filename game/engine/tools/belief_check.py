"""How close the belief's worlds come to the true hidden cards: ``python -m
game.engine.tools.belief_check --games 20``.

Plays seeded games (``--a`` against ``--b``, seats swapped each deal) and at decisions while cards
are hidden (of either seat, or with ``--decider a`` only of ``--a``'s seat) deals ``--worlds``
uniform worlds from the seat's view (bots/sample.py). Each world is weighed by the belief
(bots/belief.py); a hidden card's chance of being in an opponent's hand is its weighted share of
the worlds (add-half smoothed). Printed: the mean log-likelihood per hidden card of the true
holdings (each hidden card in the opponent hand it is really in) under the uniform worlds and under
the belief, and their difference (nats per card; > 0: the belief is closer to the truth).

``--drawn`` adds the same measure for the worlds the expert really plays: ``--worlds`` worlds drawn
by the belief's resampling (``pool`` uniform worlds dealt for each kept, bots/belief.py), which
sit between uniform worlds and the belief's weights. ``--joint`` adds the log-likelihood of the
whole true deal of the hidden cards (every other hand at once): under uniform dealing it is
``log(prod need! * rest! / unseen!)``, exact; under the belief's weights it is that plus the true
deal's log-weight minus the log of the uniform worlds' mean weight; under the resampling with
pool ``m`` it is that plus ``log(m * E[w_true / (w_true + m - 1 uniform weights)])``, both
estimated from the same uniform worlds. The true state itself is a log-likelihood of 0, so the
joint figures say how far each distribution is from knowing the hands. ``--pool`` sets ``m``
(default the expert's, repeatable to compare). ``--sweep kind=v1,v2,...`` evaluates the same
positions under other model values of one read kind (the calibration of bots/belief.py's
``MODEL``). A benchmark, not a test.
"""
from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass
from typing import Any

from game.engine import Rules, apply_action, new_game, view_for
from game.engine.bots import bot_for
from game.engine.bots.belief import MODEL, POOL, Belief
from game.engine.bots.sample import Sampler
from game.engine.reads import advance, reading_view, start
from game.engine.state import GameState
from game.engine.types import View


@dataclass
class Position:
    """A decision point: the seat's view, the true hidden cards per other seat (index, mask), the
    true state, uniform worlds and (``--drawn``) per pool size the worlds the belief draws."""

    view: View
    truth: list[tuple[int, int]]
    state: GameState
    worlds: list[GameState]
    drawn: dict[int, list[GameState]]


def positions(games: int, players: int, variant: str, a: str, b: str, worlds: int,
              seed: int, decider: str = "both", pools: tuple[int, ...] = ()) -> list[Position]:
    """Decision points with hidden cards in other hands, and their uniform (and drawn) worlds."""
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
            mine = decider == "both" or levels[seat] == (a if decider == "a" else b)
            if mine and len(view["legal"]) >= 2 and view.get("reads"):
                sampler = Sampler(view)
                truth = [(j, state.hands[j] & ~sampler.known[j]) for j in range(players)
                         if j != seat - 1 and sampler.need[j] > 0]
                if truth and any(h for _, h in truth):
                    wrng = random.Random(f"w:{seed}:{g}:{state.moves}")
                    dealt = [sampler.deal(wrng) for _ in range(worlds)]
                    drawn = {}
                    for m in pools:
                        belief = Belief(view, pool=m)
                        drng = random.Random(f"d:{m}:{seed}:{g}:{state.moves}")
                        drawn[m] = [belief.deal(drng) for _ in range(worlds)]
                    out.append(Position(view, truth, state, dealt, drawn))
            action = bot_for(levels[seat]).choose(view, rng)
            if action is None:
                break
            after = apply_action(state, seat, action)
            reading = advance(reading, state, after, seat, action)
            state = after
    return out


def marginal(truth: list[tuple[int, int]], worlds: list[GameState], weights: list[float]) -> float:
    """Summed log P(true holding) over the hidden cards, each card's share of the weighted worlds."""
    mass = sum(weights)
    n = len(worlds)
    total = 0.0
    for j, hidden in truth:
        m = hidden
        while m:
            bit = m & -m
            m ^= bit
            share = sum(w for w, world in zip(weights, worlds, strict=True) if world.hands[j] & bit)
            total += math.log((share + 0.5 * mass / n) / (mass * (1 + 1 / n)))
    return total


def log_likelihood(pos: list[Position], model: dict[str, float] | None) -> tuple[float, int]:
    """Summed log P(true holding) over hidden cards, and the card count; ``model`` None: uniform."""
    total = 0.0
    cards = 0
    for p in pos:
        if model is None:
            weights = [1.0] * len(p.worlds)
        else:
            belief = Belief(p.view, model=model)
            logs = [belief.log_weight(w) for w in p.worlds]
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
        total += marginal(p.truth, p.worlds, weights)
        cards += sum(h.bit_count() for _, h in p.truth)
    return total, cards


def drawn_likelihood(pos: list[Position], m: int) -> float:
    """Summed log P(true holding) over hidden cards under the worlds drawn with pool ``m``."""
    return sum(marginal(p.truth, p.drawn[m], [1.0] * len(p.drawn[m])) for p in pos)


def uniform_joint(p: Position) -> float:
    """log P(the true deal of every hidden card) under uniform dealing (exact)."""
    sampler = Sampler(p.view)
    need = [sampler.need[j] for j, _ in p.truth]
    unseen = len(sampler.pool)
    rest = unseen - sum(need)
    return (sum(math.lgamma(k + 1) for k in need) + math.lgamma(rest + 1)
            - math.lgamma(unseen + 1))


def joint(pos: list[Position], pools: tuple[int, ...], seed: int = 0) -> dict[str, float]:
    """Summed joint log-likelihood of the true deal: uniform, the belief's weights, and the
    resampling with each pool size (module docstring); also the summed hidden cards."""
    sums: dict[str, float] = {"uniform": 0.0, "belief": 0.0, "cards": 0.0}
    for m in pools:
        sums[f"pool {m}"] = 0.0
    rng = random.Random(f"joint:{seed}")
    for p in pos:
        base = uniform_joint(p)
        belief = Belief(p.view)
        logs = [belief.log_weight(w) for w in p.worlds]
        true = belief.log_weight(p.state)
        top = max([*logs, true])
        mean = sum(math.exp(x - top) for x in logs) / len(logs)
        sums["uniform"] += base
        sums["belief"] += base + true - top - math.log(mean)
        sums["cards"] += sum(h.bit_count() for _, h in p.truth)
        for m in pools:
            groups = 400
            share = 0.0
            for _ in range(groups):
                others = sum(math.exp(rng.choice(logs) - true) for _ in range(m - 1))
                share += 1.0 / (1.0 + others)
            sums[f"pool {m}"] += base + math.log(m * share / groups)
    return sums


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.belief_check")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--a", default="heuristic")
    p.add_argument("--b", default="heuristic")
    p.add_argument("--decider", choices=("both", "a", "b"), default="both",
                   help="the decisions measured: of either seat, or only of a's / b's")
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--drawn", action="store_true", help="also the worlds the resampling draws")
    p.add_argument("--joint", action="store_true", help="also the whole true deal's likelihood")
    p.add_argument("--pool", type=int, action="append", default=[],
                   help=f"resampling pool sizes for --drawn / --joint (default {POOL})")
    p.add_argument("--sweep", action="append", default=[], metavar="KIND=V1,V2")
    args = p.parse_args(argv)
    pools = tuple(args.pool or [POOL])
    pos = positions(args.games, args.players, args.variant, args.a, args.b, args.worlds, args.seed,
                    args.decider, pools if args.drawn else ())
    uni, n = log_likelihood(pos, None)
    bel, _ = log_likelihood(pos, MODEL)
    print(f"{len(pos)} positions ({args.decider} deciding), {n} hidden cards in other hands; "
          f"{args.games} games {args.a} vs {args.b}, {args.players} seats, {args.variant}, "
          f"{args.worlds} worlds")
    print(f"  log-likelihood per card: uniform {uni / n:.4f}  belief {bel / n:.4f}  "
          f"gain {(bel - uni) / n:+.4f} nats")
    if args.drawn:
        for m in pools:
            ll = drawn_likelihood(pos, m)
            print(f"  drawn worlds, pool {m}: {ll / n:.4f}  gain {(ll - uni) / n:+.4f} nats per card")
    if args.joint:
        sums = joint(pos, pools, args.seed)
        cards = sums.pop("cards")
        base = sums["uniform"]
        print("  joint log-likelihood of the true deal (the true state: 0), per position / per card:")
        for name, ll in sums.items():
            print(f"    {name:>9}: {ll / len(pos):8.3f} / {ll / cards:.4f}  "
                  f"gain {(ll - base) / len(pos):+.3f} / {(ll - base) / cards:+.4f} nats")
    for spec in args.sweep:
        kind, _, values = spec.partition("=")
        for v in values.split(","):
            model: dict[str, Any] = {**MODEL, kind: float(v)}
            ll, _ = log_likelihood(pos, model)
            print(f"  {kind}={v}: gain {(ll - uni) / n:+.4f} nats per card")


if __name__ == "__main__":
    main()
