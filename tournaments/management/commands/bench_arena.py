"""A live arena under load (docs/benchmarks.md#tournaments): N scripted players in one running arena
against a server already running, its timers driven by a worker and beat (`scripts/bench-live
--arena 300` starts all of them).

    python manage.py bench_arena --players 300 --url ws://127.0.0.1:8000 --duration 60 [--pids PID]

Each player keeps the event's page open in one tab (a site socket that shows /tournaments/<id>/, so
it hears every standings frame) and plays in another: told `match`, he opens the table's socket
(arriving presses «Готово»), answers every frame that offers him a move with a random legal move
after a think of 0–2×--think seconds, and closes the table when the game ends; the pool pairs him
again. A tab that is told to (a frame without the standings in it, or `full`) re-reads the event's
live fragment over HTTP, at most once a second, as the page does. Each player comes from his own
address (X-Forwarded-For: the server must trust one proxy hop), as people at their homes do: one
address would make them one network, which an event never pairs.

It prints, as bench_ws does, action→ack and action→all-seats-updated (both players' table sockets
have the move's frame), ping→pong, actions/s and errors; then the arena's own: games finished, games
at once (sampled every second), game end → every event tab shows it (the standings frame, or the
re-read, that includes it), and the standings' cost: frames and bytes per game per tab, re-reads.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import os
import random
import re
import statistics
import time
from collections import Counter
from datetime import timedelta
from urllib.parse import urlparse

from django.conf import settings
from django.core.management.base import BaseCommand

from durak_site.db import in_thread
from game.management.commands.bench_ws import LibWebSocket, _cpu_seconds, _pct, _session_cookie, page_origin


def _create_arena(players: int, tag: str, seed: int) -> tuple[int, list[dict]]:
    """A running arena (long enough never to end during the run) and its entries, all waiting."""
    from accounts.models import Player
    from durak_site.clock import db_now
    from tournaments.models import Entry, Tournament

    rng = random.Random(seed)
    now = db_now()
    event = Tournament.objects.create(name=f"bench {tag}", format="arena", starts_at=now, minutes=90,
                                      status=Tournament.Status.RUNNING, ends_at=now + timedelta(minutes=90),
                                      end_deadline=now + timedelta(minutes=90))
    people = [Player.objects.create_user(f"a{tag}{i}"[:20]) for i in range(players)]
    later = now + timedelta(days=1)  # paired once every tab is open (_open_pool)
    Entry.objects.bulk_create([Entry(tournament=event, player=p, rating=rng.randint(900, 1900), eligible_at=later,
                                     joined_at=now) for p in people])
    return event.pk, [{"player_id": p.pk, "cookie": _session_cookie(p),
                       "address": f"10.{i // 200}.{i % 200}.{1 + rng.randrange(250)}"} for i, p in enumerate(people)]


def _delete_arena(tag: str) -> None:
    """The run's event, its tables and games, and its players (their games end first)."""
    from accounts.models import Player
    from game import services
    from game.models import Game
    from lobby.models import Table
    from tournaments.models import Tournament, TournamentGame

    event_ids = list(Tournament.objects.filter(name=f"bench {tag}").values_list("pk", flat=True))
    table_ids = list(TournamentGame.objects.filter(tournament_id__in=event_ids).values_list("table_id", flat=True))
    Tournament.objects.filter(pk__in=event_ids).update(status=Tournament.Status.FINISHED)  # no more waves
    for game_id in Game.objects.filter(table_id__in=table_ids, status=Game.Status.PLAYING).values_list("pk", flat=True):
        with contextlib.suppress(Exception):
            services.abort_game(game_id, "benchmark over")
    for attempt in range(5):
        try:
            Tournament.objects.filter(pk__in=event_ids).delete()
            Table.objects.filter(pk__in=[t for t in table_ids if t]).delete()
            Player.objects.filter(nick__startswith=f"a{tag}").delete()
            return
        except Exception:  # a last write of the server raced the delete: again
            time.sleep(0.5 * (attempt + 1))


LIVE_STATE = re.compile(rb'class="t-live" data-status="(\w+)" data-round="(\d+)"')
SCREEN_STATE = re.compile(rb'class="t-pause-screen" data-state="(\w+)"')


