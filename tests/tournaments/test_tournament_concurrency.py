"""200 players finishing their games at once while two pairers run are re-paired: nobody lost,
nobody seated twice, a player in at most one game of the event.

Runs on Postgres (row locks with SKIP LOCKED are the point); SQLite serialises every writer, so
there the test is skipped. The games end through game.services on many connections at once.

Whoever pairs (this test's two pairers, or a live server's deadline ticker sweeping the same test
database in a whole run), the assertions read the database, not the pairers' own counts. The pool
may end with one pair left waiting, and rightly: the last two players whose game ended, when
everybody else is seated already, are each other's last opponent and never meet twice in a row.
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection, connections

from tests.tournaments.helpers import join_all, start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

PLAYERS = 200
THREADS = 20
SLOWEST_TURN = 90  # the longest turn clock: a slow set-up lets no ticker play a move for anyone


def _pair_until_nobody_more(event_id: int) -> None:
    from tournaments import services

    while services.arena_wave(event_id):
        pass


def test_two_hundred_players_finishing_at_once_are_re_paired_exactly(make_event, make_player):
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks with SKIP LOCKED")
    from durak_site.clock import db_now
    from game import services as game_services
    from tournaments import pairing
    from tournaments.models import Entry, TournamentGame

    event = make_event(turn_seconds=SLOWEST_TURN)
    players = [make_player(f"k{i:03d}") for i in range(PLAYERS)]
    join_all(event, players)
    start(event)
    _pair_until_nobody_more(event.pk)
    first = list(TournamentGame.objects.filter(tournament=event))
    assert len(first) == PLAYERS // 2, f"the first wave seated {len(first)} tables"
    # nobody's absence is judged while the games are dealt one by one (the clock moved by its column)
    TournamentGame.objects.filter(tournament=event).update(arrive_deadline=db_now() + timedelta(hours=1))
    games = [(game_services.start_game(g.table_id).pk, g.player_b) for g in first]
    barrier = threading.Barrier(THREADS + 2)
    errors: list[BaseException] = []
    done = threading.Event()

    def finisher(mine) -> None:
        try:
            barrier.wait()
            for game_id, loser in mine:
                game_services.leave_game(game_id, loser)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    def pairer() -> None:
        from tournaments import services

        try:
            barrier.wait()
            while not done.is_set():
                services.arena_wave(event.pk)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    finishers = [threading.Thread(target=finisher, args=(games[i::THREADS],)) for i in range(THREADS)]
    pairers = [threading.Thread(target=pairer) for _ in range(2)]
    for t in (*finishers, *pairers):
        t.start()
    for t in finishers:
        t.join()
    done.set()
    for t in pairers:
        t.join()
    assert errors == [], errors
    _pair_until_nobody_more(event.pk)  # whoever finished after the pairers' last look

    assert TournamentGame.objects.filter(tournament=event, round=0, status="finished").count() == PLAYERS // 2
    second = list(TournamentGame.objects.filter(tournament=event, status="pending"))
    seated = Counter(pid for g in second for pid in g.player_ids())
    assert set(seated.values()) == {1}  # nobody seated twice
    states = dict(Entry.objects.filter(tournament=event).values_list("player_id", "state"))
    assert set(states.values()) <= {"playing", "waiting"}, Counter(states.values())  # nobody paused or lost
    assert {p for p, s in states.items() if s == "playing"} == set(seated)  # playing = in one game
    before = {frozenset((g.player_a_id, g.player_b_id)) for g in first}
    assert not before & {frozenset(g.player_ids()) for g in second}  # no immediate rematch
    waiting = [e for e in Entry.objects.filter(tournament=event, state="waiting")]
    assert len(waiting) in (0, 2), [(e.player_id, e.last_opponent_id, e.eligible_at) for e in waiting]
    assert len(second) == (PLAYERS - len(waiting)) // 2
    for a in waiting:  # those left waiting are each other's last opponent: the rules keep them apart
        for b in waiting:
            if a is not b:
                assert not pairing.arena_allowed(_as_waiting(a), _as_waiting(b))


def _as_waiting(entry):
    from tournaments import pairing

    return pairing.Waiting(entry.player_id, 0, entry.rating, entry.last_opponent_id)
