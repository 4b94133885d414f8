"""A tournament game left while a pairing wave holds the event, and the leaver's table socket
closing meanwhile: both go through, neither is a deadlock's victim.

The lock orders involved:
- the table socket's presence (lobby set_presence): the table row FOR UPDATE, then the seat;
- the finishing game (game.services leave_game): the game row, the leaver's seat (lobby
  player_left_game), the ratings' rows, the pairing and the event row (tournaments
  results.on_game_finished, waiting for a running wave), and at COMMIT a KEY SHARE on the table
  row: the ratings' GameRecord references the table, and Django's foreign keys are checked when the
  transaction commits;
- the wave (tournaments waves.arena_wave): the event row, the waiting entries, then each paired
  player's old table and its seats, then his new table; it never takes a table whose game runs.
A seat taken before its table made the first two a cycle (seat -> table against table -> seat);
the wave only held the game's end open long enough for the socket to step into it.

Runs on Postgres (row locks are the point); SQLite serialises every writer, so there the test is
skipped. Each thread calls the services as the server would, on its own connection; the wave is
stood in for by a transaction holding the event's row, as a wave does while it pairs.
"""

from __future__ import annotations

import threading
import time

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
