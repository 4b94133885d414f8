"""200 players pressing «Играть» at once end at disjoint, full tables: nobody lost, nobody twice.

Runs on Postgres (row locks with SKIP LOCKED are the point); SQLite serialises every writer, so
there the test is skipped. Each thread calls the join service as a view would, on its own
connection, all released together by a barrier.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection, connections

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

PLAYERS = 200
THREADS = 25


def test_two_hundred_concurrent_joins_end_at_disjoint_full_tables(make_player, online):
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks with SKIP LOCKED")
    from durak_site import deadlines
    from lobby.models import Seat, Table
    from social import presence, queue
    from social.models import SearchRequest

    players = [make_player(f"c{i:03d}") for i in range(PLAYERS)]
    online(*players)
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def worker(mine) -> None:
        try:
            barrier.wait()
            for p in mine:
                queue.join(p, players="4", bot_fill="0", rated="0", variant="podkidnoy", deck="36",
                           turn_seconds="30")
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(players[i::THREADS],)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for p in players:  # their tabs kept pinging meanwhile (a slow run must not look like closed tabs)
        presence.beat(p.pk)
    # what concurrent matchers skipped (rows locked by another) the sweep matches
    for _ in range(10):
        if not SearchRequest.objects.filter(status="waiting").exists():
            break
        deadlines.sweep()  # the search's re-match among the registered deadlines
    assert SearchRequest.objects.filter(status="waiting").count() == 0
    assert Counter(SearchRequest.objects.values_list("status", flat=True)) == {"matched": PLAYERS}
    seats = list(Seat.objects.filter(player__isnull=False).values_list("player_id", "table_id"))
    per_player = Counter(pid for pid, _t in seats)
    assert len(per_player) == PLAYERS and set(per_player.values()) == {1}  # nobody lost, nobody twice
    per_table = Counter(t for _p, t in seats)
    assert len(per_table) == PLAYERS // 4 and set(per_table.values()) == {4}  # full tables
    assert not Seat.objects.exclude(bot_level="").exists()
    tables = Table.objects.filter(pk__in=per_table)
    assert all(t.status == Table.Status.WAITING and t.seats_count == 4 for t in tables)
    # each request names the table its player sits at
    for pid, table_id in SearchRequest.objects.filter(status="matched").values_list("player_id", "table_id"):
        assert (pid, table_id) in set(seats)
