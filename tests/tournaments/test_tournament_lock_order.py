"""Tournament paths racing for the event's row: a game left while a pairing wave holds the event,
and the leaver's table socket closing meanwhile; a Swiss round falling due while a game of the
round before ends, or while a player withdraws. Each goes through, none is a deadlock's victim.

The lock orders involved:
- the table socket's presence (lobby set_presence): the table row FOR UPDATE, then the seat;
- the finishing game (game.services leave_game): the game row, the leaver's seat (lobby
  player_left_game), the ratings' rows, the pairing and the event row (tournaments
  results.on_game_finished, waiting for a running wave), and at COMMIT a KEY SHARE on the table
  row: the ratings' GameRecord references the table, and Django's foreign keys are checked when the
  transaction commits;
- the wave (tournaments waves.arena_wave): the event row, the waiting entries, then each paired
  player's old table and its seats, then his new table; it never takes a table whose game runs;
- a Swiss round's firing (lifecycle.fire_round, the registry holding the event row): the event row,
  then, if no pairing of the event is pending, every entry;
- a withdrawal (tournaments events.withdraw): the event row, then his entry.
A seat taken before its table made the first two a cycle (seat -> table against table -> seat);
the wave only held the game's end open long enough for the socket to step into it.

Runs on Postgres (row locks are the point); SQLite serialises every writer, so there the test is
skipped. Each thread calls the services as the server would, on its own connection; the wave is
stood in for by a transaction holding the event's row, as a wave does while it pairs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction

from tests.tournaments.helpers import begin, join_all, start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _lock_waiters() -> int:
    """Backends of this database waiting for a lock now (the test's own threads)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
        return int(cursor.fetchone()[0])


def _until(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def _thread(target, errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        except BaseException as exc:  # noqa: BLE001  (reported to the test)
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@contextmanager
def _behind_the_event_row(event_id: int, errors: list[BaseException]) -> Iterator[list[threading.Thread]]:
    """A thread holds the event's row while the block runs, so that the threads the block starts
    queue for it in the order they start; leaving the block lets the row go and joins them all."""
    from tournaments.models import Tournament

    holds, done = threading.Event(), threading.Event()

    def holder() -> None:
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=event_id)
            holds.set()
            done.wait(30)

    threads = [_thread(holder, errors)]
    assert holds.wait(20)
    try:
        yield threads
    finally:
        done.set()
        for t in threads:
            t.join(60)
    assert not any(t.is_alive() for t in threads)


def test_a_leaver_whose_socket_closes_during_a_wave_is_no_deadlock(make_event, make_player):
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks")
    from game import services as game_services
    from game.models import Game
    from lobby import services as lobby_services
    from lobby.models import Seat
    from tournaments import services
    from tournaments.models import Entry, Tournament, TournamentGame

    event = make_event()
    leaver, stayer = make_player(), make_player()
    join_all(event, [leaver, stayer])
    start(event)
    assert services.arena_wave(event.pk) == 1
    pairing = TournamentGame.objects.get(tournament=event)
    game = begin(pairing)
    assert _lock_waiters() == 0

    errors: list[BaseException] = []
    wave_holds, wave_done = threading.Event(), threading.Event()

    def wave() -> None:  # pairing: the event's row held, as arena_wave holds it
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=event.pk)
            wave_holds.set()
            wave_done.wait(30)

    threads = [_thread(wave, errors)]
    assert wave_holds.wait(20)
    # «Выйти»: the game ends and scores its pairing, which waits for the wave
    threads.append(_thread(lambda: game_services.leave_game(game.pk, leaver), errors))
    assert _until(lambda: _lock_waiters() == 1), "the game's end did not reach the event's row"
    # his tab leaves the table page: the table socket closes
    threads.append(_thread(lambda: lobby_services.set_presence(pairing.table_id, leaver.pk, False), errors))
    assert _until(lambda: _lock_waiters() == 2), "the socket's presence did not wait"
    wave_done.set()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)

    assert errors == [], errors  # before: "deadlock detected" for one of them
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    pairing.refresh_from_db()
    assert pairing.status == TournamentGame.Status.FINISHED
    states = dict(Entry.objects.filter(tournament=event).values_list("player_id", "state"))
    assert states == {leaver.pk: Entry.State.WAITING, stayer.pk: Entry.State.WAITING}
    assert not Seat.objects.get(table_id=pairing.table_id, player=leaver).connected


def _entry_held(event, player) -> bool:
    """Another transaction holds his entry in this event (a NOWAIT lock on that row alone fails)."""
    from django.db import DatabaseError

    from tournaments.models import Entry

    try:
        with transaction.atomic():
            list(Entry.objects.select_for_update(nowait=True, of=("self",))
                 .filter(tournament_id=event.pk, player=player).order_by("pk"))
    except DatabaseError:
        return True
    return False


