"""The production path: services schedule eta tasks on commit, a real Celery worker (subprocess, Redis
broker, the test database) fires them; Celery beat's 1 s sweep fires what a killed worker lost."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db.models.functions import Now
from timers_kit import make_player, make_table, wait_for

from game import timers
from game.models import Game, GameEvent
from game.tasks import fire_deadline
from lobby import services as lobby
from lobby.models import Table

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def soon(game, seconds: float):
    """The turn deadline is `seconds` from now (the DB clock) and its eta task is queued."""
    Game.objects.filter(pk=game.pk).update(deadline=Now() + timedelta(seconds=seconds))
    game.refresh_from_db()
    timers.schedule("turn", game.pk, game.version, game.deadline)
    return game.deadline


def started(table) -> Game:
    return wait_for(lambda: Game.objects.filter(table=table).first(), timeout=15)


def ready_two_and_start() -> Game:
    """Two people sit and press «Готов»; the worker fires the countdown and the game starts."""
    a, b = make_player(), make_player()
    table = make_table(a, b)
    lobby.set_ready(table.pk, a, True)
    lobby.set_ready(table.pk, b, True)
    return started(table)


def test_the_3_s_countdown_is_fired_by_the_worker_and_the_game_starts(celery_processes):
    a, b = make_player(), make_player()
    table = make_table(a, b)
    lobby.set_ready(table.pk, a, True)
    lobby.set_ready(table.pk, b, True)
    t0 = time.monotonic()
    game = started(table)
    assert time.monotonic() - t0 >= 2.5  # not before the countdown ran out
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert game.status == Game.Status.PLAYING and game.deadline_kind == "turn"


def test_a_turn_deadline_fires_on_time_through_its_eta_task(celery_processes):
    game = ready_two_and_start()
    version = game.version
    soon(game, 0.5)
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=5)
    game.refresh_from_db()
    assert game.version == version + 1 and event.version == version + 1
    # late by the DB clock: well under a second (the sweep alone would be up to ~1 s)
    assert (event.created_at - (game.deadline - timedelta(seconds=30))) < timedelta(seconds=1)


def test_the_same_eta_task_delivered_twice_changes_the_game_once(celery_processes):
    game = ready_two_and_start()
    version = game.version
    at = soon(game, 0.4)
    for _ in range(3):  # duplicates, as a broker redelivery would make them
        fire_deadline.apply_async(args=("turn", game.pk, version), eta=at)
    wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    time.sleep(1.0)
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1
    game.refresh_from_db()
    assert game.version == version + 1


def test_bad_tasks_never_kill_the_worker(celery_processes):
    game = ready_two_and_start()
    for kind in ("turn", "check", "disconnect", "countdown", "rematch", "inactive", "bogus"):
        fire_deadline.delay(kind, 987654321, 1)
    fire_deadline.delay("turn", game.pk, game.version + 5)  # a version that never was
    soon(game, 0.3)
    wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    assert celery_processes.worker.poll() is None


def test_a_deadline_whose_eta_task_died_with_the_worker_fires_through_the_beat_sweep(celery_processes):
    game = ready_two_and_start()
    version = game.version
    soon(game, 1.5)
    time.sleep(0.5)  # the worker has reserved the eta task ...
    celery_processes.kill_worker()  # ... and dies with it (kill -9): Redis keeps it unacked for an hour
    time.sleep(1.5)
    game.refresh_from_db()
    assert game.version == version  # nobody fired it
    celery_processes.start_beat()
    celery_processes.start_worker()
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=10)
    assert event.version == version + 1
    time.sleep(1.5)
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1


def test_an_eta_task_from_a_process_whose_clock_runs_ahead_waits_for_the_database_clock(celery_processes):
    """The scheduling host's clock is 1 s fast: its eta task arrives early. The database's now() is the one
    clock: the task finds the deadline not yet due, re-queues itself for the rest, and fires on time
    (no beat is running here, so this is not the sweep)."""
    game = ready_two_and_start()
    version = game.version
    Game.objects.filter(pk=game.pk).update(deadline=Now() + timedelta(seconds=1.2))
    t0 = time.monotonic()
    fire_deadline.delay("turn", game.pk, version)  # "eta" = now by the fast clock
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=8)
    assert time.monotonic() - t0 >= 1.0  # not before the deadline by the database clock
    assert event.version == version + 1
