"""Pairing cost: the arena pairer on a pool of N waiting players (ranks from a mid-event standings,
a third of them just played each other, so their rematch edges are missing), and a Swiss round.

Prints the CPU time of one core (time.process_time) per wave, median of --waves; the last line is
`pairing: N players, X ms per wave (median)`. Pure pairing: the pool's read and the tables' seating
are the database's work and are not in these figures.
"""

from __future__ import annotations

import random
import statistics
import time

from django.core.management.base import BaseCommand

from tournaments import pairing


def _arena_pool(n: int, rng: random.Random) -> list[pairing.Waiting]:
    scores = sorted((rng.randint(0, 30) for _ in range(n)), reverse=True)
    pool = []
    for i in range(n):
        last = (i + 1 if i % 2 == 0 else i - 1) if rng.random() < 0.33 and i + 1 < n else None
        pool.append(pairing.Waiting(player_id=i, rank=i + 1 + (scores[i] % 3), rating=rng.randint(800, 2200),
                                    last_opponent=last, waited=rng.random() * 20))
    return pool


def _swiss_field(n: int, rounds_done: int, rng: random.Random) -> list[pairing.SwissPlayer]:
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    scores = dict.fromkeys(range(n), 0)
    for _ in range(rounds_done):
        order = list(range(n))
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=False):
            met[a].add(b)
            met[b].add(a)
            scores[rng.choice((a, b))] += 2
    return [pairing.SwissPlayer(i, scores[i], rng.randint(800, 2200), frozenset(met[i])) for i in range(n)]


class Command(BaseCommand):
    help = "Measure the tournament pairer: a wave of an arena's pool (and a Swiss round)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--waves", type=int, default=15)
        parser.add_argument("--swiss", type=int, default=64, help="players of the Swiss round measured (0: none)")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **opts):
        rng = random.Random(opts["seed"])
        n, waves = opts["players"], opts["waves"]
        if opts["swiss"]:
            field = _swiss_field(opts["swiss"], 4, rng)
            costs = []
            for _ in range(max(3, waves // 3)):
                t = time.process_time()
                pairs, byes = pairing.swiss(field)
                costs.append(time.process_time() - t)
            self.stdout.write(f"swiss: {len(field)} players after 4 rounds, {len(pairs)} pairs, {len(byes)} byes, "
                              f"{statistics.median(costs) * 1000:.1f} ms per round (median)")
        pool = _arena_pool(n, rng)
        costs = []
        for _ in range(waves):
            t = time.process_time()
            pairs = pairing.arena(pool)
            costs.append(time.process_time() - t)
        gaps = [abs(a - b) for a, b in pairs]
        self.stdout.write(f"arena: {len(pairs)} pairs of {n}, rank gap median {statistics.median(gaps):.0f}, "
                          f"max {max(gaps)}; waves {waves}, slowest {max(costs) * 1000:.1f} ms")
        self.stdout.write(f"pairing: {n} players, {statistics.median(costs) * 1000:.1f} ms per wave (median)")
