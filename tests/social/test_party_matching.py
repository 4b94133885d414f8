"""The pure rule for a party of two: its searches are one unit, matched whole or not at all (never
half of it, never the party by itself), the two are not rated against each other, everyone else
is checked against both, and at a pairs table they sit as partners."""

from __future__ import annotations

from social.matching import Candidate, groups, may_join_unit, seating, table_settings, units


def c(i, rating=1000, waited=0.0, **kw) -> Candidate:
    return Candidate(id=i, player_id=i, rating=rating, waited=waited, **kw)


def party(i, j, party_id=99, **kw) -> list[Candidate]:
    return [c(i, party=party_id, **kw), c(j, party=party_id, **kw)]


def test_a_party_with_a_search_missing_is_left_out_whole():
    # the other half is locked by a concurrent matcher (or beyond its limit): not one of them is matched
    queue = [c(1, party=7, players=2), c(2, players=2), c(3, players=2)]
    assert [[m.id for m in u] for u in units(queue)] == [[2], [3]]
    [(group, _fill)] = groups(queue)
    assert [m.id for m in group] == [2, 3]


def test_a_party_is_one_unit_where_its_first_search_stands():
    queue = [c(5), *party(1, 2, party_id=3), c(6)]
    assert [[m.id for m in u] for u in units(queue)] == [[5], [1, 2], [6]]


def test_a_party_alone_never_starts_a_table_without_bots_but_fills_with_bots_after_the_wait():
    assert groups(party(1, 2, players=4, bot_fill=0)) == []
    assert groups(party(1, 2, bot_fill=0)) == []  # any number: still the two need somebody else
    [(group, fill)] = groups(party(1, 2, mode="pairs", players=4, bot_fill=15, waited=16))
    assert fill and [m.id for m in group] == [1, 2]
    assert table_settings(group, fill)["seats_count"] == 4


def test_partners_are_not_rated_against_each_other_but_everyone_else_is_checked_against_both():
    far_apart = party(1, 2, rating=1000, players=3)
    far_apart[1].rating = 1800  # the two are 800 apart: no matter, they chose each other
    assert groups([*far_apart, c(3, rating=1000, players=3)]) == []  # but the newcomer is 800 from one of them
    assert [m.id for m in groups([*far_apart, c(3, rating=1400, players=3, waited=40)])[0][0]] == [1, 2, 3]
    assert may_join_unit([c(3, rating=1000, players=3)], [far_apart[0]])
    assert not may_join_unit([c(3, rating=1000, players=3)], far_apart)
    near = party(1, 2, players=3)
    blocked = c(3, players=3, avoid={2})
    assert not may_join_unit(near, [blocked])


def test_a_party_fills_a_table_with_others_or_waits_for_room():
    # four seats: a party and two solos; a third solo waits for the next table
    queue = [*party(1, 2, players=4), c(3, players=4), c(4, players=4), c(5, players=4)]
    [(group, fill)] = groups(queue)
    assert not fill and sorted(m.id for m in group) == [1, 2, 3, 4]
    # three seats and two parties: one party and one solo, never half of the other party
    queue = [*party(1, 2, party_id=8, players=3), *party(3, 4, party_id=9, players=3), c(5, players=3)]
    [(group, _fill)] = groups(queue)
    assert sorted(m.id for m in group) == [1, 2, 5]


def test_at_a_pairs_table_a_party_sits_across_as_partners():
    two_parties = [*party(1, 2, party_id=8, mode="pairs", players=4), *party(3, 4, party_id=9, mode="pairs", players=4)]
    [(group, fill)] = groups(two_parties)
    assert [m.id for m in seating(group, 4, pairs=True)] == [1, 3, 2, 4]  # 1 & 2 in seats 1, 3; 3 & 4 in 2, 4
    solo_first = [c(5, mode="pairs", players=4), *party(1, 2, mode="pairs", players=4), c(6, mode="pairs", players=4)]
    [(group, fill)] = groups(solo_first)
    order = seating(group, 4, pairs=True)
    assert {order[0].id, order[2].id} == {1, 2} and {order[1].id, order[3].id} == {5, 6}
    with_bots = seating(party(1, 2, mode="pairs", players=4), 4, pairs=True)
    assert [m.id if m else None for m in with_bots] == [1, None, 2, None]


def test_each_for_himself_seats_the_group_in_order_and_bots_after():
    order = seating([c(3), *party(1, 2)], 4, pairs=False)
    assert [m.id if m else None for m in order] == [3, 1, 2, None]
