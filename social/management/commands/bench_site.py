"""Idle site sockets for a load run (the lobby's online list must cost live play nothing).

    python manage.py bench_site --sockets 2000 --url ws://127.0.0.1:8000 --duration 60
    # meanwhile, in another shell: python manage.py bench_ws --tables 50 --url ws://127.0.0.1:8000

It creates N players with sessions on the database the server uses (same DATABASE_URL!), opens one
site socket (/ws/site/) each, half of them on the lobby page (they receive the online list), pings
every 20 s as a tab does, and holds them for --duration seconds (or until SIGTERM); once every socket
is open it prints "site sockets open: K of N". Opening and closing the sockets is itself the churn
the online list batches. It prints the connect time, ping→pong and how many
online-list frames a lobby socket received a second at most (never more than one).

With --searching K, K of the tabs that are not on the lobby page enter the search (--search-after
seconds after every socket is open), each for a heads-up game without bots, their ratings 700 points
apart: no two are within each other's rating window when they join, and without the sweep (Celery
beat, which widens the windows) they stay searching. It prints "site sockets searching: K" once
all K are, and at the end how many still were.
"""

from __future__ import annotations

import asyncio
import signal
import statistics
import time
import uuid
from importlib import import_module

import websockets
from django.conf import settings
from django.core.management.base import BaseCommand

PING_EVERY = 20.0


SEARCH = '{"type": "search", "choices": {"players": 2, "deck": 36, "bot_fill": 0, "rated": false}}'
RATING_GAP = 700  # more than the widest window before the sweep opens it (social/matching.py)


