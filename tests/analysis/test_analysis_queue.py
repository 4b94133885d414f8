"""The analysis queue (analysis/queue.py): a run is claimed by attempt and task, a run whose worker
died is queued again once and then failed, the sweep repairs runs that stopped and turns the broker
lost; a player's own games go first, and one player or one address cannot fill the queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from analysis import queue, services
from analysis.models import Analysis
from durak_site.errors import ServiceError
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = pytest.mark.django_db

_seeds = iter(range(10, 10**6))


def _game(*lineup):
    return play_finished_game(make_table(seats_count=len(lineup)), list(lineup), rules={"variant": "podkidnoy"},
                              seed=next(_seeds))


def _status(a: Analysis) -> tuple[str, int, str]:
    a.refresh_from_db()
    return a.status, a.lost, a.error


# ------------------------------------------------------------------------------ lost runs


def test_a_run_whose_worker_died_is_queued_again_and_then_runs():
    vera, ivan = make_player("vera"), make_player("ivan")
    a = services.request_analysis(_game(vera, ivan).pk, vera)
    assert queue.claim(task_id="task-1") == (a.pk, 1)  # the child that claimed it is killed
    assert services.run(a.pk) is False  # a duplicate message cannot take a running row
    assert queue.worker_lost("task-1") == 1  # Celery's main process reports the lost worker
    assert _status(a) == ("queued", 1, "")
    assert queue.run(task_id="task-2") is True
    assert _status(a) == ("done", 1, "")


def test_a_second_lost_run_fails_the_analysis_and_asking_again_queues_it():
    vera, ivan = make_player("vera"), make_player("ivan")
    game = _game(vera, ivan)
    a = services.request_analysis(game.pk, vera)
    for task in ("t1", "t2"):
        assert queue.claim(task_id=task) is not None
        queue.worker_lost(task)
    assert _status(a) == ("failed", 2, "worker_lost")
    assert queue.claim() is None  # no loop: a game that kills its worker stops here
    assert services.request_analysis(game.pk, ivan).status == Analysis.Status.QUEUED
    assert _status(a) == ("queued", 0, "")


def test_the_sweep_queues_again_a_run_that_stopped_stepping():
    vera, ivan = make_player("vera"), make_player("ivan")
    a = services.request_analysis(_game(vera, ivan).pk, vera)
    queue.claim(task_id="t1")
    assert queue.sweep()["lost"] == 0  # a run that steps is alive
    Analysis.objects.filter(pk=a.pk).update(heartbeat_at=timezone.now() - queue.RUN_STALE - timedelta(seconds=1))
    assert queue.sweep()["lost"] == 1
    assert _status(a) == ("queued", 1, "")


def test_a_run_declared_dead_cannot_overwrite_the_next_one():
    vera, ivan = make_player("vera"), make_player("ivan")
    a = services.request_analysis(_game(vera, ivan).pk, vera)
    first = queue.claim(task_id="slow")
    queue.worker_lost("slow")
    second = queue.claim(task_id="next")
    assert first == (a.pk, 1) and second == (a.pk, 2)
    assert queue._execute(*first) is False  # the slow run finishes late: its result is dropped
    a.refresh_from_db()
    assert a.status == Analysis.Status.RUNNING and a.attempt == 2
    assert queue._execute(*second) is True
    assert _status(a)[0] == "done"


def test_the_sweep_sends_turns_again_for_rows_whose_messages_redis_lost(settings, django_capture_on_commit_callbacks):
    if not django_settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: the broker's queue is read")
    from durak_site.celery import app

    settings.ANALYSIS_RUNNER = "celery"
    vera, ivan = make_player("vera"), make_player("ivan")
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        client.delete(queue.QUEUE)
        with django_capture_on_commit_callbacks(execute=True):
            a = services.request_analysis(_game(vera, ivan).pk, vera)
        assert client.llen(queue.QUEUE) == 1  # its turn
        client.delete(queue.QUEUE)  # Redis restarted and forgot it
        assert queue.sweep()["turns_sent"] == 0  # a row younger than the grace period may be in flight
        Analysis.objects.filter(pk=a.pk).update(requested_at=timezone.now() - queue.QUEUE_GRACE * 2)
        assert queue.sweep()["turns_sent"] == 1
        assert client.llen(queue.QUEUE) == 1
        assert queue.sweep()["turns_sent"] == 0  # its turn waits: nothing more
        client.delete(queue.QUEUE)


# ------------------------------------------------------------------------------ fair queue


def test_a_players_own_game_runs_before_earlier_requests_for_other_peoples_games():
    vera, ivan, stranger = make_player("vera"), make_player("ivan"), make_player("fan")
    others = [services.request_analysis(_game(vera, ivan).pk, stranger) for _ in range(2)]
    own = services.request_analysis(_game(vera, ivan).pk, ivan)
    assert [a.priority for a in (*others, own)] == [queue.Priority.OTHERS] * 2 + [queue.Priority.OWN]
    assert queue.claim()[0] == own.pk
    assert queue.claim()[0] == others[0].pk


def test_one_player_may_have_two_analyses_waiting_at_once():
    vera, ivan = make_player("vera"), make_player("ivan")
    games = [_game(vera, ivan) for _ in range(3)]
    automatic = _game(vera, ivan)  # his automatic analyses do not count against his requests
    Analysis.objects.create(game=automatic, requested_by=vera, priority=queue.Priority.AUTO)
    first, _second = (services.request_analysis(g.pk, vera) for g in games[:2])
    with pytest.raises(ServiceError) as e:
        services.request_analysis(games[2].pk, vera)
    assert e.value.code == "analysis_queue_full"
    assert not Analysis.objects.filter(game=games[2]).exists()
    assert services.request_analysis(games[0].pk, vera).pk == first.pk  # asking again is no new request
    services.run(first.pk)
    assert services.request_analysis(games[2].pk, vera).status == Analysis.Status.QUEUED


def test_the_accounts_of_one_address_share_an_hourly_limit(client, settings):
    settings.ANALYSIS_PER_HOUR_PER_ADDRESS = 3
    vera, ivan, fan1, fan2 = (make_player(n) for n in ("vera", "ivan", "fana", "fanb"))
    games = [_game(vera, ivan) for _ in range(5)]
    for fan, game in zip((fan1, fan1, fan2), games[:3], strict=True):
        client.force_login(fan)
        assert client.post(reverse("analysis:request", args=[game.pk]), REMOTE_ADDR="203.0.113.7").status_code == 302
    response = client.post(reverse("analysis:request", args=[games[3].pk]), REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429 and not Analysis.objects.filter(game=games[3]).exists()
    client.force_login(vera)  # another address has its own allowance
    assert client.post(reverse("analysis:request", args=[games[4].pk]), REMOTE_ADDR="198.51.100.2").status_code == 302
