"""A firing is harmless when it is a duplicate, late, stale, for a finished or deleted game, or when one
row is broken: nothing changes, it is logged, and nothing raises out of the timers."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.db.models.functions import Now
from django.utils import timezone
from timers_kit import age_game, age_seat, age_table, awaited, legal, make_player, play, start_game

from durak_site import deadlines
from game import services
from game.models import Game, GameEvent, GameSeat
from lobby.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def events(game) -> int:
    return GameEvent.objects.filter(game=game).count()


def test_the_same_turn_timeout_delivered_twice_fires_once():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    version = game.version
    age_game(game.pk)
    first = (deadlines.fire("turn", game.pk, version, wait=True) is not None)
    after_first = events(game)
    second = (deadlines.fire("turn", game.pk, version, wait=True) is not None)
    assert (first, second) == (True, False)
    assert events(game) == after_first == 1
    assert deadlines.sweep() == []


def test_a_timeout_that_arrives_after_the_player_moved_changes_nothing():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    players = {1: a, 2: b}
    stale_version = game.version
    leader = awaited(game)[0]
    play(game, players[leader], next(x for x in legal(game, leader) if x["type"] == "attack"))
    game.refresh_from_db()
    age_game(game.pk)  # even with the new deadline overdue, the old firing must not act on it
    assert deadlines.fire("turn", game.pk, stale_version, wait=True) is None
    assert deadlines.fire("turn", game.pk, stale_version, wait=True) is None
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 0


def test_a_firing_does_not_act_before_the_database_clock_says_so():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    version = game.version
    assert deadlines.fire("turn", game.pk, version, wait=True) is None  # 30 s left by the DB clock
    game.refresh_from_db()
    assert game.version == version


def test_a_disconnect_due_by_the_database_clock_fires_even_when_the_worker_clock_lags():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="lose")
    services.set_connected(game.pk, b, False)
    age_seat(game.pk, 2, by=1, disconnected_at=Now() - timedelta(seconds=31))  # due by the database's clock
    lagging = timezone.now() - timedelta(seconds=30)  # this process's clock is half a minute behind
    with mock.patch("django.utils.timezone.now", return_value=lagging):
        fired = services.fire_disconnect_deadline(game.pk, 2)
    assert fired is not None
    assert GameSeat.objects.get(game=game, number=2).left_at is not None  # policy "lose": he lost


def test_a_turn_deadline_is_set_by_the_database_clock_not_the_process_clock():
    if connection.vendor != "postgresql":
        pytest.skip("the embedded SQLite database has no clock of its own")
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    players = {1: a, 2: b}
    leader = awaited(game)[0]
    attack = next(x for x in legal(game, leader) if x["type"] == "attack")
    lagging = timezone.now() - timedelta(minutes=5)  # this process's clock is five minutes behind
    with mock.patch("django.utils.timezone.now", return_value=lagging):
        play(game, players[leader], attack)
    game.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        db_now = cursor.fetchone()[0]
    assert 25 < (game.deadline - db_now).total_seconds() <= 30  # 30 s from the database's now


def test_two_sweepers_at_once_fire_each_row_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks with skip_locked need Postgres")
    games = []
    for _ in range(6):
        games.append(start_game(make_player(), make_player())[1])
    for game in games:
        age_game(game.pk)
    results: list[list] = []

    def sweeper():
        try:
            results.append(deadlines.sweep())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    fired = [f.obj_id for batch in results for f in batch]
    assert sorted(fired) == sorted(g.pk for g in games)
    for game in games:
        assert GameEvent.objects.filter(game=game, source="timeout").count() == 1


@pytest.mark.parametrize("kind", ["turn", "check", "disconnect", "heartbeat", "countdown", "rematch", "inactive",
                                  "presence", "bot"])
def test_a_timer_for_a_deleted_object_is_a_quiet_no_op(kind):
    assert deadlines.fire(kind, 987654321, 3, wait=True) is None
    assert deadlines.fire(kind, 987654321, 3, wait=True) is None


def test_an_unknown_kind_is_logged_not_raised(caplog):
    with caplog.at_level(logging.ERROR, logger="durak_site.deadlines"):
        assert deadlines.fire("nonsense", 1, 1, wait=True) is None
    assert "unknown deadline kind" in caplog.text


def test_timers_for_a_finished_game_do_nothing():
    a, b = make_player(), make_player()
    table, game = start_game(a, b, disconnect_policy="lose")
    version = game.version
    services.set_connected(game.pk, a, True)
    services.set_connected(game.pk, a, False)
    services.leave_game(game.pk, b)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    finished_version = game.version
    for kind in ("turn", "check"):
        assert deadlines.fire(kind, game.pk, version, wait=True) is None
    seat = GameSeat.objects.get(game=game, player=a)
    age_seat(game.pk, seat.number)
    assert deadlines.fire("disconnect", seat.pk, 0, wait=True) is None
    game.refresh_from_db()
    assert game.version == finished_version
    assert [f.kind for f in deadlines.sweep()] == []


def test_a_player_reconnecting_to_a_finished_game_is_handled_quietly():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="lose")
    services.leave_game(game.pk, a)
    game.refresh_from_db()
    result = dict(game.result)
    services.set_connected(game.pk, a, True)
    services.set_connected(game.pk, b, False)
    services.set_connected(game.pk, b, True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == result
    assert not GameSeat.objects.filter(game=game, disconnect_deadline__isnull=False).exists()
    assert deadlines.sweep() == []


def test_a_stale_countdown_of_a_table_that_moved_on_does_nothing():
    a, b = make_player(), make_player()
    table, game = start_game(a, b)
    table.refresh_from_db()
    old_version = table.version - 1
    age_table(table.pk, "countdown_deadline")  # a leftover column on a playing table
    assert deadlines.fire("countdown", table.pk, old_version, wait=True) is None
    assert Game.objects.filter(table=table).count() == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_one_broken_row_is_logged_and_never_stops_the_sweep(caplog):
    a, b, c, d = (make_player() for _ in range(4))
    _, broken = start_game(a, b)
    _, healthy = start_game(c, d)
    Game.objects.filter(pk=broken.pk).update(state={"garbage": True})
    age_game(broken.pk, by=1)  # oldest first: the broken one is met first
    age_game(healthy.pk)
    with caplog.at_level(logging.ERROR, logger="durak_site.deadlines"):
        fired = deadlines.sweep()
    assert [f.obj_id for f in fired] == [healthy.pk]
    assert "failed" in caplog.text
    assert GameEvent.objects.filter(game=healthy, source="timeout").count() == 1
    # the broken row is retried with backoff, not hammered on every tick
    assert deadlines.sweep() == []


def test_two_sweepers_at_once_fire_a_social_deadline_once():
    """The arrival deadline is fired per table under the table's lock: two sweeps, one drop each."""
    from timers_kit import arrival_runs_out, make_match, searches_of

    from social.models import Dodge, SearchRequest

    if connection.vendor != "postgresql":
        pytest.skip("row locks with skip_locked need Postgres")
    table_ids = [make_match() for _ in range(4)]
    for table_id in table_ids:
        arrival_runs_out(table_id)
    results: list = []

    def sweeper():
        try:
            results.append(deadlines.sweep())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    fired = [f.obj_id for r in results for f in r if f.kind == "arrival"]
    assert len(fired) == len(set(fired)) and set(fired) <= set(table_ids)  # (a live server may fire some)
    for table_id in table_ids:
        assert searches_of(table_id) == ["dropped", "dropped"]
    # each no-show was handled once: one dodge per absent player, nobody requeued
    assert Dodge.objects.filter(kind=Dodge.Kind.NO_SHOW).count() == 2 * len(table_ids)
    assert sorted(Counter(Dodge.objects.values_list("player_id", flat=True)).values()) == [1] * 2 * len(table_ids)
    assert SearchRequest.objects.filter(status="waiting").count() == 0


def test_a_deadline_kind_is_registered_once():
    with pytest.raises(ValueError):
        deadlines.register(deadlines.Deadline("turn", lambda: [], lambda *args: None, derived=True))
    assert [d.kind for d in deadlines.registered()][:2] == ["turn", "check"]
