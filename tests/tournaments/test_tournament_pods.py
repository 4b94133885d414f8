"""The pure rules of table arenas: pods of 3 or 4 (and two pairs) by rank, mixing who just sat
together, the same table again only after a wait, one network apart; places by the order of going
out and their points."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tournaments import pairing, scoring
from tournaments.pairing import Waiting


def _pool(n, **kw):
    return [Waiting(i, rank=i, rating=2000 - 10 * i, **kw) for i in range(1, n + 1)]


def _tables(*groups, waited=0.0):
    """Players who just sat at these tables (ranks = ids), all back in the pool."""
    out = []
    for group in groups:
        for p in group:
            out.append(Waiting(p, rank=p, rating=1500, waited=waited, last_table=frozenset(group) - {p}))
    return out


@pytest.mark.parametrize("size", [3, 4])
def test_pods_seat_neighbours_in_rank(size):
    assert pairing.pods(_pool(3 * size), size) == [tuple(range(k, k + size)) for k in range(1, 3 * size + 1, size)]


def test_a_pool_that_does_not_divide_leaves_the_rest_waiting():
    tables = pairing.pods(_pool(11), 4)
    assert len(tables) == 2 and len({p for t in tables for p in t}) == 8


def test_two_tables_back_together_are_mixed_not_seated_again():
    tables = pairing.pods(_tables((1, 2, 3, 4), (5, 6, 7, 8)), 4)
    assert len(tables) == 2
    for table in tables:  # two of each table: the fewest who just sat together
        assert len(set(table) & {1, 2, 3, 4}) == 2


def test_the_same_table_alone_waits_before_it_may_sit_again():
    assert pairing.pods(_tables((1, 2, 3)), 3) == []
    assert pairing.pods(_tables((1, 2, 3), waited=pairing.REPEAT_AFTER), 3) == [(1, 2, 3)]


def test_one_network_never_shares_a_table():
    pool = _pool(4)
    pool[0] = Waiting(1, 1, 1990, avoid=frozenset({4}))
    assert pairing.pods(pool, 4) == []
    pool.append(Waiting(5, 5, 1950))
    table = pairing.pods(pool, 4)[0]
    assert not {1, 4} <= set(table)


def test_pairs_put_the_first_and_last_in_rank_against_the_two_in_the_middle():
    assert pairing.pairs_seating((11, 12, 13, 14)) == (11, 12, 14, 13)  # seats 1 & 3 against 2 & 4


def test_a_big_random_pool_seats_everybody_it_can_near_in_rank_and_nobody_twice():
    rng = random.Random(5)
    pool = [Waiting(i, rank=i, rating=rng.randint(800, 2000), waited=rng.random() * 30) for i in range(1, 402)]
    tables = pairing.pods(pool, 4)
    seated = [p for t in tables for p in t]
    assert len(seated) == len(set(seated)) and len(tables) == 100
    for table in tables:
        assert max(table) - min(table) < 3 * 4


@pytest.mark.parametrize(("out", "losers", "draw", "places"), [
    ([2, 1], {3}, False, {2: 1, 1: 2, 3: 3}),  # out in order, the durak last
    ([3], {1}, False, {3: 1, 2: 2, 1: 3}),
    ([], {2}, False, {1: 2, 3: 2, 2: 3}),  # seat 2 left at once: the others share the place above him
    ([1, 3, 2], set(), True, {1: 1, 3: 2, 2: 2}),  # a draw: the last two out together, no durak
])
def test_places_at_a_table_of_three(out, losers, draw, places):
    assert scoring.pod_places([1, 2, 3], out, losers, draw) == places


def test_places_at_a_table_of_four_when_a_player_leaves_after_one_is_out():
    assert scoring.pod_places([1, 2, 3, 4], [4], {2}, False) == {4: 1, 1: 3, 3: 3, 2: 4}


def test_points_by_place_and_the_durak_nothing():
    assert [scoring.pod(p, 3, 0).points for p in (1, 2, 3)] == [2, 1, 0]
    assert [scoring.pod(p, 4, 0).points for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [scoring.pod_mark(p, 4) for p in (1, 2, 3, 4)] == ["W", "2", "3", "L"]


def test_going_out_first_is_the_win_a_streak_doubles_and_a_middle_place_ends_it():
    streak, total = 0, 0
    for place in (1, 1, 1, 2, 1):
        scored = scoring.pod(place, 4, streak)
        streak, total = scored.streak, total + scored.points
    assert total == 3 + 3 + 6 + 2 + 3 and streak == 1


def test_berserk_adds_one_to_going_out_first_only():
    assert scoring.pod(1, 3, 0, berserk=True, moves=30).points == 3
    assert scoring.pod(2, 3, 0, berserk=True, moves=30).points == 1
    assert scoring.pod(1, 3, 0, berserk=True, moves=3).points == 2


def test_a_pod_never_seats_two_who_may_not_meet_whatever_the_pool():
    rng = random.Random(9)
    pool = []
    for i in range(1, 61):
        avoid = frozenset({i + 1}) if i % 7 == 0 else frozenset({i - 1}) if i % 7 == 1 and i > 1 else frozenset()
        pool.append(Waiting(i, rank=i, rating=rng.randint(800, 2000), avoid=avoid))
    by_id = {w.player_id: w for w in pool}
    for table in pairing.pods(pool, 3):
        for a, b in combinations(table, 2):
            assert b not in by_id[a].avoid and a not in by_id[b].avoid
