"""Two players racing for the same seat from two threads (real transactions): exactly one wins."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from durak_site.errors import ServiceError
from lobby import services
from lobby.models import Seat


def _race(fns):
    barrier = threading.Barrier(len(fns))
    results: list = [None] * len(fns)

    def run(i, fn):
        try:
            barrier.wait(timeout=10)
            results[i] = ("ok", fn())
        except ServiceError as exc:
            results[i] = ("refused", exc.code)
        except Exception as exc:  # anything else is a bug the test must show
            results[i] = ("crash", repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(5))
def test_two_players_racing_for_one_seat_exactly_one_wins(make_player, attempt):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are only meaningful on Postgres (SQLite serialises whole writes)")
    host, a, b = make_player(f"h{attempt}"), make_player(f"a{attempt}"), make_player(f"b{attempt}")
    table = services.create_table(host, seats_count=4)
    results = _race([lambda: services.sit(table.pk, a, 3), lambda: services.sit(table.pk, b, 3)])
    kinds = sorted(r[0] for r in results)
    assert kinds == ["ok", "refused"], results
    assert [r[1] for r in results if r[0] == "refused"] == ["seat_taken"]
    assert Seat.objects.filter(table=table, number=3, player__isnull=False).count() == 1
    assert Seat.objects.filter(table=table, player__in=[a, b]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_bot_and_a_player_racing_for_the_last_seat_leave_a_consistent_table(make_player):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are only meaningful on Postgres")
    host, a = make_player("rh"), make_player("ra")
    table = services.create_table(host, seats_count=2)
    results = _race([lambda: services.sit(table.pk, a, 2),
                     lambda: services.add_bot(table.pk, host, 2, "random")])
    assert sorted(r[0] for r in results) == ["ok", "refused"], results
    seat = Seat.objects.get(table=table, number=2)
    assert (seat.player_id is None) != (seat.bot_level == "")
