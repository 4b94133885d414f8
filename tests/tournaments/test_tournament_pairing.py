"""The pure pairing rules: arena rank-nearness, no immediate rematch, odd pools, networks; Swiss
score groups, byes and no rematch across rounds."""

from __future__ import annotations

import random

from tournaments import pairing
from tournaments.pairing import SwissPlayer, Waiting


def _pool(n, **kw):
    return [Waiting(i, rank=i, rating=2000 - 10 * i, **kw) for i in range(1, n + 1)]


def test_arena_pairs_neighbours_in_rank():
    assert sorted(pairing.arena(_pool(8))) == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_arena_never_pairs_the_last_opponent_again():
    pool = [Waiting(1, 1, 1500, last_opponent=2), Waiting(2, 2, 1500, last_opponent=1),
            Waiting(3, 3, 1500), Waiting(4, 4, 1500)]
    pairs = pairing.arena(pool)
    assert {frozenset(p) for p in pairs} == {frozenset((1, 3)), frozenset((2, 4))}


def test_two_last_opponents_alone_wait_rather_than_meet_again():
    assert pairing.arena([Waiting(1, 1, 1500, last_opponent=2), Waiting(2, 2, 1500, last_opponent=1)]) == []


def test_an_odd_pool_leaves_one_waiting_the_one_who_waited_least():
    pool = [Waiting(1, 1, 1500, waited=30), Waiting(2, 2, 1500, waited=30), Waiting(3, 3, 1500, waited=0)]
    pairs = pairing.arena(pool)
    assert pairs == [(1, 2)]


def test_one_network_is_never_paired():
    pool = [Waiting(1, 1, 1500, avoid=frozenset({2})), Waiting(2, 2, 1500, avoid=frozenset({1}))]
    assert pairing.arena(pool) == []


def test_the_first_wave_follows_the_rating_order():
    # at the start everybody has 0 points: the rank is the rating order
    rng = random.Random(4)
    ratings = rng.sample(range(800, 2000), 10)
    order = sorted(range(10), key=lambda i: -ratings[i])
    pool = [Waiting(i, rank=order.index(i) + 1, rating=ratings[i]) for i in range(10)]
    for a, b in pairing.arena(pool):
        assert abs(order.index(a) - order.index(b)) == 1


def test_a_big_random_pool_seats_everybody_it_can_and_nobody_twice():
    rng = random.Random(7)
    pool = [Waiting(i, rank=i, rating=rng.randint(800, 2000),
                    last_opponent=(i + 1 if i % 2 else i - 1) if rng.random() < 0.4 else None) for i in range(1, 301)]
    pairs = pairing.arena(pool)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated))
    assert len(pairs) >= 149
    by_id = {w.player_id: w for w in pool}
    for a, b in pairs:
        assert pairing.arena_allowed(by_id[a], by_id[b])
        assert abs(by_id[a].rank - by_id[b].rank) <= pairing.CHUNK


def test_swiss_pairs_within_score_groups_top_half_against_bottom_half():
    players = [SwissPlayer(i, score=2 if i <= 4 else 0, rating=2000 - i) for i in range(1, 9)]
    pairs, byes = pairing.swiss(players)
    assert byes == []
    assert {frozenset(p) for p in pairs} == {frozenset(x) for x in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_swiss_never_repeats_a_pairing():
    players = [SwissPlayer(1, 2, 1900, frozenset({2})), SwissPlayer(2, 2, 1800, frozenset({1})),
               SwissPlayer(3, 0, 1700), SwissPlayer(4, 0, 1600)]
    pairs, _byes = pairing.swiss(players)
    assert frozenset((1, 2)) not in {frozenset(p) for p in pairs}
    assert len(pairs) == 2


def test_swiss_bye_goes_to_the_lowest_player_without_one():
    players = [SwissPlayer(i, score=0, rating=2000 - i) for i in range(1, 8)]
    _pairs, byes = pairing.swiss(players)
    assert byes == [7]
    players = [SwissPlayer(i, score=0, rating=2000 - i, had_bye=(i == 7)) for i in range(1, 8)]
    _pairs, byes = pairing.swiss(players)
    assert byes == [6]


def test_three_swiss_rounds_of_eight_have_no_rematch():
    rng = random.Random(2)
    scores = {i: 0 for i in range(1, 9)}
    met: dict[int, set[int]] = {i: set() for i in range(1, 9)}
    for _round in range(3):
        players = [SwissPlayer(i, scores[i], 1500 + i, frozenset(met[i])) for i in scores]
        pairs, byes = pairing.swiss(players)
        assert byes == [] and len(pairs) == 4
        for a, b in pairs:
            assert b not in met[a]
            met[a].add(b)
            met[b].add(a)
            scores[rng.choice((a, b))] += 2
