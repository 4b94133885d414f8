"""Load benchmark of live play over real WebSockets (docs/benchmarks.md#live-path).

    python manage.py bench_ws --tables 50 --url ws://127.0.0.1:8000 --duration 30
    python manage.py bench_ws --tables 10 --inprocess          # no server: the ASGI app in this process

It creates N tables on the database the server uses (same DATABASE_URL / REDIS_URL!), each with
scripted human players (and optional spectators), starts a game at each through
game.services.start_game, and connects one WebSocket per person. Each scripted player answers every
frame that offers him a move with a random legal move after --think seconds; finished games are
restarted at once until --duration is over. It prints:

- action→ack: from sending a move to its {"type":"ack"} on the same socket (p50/p99/max),
- action→all-seats-updated: from sending a move to the moment every socket of that table
  (players and spectators) has a state frame of that version or newer,
- ping→pong on the same sockets (the bare round trip through the consumer: the "echo" baseline),
- actions/s applied, games finished, and every error frame / failure by code,
- with --pids, the server processes' CPU, and their memory (RSS) and open sockets before the
  benchmark's sockets connected and once all were connected, per person.

--site-socket makes each person's tab also hold a site socket (/ws/site/, a `page` message, a ping
every 20 s), as a table page did before the table socket carried the site's news: run it against a
server of that code to compare with one socket per tab. --idle keeps every tab open without
playing (what an idle connected player costs).

The client is the `websockets` package (a dev dependency), as a browser would connect.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import statistics
import time
from collections import Counter
from importlib import import_module
from urllib.parse import urlparse

import websockets
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from websockets.typing import Origin

from durak_site.db import in_thread

# --------------------------------------------------------------------------- clients


class LibWebSocket:
    """A real client over the network: the well-kept `websockets` package (a dev dependency)."""

    def __init__(self, conn) -> None:
        self.conn = conn

    @classmethod
    async def connect(cls, url: str, headers: dict[str, str]) -> LibWebSocket:
        origin = headers.pop("Origin", None)
        conn = await websockets.connect(url, additional_headers=headers, origin=Origin(origin) if origin else None, max_size=2 ** 22,
                                        ping_interval=None)
        return cls(conn)

    async def send(self, text: str) -> None:
        await self.conn.send(text)

    async def recv(self) -> str:
        return await self.conn.recv()

    async def close(self) -> None:
        await self.conn.close()


class InProcessWebSocket:
    """The ASGI application in this process through channels' WebsocketCommunicator (no network)."""

    def __init__(self, comm) -> None:
        self.comm = comm

    @classmethod
    async def connect(cls, path: str, headers: dict[str, str]) -> InProcessWebSocket:
        from channels.testing import WebsocketCommunicator

        from durak_site.asgi import application

        comm = WebsocketCommunicator(application, path,
                                     headers=[(k.lower().encode(), v.encode()) for k, v in headers.items()])
        ok, code = await comm.connect(timeout=30)
        if not ok:
            raise ConnectionError(f"refused ({code})")
        return cls(comm)

    async def send(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def recv(self) -> str:
        out = await self.comm.receive_output(timeout=3600)
        if out["type"] == "websocket.close":
            raise ConnectionError(f"closed by the server ({out.get('code')})")
        return out["text"]

    async def close(self) -> None:
        await self.comm.disconnect(timeout=10)


# --------------------------------------------------------------------------- set-up (sync, in the DB)


def page_origin(url: str) -> str:
    """The Origin a page of the server at socket `url` sends: ws://host:port → http://host:port."""
    parts = urlparse(url)
    return f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}"


def _session_cookie(player) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from accounts.backends import PLAYER_BACKEND

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = player._meta.pk.value_to_string(player)
    store[BACKEND_SESSION_KEY] = PLAYER_BACKEND
    store[HASH_SESSION_KEY] = player.get_session_auth_hash()
    store.save()
    return store.session_key


