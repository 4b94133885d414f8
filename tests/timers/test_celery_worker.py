"""The production path: deadlines are columns; Celery beat (the one scheduler, durak_site.deadlines.beat) enqueues a sweep
when one falls due and a real Celery worker (subprocess, Redis broker, the test database) fires
what is due; a worker killed with kill -9 loses nothing."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db.models.functions import Now
from timers_kit import (
    arrival_runs_out,
    invitation_status,
    make_invitation,
    make_match,
    make_player,
    make_table,
    searches_of,
    wait_for,
)

from game.models import Game, GameEvent
from lobby import services as lobby
from lobby.models import Table

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def soon(game, seconds: float):
    """The turn deadline is `seconds` from now (the DB clock); beat's sweeps will find it."""
    Game.objects.filter(pk=game.pk).update(deadline=Now() + timedelta(seconds=seconds))
    game.refresh_from_db()
    return game.deadline


def started(table) -> Game:
    return wait_for(lambda: Game.objects.filter(table=table).first(), timeout=15)


def ready_two_and_start() -> Game:
    """Two people sit and press «Готово»; the worker fires the countdown and the game starts."""
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


def test_a_turn_deadline_fires_on_time_through_the_beat_sweep(celery_processes):
    game = ready_two_and_start()
    version = game.version
    soon(game, 0.5)
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=5)
    game.refresh_from_db()
    assert game.version == version + 1 and event.seq == version + 1
    # late by the DB clock: within a second (beat wakes at the deadline, plus the queue)
    assert (event.created_at - (game.deadline - timedelta(seconds=30))) < timedelta(seconds=1)


def test_a_move_sends_no_broker_message_for_its_deadline(celery_processes):
    """The deadline is a column: a move costs no broker publish (the sweep finds it)."""
    from durak_site.celery import app

    game = ready_two_and_start()
    with app.connection_for_write() as conn:
        queued_before = conn.default_channel.client.llen("celery")
    from timers_kit import awaited, legal, play

    seat = awaited(game)[0]
    player = game.seats.get(number=seat).player
    play(game, player, legal(game, seat)[0])
    with app.connection_for_write() as conn:
        assert conn.default_channel.client.llen("celery") <= queued_before


def test_sweeps_running_at_once_change_the_game_once(celery_processes):
    from durak_site.deadlines.tasks import sweep_deadlines

    game = ready_two_and_start()
    version = game.version
    Game.objects.filter(pk=game.pk).update(deadline=Now() - timedelta(seconds=0.1))
    for _ in range(4):  # as several workers would run them
        sweep_deadlines.delay()
    wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    time.sleep(1.0)
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1
    game.refresh_from_db()
    assert game.version == version + 1


def test_bad_tasks_never_kill_the_worker(celery_processes):
    from durak_site.deadlines.tasks import sweep_deadlines
    from game.tasks import bot_move

    game = ready_two_and_start()
    bot_move.delay(987654321, 1, 1)
    bot_move.delay(game.pk, 1, game.version + 5)  # a version that never was
    sweep_deadlines.delay(-3)
    soon(game, 0.3)
    wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    assert celery_processes.worker.poll() is None


def test_a_deadline_that_falls_due_while_the_worker_is_dead_fires_after_its_restart(celery_processes):
    game = ready_two_and_start()
    version = game.version
    celery_processes.kill_worker()  # kill -9
    soon(game, 0.5)
    time.sleep(1.5)
    game.refresh_from_db()
    assert game.version == version  # nobody fired it
    celery_processes.start_worker()
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=10)
    assert event.seq == version + 1
    time.sleep(1.5)
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1


def test_a_deadline_that_falls_due_while_beat_is_dead_fires_when_beat_is_back(celery_processes):
    """Beat holds no state that matters: restarted, it reads the columns and sweeps what is overdue."""
    game = ready_two_and_start()
    version = game.version
    celery_processes.kill_beat()  # kill -9
    soon(game, 0.3)
    time.sleep(1.0)
    game.refresh_from_db()
    assert game.version == version  # the worker alone fires nothing: beat is the one scheduler
    celery_processes.start_beat()
    event = wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").first(), timeout=15)
    assert event.seq == version + 1
    time.sleep(1.5)
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1


def test_the_social_deadlines_its_app_registered_fire_through_beat_and_the_worker(celery_processes):
    """Beat's pacer watches the search's arrival column too: the worker drops who did not come."""
    table_id = make_match()
    invitation = make_invitation()
    arrival_runs_out(table_id)
    wait_for(lambda: searches_of(table_id) == ["dropped", "dropped"], timeout=10)
    wait_for(lambda: invitation_status(invitation) == "expired", timeout=10)
    assert Table.objects.get(pk=table_id).status == Table.Status.CLOSED


def test_a_social_deadline_that_falls_due_while_the_worker_is_dead_fires_after_its_restart(celery_processes):
    table_id = make_match()
    celery_processes.kill_worker()  # kill -9
    arrival_runs_out(table_id)
    time.sleep(1.5)
    assert searches_of(table_id) == ["matched", "matched"]  # nobody fired it
    celery_processes.start_worker()
    wait_for(lambda: searches_of(table_id) == ["dropped", "dropped"], timeout=10)