def _players(n: int, tag: str, searching: int = 0) -> list[str]:
    """N players and a session cookie each (as a signed-in browser has); the searchers' ratings apart."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from accounts.backends import PLAYER_BACKEND
    from accounts.models import Player
    from ratings.models import Rating

    cookies = []
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    for i in range(n):
        player = Player.objects.create_user(f"bs{tag}{i}"[:20])
        if _searches(i, searching):
            Rating.objects.update_or_create(player=player, defaults={"value": 1000 + RATING_GAP * i})
        store = store_class()
        store[SESSION_KEY] = str(player.pk)
        store[BACKEND_SESSION_KEY] = PLAYER_BACKEND
        store[HASH_SESSION_KEY] = player.get_session_auth_hash()
        store.save()
        cookies.append(store.session_key)
    return cookies


def _searches(i: int, searching: int) -> bool:
    """The odd tabs (not on the lobby page), the first `searching` of them."""
    return i % 2 == 1 and i // 2 < searching


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Command(BaseCommand):
    help = "Hold N idle site sockets (presence, the lobby's online list) against a running server."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--sockets", type=int, default=200)
        parser.add_argument("--url", default="ws://127.0.0.1:8000")
        parser.add_argument("--origin", default=None)
        parser.add_argument("--duration", type=float, default=30.0)
        parser.add_argument("--connect-concurrency", type=int, default=20)
        parser.add_argument("--searching", type=int, default=0)
        parser.add_argument("--search-after", type=float, default=0.0)

    def handle(self, *args, **opts) -> None:
        tag = uuid.uuid4().hex[:6]
        cookies = _players(opts["sockets"], tag, opts["searching"])
        origin = opts["origin"] or "http://" + opts["url"].split("://", 1)[1].split("/")[0]
        figures = asyncio.run(self._run(cookies, opts, origin))
        for line in figures:
            self.stdout.write(line)

    async def _run(self, cookies: list[str], opts: dict, origin: str) -> list[str]:
        connects: list[float] = []
        pongs: list[float] = []
        online_rates: list[int] = []
        gate = asyncio.Semaphore(opts["connect_concurrency"])
        end = time.monotonic() + opts["duration"]
        stop = asyncio.Event()  # SIGTERM ends the hold early (scripts/bench-live)
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        failures: list[str] = []
        search_go = asyncio.Event()
        searching: set[int] = set()
        told_searching: list[bool] = []

        def settled() -> None:
            if len(connects) + len(failures) == len(cookies):  # every tab is open (or failed): say so now
                print(f"site sockets open: {len(connects)} of {len(cookies)}", flush=True)
                asyncio.get_running_loop().call_later(opts["search_after"], search_go.set)
                if opts["searching"]:  # say how many are searching after a minute, whatever the count
                    asyncio.get_running_loop().call_later(opts["search_after"] + 60, tell_searching)

        def tell_searching() -> None:
            if not told_searching:
                told_searching.append(True)
                print(f"site sockets searching: {len(searching)}", flush=True)

        async def tab(i: int, cookie: str) -> None:
            counted = False
            headers = {"Origin": origin, "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}
            try:
                async with gate:
                    t0 = time.monotonic()
                    ws = await websockets.connect(opts["url"].rstrip("/") + "/ws/site/", additional_headers=headers)
                    await ws.recv()  # hello
                    connects.append(time.monotonic() - t0)
                    counted = True
                    settled()
                async with ws:
                    lobby = i % 2 == 0
                    await ws.send('{"type": "page", "path": "%s"}' % ("/tables/" if lobby else "/ratings/"))
                    per_second: dict[int, int] = {}
                    next_ping, sent = time.monotonic() + PING_EVERY * (i % 10) / 10, 0.0
                    # an idle tab sleeps until a frame, its next ping or the end: the load generator
                    # shares the server's cores, so it must not poll thousands of sockets every second
                    stopping, receiving = asyncio.ensure_future(stop.wait()), asyncio.ensure_future(ws.recv())
                    going = asyncio.ensure_future(search_go.wait()) if _searches(i, opts["searching"]) else None
                    try:
                        while not stop.is_set() and time.monotonic() < end:
                            if time.monotonic() >= next_ping:
                                sent = time.monotonic()
                                await ws.send('{"type": "ping"}')
                                next_ping = sent + PING_EVERY
                            waits = {receiving, stopping} | ({going} if going is not None else set())
                            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED,
                                                         timeout=max(0.0, min(next_ping, end) - time.monotonic()))
                            if going is not None and going in done:
                                going = None
                                await ws.send(SEARCH)
                            if receiving not in done:
                                continue
                            text = receiving.result()
                            receiving = asyncio.ensure_future(ws.recv())
                            if '"pong"' in text and sent:
                                pongs.append(time.monotonic() - sent)
                            elif '"search"' in text[:40]:
                                (searching.add if '"searching"' in text else searching.discard)(i)
                                if len(searching) == opts["searching"]:
                                    tell_searching()
                            elif '"online"' in text:
                                second = int(time.monotonic())
                                per_second[second] = per_second.get(second, 0) + 1
                    finally:
                        stopping.cancel()
                        receiving.cancel()
                        if going is not None:
                            going.cancel()
                    if lobby:
                        online_rates.append(max(per_second.values(), default=0))
            except Exception as exc:  # noqa: BLE001  (counted and printed)
                failures.append(type(exc).__name__)
                if not counted:
                    settled()

        await asyncio.gather(*(tab(i, c) for i, c in enumerate(cookies)))
        ms = 1000.0
        return [
            f"site sockets: {len(connects)} connected of {len(cookies)}, failures: {len(failures)} "
            f"{sorted(set(failures))}",
            f"connect: p50 {_pct(connects, 0.5) * ms:.0f} ms, p99 {_pct(connects, 0.99) * ms:.0f} ms",
            f"ping→pong: n={len(pongs)} p50 {_pct(pongs, 0.5) * ms:.1f} ms, p99 {_pct(pongs, 0.99) * ms:.1f} ms",
            f"online-list frames a lobby socket got in one second: max {max(online_rates, default=0)} "
            f"(mean of maxima {statistics.fmean(online_rates) if online_rates else 0:.2f})",
            f"searching at the end: {len(searching)} of {opts['searching']}",
        ]