def _create_tables(n: int, humans: int, spectators: int, rules: dict, tag: str) -> list[dict]:
    """N tables with `humans` seated players (plus spectators); a game started at each."""
    from accounts.models import Player
    from game import services
    from lobby.models import Seat, Table

    tables = []
    for t in range(n):
        people = [Player.objects.create_user(f"b{tag}{t}x{i}"[:20]) for i in range(humans + spectators)]
        table = Table.objects.create(name=f"bench {tag}-{t}", host=people[0], rules=rules, seats_count=humans)
        Seat.objects.bulk_create([Seat(table=table, number=i + 1, player=p) for i, p in enumerate(people[:humans])])
        services.start_game(table.pk)
        tables.append({"table_id": table.pk,
                       "cookies": [_session_cookie(p) for p in people],
                       "seats": list(range(1, humans + 1)) + [None] * spectators})
    return tables


def _delete_bench_rows(tag: str, keep_finished: bool = False) -> None:
    """The tables of this run (their games, seats and events go with them) and its players. The server
    may still be writing a last move or timeout as the sockets close: first end the games, then delete.
    `keep_finished`: the tables where a game finished stay, with their players (games to analyse)."""
    from django.db import IntegrityError, OperationalError, transaction

    from accounts.models import Player
    from game import services
    from game.models import Game
    from lobby.models import Table

    tables = Table.objects.filter(name__startswith=f"bench {tag}-")
    for game_id in Game.objects.filter(table__in=tables, status=Game.Status.PLAYING).values_list("pk", flat=True):
        services.abort_game(game_id, "benchmark over")
    kept = (list(Game.objects.filter(table__in=tables, status=Game.Status.FINISHED).values_list("table_id", flat=True))
            if keep_finished else [])
    for attempt in range(5):
        try:
            with transaction.atomic():
                tables.exclude(pk__in=kept).delete()
                Player.objects.filter(nick__startswith=f"b{tag}").exclude(seats__table_id__in=kept).exclude(
                    game_seats__game__table_id__in=kept).delete()
            return
        except (IntegrityError, OperationalError):  # a last write of the server raced the delete: again
            time.sleep(0.5 * (attempt + 1))


def _server_memory(pids: list[int]) -> tuple[float, int]:
    """(RSS in MB, open sockets) of the server processes (Linux /proc)."""
    rss_kb, sockets = 0, 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            rss_kb += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                sockets += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return rss_kb / 1024, sockets


def _connections(urls: list[str]) -> int:
    """Established TCP connections to the servers' ports (Linux /proc/net): the WebSockets held."""
    ports = {urlparse(u).port for u in urls}
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            for line in list(f)[1:]:
                fields = line.split()
                count += fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) in ports
    return count


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the server processes have used (Linux /proc)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --------------------------------------------------------------------------- the run


class TableRun:
    def __init__(self, bench: Bench, spec: dict) -> None:
        self.bench, self.spec = bench, spec
        self.table_id = spec["table_id"]
        self.n = len(spec["cookies"])
        self.seen: list[tuple[int, int]] = [(0, -1)] * self.n  # (game_id, version) per socket
        self.want: dict[tuple[int, int], tuple[float, set[int]]] = {}
        self.restarting = False

    def saw(self, i: int, game_id: int, version: int) -> None:
        if (game_id, version) > self.seen[i]:
            self.seen[i] = (game_id, version)
        now = time.perf_counter()
        for key in [k for k in self.want if k[0] == game_id and k[1] <= version]:
            t0, left = self.want[key]
            left.discard(i)
            if not left:
                self.bench.all_updated.append(now - t0)
                del self.want[key]

    def acked(self, game_id: int, version: int, t0: float) -> None:
        left = {i for i in range(self.n) if self.seen[i] < (game_id, version)}
        if not left:
            self.bench.all_updated.append(time.perf_counter() - t0)
        else:
            self.want[(game_id, version)] = (t0, left)

    async def finished(self, game_id: int) -> None:
        self.bench.games += 1
        if self.restarting or time.perf_counter() >= self.bench.end:
            return
        self.restarting = True
        try:
            from game import services

            await in_thread(services.start_game)(self.table_id)
        except Exception as exc:
            self.bench.errors[f"restart:{type(exc).__name__}:{getattr(exc, 'code', '')}"] += 1
        finally:
            self.restarting = False


