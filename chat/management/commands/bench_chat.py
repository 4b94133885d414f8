"""Cost of the chat on the server side, without sockets (the live benchmark is game's bench_ws).

    python manage.py bench_chat --tables 100

On the configured database it makes N tables of two players, then prints per-call times (p50 / p99)
of: the profanity mask, a socket's chat resync on connect (access check + last 50 messages), and
writing a message (post_message: lock, rate limits, mask, insert, the send after commit). It deletes
everything it made.
"""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Player
from chat import profanity, services
from lobby.models import Seat, Table

TEXTS = ["Хорошая игра!", "ну ты даёшь, опять козырь", "what the hell was that", "сука, не повезло",
         "спасибо, удачи всем", "fucking trumps again"]


def _figures(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{name:<32} n={len(samples):<5} p50={statistics.median(ordered) * 1000:7.2f} ms  p99={p99 * 1000:7.2f} ms"


class Command(BaseCommand):
    help = "Print the server-side cost of chat calls (mask, resync on connect, post)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=100)

    def handle(self, *args, tables: int, **options) -> None:
        stamp = int(time.time())
        with transaction.atomic():
            players = Player.objects.bulk_create(Player(nick=f"bc{stamp}x{i}") for i in range(2 * tables))
            made = Table.objects.bulk_create(Table(name="bench-chat", seats_count=2, status=Table.Status.PLAYING)
                                             for _ in range(tables))
            Seat.objects.bulk_create(Seat(table=t, number=n + 1, player=players[2 * i + n])
                                     for i, t in enumerate(made) for n in range(2))
        try:
            mask = []
            for i in range(1000):
                t0 = time.perf_counter()
                profanity.mask(f"{TEXTS[i % len(TEXTS)]} {i}")
                mask.append(time.perf_counter() - t0)
            post = []
            for round_ in range(3):
                for i, table in enumerate(made):
                    author = players[2 * i + round_ % 2]
                    rights = services.access(table.pk, author)
                    t0 = time.perf_counter()
                    services.post_message(table.pk, author, TEXTS[(i + round_) % len(TEXTS)], rights, 1)
                    post.append(time.perf_counter() - t0)
            resync = []
            for i, table in enumerate(made):
                t0 = time.perf_counter()
                services.access(table.pk, players[2 * i])
                services.history(table.pk)
                resync.append(time.perf_counter() - t0)
            self.stdout.write(_figures("profanity mask", mask))
            self.stdout.write(_figures("post_message", post))
            self.stdout.write(_figures("resync (access + history)", resync))
        finally:
            Table.objects.filter(pk__in=[t.pk for t in made]).delete()
            Player.objects.filter(pk__in=[p.pk for p in players]).delete()
