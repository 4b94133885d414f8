"""Engine and bot benchmark: ``python -m game.engine.tools.bench`` (a benchmark, not a timed test).

Prints
- random full games per second on one core (4 players, 36 cards, podkidnoy and perevodnoy), where
  a random game picks uniformly among the legal actions of an awaited seat (and ends cheater
  mode's check phase with ``end_check``);
- µs per ``legal_actions`` and per ``apply_action`` (timed in bulk over positions recorded from
  random games), and their growth with 2→6 players and 24→52 cards;
- the reference bots: loss rate of the heuristic bot against ``lowest`` and ``random`` over seeded
  games (heads-up and one-against-three), and ms per decision of each level.

Times are CPU time of this process (``time.process_time``), so a busy machine slows the run down
but does not distort the per-core figures.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable

from game.engine import (
    GameState,
    Rules,
    apply_action,
    end_check,
    legal_actions,
    new_game,
    view_for,
    whose_turn,
)
from game.engine.bots import BOTS, choose_action
from game.engine.rules import Variant
from game.engine.tools.arena import play_bot_game
from game.engine.types import Action, View

VARIANTS: tuple[Variant, ...] = ("podkidnoy", "perevodnoy")

Position = tuple[GameState, int, Action]


def random_game(rules: Rules, players: int, seed: int, record: list[Position] | None = None) -> int:
    """Play one game with uniformly random legal actions of the awaited seats; returns the number
    of actions. ``record`` collects (state, seat, action) before each action for bulk timing."""
    rnd = random.Random(seed).random  # int(rnd() * k): uniform index, cheaper than randrange
    s = new_game(rules, players, seed=seed)
    n = 0
    while s.phase != "over":
        if s.phase == "check":
            s = end_check(s)
            continue
        turn = whose_turn(s)
        seat = turn[int(rnd() * len(turn))] if len(turn) > 1 else turn[0]
        acts = legal_actions(s, seat)
        a = acts[int(rnd() * len(acts))]
        if record is not None:
            record.append((s, seat, a))
        s = apply_action(s, seat, a)
        n += 1
    return n


def games_per_second(rules: Rules, players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Random games/s and mean actions per game within a time budget (at least 20 games)."""
    t0 = time.process_time()
    games = actions = 0
    while True:
        actions += random_game(rules, players, seed + games)
        games += 1
        dt = time.process_time() - t0
        if dt >= seconds and games >= 20:
            return games / dt, actions / games


def per_call_us(rules: Rules, players: int, games: int, seed: int = 0) -> tuple[float, float, float]:
    """µs per legal_actions (for the acting seat), per apply_action, and per view_for, timed in
    bulk over every position of ``games`` recorded random games."""
    positions: list[Position] = []
    for g in range(games):
        random_game(rules, players, seed + g, positions)

    def best_of(fn: Callable[[], None], reps: int = 3) -> float:
        best = float("inf")
        for _ in range(reps):
            t0 = time.process_time()
            fn()
            best = min(best, time.process_time() - t0)
        return best * 1e6 / len(positions)

    def legal() -> None:
        for s, seat, _ in positions:
            legal_actions(s, seat)

    def apply() -> None:
        for s, seat, a in positions:
            apply_action(s, seat, a)

    def view() -> None:
        for s, seat, _ in positions:
            view_for(s, seat)

    return best_of(legal), best_of(apply), best_of(view, 1)


def bot_match(
    hero: str, opp: str, rules: Rules, players: int, games: int, seed: int = 0
) -> tuple[Counter[str], dict[str, int], dict[str, float]]:
    """``hero`` at one seat (rotating) against ``opp`` at all others: its wins/losses/draws."""
    c: Counter[str] = Counter()
    decisions: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    for g in range(games):
        h = 1 + g % players
        levels = {k: (hero if k == h else opp) for k in range(1, players + 1)}
        out = play_bot_game(rules, players, seed + g, levels)
        r = out.result
        c["draw" if r["draw"] else ("loss" if h in r["losers"] else "win")] += 1
        decisions.update(out.decisions)
        seconds.update(out.seconds)
    return c, dict(decisions), dict(seconds)