class Bench:
    def __init__(self, opts: dict) -> None:
        self.opts = opts
        self.ack: list[float] = []
        self.all_updated: list[float] = []
        self.pong: list[float] = []
        self.errors: Counter = Counter()
        self.actions = 0
        self.games = 0
        self.chats = 0
        self.cpu = self.cpu_start = 0.0
        self.end = 0.0
        self.start = self.connect_time = 0.0
        self.rng = random.Random(opts["seed"])
        self.memory_before = self.memory_connected = (0.0, 0)
        self.connections_before = self.connections = 0
        self.retries = 0
        self.failed = 0

    async def open(self, spec: dict, cookie: str, path: str | None = None):
        headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}", "Accept-Language": "en"}
        path = path or f"/ws/tables/{spec['table_id']}/"
        if self.opts["inprocess"]:
            return await InProcessWebSocket.connect(path, {"Origin": self.opts["origin"], **headers})
        urls = self.opts["urls"]  # several servers: the sockets of one table are spread over them
        url = urls[(spec["table_id"] + spec["cookies"].index(cookie)) % len(urls)]
        # the page a browser opens the socket from: the whole origin of that server, port included
        origin = self.opts["origin"] or page_origin(url)
        return await LibWebSocket.connect(url.rstrip("/") + path, {"Origin": origin, **headers})

    async def open_retrying(self, spec: dict, cookie: str, path: str | None = None, tries: int = 5):
        """As the page's client does: a refused or timed-out handshake (a loaded server takes longer
        than daphne's connect timeout) is tried again after a pause."""
        for attempt in range(tries):
            try:
                return await self.open(spec, cookie, path)
            except Exception:
                if attempt == tries - 1:
                    raise
                self.retries += 1
                await asyncio.sleep(1 + attempt)

    async def socket(self, run: TableRun, i: int) -> None:
        spec = run.spec
        seat = spec["seats"][i]
        site = None
        try:
            async with self.handshakes:  # ramp up: people do not all arrive in the same second
                ws = await self.open_retrying(spec, spec["cookies"][i])
                if self.opts["site_socket"]:
                    site = await self.open_retrying(spec, spec["cookies"][i], "/ws/site/")
        except Exception as exc:
            self.errors[f"connect:{exc}"[:80]] += 1
            self.failed += 1
            self._arrived()
            return
        self._arrived()
        await self.all_connected.wait()
        rng = random.Random(self.rng.random())
        sent: dict[str, float] = {}
        pings: dict[int, float] = {}
        acted: set[tuple[int, int]] = set()
        game_id = 0
        counter = 0

        async def pinger() -> None:
            k = 0
            while time.perf_counter() < self.end:
                await asyncio.sleep(self.opts["ping_every"] * (0.5 + rng.random()))
                k += 1
                pings[k] = time.perf_counter()
                await ws.send(json.dumps({"type": "ping"}))

        side = [asyncio.create_task(pinger())]
        if site is not None:
            side.append(asyncio.create_task(self.site_tab(site, spec["table_id"], random.Random(rng.random()))))
        if i == 0 and self.opts["chat_every"]:
            side.append(asyncio.create_task(self.chatter(ws, random.Random(rng.random()))))
        try:
            while time.perf_counter() < self.end:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, self.end - time.perf_counter()))
                except TimeoutError:
                    break
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "pong":
                    if pings:
                        self.pong.append(now - pings.pop(min(pings)))
                elif kind == "ack":
                    t0 = sent.pop(frame["id"], None)
                    if t0 is not None:
                        self.ack.append(now - t0)
                        if not frame.get("duplicate"):
                            self.actions += 1
                            run.acked(game_id, frame["version"], t0)
                elif kind == "error":
                    sent.pop(frame.get("id"), None)
                    self.errors[frame["code"]] += 1
                elif kind == "chat_error":
                    self.errors[f"chat:{frame['code']}"] += 1
                elif kind == "state":
                    game_id = frame["game_id"]
                    run.saw(i, game_id, frame["version"])
                    if frame["status"] != "playing":
                        if i == 0:
                            asyncio.create_task(run.finished(game_id))
                        continue
                    view = frame["view"]
                    key = (game_id, frame["version"])
                    if seat is None or not view["legal"] or key in acted or self.opts["idle"]:
                        continue
                    if view["phase"] == "check":
                        continue
                    if seat not in view["turn"]:
                        continue
                    acted.add(key)
                    counter += 1
                    # think in a side task: this loop keeps reading (and timestamping) frames meanwhile
                    asyncio.create_task(self._act(ws, sent, f"{i}-{counter}", frame["version"],
                                                  rng.choice(view["legal"]), rng.uniform(0, 2 * self.opts["think"])))
        except ConnectionError as exc:
            self.errors[f"socket:{exc}"[:80]] += 1
        finally:
            for task in side:
                task.cancel()
            with contextlib.suppress(Exception):
                await ws.close()
            if site is not None:
                with contextlib.suppress(Exception):
                    await site.close()

    async def site_tab(self, site, table_id: int, rng: random.Random) -> None:
        """The site socket a table page held beside its table socket: the page's path, a ping every
        20 s, and its frames read (the site's news, pongs)."""
        async def read() -> None:
            while True:
                frame = json.loads(await site.recv())
                if frame.get("type") == "error":
                    self.errors[f"site:{frame.get('code')}"] += 1

        reader = asyncio.create_task(read())
        try:
            await site.send(json.dumps({"type": "page", "path": f"/tables/{table_id}/"}))
            await asyncio.sleep(20 * rng.random())
            while time.perf_counter() < self.end:
                await site.send(json.dumps({"type": "ping"}))
                await asyncio.sleep(20)
        except ConnectionError as exc:
            self.errors[f"site:{exc}"[:80]] += 1
        finally:
            reader.cancel()

    def _arrived(self) -> None:
        self.arrived += 1
        if self.arrived >= self.expected and not self.all_connected.is_set():
            self.start = time.perf_counter()
            self.end = self.start + self.opts["duration"]
            self.connect_time = self.start - self.t_connect
            self.cpu_start = _cpu_seconds(self.opts["pids"])
            if self.opts["pids"]:
                self.memory_connected = _server_memory(self.opts["pids"])
            if not self.opts["inprocess"]:
                self.connections = _connections(self.opts["urls"])
            self.all_connected.set()

    async def _act(self, ws, sent: dict, msg_id: str, version: int, action: dict, think: float) -> None:
        if think:
            await asyncio.sleep(think)
        if time.perf_counter() >= self.end:
            return
        sent[msg_id] = time.perf_counter()
        try:
            await ws.send(json.dumps({"id": msg_id, "version": version, "action": action}))
        except Exception as exc:
            self.errors[f"send:{type(exc).__name__}"] += 1

    async def run(self, specs: list[dict]) -> float:
        runs = [TableRun(self, s) for s in specs]
        self.handshakes = asyncio.Semaphore(self.opts["connect_concurrency"])
        self.all_connected = asyncio.Event()
        self.arrived, self.expected = 0, sum(r.n for r in runs)
        if self.opts["pids"]:
            self.memory_before = _server_memory(self.opts["pids"])
        if not self.opts["inprocess"]:
            self.connections_before = _connections(self.opts["urls"])
        self.t_connect = time.perf_counter()
        self.end = self.t_connect + 3600  # set once every socket is connected
        await asyncio.gather(*(self.socket(r, i) for r in runs for i in range(r.n)))
        self.cpu = _cpu_seconds(self.opts["pids"]) - self.cpu_start
        return time.perf_counter() - self.start

    async def chatter(self, ws, rng: random.Random) -> None:
        """One chat message per table every --chat-every seconds, on the first player's own socket
        (a player writes at the table he plays at: no extra socket, nothing left unread)."""
        while True:
            pause = self.opts["chat_every"] * (0.5 + rng.random())
            if time.perf_counter() + pause >= self.end:
                break
            await asyncio.sleep(pause)
            await ws.send(json.dumps({"type": "chat_send", "text": "gg"}))
            self.chats += 1


