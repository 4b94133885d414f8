"""Pairing cost: the arena pairer on a pool of N waiting players (ranks from a mid-event standings,
a third of them just played each other, so their rematch edges are missing), a Swiss round, and with
--pods a table arena's wave cut into tables of 3, of 4 and pairs 2x2 (a third of the pool just sat at
one table together, which the pairer avoids seating again).

Prints the CPU time of one core (time.process_time) per wave, median of --waves; the last line is
`pairing: N players, X ms per wave (median)`, the other modes' lines above it. Pure pairing: the pool's read and the tables' seating
are the database's work and are not in these figures.
"""

from __future__ import annotations

import json
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


def _pod_pool(n: int, size: int, rng: random.Random) -> list[pairing.Waiting]:
    """An arena's pool as _arena_pool, where a third of the tables of `size` just played (each of
    their players has the others as his last table)."""
    pool = _arena_pool(n, rng)
    out: list[pairing.Waiting] = []
    for start in range(0, n, size):
        table = pool[start:start + size]
        together = len(table) == size and rng.random() < 0.33
        ids = frozenset(w.player_id for w in table)
        out.extend(pairing.Waiting(w.player_id, w.rank, w.rating, waited=w.waited,
                                   last_table=ids - {w.player_id} if together else frozenset()) for w in table)
    return out


class Command(BaseCommand):
    help = "Measure the tournament pairer: a wave of an arena's pool (and a Swiss round)."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--waves", type=int, default=15)
        parser.add_argument("--swiss", type=int, default=64, help="players of the Swiss round measured (0: none)")
        parser.add_argument("--pods", type=int, default=0,
                            help="also a table arena's wave of this many waiting players cut into tables of 3, "
                                 "of 4 and pairs 2x2 (0: none)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--standings", type=int, default=0,
                            help="also render an arena's live standings of this many players (rows made in a "
                                 "transaction that is rolled back)")

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
        if opts["pods"]:
            self._pods(opts["pods"], waves, rng)
        if opts["standings"]:
            self._standings(opts["standings"], rng)
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

    def _pods(self, n: int, waves: int, rng: random.Random) -> None:
        """One line: a table arena's wave of n players at tables of 3, of 4 and in pairs (the pairs'
        seating is the pods of 4 reordered: seats 1 and 3 against 2 and 4), CPU ms per wave (median)."""
        parts = []
        for size, label in ((3, "tables of 3"), (4, "tables of 4"), (4, "pairs 2x2")):
            pool = _pod_pool(n, size, rng)
            costs = []
            for _ in range(waves):
                t = time.process_time()
                tables = pairing.pods(pool, size)
                if label.startswith("pairs"):
                    tables = [pairing.pairs_seating(pod) for pod in tables]
                costs.append(time.process_time() - t)
            ranks = {w.player_id: w.rank for w in pool}
            spread = statistics.median(max(ranks[p] for p in pod) - min(ranks[p] for p in pod) for pod in tables)
            seated = sum(len(pod) for pod in tables)
            parts.append(f"{label}: {len(tables)} tables, {seated} seated, rank spread median {spread:.0f}, "
                         f"{statistics.median(costs) * 1000:.1f} ms")
        self.stdout.write(f"pods: {n} players, " + "; ".join(parts) + " per wave (median)")

    def _standings(self, players: int, rng: random.Random) -> None:
        """What one tab's re-read of the live standings costs (the page's answer to one `tournament`
        news): the standings ordered and the fragment rendered, in CPU ms of one core."""
        from datetime import timedelta

        from django.db import transaction
        from django.template.loader import render_to_string
        from django.test import RequestFactory

        from accounts.models import Player
        from durak_site.clock import db_now
        from tournaments import live, selectors
        from tournaments.models import Entry, Tournament

        with transaction.atomic():
            event = Tournament.objects.create(name="bench", starts_at=db_now(), status=Tournament.Status.RUNNING,
                                              ends_at=db_now() + timedelta(minutes=30))
            people = Player.objects.bulk_create([Player(nick=f"bench-{i}-{rng.randrange(10**9)}")
                                                 for i in range(players)])
            Entry.objects.bulk_create([Entry(tournament=event, player=p, rating=rng.randint(800, 2200),
                                             score=rng.randint(0, 30), games=8, wins=rng.randint(0, 8),
                                             streak=rng.randint(0, 4), marks="".join(rng.choice("WDL") for _ in range(8)),
                                             opponents_rating=8 * rng.randint(900, 1800)) for p in people])
            viewer = people[players // 2]
            request = RequestFactory().get("/")
            request.user = viewer
            costs, frames = [], []
            for _ in range(15):
                t = time.process_time()
                render_to_string("tournaments/_live.html", selectors.page(event, viewer), request=request)
                costs.append(time.process_time() - t)
                t = time.process_time()
                frame = json.dumps(live.frame(event.pk))
                frames.append(time.process_time() - t)
            transaction.set_rollback(True)
        self.stdout.write(f"standings: {players} players, {statistics.median(costs) * 1000:.1f} ms per tab's re-read "
                          f"of its fragment (median; a page re-reads only when its own part changed)")
        self.stdout.write(f"standings frame: {players} players, {statistics.median(frames) * 1000:.1f} ms per read "
                          f"(median; once per change for every open page), {len(frame) / 1024:.1f} KB")
