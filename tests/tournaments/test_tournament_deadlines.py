"""The tournaments' deadlines fire through the site's one deadline registry (durak_site.deadlines):
the same sweep, whichever driver runs it (here the sweep itself, and the in-process ticker), starts
an event, pairs an arena's pool and starts a Swiss round. No sweep of the app's own is left."""

from __future__ import annotations

import time

import pytest

from durak_site import deadlines
from durak_site.clock import db_now
from tests.tournaments.helpers import begin, join_all, resign
from tournaments.models import Entry, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _sweep_until(predicate, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"the registry's sweep did not bring {predicate} about within {timeout} s")
        deadlines.sweep()


def _fall_due(event, column: str) -> None:
    Tournament.objects.filter(pk=event.pk).update(**{column: db_now()})


def _status(event) -> str:
    return Tournament.objects.get(pk=event.pk).status


def _round(event) -> int:
    return Tournament.objects.get(pk=event.pk).current_round


def test_the_tournaments_register_their_deadlines_and_no_beat_entry_of_their_own(settings):
    kinds = {d.kind for d in deadlines.registered()}
    assert {"tournament_warn", "tournament_start", "tournament_round", "tournament_end", "tournament_no_show",
            "tournament_pairing"} <= kinds
    assert not [name for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
                if "tournament" in name or entry["task"].startswith("tournaments.")]


def test_an_arenas_start_fires_through_the_registry_and_its_pool_is_paired(make_event, make_player):
    event = make_event(fmt="arena")
    join_all(event, [make_player() for _ in range(4)])
    deadlines.sweep()
    assert _status(event) == Tournament.Status.SCHEDULED  # not due yet: nothing fires early
    _fall_due(event, "start_deadline")
    _sweep_until(lambda: TournamentGame.objects.filter(tournament=event).count() == 2)
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING and event.start_deadline is None
    assert event.end_deadline is not None
    assert not Entry.objects.filter(tournament=event, state=Entry.State.WAITING).exists()
    deadlines.sweep()  # a second sweep neither starts it again nor pairs anyone twice
    assert TournamentGame.objects.filter(tournament=event).count() == 2


def test_a_swiss_start_and_its_next_round_fire_through_the_registry(make_event, make_player):
    event = make_event(fmt="swiss", rounds=3)
    players = [make_player() for _ in range(4)]
    join_all(event, players)
    _fall_due(event, "start_deadline")
    _sweep_until(lambda: _round(event) == 1)
    assert _status(event) == Tournament.Status.RUNNING
    first = list(TournamentGame.objects.filter(tournament=event, round=1))
    assert len(first) == 2
    for pairing in first:
        resign(begin(pairing).pk, pairing.player_a)
    # the round is over: the sweep starts its break (round_deadline set once), not the next round
    _sweep_until(lambda: Tournament.objects.get(pk=event.pk).round_deadline is not None)
    deadlines.sweep()
    assert _round(event) == 1
    _fall_due(event, "round_deadline")  # the break is over
    _sweep_until(lambda: _round(event) == 2)
    assert TournamentGame.objects.filter(tournament=event, round=2).count() == 2
    assert Tournament.objects.get(pk=event.pk).round_deadline is None
    deadlines.sweep()
    assert _round(event) == 2 and TournamentGame.objects.filter(tournament=event).count() == 4


@pytest.mark.django_db(transaction=True)
def test_the_ticker_starts_an_event_and_pairs_it_by_itself(make_event, make_player):
    """The embedded driver: no call to any tournament function, only the registry's ticker."""
    event = make_event(fmt="arena")
    join_all(event, [make_player() for _ in range(2)])
    _fall_due(event, "start_deadline")
    thread = deadlines.start_ticker(0.05)
    try:
        end = time.monotonic() + 10
        while not TournamentGame.objects.filter(tournament=event).exists():
            assert time.monotonic() < end, "the ticker did not start and pair the arena"
            time.sleep(0.05)
    finally:
        deadlines.stop_ticker()
    assert not thread.is_alive()
    assert _status(event) == Tournament.Status.RUNNING