class Command(BaseCommand):
    help = "Drive N tables of scripted WebSocket players against a running server; print latencies."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument("--url", default="ws://127.0.0.1:8000",
                            help="server base URL (ws://host:port); several, comma-separated, split every table")
        parser.add_argument("--inprocess", action="store_true", help="no server: the ASGI app in this process")
        parser.add_argument("--duration", type=float, default=30.0, help="seconds of play")
        parser.add_argument("--humans", type=int, default=2, help="scripted players per table (2-6)")
        parser.add_argument("--spectators", type=int, default=1, help="watching sockets per table")
        parser.add_argument("--think", type=float, default=0.5, help="mean think time before a move (s)")
        parser.add_argument("--rules", default="{}", help='engine rules as JSON, e.g. \'{"variant":"perevodnoy"}\'')
        parser.add_argument("--origin", default=None, help="Origin header (default: the server's own, http://<host:port>)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ping-every", type=float, default=5.0,
                            help="mean seconds between heartbeats per socket (the browser client: 5)")
        parser.add_argument("--chat-every", type=float, default=0.0,
                            help="one chat message per table every this many seconds (0: none)")
        parser.add_argument("--pids", default="",
                            help="comma-separated PIDs of the server processes: prints their CPU ms per action")
        parser.add_argument("--json", default="", help="append the figures as one JSON line to this file")
        parser.add_argument("--connect-concurrency", type=int, default=10,
                            help="WebSocket handshakes in flight at once while connecting")
        parser.add_argument("--site-socket", action="store_true",
                            help="each person's tab also holds a site socket (/ws/site/), as a table page did "
                                 "before the table socket carried the site's news")
        parser.add_argument("--idle", action="store_true",
                            help="nobody moves: tabs held open, pinging (the cost of a connected player)")
        parser.add_argument("--keep-finished", action="store_true",
                            help="keep the tables where a game finished, with their players (post-game analyses "
                                 "to queue: scripts/bench-live --analysis)")
        parser.add_argument("--keep", action="store_true",
                            help="keep the bench tables, games and players (by default they are deleted at the end, "
                                 "so their running games leave no turn timers behind for the timers to fire)")

    def handle(self, *args, **o) -> None:
        if not 2 <= o["humans"] <= 6:
            raise CommandError("--humans must be 2..6")
        try:
            rules = json.loads(o["rules"])
        except ValueError as exc:
            raise CommandError(f"--rules is not JSON: {exc}") from exc
        urls = [u.strip() for u in o["url"].split(",") if u.strip()]
        pids = [int(p) for p in o["pids"].split(",") if p.strip()]
        # in-process there is no Host header: the allowed host on the default port (durak_site/origins.py)
        origin = o["origin"] or (f"http://{urlparse(urls[0]).hostname or '127.0.0.1'}" if o["inprocess"] else None)
        tag = base64.b32encode(os.urandom(3)).decode().lower().rstrip("=")
        t = time.perf_counter()
        try:
            specs = _create_tables(o["tables"], o["humans"], o["spectators"], rules, tag)
            self.stdout.write(f"set-up: {len(specs)} tables, games started in {time.perf_counter() - t:.1f} s "
                              f"({'in-process ASGI app' if o['inprocess'] else o['url']})")
            bench = Bench({**o, "origin": origin, "rules": rules, "urls": urls, "pids": pids})
            elapsed = asyncio.run(bench.run(specs))
            self.report(o, specs, bench, elapsed)
        finally:
            if not o["keep"]:
                _delete_bench_rows(tag, o["keep_finished"])

    def report(self, o: dict, specs: list[dict], bench: Bench, elapsed: float) -> None:
        ms = 1000.0

        def line(name: str, values: list[float]) -> str:
            if not values:
                return f"{name:<26} n=0"
            return (f"{name:<26} n={len(values):<6} p50={_pct(values, .5) * ms:7.1f} ms  "
                    f"p99={_pct(values, .99) * ms:7.1f} ms  max={max(values) * ms:7.1f} ms  "
                    f"mean={statistics.fmean(values) * ms:7.1f} ms")

        sockets = sum(len(s["cookies"]) for s in specs)
        self.stdout.write(f"tables={len(specs)} sockets={sockets} connected in {bench.connect_time:.1f} s, "
                          f"measured {elapsed:.1f} s, think={o['think']} s")
        self.stdout.write(line("action→ack", bench.ack))
        self.stdout.write(line("action→all-seats-updated", bench.all_updated))
        self.stdout.write(line("ping→pong (echo baseline)", bench.pong))
        self.stdout.write(f"actions applied: {bench.actions} ({bench.actions / elapsed:.1f}/s), "
                          f"games finished: {bench.games}")
        if o["chat_every"]:
            self.stdout.write(f"chat messages sent: {bench.chats} ({bench.chats / elapsed:.1f}/s)")
        cpu_ms = bench.cpu * 1000 / bench.actions if bench.actions and o["pids"] else None
        if cpu_ms is not None:
            self.stdout.write(f"server CPU: {bench.cpu:.1f} s over {elapsed:.1f} s "
                              f"({100 * bench.cpu / elapsed:.0f} % of one core), {cpu_ms:.1f} ms per action")
        people = sum(len(s["cookies"]) for s in specs) - bench.failed  # the people connected
        self.stdout.write(f"handshakes tried again: {bench.retries}; people who never connected: {bench.failed}")
        if o["pids"] and people:
            (rss0, fds0), (rss1, fds1) = bench.memory_before, bench.memory_connected
            websockets = (bench.connections - bench.connections_before) / people
            self.stdout.write(f"server: {rss1:.0f} MB RSS, {fds1} sockets with {people} people connected "
                              f"(before: {rss0:.0f} MB, {fds0}); per person {websockets:.2f} WebSockets, "
                              f"{1024 * (rss1 - rss0) / people:.0f} KB, {(fds1 - fds0) / people:.2f} sockets of "
                              f"the server (its database and Redis connections too), "
                              f"{1000 * bench.cpu / elapsed / people:.2f} ms CPU a second")
        refused = sum(bench.errors.values())
        self.stdout.write(f"errors: {refused}" + (f" {dict(bench.errors)}" if refused else ""))
        if o["json"]:
            row = {"tables": len(specs), "servers": len(o["url"].split(",")), "seconds": round(elapsed, 1),
                   "actions_per_s": round(bench.actions / elapsed, 1), "errors": refused,
                   "cpu_ms_per_action": round(cpu_ms, 2) if cpu_ms is not None else None,
                   "load": [round(x, 1) for x in os.getloadavg()], "people": people,
                   "error_codes": dict(bench.errors.most_common(5)), "handshake_retries": bench.retries}
            if o["pids"] and people:
                (rss0, fds0), (rss1, fds1) = bench.memory_before, bench.memory_connected
                row.update(websockets_per_person=round((bench.connections - bench.connections_before) / people, 2),
                           rss_mb=round(rss1, 1), rss_kb_per_person=round(1024 * (rss1 - rss0) / people, 1),
                           sockets_per_person=round((fds1 - fds0) / people, 2),
                           cpu_ms_per_person_s=round(1000 * bench.cpu / elapsed / people, 3))
            for name, values in (("ack", bench.ack), ("all", bench.all_updated), ("pong", bench.pong)):
                row[f"{name}_p50_ms"] = round(_pct(values, .5) * ms, 1)
                row[f"{name}_p99_ms"] = round(_pct(values, .99) * ms, 1)
            with open(o["json"], "a") as out:
                out.write(json.dumps(row) + "\n")
