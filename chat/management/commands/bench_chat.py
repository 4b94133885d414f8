"""Cost of the chat on the server side (the live benchmark is game's bench_ws --chat-every).

    python manage.py bench_chat --tables 100 [--profile]

On the configured database (and channel layer) it makes N tables of two players, then prints per-call
times (p50 / p99), CPU time of this process per call, and database queries of:

- the profanity mask (and its first call, which builds the filter),
- writing a message through the service (post_message: checks, rate limits, mask, insert, version),
- one message end to end through the table socket, in-process: player A's ``chat_send`` until
  player B's socket has the ``chat`` frame (dispatch, the thread hop, the database, the group send
  and every socket's forward); statements are counted in every thread that ran one (BEGIN and
  COMMIT are not statements there),
- a socket's chat resync on connect (access check + last 50 messages).

``--profile`` prints the top of a cProfile of the service path. It deletes everything it made.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import statistics
import threading
import time
from typing import Any, cast

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.test.utils import CaptureQueriesContext

from accounts.models import Player
from chat import services
from durak_site import profanity
from game.management.commands.bench_ws import _session_cookie
from lobby.models import Seat, Table

TEXTS = ["Хорошая игра!", "ну ты даёшь, опять козырь", "what the hell was that", "сука, не повезло",
         "спасибо, удачи всем", "fucking trumps again"]


def _figures(name: str, samples: list[float], extra: str = "") -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"{name:<34} n={len(samples):<5} p50={statistics.median(ordered) * 1000:7.2f} ms  "
            f"p99={p99 * 1000:7.2f} ms{extra}")


_TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


class QueryCounter:
    """Django statements of every thread and connection while it is open (the socket runs its
    database work on pool threads whose connections exist before it): it wraps the one method all
    cursors execute through, and puts it back on exit. Transaction control is not counted: SQLite's
    BEGIN IMMEDIATE goes through a cursor, Postgres' BEGIN does not."""

    def __init__(self, thread_prefix: str = "") -> None:
        # thread_prefix: count only the statements of threads so named ("asyncio_": the sockets'
        # database hops), not those of daemons another test left in the process
        self.thread_prefix = thread_prefix
        self.count = 0
        self._lock = threading.Lock()
        self._original = cast(Any, CursorWrapper)._execute_with_wrappers  # private: not in the stubs

    def __enter__(self) -> QueryCounter:
        original, counter = self._original, self

        def counted(cursor, sql, params, many, executor):
            if (not sql.lstrip().upper().startswith(_TRANSACTION_CONTROL)
                    and threading.current_thread().name.startswith(counter.thread_prefix)):
                with counter._lock:
                    counter.count += 1
            return original(cursor, sql, params, many, executor)

        cast(Any, CursorWrapper)._execute_with_wrappers = counted
        return self

    def __exit__(self, *exc) -> None:
        cast(Any, CursorWrapper)._execute_with_wrappers = self._original


async def _socket_round_trips(pairs: list[tuple[int, str, str]], rounds: int,
                              counter: QueryCounter) -> tuple[list[float], int, float]:
    """Sequential messages, each from the first cookie's socket to the second's: the cost of one."""
    from channels.testing import WebsocketCommunicator

    from durak_site.asgi import application

    async def open_one(table_id: int, cookie: str) -> WebsocketCommunicator:
        comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[
            (b"origin", b"http://testserver"), (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())])
        ok, code = await comm.connect(timeout=30)
        if not ok:
            raise ConnectionError(f"refused ({code})")
        while (await comm.receive_json_from(timeout=30))["type"] != "chat_state":
            pass
        await comm.send_json_to({"type": "no_such_type"})  # answered once the connect (and its writes) is over
        while (await comm.receive_json_from(timeout=30))["type"] != "error":
            pass
        return comm

    async def until(comm, kind: str) -> dict:
        while True:
            frame = await comm.receive_json_from(timeout=30)
            if frame["type"] == kind:
                return frame
            if frame["type"] == "chat_error":
                raise RuntimeError(frame)

    socks = [(await open_one(t, a), await open_one(t, b)) for t, a, b in pairs]
    took = []
    counter.count = 0  # the connects' reads are not a message's
    cpu = time.process_time()  # this process: the server's side and the test clients' (both sides in-process)
    try:
        for round_ in range(rounds):
            for i, (comm_a, comm_b) in enumerate(socks):
                t0 = time.perf_counter()
                await comm_a.send_json_to({"type": "chat_send", "text": TEXTS[(i + round_) % len(TEXTS)]})
                await until(comm_b, "chat")
                took.append(time.perf_counter() - t0)
                await until(comm_a, "chat")
        queries = counter.count  # before the disconnects' presence writes
        cpu = time.process_time() - cpu
    finally:
        for pair in socks:
            for comm in pair:
                await comm.disconnect(timeout=10)
    return took, queries, cpu


