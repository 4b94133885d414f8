"""When a sweep happens: the pacer (shared by beat's scheduler and the in-process ticker) reads the
earliest pending deadline from the real columns and asks for a sweep the moment one is due, never on
a fixed beat; beat's DeadlineScheduler turns each "sweep now" into exactly one broker message."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings as django_settings
from django.db.models.functions import Now
from timers_kit import age_game, age_seat, age_table, make_player, make_table, start_game

from durak_site import deadlines
from game.models import Game, GameSeat
from lobby import services as lobby
from lobby.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


def game_deadline_in(game_id: int, seconds: float) -> None:
    Game.objects.filter(pk=game_id).update(deadline=Now() + timedelta(seconds=seconds))


def pacer_after_first_full_sweep(**kwargs) -> deadlines.Pacer:
    """A pacer whose opening full sweep (every pacer starts with one) is behind it."""
    pacer = deadlines.Pacer(**{"poll": 0.1, "full_every": 3600, **kwargs})
    assert pacer.decide() == (True, 0.0)
    assert pacer.sweep_full is True
    return pacer


def test_a_deadline_read_by_raw_sql_is_aware_whatever_the_driver_hands_back():
    """SQLite gives text or (3.40 for a subquery's column) a naive datetime, both UTC; Postgres an
    aware one: the pacer compares them with the database's now, so all must come back aware."""
    moment = datetime(2026, 12, 1, 0, 16, 7, 168751, tzinfo=UTC)
    assert deadlines.pacer._as_datetime(moment.replace(tzinfo=None)) == moment
    assert deadlines.pacer._as_datetime("2026-12-01 00:16:07.168751") == moment
    assert deadlines.pacer._as_datetime(moment) == moment
    assert deadlines.pacer._as_datetime(None) is None


def test_next_deadline_is_the_earliest_pending_one_over_every_column():
    a, b, c, d = make_player(), make_player(), make_player(), make_player()
    _, game = start_game(a, b)  # turn deadline ~30 s ahead
    now, upcoming = deadlines.next_deadline()
    assert upcoming == Game.objects.get(pk=game.pk).deadline
    assert timedelta(seconds=25) < upcoming - now <= timedelta(seconds=31)

    GameSeat.objects.filter(game=game, number=2).update(disconnect_deadline=Now() + timedelta(seconds=7))
    assert deadlines.next_deadline()[1] == GameSeat.objects.get(game=game, number=2).disconnect_deadline
    table = make_table(c, d)
    lobby.set_ready(table.pk, c, True)
    lobby.set_ready(table.pk, d, True)  # the 3 s countdown
    table.refresh_from_db()
    assert deadlines.next_deadline()[1] == table.countdown_deadline
    Seat.objects.filter(table=table, number=1).update(inactive_deadline=Now() + timedelta(seconds=1))
    assert deadlines.next_deadline()[1] == Seat.objects.get(table=table, number=1).inactive_deadline

    # "after": what a sweep already covers is skipped
    seat_deadline = Seat.objects.get(table=table, number=1).inactive_deadline
    assert deadlines.next_deadline(after=seat_deadline)[1] == table.countdown_deadline


def test_a_finished_game_keeps_no_deadline_pending():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline=Now() - timedelta(seconds=5))
    GameSeat.objects.filter(game=game).update(disconnect_deadline=Now() - timedelta(seconds=5))
    assert deadlines.next_deadline()[1] is None


def test_nothing_pending_no_sweep_and_a_re_read_every_poll():
    pacer = pacer_after_first_full_sweep()
    for _ in range(3):
        assert pacer.decide() == (False, 0.1)


def test_the_pacer_sleeps_until_a_near_deadline_and_sweeps_when_it_falls_due():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    pacer = pacer_after_first_full_sweep(poll=0.5)
    assert pacer.decide() == (False, 0.5)  # 30 s away: re-read at the poll cap
    game_deadline_in(game.pk, 0.3)
    due, wait = pacer.decide()
    assert not due and 0.2 < wait <= 0.3  # sleeps exactly until it, not a whole poll
    time.sleep(wait)
    assert pacer.decide() == (True, 0.0)
    assert pacer.sweep_full is False  # a column fell due: the columns-only sweep


def test_the_sweep_at_a_deadline_lists_the_columns_only_and_the_full_sweep_the_rest():
    """Stale heartbeats (like presence and the bot safety net) ride on the full sweep every second."""
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    GameSeat.objects.filter(game=game, number=1).update(connected=True,
                                                       last_heartbeat=Now() - timedelta(seconds=60))
    assert deadlines.sweep(full=False) == []
    assert [f.kind for f in deadlines.sweep()] == ["heartbeat"]


