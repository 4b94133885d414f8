"""What the belief changes in the expert's decisions: ``python -m game.engine.tools.belief_ab
--games 40 --arm uniform='{"belief": 1}' --arm belief='{}'``.

Plays the tournament's seeded heads-up deals (game g: deal ``seed + g // 2``, the expert in seat
1 + g % 2) of the expert (the first arm's options) against the heuristic. At each of the expert's
decisions with two or more candidate moves while the stock holds two cards or more (below that
every card is known and the arms cannot differ), every arm (``--arm name=JSON``: the expert's
options, e.g. ``{"belief": 1}`` uniform worlds, ``{"temper": 0.5}``, ``{"model": {"take": 1}}``;
``"salt"`` changes its random stream: the same options re-seeded show the sampling noise alone)
decides on the same view with the same random stream, and every candidate move is valued in the
true deal: the hands as they are, the stock below the face-up trump shuffled (nobody knows its
order), ``--deals`` playouts with the expert's habits, the same streams for every move; with
``--oracle``, the expert handed the true state (tools/oracle.py) decides too. Printed per arm: how
often it chose the true deal's best move (and the oracle's), its mean regret (the best move's chance
minus the chosen one's, in points) and the difference from the first arm's with a 95 % interval
(paired by position), overall and by stock depth; with ``--likelihood``, the hidden cards'
log-likelihood per card under each arm's belief (tools/belief_check.py's measure). A benchmark,
not a test: the figures are seeded, the time is not.
"""
from __future__ import annotations

import argparse
import json
import math
import random
from multiprocessing import Pool
from typing import Any

from game.engine.actions import apply_action
from game.engine.bots import bot_for
from game.engine.bots.base import honest_actions, settled_move
from game.engine.bots.belief import MODEL, Belief
from game.engine.bots.expert import ExpertBot, candidates
from game.engine.bots.rollout import playout, value
from game.engine.bots.sample import Sampler
from game.engine.deal import new_game
from game.engine.reads import advance, reading_view, start
from game.engine.rules import Rules
from game.engine.state import GameState
from game.engine.tools import oracle
from game.engine.tools.tournament import a_seats
from game.engine.types import Action
from game.engine.views import whose_turn

Arms = list[tuple[str, dict[str, Any]]]
# per position: stock size, each arm's chosen move (index; the oracle's last with --oracle), each
# move's true chance, and per arm the log-likelihood sum and hidden card count (or empty)
Row = tuple[int, list[int], list[float], list[tuple[float, int]]]


def true_values(s: GameState, seat: int, moves: list[Action], deals: int) -> list[float]:
    """Each move's chance of not being the durak in the true deal (the stock's order shuffled)."""
    totals = [0.0] * len(moves)
    for k in range(deals):
        w = s.copy()
        rest = list(w.stock[:-1])
        random.Random(k).shuffle(rest)
        w.stock = (*rest, w.stock[-1])
        for m, a in enumerate(moves):
            totals[m] += value(playout(apply_action(w, seat, a), random.Random(k)), seat)
    return [t / deals for t in totals]


def likelihood(view: Any, s: GameState, seat: int, opts: dict[str, Any], worlds: int,
               seed: str) -> tuple[float, int]:
    """The log-likelihood (summed over the hidden cards in the other hand) of the cards' true
    places under the arm's belief, from ``worlds`` uniform worlds weighed (add-half smoothed)."""
    sampler = Sampler(view)
    rng = random.Random(seed)
    dealt = [sampler.deal(rng) for _ in range(worlds)]
    if opts.get("belief", 2) <= 1:
        weights = [1.0] * worlds
    else:
        belief = Belief(view, model=opts.get("model"), temper=float(opts.get("temper", 1.0)))
        logs = [belief.log_weight(w) for w in dealt]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
    mass = sum(weights)
    total, cards = 0.0, 0
    for j in range(s.n):
        if j == seat - 1:
            continue
        hidden = s.hands[j] & ~sampler.known[j]
        while hidden:
            bit = hidden & -hidden
            hidden ^= bit
            share = sum(w for w, world in zip(weights, dealt, strict=True) if world.hands[j] & bit)
            total += math.log((share + 0.5 * mass / worlds) / (mass * (1 + 1 / worlds)))
            cards += 1
    return total, cards


