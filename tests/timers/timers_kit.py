"""Timers test kit: tables and games made through the real services, time moved on by ageing the
deadline columns (the one thing a test may write directly: "now" is later than it was), and a real
Celery worker + beat as subprocesses on the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from django.conf import settings as django_settings
from django.db.models.functions import Now

BASE_DIR = Path(__file__).resolve().parents[2]
LOGS = BASE_DIR / "test-artifacts" / "timers"


# ---------------------------------------------------------------------------- people and tables

_counter = iter(range(1, 10**9))


def make_player(prefix: str = "p"):
    from accounts.models import Player

    return Player.objects.create_user(f"{prefix}{next(_counter)}{uuid.uuid4().hex[:4]}")


def make_table(*players, **table_settings):
    """A waiting table with ``players`` seated in seats 1..n (host first), nobody ready yet."""
    from lobby import services as lobby

    table = lobby.create_table(players[0], seats_count=max(2, len(players)), **table_settings)
    for number, player in enumerate(players[1:], start=2):
        lobby.sit(table.pk, player, number)
    return table


def age_table(table_id: int, field: str, by: float = 0.001) -> None:
    """Time passes: the table's ``field`` deadline is now (or ``by`` seconds ago)."""
    from lobby.models import Table

    Table.objects.filter(pk=table_id).update(**{field: Now() - timedelta(seconds=by)})


def age_game(game_id: int, by: float = 0.001) -> None:
    from game.models import Game

    Game.objects.filter(pk=game_id).update(deadline=Now() - timedelta(seconds=by))


def age_seat(game_id: int, number: int, by: float = 0.001, **more) -> None:
    from game.models import GameSeat

    GameSeat.objects.filter(game_id=game_id, number=number).update(
        disconnect_deadline=Now() - timedelta(seconds=by), **more)


def start_game(*players, **table_settings):
    """Everyone seated presses «Готово», the 3 s countdown runs out and the timers start the game."""
    from durak_site import deadlines
    from game.models import Game
    from lobby import services as lobby

    table = make_table(*players, **table_settings)
    for player in players:
        lobby.set_ready(table.pk, player, True)
    age_table(table.pk, "countdown_deadline")
    fired = deadlines.sweep()
    assert [f.kind for f in fired] == ["countdown"], fired
    game = Game.objects.get(table_id=table.pk, status=Game.Status.PLAYING)
    return table, game


def state_of(game):
    from game import engine

    game.refresh_from_db()
    return engine.GameState.from_json(game.state)


def awaited(game) -> list[int]:
    from game import engine

    return list(engine.whose_turn(state_of(game)))


def play(game, player, action: dict):
    from game import services

    game.refresh_from_db()
    return services.apply_player_action(game.pk, player, game.version, uuid.uuid4().hex, action)


def legal(game, seat: int) -> list[dict]:
    from game import engine

    return engine.view_for(state_of(game), seat)["legal"]


def wait_for(predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")


# ---------------------------------------------------------------------------- Celery subprocesses


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or ""
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class CeleryProcesses:
    """A real `celery worker -P solo` (and optionally `celery beat`) on the test database."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.name = f"timers-test-{uuid.uuid4().hex[:8]}@localhost"
        self.env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": django_settings.REDIS_URL,
                    "PYTHONUNBUFFERED": "1"}
        self.starts = 0

    def _spawn(self, args: list[str], log_name: str) -> subprocess.Popen:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / log_name, "ab")  # noqa: SIM115 (lives as long as the process)
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "durak_site", *args], cwd=BASE_DIR,
                                env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start_worker(self) -> None:
        from durak_site.celery import app

        self.starts += 1
        self.worker = self._spawn(["worker", "-P", "solo", "-l", "info", "-n", self.name, "--without-gossip",
                                   "--without-mingle", "--without-heartbeat"], "worker.log")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.worker.poll() is not None:
                raise RuntimeError(f"the celery worker exited with {self.worker.returncode}; see {self.log_dir}")
            if app.control.ping(destination=[self.name], timeout=0.5):
                return
        raise RuntimeError("the celery worker did not answer pings within 30 s")

    def start_beat(self) -> None:
        schedule = self.log_dir / f"beat-{uuid.uuid4().hex[:6]}"
        self.beat = self._spawn(["beat", "-l", "info", "-s", str(schedule), "--pidfile="], "beat.log")

    def kill_worker(self) -> None:
        """kill -9: the worker dies holding its reserved eta tasks (Redis gives them back only after
        the visibility timeout, an hour), exactly the case the beat sweep is for."""
        if self.worker is not None and self.worker.poll() is None:
            os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait(10)
        self.worker = None

    def kill_beat(self) -> None:
        """kill -9 of the one scheduler: whatever it knew of the next deadline dies with it."""
        if self.beat is not None and self.beat.poll() is None:
            os.killpg(self.beat.pid, signal.SIGKILL)
            self.beat.wait(10)
        self.beat = None

    def stop(self) -> None:
        for proc in (self.worker, self.beat):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
        self.worker = self.beat = None


# ---------------------------------------------------------------------------- the social layer's deadlines


def make_match():
    """Two players' searches meet at a new table: both are MATCHED, each with an arrival deadline."""
    from social import presence, queue

    a, b = make_player("s"), make_player("s")
    for player in (a, b):
        presence.opened(player.pk)
    queue.join(a, players="2", bot_fill="0")
    return queue.join(b, players="2", bot_fill="0").table_id


def arrival_runs_out(table_id: int) -> None:
    """Nobody arrived and the arrival time is over."""
    from social.models import SearchRequest

    SearchRequest.objects.filter(table_id=table_id).update(arrive_deadline=Now() - timedelta(seconds=0.001))


def searches_of(table_id: int) -> list[str]:
    from social.models import SearchRequest

    return sorted(SearchRequest.objects.filter(table_id=table_id).values_list("status", flat=True))


def make_invitation():
    """A host at a waiting table invites a guest; the invitation's time is already over."""
    from social import people
    from social.models import Invitation

    host, guest = make_player("h"), make_player("g")
    make_table(host)
    row = people.invite(host, guest.pk)
    Invitation.objects.filter(pk=row.pk).update(expires_at=Now() - timedelta(seconds=0.001))
    return row


def invitation_status(row) -> str:
    from social.models import Invitation

    return Invitation.objects.get(pk=row.pk).status