def test_one_sweep_per_due_deadline_not_one_per_tick():
    """A due row that the sweep has not fired yet (a worker busy, a row locked) asks for no second
    sweep at every tick; a deadline that falls due after it does."""
    a, b, c, d = make_player(), make_player(), make_player(), make_player()
    _, first = start_game(a, b)
    _, second = start_game(c, d)
    pacer = pacer_after_first_full_sweep()
    game_deadline_in(first.pk, 0.05)
    time.sleep(0.06)
    assert pacer.decide() == (True, 0.0)
    assert pacer.decide()[0] is False  # still overdue (nobody swept): already covered
    assert pacer.decide()[0] is False
    age_seat(second.pk, 1, by=-0.05)  # a disconnect clock 50 ms ahead
    due, wait = pacer.decide()
    assert not due and wait <= 0.05
    time.sleep(wait)
    assert pacer.decide() == (True, 0.0)
    assert pacer.decide()[0] is False


def test_with_a_lead_the_sweep_is_asked_for_early_to_run_at_the_deadline():
    """Beat's lead: the message travels while the deadline approaches; the worker holds the sweep
    until the deadline by the DB clock, so nothing fires early."""
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    pacer = pacer_after_first_full_sweep(poll=1.0, lead=0.2)
    game_deadline_in(game.pk, 0.5)
    due, wait = pacer.decide()
    assert not due and 0.2 < wait <= 0.3  # wakes `lead` before the deadline
    time.sleep(wait)
    assert pacer.decide() == (True, 0.0)
    deadline = Game.objects.get(pk=game.pk).deadline
    assert pacer.sweep_at == deadline
    assert pacer.decide()[0] is False  # covered up to that deadline
    assert deadlines.sweep() == []  # arrived early: not due yet, nothing fires
    deadlines.wait_for(deadline)
    now = deadlines.next_deadline()[0]
    assert timedelta(0) <= now - deadline < timedelta(seconds=0.1)
    assert [f.kind for f in deadlines.sweep()] == ["turn"]


def test_an_overdue_deadline_is_swept_at_once_even_with_a_lead():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    pacer = pacer_after_first_full_sweep(lead=0.2)
    game_deadline_in(game.pk, 0.05)
    time.sleep(0.06)
    assert pacer.decide() == (True, 0.0)
    assert pacer.sweep_at is None


def test_a_full_sweep_comes_every_full_every_seconds_even_with_nothing_due():
    """The derived deadlines (stale heartbeats, the bot safety net) and retries ride on it."""
    pacer = pacer_after_first_full_sweep(poll=1.0, full_every=0.2)
    due, wait = pacer.decide()
    assert not due and wait <= 0.2  # woken for the full sweep, not after a whole poll
    time.sleep(wait)
    assert pacer.decide() == (True, 0.0)


def test_a_deadline_written_already_overdue_rides_on_the_next_full_sweep():
    """Moves write deadlines ahead of now; one written in the past of the last sweep (a test ageing a
    column, a clock read long before its commit) is not missed: the full sweep fires it."""
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    pacer = pacer_after_first_full_sweep(full_every=0.3)
    t0 = time.monotonic()
    age_game(game.pk, by=1.0)
    due, wait = pacer.decide()
    assert not due
    while not due:
        time.sleep(wait)
        due, wait = pacer.decide()
    assert time.monotonic() - t0 < 0.3 + 0.1
    assert [f.kind for f in deadlines.sweep()] == ["turn"]


def test_a_sweep_that_could_not_be_sent_is_asked_for_again():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    pacer = pacer_after_first_full_sweep()
    age_table(game.table_id, "rematch_deadline")  # not a pending column for a playing table
    assert pacer.decide()[0] is False
    game_deadline_in(game.pk, 0.05)
    time.sleep(0.06)
    assert pacer.decide() == (True, 0.0)
    pacer.retry()  # e.g. the broker refused the message
    assert pacer.decide() == (True, 0.0)


