"""A moderator closes a table while its game is ending: both go through, neither is a deadlock's
victim.

The lock orders involved:
- a game's end (game.services leave_game, a move, a timer): the game row first, then the table row
  (lobby player_left_game takes it FOR NO KEY UPDATE before the leaver's seat), and at COMMIT a
  KEY SHARE on the table row (ratings' GameRecord references the table; Django checks foreign keys
  when the transaction commits);
- a moderator's close (lobby close_table): it stops the table's running game (the game app hears
  lobby.signals.table_closed and locks the game row) and closes the table row.
Had the close taken the table before the game, the two would be a cycle (table -> game against
game -> table).

Runs on Postgres (row locks are the point); SQLite serialises every writer, so there the test is
skipped. Each thread calls the services as the server would, on its own connection; a third
transaction holds the table row (as any change of the table does: a socket's presence, a seat) so
that the two meet in the order the test chooses.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from durak_site.errors import ServiceError

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


@pytest.mark.parametrize("first", ["close", "leave"])
def test_a_table_closed_while_its_game_ends_is_no_deadlock(make_player, first):
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks")
    from game import services as game_services
    from game.models import Game
    from lobby import services as lobby_services
    from lobby.models import Seat, Table

    host, guest = make_player(), make_player()
    table = lobby_services.create_table(host, seats_count=2)
    lobby_services.sit(table.pk, guest, 2)
    lobby_services.set_ready(table.pk, host, True)
    lobby_services.set_ready(table.pk, guest, True)
    # a leaver loses: his «Выйти» ends the two-seat game (with a bot for him it would go on)
    Table.objects.filter(pk=table.pk).update(countdown_deadline=timezone.now() - timedelta(seconds=1),
                                             disconnect_policy=Table.DisconnectPolicy.LOSE)
    game = game_services.fire_countdown(table.pk)
    assert game is not None and game.status == Game.Status.PLAYING
    assert _lock_waiters() == 0

    errors: list[BaseException] = []
    late: list[BaseException] = []  # a leave that came after the close stopped the game
    holds, done = threading.Event(), threading.Event()

    def holder() -> None:  # any change of the table: its row held
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table.pk)
            holds.set()
            done.wait(30)

    def close() -> None:
        lobby_services.close_table(table.pk, "cheating ring")

    def leave() -> None:  # «Выйти»: a two-seat game ends, lost by the leaver
        try:
            game_services.leave_game(game.pk, guest)
        except ServiceError as exc:
            if exc.code != "game_finished":
                raise
            late.append(exc)

    threads = [_thread(holder, errors)]
    assert holds.wait(20)
    order = (close, leave) if first == "close" else (leave, close)
    for waiting, step in enumerate(order, start=1):
        threads.append(_thread(step, errors))
        assert _until(lambda n=waiting: _lock_waiters() == n), f"{step.__name__} did not wait for a lock"
    done.set()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)

    assert errors == [], errors  # before: "deadlock detected" for one of them
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_reason == "cheating ring"
    assert not Seat.objects.filter(table=table, player__isnull=False).exists()
    status = Game.objects.get(pk=game.pk).status
    # whichever came first ended the game: the close aborts it, a leave before it finishes it
    assert status == (Game.Status.ABORTED if late else Game.Status.FINISHED), (status, late)
