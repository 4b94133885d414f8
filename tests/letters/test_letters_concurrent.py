"""Letters at once, each on its own connection (as several web processes take them): the writer's
limit holds, and a block orders itself against a letter in flight, so no letter of a blocked
player commits after the block."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from durak_site.errors import ServiceError
from letters import services
from letters.models import Letter
from social import people
from tests.letters.conftest import befriend, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def _run(target, *args) -> tuple[threading.Thread, list[str]]:
    outcome: list[str] = []

    def run() -> None:
        try:
            target(*args)
            outcome.append("sent")
        except ServiceError as exc:
            outcome.append(exc.code)
        except Exception as exc:  # noqa: BLE001  (shown in the assertion, not lost with the thread)
            outcome.append(f"error: {exc!r}")
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_ten_parallel_letters_of_one_writer_pass_five():
    a, b, c = make_player(), make_player(), make_player()
    befriend(a, b)
    befriend(a, c)
    start = threading.Barrier(10, timeout=30)

    def send(other) -> None:
        start.wait()
        services.send(a, other.pk, "hi")

    runs = [_run(send, (b, c)[k % 2]) for k in range(10)]
    for thread, _outcome in runs:
        thread.join(30)
    outcomes = [o for _t, out in runs for o in out]
    assert sorted(outcomes) == sorted(["sent"] * services.BURST[0] + ["letter_too_often"] * 5)
    assert Letter.objects.filter(author=a).count() == services.BURST[0]


def _someone_waits_for_a_lock(timeout: float = 15.0) -> bool:
    """Whether a backend of this database is waiting for a row lock (polled until one is)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                           "WHERE NOT l.granted AND a.datname = current_database()")
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are Postgres' here")
def test_a_letter_in_flight_waits_for_a_block_and_is_refused():
    a, b = make_player(), make_player()
    befriend(a, b)
    blocked, release = threading.Event(), threading.Event()

    def block_and_hold() -> None:
        with transaction.atomic():
            people.block(b, a.pk)  # deletes the friendship rows: their locks are held until the commit
            blocked.set()
            release.wait(30)

    holder, hold_outcome = _run(block_and_hold)
    assert blocked.wait(30)
    writer, outcome = _run(services.send, a, b.pk, "are you there?")
    assert _someone_waits_for_a_lock()  # the letter waits on the friendship the block is deleting
    assert outcome == []
    release.set()
    holder.join(30)
    writer.join(30)
    assert hold_outcome == ["sent"]  # (the helper's word for "returned")
    assert outcome == ["letter_not_friend"]
    assert not Letter.objects.exists()