def test_the_ticker_fires_a_deadline_when_it_falls_due_not_at_the_next_poll():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    thread = deadlines.start_ticker(5.0)  # a poll far longer than the deadline is away
    try:
        time.sleep(0.3)  # the opening full sweep is done and the ticker sleeps
        game_deadline_in(game.pk, 0.4)  # seen at the next re-read ... which is 5 s away
        time.sleep(0.1)
    finally:
        deadlines.stop_ticker()
    assert not thread.is_alive()
    # with the deadline known to it, the ticker wakes for it
    thread = deadlines.start_ticker(5.0)
    try:
        game.refresh_from_db()
        t0 = time.monotonic()
        while Game.objects.get(pk=game.pk).version == game.version and time.monotonic() - t0 < 3:
            time.sleep(0.01)
        assert Game.objects.get(pk=game.pk).version == game.version + 1
        assert time.monotonic() - t0 < 1.0
    finally:
        deadlines.stop_ticker()


# ------------------------------------------------------------------------- beat's scheduler, real broker


@pytest.fixture
def beat_scheduler(tmp_path):
    """DeadlineScheduler on the real Redis broker, no worker: the queue shows what beat enqueued."""
    if not django_settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: beat's messages go to a real broker")
    from durak_site.celery import app
    from durak_site.deadlines.beat import DeadlineScheduler

    app.control.purge()
    scheduler = DeadlineScheduler(app=app, schedule_filename=str(tmp_path / "beat-schedule"), lazy=False)
    yield scheduler
    scheduler.close()
    app.control.purge()


def queued_sweeps() -> int:
    from durak_site.celery import app

    with app.connection_for_write() as conn:
        return conn.default_channel.client.llen("celery")


def test_beat_is_configured_with_the_deadline_scheduler():
    from durak_site.celery import app

    assert app.conf.beat_scheduler == "durak_site.deadlines.beat:DeadlineScheduler"
    assert all(entry["task"] != "durak_site.deadlines.sweep" for entry in app.conf.beat_schedule.values())


def test_beat_enqueues_one_sweep_when_a_deadline_falls_due_and_none_while_idle(beat_scheduler):
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    beat_scheduler.pacer.full_every = 3600
    beat_scheduler.tick()  # the opening full sweep
    assert queued_sweeps() == 1
    for _ in range(5):
        assert beat_scheduler.tick() <= beat_scheduler.pacer.poll
    assert queued_sweeps() == 1  # idle: re-reads, no messages
    game_deadline_in(game.pk, 0.2)
    wait = beat_scheduler.tick()
    assert 0.1 <= wait <= 0.2 or wait == beat_scheduler.pacer.poll
    time.sleep(0.2)
    assert beat_scheduler.tick() == 0.0
    assert queued_sweeps() == 2
    beat_scheduler.tick()
    assert queued_sweeps() == 2  # the same overdue deadline: no second message


def test_beat_sends_the_sweep_ahead_with_the_deadline_it_must_wait_for(beat_scheduler):
    import json

    from durak_site.celery import app

    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    beat_scheduler.pacer.full_every = 3600
    beat_scheduler.pacer.lead = timedelta(seconds=0.3)
    beat_scheduler.tick()  # the opening full sweep: at once, no not_before
    game_deadline_in(game.pk, 0.2)
    assert beat_scheduler.tick() == 0.0  # within the lead: sent now
    with app.connection_for_write() as conn:
        messages = [json.loads(m) for m in conn.default_channel.client.lrange("celery", 0, -1)]
    bodies = [json.loads(__import__("base64").b64decode(m["body"])) for m in messages]
    sent = sorted((str(body[1].get("not_before")), body[1]["full"]) for body in bodies)
    deadline = Game.objects.get(pk=game.pk).deadline
    assert sent == sorted([("None", True), (deadline.isoformat(), False)])


def test_the_compiled_poll_statement_takes_each_polls_after_and_a_new_kind():
    """The statement is compiled once; ``after`` must still move with every poll, and a kind
    registered later must be watched from the next poll on."""
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    deadline = Game.objects.get(pk=game.pk).deadline
    assert deadlines.next_deadline()[1] == deadline
    assert deadlines.next_deadline(deadline - timedelta(seconds=1))[1] == deadline
    assert deadlines.next_deadline(deadline)[1] is None
    assert deadlines.next_deadline(deadline - timedelta(microseconds=1))[1] == deadline

    soon = Game.objects.filter(pk=game.pk)
    deadlines.register(deadlines.Deadline("test_extra", lambda: iter(()), lambda *args: None,
                                          watch=(lambda: soon.annotate(), "started_at")))
    try:
        started = Game.objects.get(pk=game.pk).started_at
        assert deadlines.next_deadline()[1] == min(started, deadline)
    finally:
        deadlines.unregister("test_extra")
    assert deadlines.next_deadline()[1] == deadline