async def http_get(url: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """GET over HTTP/1.1 as a page's fetch does (one connection each); returns (status, body)."""
    parts = urlparse(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
    lines = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Connection: close", "HX-Request: true",
             *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    writer.write("\r\n".join(lines).encode("latin-1"))
    await writer.drain()
    data = await reader.read()
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    head, _sep, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, body


class Game:
    """One game at a table, as the two players' sockets see it."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.seen: dict[int, int] = {}  # player index → newest version
        self.want: dict[int, tuple[float, set[int]]] = {}  # version → (sent at, players not updated yet)
        self.ended_at: float | None = None
        self.game_id = 0


class Arena:
    def __init__(self, opts: dict, event_id: int, people: list[dict]) -> None:
        self.opts, self.event_id, self.people = opts, event_id, people
        self.urls = opts["urls"]
        self.ack: list[float] = []
        self.all_updated: list[float] = []
        self.pong: list[float] = []
        self.told: list[float] = []  # game end → one tab shows it, per (game, tab)
        self.told_all: list[float] = []  # game end → every event tab shows it, per game
        self.errors: Counter = Counter()
        self.actions = self.games = 0
        self.frames = self.frame_bytes = self.rereads = self.reread_bytes = 0
        self.playing: dict[int, Game] = {}  # table id → its game, while it runs
        self.ended: dict[int, Game] = {}  # table id → its game, ended during the run
        self.shown: dict[int, dict[int, float]] = {}  # table id → {tab: when it showed the game's end}
        self.at_once: list[int] = []
        self.rng = random.Random(opts["seed"])
        self.start = self.end = 0.0
        self.cpu = 0.0
        self.retries = 0
        self.failed = 0
        self.sent_frames: dict[int, float] = {}  # --frames: frame number → when it was read and sent
        self.frame_seen: dict[tuple[int, int], float] = {}  # (tab, frame number) → when it arrived
        self.frame_reads: list[float] = []

    # ---------------------------------------------------------------- sockets

    def headers(self, person: dict) -> dict[str, str]:
        return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={person['cookie']}", "Accept-Language": "en",
                "X-Forwarded-For": person["address"]}

    def url_of(self, i: int) -> str:
        return self.urls[i % len(self.urls)]

    async def open(self, i: int, path: str, tries: int = 5) -> LibWebSocket:
        url = self.url_of(i)
        for attempt in range(tries):
            try:
                return await LibWebSocket.connect(url.rstrip("/") + path,
                                                  {"Origin": page_origin(url), **self.headers(self.people[i])})
            except Exception:
                if attempt == tries - 1:
                    raise
                self.retries += 1
                await asyncio.sleep(1 + attempt)
        raise AssertionError("unreachable")

    # ---------------------------------------------------------------- the event tab

    async def event_tab(self, i: int) -> None:
        page = f"/tournaments/{self.event_id}/" if i < self.opts["event_tabs"] else "/tournaments/"
        try:
            async with self.handshakes:
                site = await self.open(i, "/ws/site/")
                await site.send(json.dumps({"type": "page", "path": page}))
        except Exception as exc:
            self.errors[f"connect:{exc}"[:80]] += 1
            self.failed += 1
            self.arrived()
            return
        self.arrived()
        rng = random.Random(self.rng.random())
        # what the page showed when it loaded (every entry waits for the pool to open)
        state = {"busy": False, "again": False, "last": 0.0, "table": None, "status": "running", "round": "0",
                 "screen": "waiting"}
        pinger = asyncio.create_task(self.pinger(site, 20.0, rng, {}))
        try:
            while not self.stopping.is_set():
                try:
                    raw = await asyncio.wait_for(site.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "tournament" and isinstance(frame.get("standings"), str):
                    frame.update(json.loads(frame["standings"]))  # as standings.js reads it
                if kind == "tournament" and frame.get("id") == self.event_id and "bench" in frame:
                    self.frame_seen[(i, frame["bench"])] = now
                    self.frames += 1
                    self.frame_bytes += len(raw)
                elif kind == "tournament" and frame.get("id") == self.event_id:
                    if self.start:
                        self.frames += 1
                        self.frame_bytes += len(raw)
                    if self.applies(frame, self.people[i]["player_id"], state):
                        for table_id in frame.get("recent", ()):
                            self.saw_end(table_id, i, now)
                    else:
                        self.reread(i, state)
                elif kind == "hello" and page != "/tournaments/" and self.start:
                    self.reread(i, state)  # a page re-reads once reconnected (its first render is the page's)
                elif kind == "match" and frame.get("tournament") == self.event_id:
                    # as site.js: to the table (told again every 5 s while he has not come: a tab whose
                    # socket could not open tries again then)
                    if state["table"] != frame["table_id"]:
                        state["table"] = frame["table_id"]
                        task = asyncio.create_task(self.table_tab(i, frame["table_id"], rng))
                        self.side.add(task)
                        task.add_done_callback(self.side.discard)
                        task.add_done_callback(functools.partial(_left_table, state, frame["table_id"]))
                elif kind == "error":
                    self.errors[f"site:{frame.get('code')}"] += 1
        except ConnectionError as exc:
            self.errors[f"site:{exc}"[:80]] += 1
        finally:
            pinger.cancel()
            with contextlib.suppress(Exception):
                await site.close()

    @staticmethod
    def applies(frame: dict, player_id: int, state: dict) -> bool:
        """What standings.js decides: the frame is drawn in place, unless the page's own part changed
        (the event's status or round, the player's own state) and it must be read again."""
        if not isinstance(frame.get("order"), list) or frame.get("finished"):
            return False
        if (frame.get("status"), str(frame.get("round"))) != (state.get("status"), state.get("round")):
            return False
        mine = next((ln for ln in frame.get("lines", ()) if ln.get("id") == player_id), None)
        return mine is None or mine.get("state") == state.get("screen")

    def reread(self, i: int, state: dict) -> None:
        """The page's answer to a frame without the standings: one GET of the live fragment, at most one
        at a time and one a second (tournaments.js)."""
        if state["busy"]:
            state["again"] = True
            return
        state["busy"] = True
        task = asyncio.create_task(self._reread(i, state))
        self.side.add(task)
        task.add_done_callback(self.side.discard)

    async def _reread(self, i: int, state: dict) -> None:
        try:
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - state["last"])))
            started = state["last"] = time.perf_counter()
            try:
                status, body = await http_get(self.url_of(i), f"/tournaments/{self.event_id}/live/",
                                              self.headers(self.people[i]))
                size = len(body)
                found = LIVE_STATE.search(body)
                if found:
                    state["status"], state["round"] = found.group(1).decode(), found.group(2).decode()
                screen = SCREEN_STATE.search(body)
                state["screen"] = screen.group(1).decode() if screen else None
            except OSError as exc:
                self.errors[f"reread:{type(exc).__name__}"] += 1
                return
            if status != 200:
                self.errors[f"reread:{status}"] += 1
                return
            if self.start:
                self.rereads += 1
                self.reread_bytes += size
            done = time.perf_counter()
            for table_id, game in list(self.ended.items()):
                if game.ended_at is not None and game.ended_at <= started:
                    self.saw_end(table_id, i, done)
        finally:
            state["busy"] = False
            if state["again"]:
                state["again"] = False
                self.reread(i, state)

    def saw_end(self, table_id: int, tab: int, now: float) -> None:
        self.shown.setdefault(table_id, {}).setdefault(tab, now)

    # ---------------------------------------------------------------- the table tab

    async def table_tab(self, i: int, table_id: int, rng: random.Random) -> None:
        if self.stopping.is_set():
            return
        try:
            ws = await self.open(i, f"/ws/tables/{table_id}/")
        except Exception as exc:
            self.errors[f"table-connect:{exc}"[:80]] += 1
            return
        game = self.playing.setdefault(table_id, Game(table_id))
        sent: dict[str, float] = {}
        pings: dict[int, float] = {}
        acted: set[tuple[int, int]] = set()
        counter = 0
        pinger = asyncio.create_task(self.pinger(ws, self.opts["ping_every"], rng, pings))
        try:
            while not self.stopping.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "pong":
                    if pings:
                        sent_at = pings.pop(min(pings))
                        if self.start:
                            self.pong.append(now - sent_at)
                elif kind == "ack":
                    t0 = sent.pop(frame.get("id"), None)
                    if t0 is not None and self.start:
                        self.ack.append(now - t0)
                        if not frame.get("duplicate"):
                            self.actions += 1
                            self.acked(game, frame["version"], t0, now)
                elif kind == "error":
                    sent.pop(frame.get("id"), None)
                    self.errors[frame.get("code", "?")] += 1
                elif kind == "state":
                    game.game_id = frame["game_id"]
                    self.saw(game, i, frame["version"], now)
                    if frame["status"] != "playing":
                        self.finished(game, now)
                        break
                    view = frame["view"]
                    key = (frame["game_id"], frame["version"])
                    if not view.get("legal") or key in acted or view.get("phase") == "check":
                        continue
                    if view.get("seat") not in view.get("turn", ()):
                        continue
                    acted.add(key)
                    counter += 1
                    asyncio.create_task(self.act(ws, sent, f"{i}-{table_id}-{counter}", frame["version"],
                                                 rng.choice(view["legal"]), rng.uniform(0, 2 * self.opts["think"])))
        except ConnectionError as exc:
            self.errors[f"table:{exc}"[:80]] += 1
        finally:
            pinger.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    async def act(self, ws, sent: dict, msg_id: str, version: int, action: dict, think: float) -> None:
        await asyncio.sleep(think)
        if self.stopping.is_set():
            return
        sent[msg_id] = time.perf_counter()
        try:
            await ws.send(json.dumps({"id": msg_id, "version": version, "action": action}))
        except Exception as exc:
            self.errors[f"send:{type(exc).__name__}"] += 1

    async def pinger(self, ws, every: float, rng: random.Random, pings: dict) -> None:
        k = 0
        while True:
            await asyncio.sleep(every * (0.5 + rng.random()))
            k += 1
            pings[k] = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))

    def saw(self, game: Game, i: int, version: int, now: float) -> None:
        game.seen[i] = max(game.seen.get(i, -1), version)
        for v in [v for v in game.want if v <= version]:
            t0, left = game.want[v]
            left.discard(i)
            if not left:
                self.all_updated.append(now - t0)
                del game.want[v]

    def acked(self, game: Game, version: int, t0: float, now: float) -> None:
        left = {i for i, v in game.seen.items() if v < version}
        if len(game.seen) < 2:
            left |= {-1}  # the other player's socket has not had a frame yet: wait for it
        if not left:
            self.all_updated.append(now - t0)
        else:
            game.want[version] = (t0, left)

    def finished(self, game: Game, now: float) -> None:
        if game.ended_at is None:
            game.ended_at = now
            self.playing.pop(game.table_id, None)
            if self.start and now < self.end:
                self.games += 1
                self.ended[game.table_id] = game

    # ---------------------------------------------------------------- the run

    def arrived(self) -> None:
        self.count += 1
        if self.count >= len(self.people):
            self.all_connected.set()

    async def sample(self) -> None:
        while not self.stopping.is_set():
            await asyncio.sleep(1.0)
            if self.start:
                self.at_once.append(sum(1 for g in self.playing.values() if g.game_id))

    async def frames_only(self, tabs: list[asyncio.Task]) -> float:
        """Nobody plays: --frames standings frames are read and sent here, as a finished game's are
        (--frame-rate a second), after as long a wait with the tabs idle. The web process's CPU over
        the frames less that over the wait, per frame, is what a frame costs it to hand to every tab."""
        from durak_site import realtime
        from social import notify
        from tournaments import announce

        await asyncio.sleep(3.0)  # the tabs' first news (hello, presence) is over
        idle = self.opts["frames"] / self.opts["frame_rate"]
        cpu0 = _cpu_seconds(self.opts["pids"])
        await asyncio.sleep(idle)
        cpu_idle = _cpu_seconds(self.opts["pids"]) - cpu0
        self.start = time.perf_counter()
        cpu0 = _cpu_seconds(self.opts["pids"])
        reads = []
        for k in range(self.opts["frames"]):
            t0 = time.perf_counter()
            payload, cost = await in_thread(_timed_frame)(self.event_id)
            reads.append(cost)
            self.sent_frames[k] = t0
            await realtime.send_now([(announce.group(self.event_id), notify.news_event({**payload, "bench": k}))])
            await asyncio.sleep(max(0.0, t0 + 1 / self.opts["frame_rate"] - time.perf_counter()))
        self.cpu = _cpu_seconds(self.opts["pids"]) - cpu0 - cpu_idle
        elapsed = time.perf_counter() - self.start
        await asyncio.sleep(3.0)
        self.stopping.set()
        await asyncio.gather(*tabs, return_exceptions=True)
        self.frame_reads = reads
        for k in self.sent_frames:
            got = [t for (tab, seq), t in self.frame_seen.items() if seq == k]
            self.told.extend(t - self.sent_frames[k] for t in got)
            if len(got) >= self.opts["event_tabs"] and got:
                self.told_all.append(max(got) - self.sent_frames[k])
            else:
                self.errors["standings:not shown on every tab"] += 1
        return elapsed

    async def run(self) -> float:
        self.handshakes = asyncio.Semaphore(self.opts["connect_concurrency"])
        self.all_connected = asyncio.Event()
        self.stopping = asyncio.Event()
        self.count = 0
        self.side: set[asyncio.Task] = set()  # table tabs and re-reads
        tabs = [asyncio.create_task(self.event_tab(i)) for i in range(len(self.people))]
        await self.all_connected.wait()
        if self.opts["frames"]:
            return await self.frames_only(tabs)
        # the pool opens now: every tab is there to hear its first `match`
        await in_thread(_open_pool)(self.event_id)
        await asyncio.sleep(self.opts["warmup"])  # the first wave and its 3-2-1: not measured
        self.start = time.perf_counter()
        self.end = self.start + self.opts["duration"]
        cpu0 = _cpu_seconds(self.opts["pids"])
        sampler = asyncio.create_task(self.sample())
        await asyncio.sleep(self.opts["duration"])
        self.cpu = _cpu_seconds(self.opts["pids"]) - cpu0
        elapsed = time.perf_counter() - self.start
        await asyncio.sleep(3.0)  # the last games' standings frames arrive
        self.stopping.set()
        sampler.cancel()
        await asyncio.gather(*tabs, return_exceptions=True)
        for task in list(self.side):
            task.cancel()
        await asyncio.gather(*self.side, return_exceptions=True)
        tabs_shown = self.opts["event_tabs"]
        for table_id, game in self.ended.items():
            shown = self.shown.get(table_id, {})
            ended = game.ended_at if game.ended_at is not None else 0.0  # set: it is in self.ended
            delays = [max(0.0, t - ended) for t in shown.values()]
            self.told.extend(delays)
            if len(shown) >= tabs_shown and delays:
                self.told_all.append(max(delays))
            elif tabs_shown:
                self.errors["standings:not shown on every tab"] += 1
        return elapsed


def _left_table(state: dict, table_id: int, _task: asyncio.Task) -> None:
    if state["table"] == table_id:
        state["table"] = None


def _timed_frame(event_id: int) -> tuple[dict, float]:
    """The event's standings frame as announce sends it, and the CPU its read cost this thread."""
    from tournaments import live

    t = time.thread_time()
    payload = live.news(event_id)
    assert payload is not None
    return payload, time.thread_time() - t


def _open_pool(event_id: int) -> None:
    """Every entry eligible now and the first wave due now, as the arena's start makes them."""
    from durak_site.clock import db_now
    from tournaments import services
    from tournaments.models import Entry

    now = db_now()
    Entry.objects.filter(tournament_id=event_id, state=Entry.State.WAITING).update(eligible_at=now)
    services.request_wave(event_id, now)


class Command(BaseCommand):
    help = "Drive an arena of N scripted players against a running server (and its worker); print latencies."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=300)
        parser.add_argument("--url", default="ws://127.0.0.1:8000",
                            help="server base URL (ws://host:port); several, comma-separated, split the players")
        parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
        parser.add_argument("--warmup", type=float, default=10.0, help="seconds after the pool opens, not measured")
        parser.add_argument("--think", type=float, default=0.5, help="mean think time before a move (s)")
        parser.add_argument("--event-tabs", type=int, default=-1,
                            help="how many players keep the event's page open (the rest show the tournament "
                                 "list: they hear their `match` but no standings); default: all")
        parser.add_argument("--frames", type=int, default=0,
                            help="nobody plays: send this many standings frames to the event tabs and print what "
                                 "one costs the web process (its CPU over them less over as long idle)")
        parser.add_argument("--frame-rate", type=float, default=5.0, help="with --frames: frames a second")
        parser.add_argument("--ping-every", type=float, default=5.0)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--pids", default="", help="comma-separated PIDs of the web processes (their CPU)")
        parser.add_argument("--json", default="", help="append the figures as one JSON line to this file")
        parser.add_argument("--connect-concurrency", type=int, default=20)
        parser.add_argument("--keep", action="store_true", help="keep the event, its tables and its players")

    def handle(self, *args, **o) -> None:
        urls = [u.strip() for u in o["url"].split(",") if u.strip()]
        pids = [int(p) for p in o["pids"].split(",") if p.strip()]
        if o["event_tabs"] < 0:
            o["event_tabs"] = o["players"]
        tag = base64.b32encode(os.urandom(3)).decode().lower().rstrip("=")
        t = time.perf_counter()
        try:
            event_id, people = _create_arena(o["players"], tag, o["seed"])
            self.stdout.write(f"set-up: arena {event_id}, {len(people)} players in {time.perf_counter() - t:.1f} s")
            arena = Arena({**o, "urls": urls, "pids": pids}, event_id, people)
            elapsed = asyncio.run(arena.run())
            self.report(o, arena, elapsed)
        finally:
            if not o["keep"]:
                _delete_arena(tag)

    def report(self, o: dict, arena: Arena, elapsed: float) -> None:
        ms = 1000.0
        if o["frames"]:
            self.report_frames(o, arena, elapsed)
            return

        def line(name: str, values: list[float]) -> str:
            if not values:
                return f"{name:<30} n=0"
            return (f"{name:<30} n={len(values):<6} p50={_pct(values, .5) * ms:7.1f} ms  "
                    f"p99={_pct(values, .99) * ms:7.1f} ms  max={max(values) * ms:7.1f} ms  "
                    f"mean={statistics.fmean(values) * ms:7.1f} ms")

        games = max(arena.games, 1)
        tabs = max(o["event_tabs"], 1)
        at_once = statistics.fmean(arena.at_once) if arena.at_once else 0.0
        self.stdout.write(f"players={o['players']} event tabs={o['event_tabs']} measured {elapsed:.1f} s, "
                          f"think={o['think']} s")
        self.stdout.write(line("action→ack", arena.ack))
        self.stdout.write(line("action→all-seats-updated", arena.all_updated))
        self.stdout.write(line("ping→pong (echo baseline)", arena.pong))
        self.stdout.write(line("game end→one tab shows it", arena.told))
        self.stdout.write(line("game end→every tab shows it", arena.told_all))
        self.stdout.write(f"actions applied: {arena.actions} ({arena.actions / elapsed:.1f}/s), games finished: "
                          f"{arena.games} ({arena.games / elapsed:.2f}/s), games at once: mean {at_once:.0f}, "
                          f"min {min(arena.at_once, default=0)}, max {max(arena.at_once, default=0)}")
        self.stdout.write(f"standings: {arena.frames} frames ({arena.frames / games / tabs:.2f} per game per tab), "
                          f"{arena.frame_bytes / games / tabs / 1024:.2f} KB of frames per game per tab; "
                          f"{arena.rereads} re-reads ({arena.rereads / games / tabs:.2f} per game per tab, "
                          f"{arena.reread_bytes / max(arena.rereads, 1) / 1024:.1f} KB each)")
        cpu_ms = arena.cpu * 1000 / arena.actions if arena.actions and o["pids"] else None
        if cpu_ms is not None:
            self.stdout.write(f"server CPU: {arena.cpu:.1f} s over {elapsed:.1f} s "
                              f"({100 * arena.cpu / elapsed:.0f} % of one core), {cpu_ms:.2f} ms per action, "
                              f"{arena.cpu * 1000 / games:.1f} ms per game")
        self.stdout.write(f"handshakes tried again: {arena.retries}; players who never connected: {arena.failed}")
        errors = sum(arena.errors.values())
        self.stdout.write(f"errors: {errors}" + (f" {dict(arena.errors)}" if errors else ""))
        self.stdout.write(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if o["json"]:
            row = {"arena": o["players"], "event_tabs": o["event_tabs"], "seconds": round(elapsed, 1),
                   "actions_per_s": round(arena.actions / elapsed, 1), "games": arena.games,
                   "games_at_once": round(at_once, 1), "errors": errors,
                   "error_codes": dict(arena.errors.most_common(5)),
                   "cpu_ms_per_action": round(cpu_ms, 2) if cpu_ms is not None else None,
                   "cpu_ms_per_game": round(arena.cpu * 1000 / games, 1) if o["pids"] else None,
                   "frames_per_game_per_tab": round(arena.frames / games / tabs, 2),
                   "frame_kb_per_game_per_tab": round(arena.frame_bytes / games / tabs / 1024, 2),
                   "rereads_per_game_per_tab": round(arena.rereads / games / tabs, 2),
                   "load": [round(x, 1) for x in os.getloadavg()]}
            for name, values in (("ack", arena.ack), ("all", arena.all_updated), ("pong", arena.pong),
                                 ("told", arena.told), ("told_all", arena.told_all)):
                row[f"{name}_p50_ms"] = round(_pct(values, .5) * ms, 1)
                row[f"{name}_p99_ms"] = round(_pct(values, .99) * ms, 1)
            with open(o["json"], "a") as out:
                out.write(json.dumps(row) + "\n")

    def report_frames(self, o: dict, arena: Arena, elapsed: float) -> None:
        tabs = max(o["event_tabs"], 1)
        sent = max(len(arena.sent_frames), 1)
        per_frame = arena.cpu * 1000 / sent if o["pids"] else float("nan")
        self.stdout.write(f"standings frames: {len(arena.sent_frames)} sent to {o['event_tabs']} event tabs in "
                          f"{elapsed:.1f} s ({o['frame_rate']}/s), {arena.frame_bytes / max(arena.frames, 1) / 1024:.2f} "
                          f"KB each")
        for name, values in (("read (bench process CPU)", arena.frame_reads), ("sent→one tab has it", arena.told),
                             ("sent→every tab has it", arena.told_all)):
            if values:
                self.stdout.write(f"{name:<26} n={len(values):<6} p50={_pct(values, .5) * 1000:7.1f} ms  "
                                  f"p99={_pct(values, .99) * 1000:7.1f} ms  max={max(values) * 1000:7.1f} ms")
        self.stdout.write(f"web process CPU per frame handed to every tab: {per_frame:.1f} ms "
                          f"({per_frame / tabs * 1000:.0f} µs a tab)")
        errors = sum(arena.errors.values())
        self.stdout.write(f"errors: {errors}" + (f" {dict(arena.errors)}" if errors else ""))
        self.stdout.write(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if o["json"]:
            row = {"frames": len(arena.sent_frames), "event_tabs": o["event_tabs"], "frame_rate": o["frame_rate"],
                   "cpu_ms_per_frame": round(per_frame, 2), "kb_per_frame": round(arena.frame_bytes / max(arena.frames, 1) / 1024, 2),
                   "read_ms_p50": round(_pct(arena.frame_reads, .5) * 1000, 2),
                   "told_p99_ms": round(_pct(arena.told, .99) * 1000, 1),
                   "told_all_p99_ms": round(_pct(arena.told_all, .99) * 1000, 1), "errors": errors,
                   "load": [round(x, 1) for x in os.getloadavg()]}
            with open(o["json"], "a") as out:
                out.write(json.dumps(row) + "\n")
