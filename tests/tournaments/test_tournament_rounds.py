"""Swiss rounds at a stated time or when the round before ends (Tournament.round_minutes), through
the services and the deadline registry's sweep; two last games ending at once start the next round
once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections

from durak_site import deadlines
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from tests.tournaments.helpers import begin, join_all, resign, start
from tournaments import services
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _event(event) -> Tournament:
    return Tournament.objects.get(pk=event.pk)


def _round_games(event, number: int) -> list[TournamentGame]:
    return list(TournamentGame.objects.filter(tournament=event, round=number, status="pending").order_by("pk"))


def _fire_round_column(event) -> None:
    """The round falls due (the clock moved by its column) and the registry's sweep fires it."""
    Tournament.objects.filter(pk=event.pk).update(round_deadline=db_now())
    deadlines.sweep()


def _stated_time_comes(event) -> None:
    """The clock moves on to the next round's stated time: the event's start goes back as long."""
    e = _event(event)
    early = e.round_deadline - db_now()
    Tournament.objects.filter(pk=event.pk).update(starts_at=e.starts_at - early, round_deadline=e.round_deadline - early)
    deadlines.sweep()


def _swiss(make_event, make_player, **extra):
    event = make_event(fmt="swiss", rounds=3, **extra)
    join_all(event, [make_player() for _ in range(4)])
    return start(event)


def test_rounds_at_stated_times_wait_for_their_time_not_for_the_last_game(make_event, make_player):
    event = _swiss(make_event, make_player, round_minutes=10)
    assert event.current_round == 1
    assert event.round_deadline == event.starts_at + timedelta(minutes=10)  # announced at the round's start
    for g in _round_games(event, 1):
        resign(begin(g).pk, g.player_b)
    assert _event(event).round_deadline == event.starts_at + timedelta(minutes=10)  # not earlier
    deadlines.sweep()
    assert _event(event).current_round == 1
    _stated_time_comes(event)
    event = _event(event)
    assert event.current_round == 2 and len(_round_games(event, 2)) == 2
    assert event.round_deadline == event.starts_at + timedelta(minutes=20)


def test_a_stated_time_that_finds_a_game_still_on_starts_the_round_when_it_ends(make_event, make_player):
    event = _swiss(make_event, make_player, round_minutes=10)
    done, still_on = _round_games(event, 1)
    resign(begin(done).pk, done.player_b)
    game = begin(still_on)
    _stated_time_comes(event)  # while a game of round 1 is still on
    event = _event(event)
    assert event.current_round == 1 and event.round_deadline is None  # nobody seated twice, no game cut
    resign(game.pk, still_on.player_b)
    due = _event(event).round_deadline
    assert due is not None and due <= db_now()  # its time has passed: the round is due at once
    deadlines.sweep()
    assert _event(event).current_round == 2


def test_without_stated_times_the_next_round_follows_the_last_game_after_a_break(make_event, make_player):
    event = _swiss(make_event, make_player)
    assert event.round_deadline is None
    first, second = _round_games(event, 1)
    resign(begin(first).pk, first.player_b)
    assert _event(event).round_deadline is None  # a game of the round is still on
    resign(begin(second).pk, second.player_b)
    due = _event(event).round_deadline
    assert due is not None
    assert services.ROUND_BREAK - timedelta(seconds=5) < due - db_now() <= services.ROUND_BREAK


def test_the_last_rounds_end_ends_the_event(make_event, make_player):
    event = _swiss(make_event, make_player, round_minutes=15)
    for number in (1, 2, 3):
        for g in _round_games(event, number):
            resign(begin(g).pk, g.player_b)
        _fire_round_column(event)
    event = _event(event)
    assert event.status == Tournament.Status.FINISHED and event.current_round == 3


def test_a_round_length_the_event_does_not_offer_is_refused(make_event):
    with pytest.raises(ServiceError) as exc:
        make_event(fmt="swiss", round_minutes=7)
    assert exc.value.code == "tournament_bad_round_minutes"
    assert not Tournament.objects.filter(format="swiss").exists()


@pytest.mark.django_db(transaction=True)
def test_two_last_games_ending_at_once_make_the_next_round_due(make_event, make_player):
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): two transactions at once")
    from game import services as game_services

    event = _swiss(make_event, make_player)
    pairings = _round_games(event, 1)
    games = [(begin(g).pk, g.player_b) for g in pairings]
    barrier = threading.Barrier(len(games))
    errors: list[BaseException] = []

    def finish(game_id, loser) -> None:
        try:
            barrier.wait()
            game_services.leave_game(game_id, loser)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=finish, args=g) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert not TournamentGame.objects.filter(tournament=event, status="pending").exists()
    assert _event(event).round_deadline is not None  # the second to finish saw the first finished