def play(job: tuple[int, int, str, Arms, int, int, bool]) -> list[Row]:
    """Game ``g``: the rows of the expert's decisions."""
    g, seed, variant, arms, deals, worlds, with_oracle = job
    mine, deal = a_seats(g, 2, False, 1)
    rules = Rules.from_dict({"variant": variant})
    bots: list[ExpertBot] = [ExpertBot(**{k: v for k, v in opts.items() if k != "salt"})
                             for _, opts in arms]
    salts = [str(opts.get("salt", "")) for _, opts in arms] + [""]
    if with_oracle:
        bots.append(oracle.OracleExpert())
    heuristic = bot_for("heuristic")
    s = new_game(rules, 2, seed=seed + deal, bot_seats=[1, 2])
    rng = random.Random(seed + deal)
    reading = start(s)
    rows: list[Row] = []
    while s.phase != "over":
        turn = whose_turn(s)
        seat = turn[rng.randrange(len(turn))] if len(turn) > 1 else turn[0]
        view = reading_view(s, seat, reading)
        if seat not in mine:
            action = heuristic.choose(view, rng)
        else:
            settled, _, rest = settled_move(view)
            moves = [] if settled or view["stock"] < 2 else candidates(
                honest_actions(rest, view) or rest, view, heuristic.choose(view, random.Random(0)))
            if len(moves) >= 2:
                stream = f"{g}:{s.moves}"
                picks = []
                oracle._TRUE[:] = [s]
                for bot, salt in zip(bots, salts, strict=False):
                    a = bot.choose(view, random.Random(stream + salt))
                    if a is not None and a not in moves:
                        moves.append(a)
                    picks.append(moves.index(a) if a is not None else -1)
                truth = true_values(s, seat, moves, deals)
                lls = [likelihood(view, s, seat, opts, worlds, stream) for _, opts in arms] if worlds else []
                rows.append((view["stock"], picks, truth, lls))
            action = bots[0].choose(view, rng)
        if action is None:
            raise RuntimeError(f"no move at seat {seat}")
        after = apply_action(s, seat, action)
        reading = advance(reading, s, after, seat, action)
        s = after
    return rows


def summary(arms: Arms, rows: list[Row], label: str, with_oracle: bool) -> None:
    """Agreement with the true best move and mean regret per arm, paired against the first."""
    if not rows:
        return
    n = len(rows)
    if with_oracle:
        arms = [*arms, ("oracle", {})]
    regrets = [[max(t) - t[p[k]] if p[k] >= 0 else max(t) - min(t) for _, p, t, _ in rows]
               for k in range(len(arms))]
    print(f"  {label}: {n} positions")
    for k, (name, _) in enumerate(arms):
        best = sum(1 for _, p, t, _ in rows if p[k] >= 0 and t[p[k]] >= max(t) - 1e-9)
        mean = sum(regrets[k]) / n
        line = f"    {name:>14}: true best {best / n:6.1%}  regret {100 * mean:5.2f} points"
        if with_oracle:
            line += f"  as the oracle {sum(1 for _, p, _, _ in rows if p[k] == p[-1]) / n:6.1%}"
        if k:
            d = [a - b for a, b in zip(regrets[k], regrets[0], strict=True)]
            md = sum(d) / n
            sd = math.sqrt(sum((x - md) ** 2 for x in d) / max(n - 1, 1))
            differ = sum(1 for _, p, _, _ in rows if p[k] != p[0])
            line += (f"  vs {arms[0][0]}: {100 * md:+.2f} ± {196 * sd / math.sqrt(n):.2f}"
                     f" ({differ} positions chose differently)")
        print(line)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.belief_ab")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--arm", action="append", default=[], metavar="NAME=JSON")
    p.add_argument("--deals", type=int, default=100, help="true-deal playouts per move")
    p.add_argument("--likelihood", type=int, default=0, metavar="WORLDS",
                   help="also the hidden cards' log-likelihood from this many worlds")
    p.add_argument("--oracle", action="store_true", help="also the expert handed the true state")
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    arms: Arms = []
    for spec in args.arm or ["uniform={\"belief\": 1}", "belief={}"]:
        name, _, raw = spec.partition("=")
        arms.append((name, json.loads(raw or "{}")))
    jobs = [(g, args.seed, args.variant, arms, args.deals, args.likelihood, args.oracle)
            for g in range(args.games)]
    rows: list[Row] = []
    if args.jobs <= 1:
        for r in map(play, jobs):
            rows += r
    else:
        with Pool(args.jobs) as pool:
            for r in pool.imap(play, jobs):
                rows += r
    print(f"belief_ab: {args.games} games from seed {args.seed}, {args.variant}, expert as "
          f"{arms[0][0]} against the heuristic, {args.deals} true-deal playouts a move")
    summary(arms, rows, "all", args.oracle)
    summary(arms, [r for r in rows if r[0] > 6], "stock > 6", args.oracle)
    summary(arms, [r for r in rows if r[0] <= 6], "stock 2-6", args.oracle)
    if args.likelihood:
        cards = sum(r[3][0][1] for r in rows)
        for k, (name, _) in enumerate(arms):
            ll = sum(r[3][k][0] for r in rows)
            print(f"    {name:>14}: log-likelihood {ll / max(cards, 1):.4f} nats per hidden card ({cards} cards)")
    print(f"  model: {json.dumps(MODEL)}")


if __name__ == "__main__":
    main()