def decision_ms(level: str, rules: Rules, players: int, games: int, seed: int = 0) -> float:
    """ms per decision of ``level`` on views recorded from random games (view_for excluded)."""
    views: list[View] = []
    for g in range(games):
        positions: list[Position] = []
        random_game(rules, players, seed + g, positions)
        views.extend(view_for(s, seat) for s, seat, _ in positions)
    rng = random.Random(seed)
    t0 = time.process_time()
    for v in views:
        choose_action(level, v, rng)
    elapsed: float = (time.process_time() - t0) * 1e3 / len(views)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m game.engine.tools.bench", description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=2.0,
                   help="CPU seconds per games/s figure (default 2)")
    p.add_argument("--calls-games", type=int, default=30,
                   help="random games recorded per µs-per-call figure (default 30)")
    p.add_argument("--games", type=int, default=300,
                   help="seeded games per bot match-up (default 300)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip-engine", action="store_true", help="only the bot figures")
    p.add_argument("--skip-bots", action="store_true", help="only the engine figures")
    args = p.parse_args(argv)
    t_start = time.process_time()
    out = sys.stdout

    if not args.skip_engine:
        print("== engine: random full games on one core (uniform over the awaited seat's legal actions)")
        for variant in VARIANTS:
            gps, apg = games_per_second(Rules(variant=variant), 4, args.seconds, args.seed)
            print(f"  4 players, 36 cards, {variant:<10}: {gps:7.0f} games/s "
                  f"({apg:.0f} actions/game)  target >= 1000")
        print("\n== engine: µs per call (bulk-timed over positions of random games, podkidnoy)")
        print(f"  {'deck':>4} {'players':>7} {'legal_actions':>14} {'apply_action':>13} "
              f"{'view_for':>9} {'games/s':>8} {'actions/game':>12}")
        grid = [(36, n) for n in range(2, 7)] + [(24, 4), (52, 4), (52, 6)]
        for deck, n in grid:
            rules = Rules(deck_size=deck)
            la, ap, vf = per_call_us(rules, n, args.calls_games, args.seed)
            gps, apg = games_per_second(rules, n, args.seconds / 3, args.seed)
            print(f"  {deck:>4} {n:>7} {la:>12.1f}µs {ap:>11.1f}µs {vf:>7.1f}µs {gps:>8.0f} {apg:>12.0f}")
        la, ap, vf = per_call_us(Rules(variant="perevodnoy"), 4, args.calls_games, args.seed)
        print(f"  perevodnoy 36/4: legal_actions {la:.1f}µs, apply_action {ap:.1f}µs, "
              f"view_for {vf:.1f}µs")
        out.flush()

    if not args.skip_bots:
        print(f"\n== bots: heuristic at one seat (rotating) vs the rest, {args.games} seeded games each")
        print("  loss = heuristic is the durak (its pair loses); baseline for an equal bot: "
              "1/players of the decided games")
        for opp in ("lowest", "random"):
            for variant in VARIANTS:
                for players in (2, 4):
                    c, dec, sec = bot_match("heuristic", opp, Rules(variant=variant), players,
                                            args.games, args.seed)
                    decided = c["win"] + c["loss"]
                    loss = c["loss"] / decided if decided else 0.0
                    print(f"  vs {opp:<6} {variant:<10} {players}p: win {c['win']:5d}  "
                          f"loss {c['loss']:5d}  draw {c['draw']:4d}  loss rate {loss:6.1%} "
                          f"(equal bot: {1 / players:.0%})")
                    out.flush()
        print("\n== bots: ms per decision (views recorded from random 4-player games, view_for excluded)")
        for variant in VARIANTS:
            figures = ", ".join(
                f"{lvl} {decision_ms(lvl, Rules(variant=variant), 4, 20, args.seed):.3f}"
                for lvl in sorted(BOTS)
            )
            print(f"  {variant:<10}: {figures} ms")
    print(f"\n(total {time.process_time() - t_start:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
