"""The tournaments' deadlines fire through the site's one deadline registry (durak_site.deadlines):
the same sweep, whichever driver runs it (here the sweep itself, and the in-process ticker), starts
an event, pairs an arena's pool, reminds who has not come, creates the standing events and starts a
Swiss round. Each is a column the pacer watches: none runs on every sweep."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from durak_site import deadlines
from durak_site.clock import db_now
from tests.tournaments.helpers import begin, join_all, resign
from tournaments import services
from tournaments.models import Entry, ScheduleRow, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _sweep_until(predicate, timeout: float = 30.0) -> None:
    """Sweep until `predicate` holds (a bound for a stuck test, not a speed check: a loaded host may
    take seconds a sweep); a failure says what the sweeps fired."""
    end = time.monotonic() + timeout
    fired: list = []
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"the registry's sweep did not bring {predicate} about; it fired {fired[-10:]}")
        fired.extend(deadlines.sweep())


def _fall_due(event, column: str) -> None:
    Tournament.objects.filter(pk=event.pk).update(**{column: db_now()})


def _status(event) -> str:
    return Tournament.objects.get(pk=event.pk).status


def _round(event) -> int:
    return Tournament.objects.get(pk=event.pk).current_round


def test_the_tournaments_register_their_deadlines_and_no_beat_entry_of_their_own(settings):
    mine = {d.kind: d for d in deadlines.registered() if d.kind.startswith("tournament")}
    assert set(mine) == {"tournament_warn", "tournament_start", "tournament_round", "tournament_end",
                         "tournament_wave", "tournament_no_show", "tournament_reminder", "tournament_schedule"}
    assert not [k for k, d in mine.items() if d.derived or d.watch is None]  # each a column the pacer watches
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


def _wave_at(event):
    return Tournament.objects.get(pk=event.pk).next_wave_at


def _started_arena(make_event, make_player, players: int):
    event = make_event(fmt="arena")
    people = [make_player() for _ in range(players)]
    join_all(event, people)
    _fall_due(event, "start_deadline")
    _sweep_until(lambda: TournamentGame.objects.filter(tournament=event).count() == players // 2)
    assert _wave_at(event) is None  # everybody seated: no wave is due
    return event


def test_games_ending_ask_for_one_wave_a_moment_later_and_only_its_column_pairs(make_event, make_player):
    event = _started_arena(make_event, make_player, 4)
    for pairing in TournamentGame.objects.filter(tournament=event):
        resign(begin(pairing).pk, pairing.player_b)
    due = _wave_at(event)
    assert due is not None and 0 < (due - db_now()).total_seconds() <= 2  # gathering who else ends now
    deadlines.sweep()
    assert TournamentGame.objects.filter(tournament=event, status="pending").count() == 0  # not due yet
    _fall_due(event, "next_wave_at")
    _sweep_until(lambda: TournamentGame.objects.filter(tournament=event, status="pending").count() == 2)
    assert _wave_at(event) is None


def test_two_last_opponents_left_waiting_ask_for_no_wave_until_someone_comes_back(make_event, make_player):
    event = _started_arena(make_event, make_player, 4)
    first, second = TournamentGame.objects.filter(tournament=event).order_by("pk")
    resign(begin(first).pk, first.player_b)
    _fall_due(event, "next_wave_at")
    _sweep_until(lambda: _wave_at(event) is None)
    assert not TournamentGame.objects.filter(tournament=event, status="pending").exclude(pk=second.pk).exists()
    resign(begin(second).pk, second.player_b)  # two more back in the pool: a wave is asked for again
    _fall_due(event, "next_wave_at")
    _sweep_until(lambda: TournamentGame.objects.filter(tournament=event, status="pending").count() == 2)


def test_a_return_after_a_pause_asks_for_the_wave_when_his_wait_is_over(make_event, make_player):
    event = _started_arena(make_event, make_player, 2)
    pairing = TournamentGame.objects.get(tournament=event)
    resign(begin(pairing).pk, pairing.player_b)
    _fall_due(event, "next_wave_at")
    _sweep_until(lambda: _wave_at(event) is None)  # the two of them may not meet again at once
    player = pairing.player_a
    services.pause(event.pk, player)
    services.resume(event.pk, player)  # the first return: paired at once
    assert _wave_at(event) <= db_now()
    _sweep_until(lambda: _wave_at(event) is None)
    services.pause(event.pk, player)
    services.resume(event.pk, player)  # the second: he waits first, and the wave waits for him
    eligible = Entry.objects.get(tournament=event, player=player).eligible_at
    assert _wave_at(event) == eligible and (eligible - db_now()).total_seconds() > 10


def test_a_reminder_tells_who_has_not_come_and_stops_once_everybody_has(make_event, make_player):
    event = _started_arena(make_event, make_player, 2)
    pairing = TournamentGame.objects.get(tournament=event)
    assert pairing.remind_at is not None and pairing.remind_at < pairing.arrive_deadline
    services.arrived(pairing.player_a_id, pairing.table_id)
    TournamentGame.objects.filter(pk=pairing.pk).update(remind_at=db_now())
    _sweep_until(lambda: TournamentGame.objects.get(pk=pairing.pk).remind_at > db_now())  # b told, again later
    services.arrived(pairing.player_b_id, pairing.table_id)
    TournamentGame.objects.filter(pk=pairing.pk).update(remind_at=db_now())
    _sweep_until(lambda: TournamentGame.objects.get(pk=pairing.pk).remind_at is None)


def test_a_schedule_row_creates_its_events_when_its_column_falls_due(db):
    row = ScheduleRow.objects.create(name="Часовая арена", every_minutes=60, ahead_minutes=90)
    assert row.next_create_at is not None  # a new row is due at once
    _sweep_until(lambda: Tournament.objects.filter(schedule=row).exists())
    made = Tournament.objects.filter(schedule=row).count()
    row.refresh_from_db()
    now = db_now()
    assert now < row.next_create_at <= now + timedelta(minutes=60)  # the next slot, 90 min before it
    assert not Tournament.objects.filter(schedule=row, starts_at=row.next_create_at + timedelta(minutes=90)).exists()
    deadlines.sweep()
    assert Tournament.objects.filter(schedule=row).count() == made
    ScheduleRow.objects.filter(pk=row.pk).update(ahead_minutes=150)
    services.schedule_changed(row.pk)  # a moderator's edit: worked out again at once
    _sweep_until(lambda: Tournament.objects.filter(schedule=row).count() == made + 1)
