"""How late do deadlines fire? A benchmark of the timers, not a test.

    python manage.py bench_timers --games 200 --deadline-ms 500

Creates ``--games`` real two-player tables (through lobby.services: seated, «Готово», the 3 s countdown
is fired by the timers and game.services.start_game deals), then runs three rounds; in each, every
game's turn deadline is set ``--deadline-ms`` ahead (a column, as a move sets it), and lateness =
when the timeout move was written (GameEvent.created_at) minus the deadline:

1. normal running: the deadlines fall at random over ``--spread-ms`` (default 10 s: 200 games give
   20 firings/s, several times what 200 tables with 30 s turn timers can demand even if every player
   let every clock run out). This is the figure the p99 < 250 ms target is about.
2. burst: every deadline falls within the time it takes to set them (about 1 s): the worker's
   capacity, i.e. how a queue of simultaneous expiries drains.
3. kill -9: the deadlines are set again, the worker is killed with SIGKILL while they fall due, and
   restarted; the sweeps beat enqueues (at the deadlines, and a full one every second) must fire
   every one of them ("lost" must be 0).

With TIMERS_BACKEND "celery" (REDIS_URL set) it spawns its own worker and beat (``--no-spawn`` uses
the ones already running and skips round 2); with "ticker" it runs the in-process ticker instead.
``--pool threads --concurrency 8`` and ``--worker-nice -10`` help tell the timers' own delay from CPU
starvation on a busy shared machine (the load average is printed with the figures).
Writing the deadline columns directly is the benchmark's way of making time pass quickly; the bench
rows (players "bench…", their tables and games) are deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models.functions import Now

BASE_DIR = Path(settings.BASE_DIR)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


class Command(BaseCommand):
    help = "Measure deadline lateness (p50/p99/max) normally and across a kill -9 of the Celery worker."

    pool: str
    concurrency: int
    worker_name: str
    log_dir: Path
    worker: subprocess.Popen[bytes] | None
    beat: subprocess.Popen[bytes] | None

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--deadline-ms", type=int, default=500, help="each deadline is this far ahead")
        parser.add_argument("--spread-ms", type=int, default=10000,
                            help="normal running: the deadlines fall at random over this many ms")
        parser.add_argument("--pool", default="prefork", help="worker pool: prefork (default) or solo")
        parser.add_argument("--concurrency", type=int, default=0, help="worker processes (0: Celery's default)")
        parser.add_argument("--down-seconds", type=float, default=2.0, help="how long the worker stays dead")
        parser.add_argument("--worker-nice", type=int, default=0,
                            help="nice value for the spawned worker (negative = priority on a busy shared box)")
        parser.add_argument("--no-spawn", action="store_true", help="use the worker and beat already running")
        parser.add_argument("--keep", action="store_true", help="keep the bench tables, games and players")
        parser.add_argument("--timeout", type=float, default=60.0, help="give up waiting after this many seconds")

    # ------------------------------------------------------------------ processes

    def _spawn(self, args: list[str], name: str) -> subprocess.Popen:
        log = open(self.log_dir / name, "ab")  # noqa: SIM115 (lives as long as the process)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        nice = self.worker_nice if args[0] == "worker" else 0
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "durak_site", *args], cwd=BASE_DIR, env=env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=(lambda: os.nice(nice)) if nice else None)

    def start_worker(self) -> None:
        from durak_site.celery import app

        args = ["worker", "-l", "info", "-P", self.pool, "-n", self.worker_name, "--without-gossip",
                "--without-mingle"]
        if self.concurrency:
            args += ["-c", str(self.concurrency)]
        t0 = time.monotonic()
        self.worker = self._spawn(args, "worker.log")
        while time.monotonic() - t0 < 60:
            if self.worker.poll() is not None:
                raise CommandError(f"the worker exited ({self.worker.returncode}); see {self.log_dir}/worker.log")
            if app.control.ping(destination=[self.worker_name], timeout=0.5):
                self.stdout.write(f"  worker up in {time.monotonic() - t0:.1f} s")
                return
        raise CommandError("the worker did not answer within 60 s")

    def kill_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGKILL)  # the worker and its pool children, like a dead host
            self.worker.wait(10)

    def stop_all(self) -> None:
        for proc in (self.worker, self.beat):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()

    # ------------------------------------------------------------------ the games

    def make_games(self, count: int) -> list[int]:
        from accounts.models import Player
        from game.models import Game
        from lobby import services as lobby

        tag = uuid.uuid4().hex[:6]
        table_ids = []
        t0 = time.monotonic()
        for i in range(count):
            a = Player.objects.create_user(f"bench{tag}a{i}")
            b = Player.objects.create_user(f"bench{tag}b{i}")
            self.player_ids += [a.pk, b.pk]
            table = lobby.create_table(a, seats_count=2, turn_seconds=90, name=f"bench {tag} {i}")  # no natural timeouts mid-round
            lobby.sit(table.pk, b, 2)
            lobby.set_ready(table.pk, a, True)
            lobby.set_ready(table.pk, b, True)
            table_ids.append(table.pk)
        self.table_ids += table_ids
        self.stdout.write(f"  {count} tables seated and ready in {time.monotonic() - t0:.1f} s; "
                          "waiting for the timers to fire their 3 s countdowns")
        deadline = time.monotonic() + 3 + self.timeout
        while time.monotonic() < deadline:
            started = Game.objects.filter(table_id__in=table_ids).count()
            if started == count:
                break
            time.sleep(0.2)
        games = list(Game.objects.filter(table_id__in=table_ids).values_list("pk", flat=True))
        self.stdout.write(f"  {len(games)}/{count} games started by their countdown")
        return games

    def set_deadlines(self, games: list[int], ms: int, spread_ms: int) -> dict[int, tuple[int, Any]]:
        """Each game's turn deadline `ms` (+ random spread) from the DB's now: a column, as a move sets it."""
        import random

        from game.models import Game

        targets = {}
        t0 = time.monotonic()
        for game_id in games:
            ahead = ms + (random.uniform(0, spread_ms) if spread_ms else 0)
            Game.objects.filter(pk=game_id).update(deadline=Now() + timedelta(milliseconds=ahead))
            version, deadline = Game.objects.filter(pk=game_id).values_list("version", "deadline").get()
            targets[game_id] = (version, deadline)
        took = time.monotonic() - t0
        self.stdout.write(f"  {len(targets)} deadlines set over {took:.1f} s "
                          f"(≈ {len(targets) / max(took + spread_ms / 1000, 0.001):.0f} firings/s demanded)")
        return targets

    def collect(self, targets: dict[int, tuple[int, Any]], wait_until: float) -> tuple[list[float], list[int]]:
        from game.models import GameEvent

        fired: dict[int, Any] = {}
        while time.monotonic() < wait_until and len(fired) < len(targets):
            rows = GameEvent.objects.filter(game_id__in=[g for g in targets if g not in fired], source="timeout")
            for game_id, version, created in rows.values_list("game_id", "seq", "created_at"):
                if version == targets[game_id][0] + 1:
                    fired[game_id] = created
            time.sleep(0.1)
        lateness = [(fired[g] - targets[g][1]).total_seconds() * 1000 for g in fired]
        lost = [g for g in targets if g not in fired]
        return lateness, lost

    def report(self, title: str, lateness: list[float], lost: list[int], total: int) -> None:
        if lateness:
            self.stdout.write(self.style.SUCCESS(
                f"{title}: fired {len(lateness)}/{total}, lost {len(lost)}; lateness ms "
                f"p50 {percentile(lateness, 50):.0f}  p90 {percentile(lateness, 90):.0f}  "
                f"p99 {percentile(lateness, 99):.0f}  max {max(lateness):.0f}  min {min(lateness):.0f}  "
                f"mean {statistics.fmean(lateness):.0f}"))
        else:
            self.stdout.write(self.style.ERROR(f"{title}: nothing fired, lost {len(lost)}"))

    # ------------------------------------------------------------------ main

    def handle(self, *args, games: int, deadline_ms: int, spread_ms: int, pool: str, concurrency: int,
               down_seconds: float, worker_nice: int, no_spawn: bool, keep: bool, timeout: float, **options) -> None:
        self.player_ids: list[int] = []
        self.table_ids: list[int] = []
        self.worker = self.beat = None
        self.pool, self.concurrency, self.timeout, self.worker_nice = pool, concurrency, timeout, worker_nice
        self.worker_name = f"bench-timers-{uuid.uuid4().hex[:6]}@localhost"
        self.log_dir = Path(tempfile.mkdtemp(prefix="bench-timers-"))
        backend = settings.TIMERS_BACKEND
        db = settings.DATABASES["default"]
        self.stdout.write(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
        self.stdout.write(f"bench_timers: {games} games, deadlines {deadline_ms} ms ahead, backend {backend}, "
                          f"database {db['ENGINE'].rsplit('.', 1)[-1]} {db['NAME']}, logs in {self.log_dir}")
        try:
            if backend == "celery":
                if not no_spawn:
                    from durak_site.celery import app

                    app.control.purge()
                    self.beat = self._spawn(["beat", "-l", "info", "-s", str(self.log_dir / "beat-schedule"),
                                             "--pidfile="], "beat.log")
                    self.start_worker()
            else:
                from durak_site import deadlines

                deadlines.start_ticker()
                self.stdout.write("  in-process ticker running (sweeps when a deadline falls due)")
            ids = self.make_games(games)
            if not ids:
                raise CommandError("no game started: are the timers (worker/beat) running?")
            self.poll_cost()

            self.stdout.write(f"round 1: normal running (deadlines spread over {spread_ms / 1000:.0f} s)")
            targets = self.set_deadlines(ids, deadline_ms, spread_ms)
            lateness, lost = self.collect(targets, time.monotonic() + deadline_ms / 1000 + spread_ms / 1000
                                          + timeout)
            self.report("normal", lateness, lost, len(targets))
            self.stdout.write(f"  load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

            self.stdout.write("round 2: burst (every deadline within the ~1 s it takes to set them)")
            targets = self.set_deadlines(ids, deadline_ms, 0)
            lateness, lost = self.collect(targets, time.monotonic() + deadline_ms / 1000 + timeout)
            self.report("burst", lateness, lost, len(targets))
            self.stdout.write(f"  load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
            if backend == "celery" and not no_spawn:
                self.stdout.write(f"round 3: kill -9 the worker while the deadlines fall due, {down_seconds:.1f} s "
                                  "down, restart")
                targets = self.set_deadlines(ids, deadline_ms, 0)
                time.sleep(min(0.2, deadline_ms / 2000))  # the worker has reserved them by now
                t_kill = time.monotonic()
                self.kill_worker()
                time.sleep(max(0.0, down_seconds - (time.monotonic() - t_kill)))
                self.start_worker()
                lateness, lost = self.collect(targets, time.monotonic() + timeout)
                self.report("after kill -9 + restart", lateness, lost, len(targets))
                down = time.monotonic() - t_kill
                self.stdout.write(f"  (the worker was away ~{down:.1f} s incl. its start-up; lateness after a "
                                  "restart is that outage plus up to one beat sweep interval)")
        finally:
            self.stop_all()
            if not keep:
                self.cleanup()

    def poll_cost(self, repeat: int = 200) -> None:
        """What the pacer's one statement (the earliest deadline over every watched column) costs the
        process that polls it, ten times a second, with the bench's games pending."""
        from durak_site.deadlines import pacer, registry

        columns = sum(1 for d in registry.registered() if d.watch is not None)
        took = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            pacer.next_deadline()
            took.append((time.perf_counter() - t0) * 1000)
        self.stdout.write(f"pacer poll: {columns} columns in one statement, {statistics.median(took):.2f} ms "
                          f"median, {percentile(took, 99):.2f} ms p99 ({repeat} polls)")

    def cleanup(self) -> None:
        from accounts.models import Player
        from lobby.models import Table

        Table.objects.filter(pk__in=self.table_ids).delete()  # games, seats and events go with them
        Player.objects.filter(pk__in=self.player_ids).delete()