def test_a_swiss_round_due_while_a_game_of_the_round_before_ends_is_no_deadlock(make_event, make_player):
    """Round 2's stated time comes while round 1's last game is ending, and the round's firing gets
    the event's row first. The game's end waits for that row before it takes its players' entries
    (the pairing's lock takes the event's row with it), so the firing could take them; it does not
    pair anyway: a game of the round is still on (nobody is seated twice), it leaves the round to
    that game's end, which counts the game and makes the round due."""
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks")
    from durak_site import deadlines
    from durak_site.clock import db_now
    from game import services as game_services
    from tests.tournaments.helpers import resign
    from tournaments import scoring
    from tournaments.models import Entry, Tournament, TournamentGame

    event = make_event(fmt="swiss", rounds=3, round_minutes=10)
    join_all(event, [make_player() for _ in range(4)])
    start(event)
    done, still_on = TournamentGame.objects.filter(tournament=event, round=1).order_by("pk")
    resign(begin(done).pk, done.player_b)
    game = begin(still_on)
    event.refresh_from_db()
    late = event.round_deadline - db_now() + timedelta(seconds=1)  # round 2's stated time has passed
    Tournament.objects.filter(pk=event.pk).update(starts_at=event.starts_at - late,
                                                  round_deadline=event.round_deadline - late)
    assert _lock_waiters() == 0

    errors: list[BaseException] = []
    fired: list[object] = []
    with _behind_the_event_row(event.pk, errors) as threads:
        # the round's deadline fires (the registry's firing, waiting for the row as the pacer's does): first
        threads.append(_thread(lambda: fired.append(deadlines.fire("tournament_round", event.pk, wait=True)),
                               errors))
        assert _until(lambda: _lock_waiters() == 1), "the round's firing did not wait for the event's row"
        # round 1's last game ends: its pairing and the event's row, then both entries: second in line
        threads.append(_thread(lambda: game_services.leave_game(game.pk, still_on.player_b), errors))
        assert _until(lambda: _lock_waiters() == 2), "the game's end did not reach the event's row"
        # it waits with its pairing and the event's row in one lock, its players' entries not taken yet:
        # holding them there would let a pairer holding the event's row wait for them, a cycle
        assert not _entry_held(event, still_on.player_a) and not _entry_held(event, still_on.player_b)

    assert errors == [], errors  # a lock cycle: "deadlock detected" for the game's end
    assert fired and fired[0] is not None  # the firing went through (fire logs and swallows a deadlock)
    still_on.refresh_from_db()
    assert still_on.status == TournamentGame.Status.FINISHED and still_on.result_a == scoring.WIN
    event.refresh_from_db()
    assert event.current_round == 1  # nobody seated twice: round 2 waited for the game
    assert event.round_deadline is not None and event.round_deadline <= db_now()  # and is due now it ended
    deadlines.sweep()
    event.refresh_from_db()
    assert event.current_round == 2
    assert TournamentGame.objects.filter(tournament=event, round=2, status="pending").count() == 2
    assert sorted(Entry.objects.filter(tournament=event).values_list("games", flat=True)) == [1, 1, 1, 1]


def test_a_withdrawal_while_a_swiss_round_starts_is_no_deadlock(make_event, make_player):
    """Round 2 falls due while a player withdraws: the round's firing takes the event's row, then
    every entry. Were his entry taken before the event's row (one statement locking both, as a
    query for an entry ordered by its event does, takes the entry first), the withdrawal would hold
    it while waiting for the row the firing holds: a cycle."""
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks")
    from durak_site import deadlines
    from durak_site.clock import db_now
    from tests.tournaments.helpers import resign
    from tournaments import services
    from tournaments.models import Entry, Tournament, TournamentGame

    event = make_event(fmt="swiss", rounds=3)
    players = [make_player() for _ in range(5)]
    join_all(event, players)
    start(event)
    for g in TournamentGame.objects.filter(tournament=event, round=1, status="pending"):
        resign(begin(g).pk, g.player_b)
    Tournament.objects.filter(pk=event.pk).update(round_deadline=db_now())  # the break is over
    leaver = players[0]
    assert _lock_waiters() == 0

    errors: list[BaseException] = []
    fired: list[object] = []
    with _behind_the_event_row(event.pk, errors) as threads:
        threads.append(_thread(lambda: fired.append(deadlines.fire("tournament_round", event.pk, wait=True)),
                               errors))
        assert _until(lambda: _lock_waiters() == 1), "the round's firing did not wait for the event's row"
        threads.append(_thread(lambda: services.withdraw(event.pk, leaver), errors))
        assert _until(lambda: _lock_waiters() == 2), "the withdrawal did not wait"

    assert errors == [], errors  # a lock cycle: "deadlock detected" for the withdrawal
    assert fired and fired[0] is not None  # fire logs and swallows a deadlock: None
    assert Tournament.objects.get(pk=event.pk).current_round == 2
    assert Entry.objects.get(tournament=event, player=leaver).state == Entry.State.WITHDRAWN
    # the round went first: everyone paired, him too (a game he is playing goes on and counts)
    seated = [pid for g in TournamentGame.objects.filter(tournament=event, round=2) for pid in g.player_ids()]
    assert sorted(seated) == sorted(p.pk for p in players)
