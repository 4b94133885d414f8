"""The pure matching rule: compatible choices, the widening rating window, groups around the head."""

from __future__ import annotations

import math

from social.matching import Candidate, form_group, groups, may_join, table_settings, window


def c(i, rating=1000, waited=0.0, **kw) -> Candidate:
    return Candidate(id=i, player_id=i, rating=rating, waited=waited, **kw)


def test_the_window_widens_with_waiting_and_opens_after_a_minute():
    assert window(0) == 100
    assert window(4.9) == 100
    assert window(5) == 150
    assert window(30) == 400
    assert window(59) == 650
    assert math.isinf(window(60))
    widths = [window(s) for s in range(0, 60)]
    assert widths == sorted(widths)


def test_ratings_far_apart_meet_only_after_the_longer_waiter_widened():
    a, b = c(1, rating=1000), c(2, rating=1300)
    assert not may_join([a], b)
    a.waited = 20  # window 300
    assert may_join([a], b)


def test_choices_must_agree_unless_one_side_is_open():
    assert may_join([c(1, variant="podkidnoy")], c(2, variant=""))
    assert not may_join([c(1, variant="podkidnoy")], c(2, variant="perevodnoy"))
    assert not may_join([c(1, players=2)], c(2, players=3))
    assert not may_join([c(1, rated=True)], c(2, rated=False))
    assert not may_join([c(1, deck=24, players=4)], c(2, players=6))  # 24 cards deal to at most 4


def test_a_block_either_way_and_a_pair_at_its_rated_limit_are_never_paired():
    assert not may_join([c(1, avoid={2})], c(2))
    assert not may_join([c(1)], c(2, avoid={1}))
    assert not may_join([c(1, at_pair_limit={2})], c(2))
    assert may_join([c(1, at_pair_limit={2}, rated=False)], c(2, rated=False))
    assert not may_join([c(1, address="1.2.3.4")], c(2, address="1.2.3.4"))


def test_the_group_takes_the_nearest_in_rating_first():
    head = c(1, rating=1000, players=3)
    group = form_group(head, [c(2, rating=1090), c(3, rating=1010), c(4, rating=1050)])
    assert [g.id for g in group] == [1, 3, 4]


def test_groups_seat_full_tables_and_fill_with_bots_only_when_the_head_waited_long_enough():
    queue = [c(1, players=4, bot_fill=15, waited=10), c(2, players=4, bot_fill=15, waited=9)]
    assert groups(queue) == []
    queue[0].waited = 16
    [(group, fill)] = groups(queue)
    assert fill and [g.id for g in group] == [1, 2]
    assert table_settings(group, fill)["seats_count"] == 4
    never = [c(1, players=4, bot_fill=0, waited=600)]
    assert groups(never) == []


def test_any_number_of_players_starts_with_two():
    [(group, fill)] = groups([c(1), c(2)])
    assert not fill and len(group) == 2
    assert table_settings(group, False) == {"variant": "podkidnoy", "seats_count": 2, "deck_size": 36,
                                            "turn_seconds": 30, "rated": True}
