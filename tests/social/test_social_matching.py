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
    group = form_group([head], [[c(2, rating=1090)], [c(3, rating=1010)], [c(4, rating=1050)]])
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
    assert table_settings(group, False) == {"preset": "classic", "variant": "podkidnoy", "seats_count": 2, "deck_size": 36,
                                            "turn_seconds": 30, "rated": True}


def test_the_matcher_examines_a_bounded_number_of_candidates_per_head(monkeypatch):
    """480 searches that can never meet (rated, one address) cost a bounded number of pair checks,
    not one for every pair; compatible modes are looked up, not scanned."""
    from social import matching

    calls = {"n": 0}
    real = matching.may_join

    def counting(group, c):
        calls["n"] += 1
        return real(group, c)

    monkeypatch.setattr(matching, "may_join", counting)
    queue = [matching.Candidate(id=i, player_id=i, rating=1000 + i % 7, waited=100.0 - i * 0.01, players=2,
                                rated=True, bot_fill=0, address="203.0.113.9") for i in range(480)]
    assert matching.groups(queue) == []
    assert calls["n"] <= 480 * matching.EXAMINE_PER_HEAD
    # searches whose modes clash are never even compared
    calls["n"] = 0
    clash = [matching.Candidate(id=i, player_id=i, rating=1000, waited=50.0, players=2 if i % 2 else 3,
                                deck=36 if i % 2 else 52, bot_fill=0) for i in range(200)]
    made = matching.groups(clash)
    assert len(made) == 50 + 33  # the pairs and the threes (one three-searcher is left over)
    assert all(len({c.players for c in g}) == 1 for g, _fill in made)


def test_compatible_searches_still_meet_through_the_mode_index():
    from social import matching

    a = matching.Candidate(id=1, player_id=1, rating=1000, waited=10.0, variant="", players=0, deck=36, bot_fill=0)
    b = matching.Candidate(id=2, player_id=2, rating=1020, waited=5.0, variant="perevodnoy", players=2, deck=0,
                           bot_fill=0)
    c = matching.Candidate(id=3, player_id=3, rating=1000, waited=4.0, variant="podkidnoy", players=2, deck=52,
                           bot_fill=0)  # nearest in rating, but its deck clashes with the head's
    made = matching.groups([a, b, c])
    assert [[x.id for x in g] for g, _fill in made] == [[1, 2]]