class Command(BaseCommand):
    help = "Print the server-side cost of chat calls (mask, post, a socket round trip, resync on connect)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--profile", action="store_true", help="print the top of a cProfile of post_message")

    def handle(self, *args, tables: int, profile: bool, **options) -> None:
        stamp = int(time.time())
        t0 = time.perf_counter()
        profanity.mask("warm")
        first_mask = time.perf_counter() - t0
        with transaction.atomic():
            players = Player.objects.bulk_create(Player(nick=f"bc{stamp}x{i}") for i in range(2 * tables))
            made = Table.objects.bulk_create(Table(name="bench-chat", seats_count=2, status=Table.Status.PLAYING)
                                             for _ in range(tables))
            Seat.objects.bulk_create(Seat(table=t, number=n + 1, player=players[2 * i + n])
                                     for i, t in enumerate(made) for n in range(2))
        try:
            self._run(made, players, first_mask, profile)
        finally:
            Table.objects.filter(pk__in=[t.pk for t in made]).delete()
            Player.objects.filter(pk__in=[p.pk for p in players]).delete()

    def _run(self, made: list[Table], players: list[Player], first_mask: float, profile: bool) -> None:
        mask = []
        for i in range(1000):
            t0 = time.perf_counter()
            profanity.mask(f"{TEXTS[i % len(TEXTS)]} {i}")
            mask.append(time.perf_counter() - t0)
        self.stdout.write(_figures("profanity mask", mask, f"  first call {first_mask * 1000:.1f} ms"))

        rights = [services.access(t.pk, players[2 * i]) for i, t in enumerate(made)]
        for i, table in enumerate(made):  # each table's first message (its settings row) is not the steady state
            services.post_message(table.pk, players[2 * i], "hello", rights[i], 1)
        post = []
        profiler = cProfile.Profile() if profile else None
        cpu = time.process_time()
        with CaptureQueriesContext(connection) as queries:
            for round_ in range(3):
                for i, table in enumerate(made):
                    if profiler:
                        profiler.enable()
                    t0 = time.perf_counter()
                    services.post_message(table.pk, players[2 * i], TEXTS[(i + round_) % len(TEXTS)], rights[i], 1)
                    post.append(time.perf_counter() - t0)
                    if profiler:
                        profiler.disable()
        cpu = (time.process_time() - cpu) / len(post)
        self.stdout.write(_figures("post_message (service)", post, f"  cpu {cpu * 1000:.2f} ms  "
                                   f"{len(queries) / len(post):.1f} queries/post (with BEGIN, COMMIT)"))
        if profiler:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
            self.stdout.write(out.getvalue())

        cookies = [_session_cookie(p) for p in players]
        # the second player writes here: the first one's rate limit is used up by the service rounds
        pairs = [(t.pk, cookies[2 * i + 1], cookies[2 * i]) for i, t in enumerate(made)]
        with QueryCounter() as counter:
            took, query_count, cpu = asyncio.run(_socket_round_trips(pairs, 3, counter))
            per_message = query_count / len(took)
        self.stdout.write(_figures("socket: chat_send → other's frame", took,
                                   f"  cpu {cpu / len(took) * 1000:.2f} ms  {per_message:.1f} statements/message"))

        resync = []
        for i, table in enumerate(made):
            t0 = time.perf_counter()
            services.access(table.pk, players[2 * i])
            services.history(table.pk)
            resync.append(time.perf_counter() - t0)
        self.stdout.write(_figures("resync (access + history)", resync))
