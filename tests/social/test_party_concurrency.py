"""A party is matched whole or not at all, under concurrency as the search is: two matchers racing
over a queue of parties and solo searches (their windows cut parties in halves) seat every party
at one table as partners and nobody twice; a matcher that sees half a party (the other half locked)
leaves it whole; two acceptances racing put nobody in two parties.

Runs on Postgres (row locks with SKIP LOCKED are the point); SQLite serialises every writer, so
there the tests are skipped. Each thread calls the services as a view would, on its own connection.
"""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from django.db import connection, connections, transaction

from tests.social.test_party import friends, make_party

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

PARTIES, SOLOS = 10, 20


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs Postgres (DATABASE_URL): row locks with SKIP LOCKED")


def _threads(*targets) -> list[BaseException]:
    """Run the targets at once (released together by a barrier); the errors they raised."""
    barrier = threading.Barrier(len(targets))
    errors: list[BaseException] = []

    def run(target) -> None:
        try:
            barrier.wait()
            target()
        except BaseException as exc:  # noqa: BLE001  (reported to the test)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_two_matchers_racing_seat_every_party_whole_as_partners(make_player, online, monkeypatch):
    _needs_postgres()
    from lobby.models import Seat
    from social import matcher, presence, queue
    from social.models import SearchRequest

    leaders = [make_player(f"L{i:02d}") for i in range(PARTIES)]
    members = [make_player(f"M{i:02d}") for i in range(PARTIES)]
    solos = [make_player(f"S{i:02d}") for i in range(SOLOS)]
    everyone = [*leaders, *members, *solos]
    online(*everyone)
    for leader, member in zip(leaders, members, strict=True):
        make_party(leader, member)
    searchers = [*leaders, *solos]
    random.Random(5).shuffle(searchers)  # parties and solos interleaved in the queue
    for p in searchers:
        queue.join(p, match_now=False, mode="pairs", rated="0", bot_fill="0")
    assert SearchRequest.objects.filter(status="waiting").count() == 2 * PARTIES + SOLOS
    # small windows: each matcher locks the next 7 waiting rows it can, so parties fall across the cut
    monkeypatch.setattr(matcher, "MATCH_LIMIT", 7)

    def keep_matching() -> None:
        for _ in range(40):
            matcher.match()

    assert _threads(keep_matching, keep_matching) == []
    for p in everyone:
        presence.beat(p.pk)
    monkeypatch.setattr(matcher, "MATCH_LIMIT", 500)
    for _ in range(5):  # what the racing matchers left, the sweep's matcher takes
        if not SearchRequest.objects.filter(status="waiting").exists():
            break
        matcher.match()
    assert Counter(SearchRequest.objects.values_list("status", flat=True)) == {"matched": len(everyone)}
    seat_of = {pid: (table, number) for pid, table, number in
               Seat.objects.filter(player__isnull=False).values_list("player_id", "table_id", "number")}
    assert len(seat_of) == len(everyone)  # nobody lost, nobody twice (one seat per player)
    per_table = Counter(table for table, _n in seat_of.values())
    assert len(per_table) == len(everyone) // 4 and set(per_table.values()) == {4}
    for leader, member in zip(leaders, members, strict=True):
        (t1, n1), (t2, n2) = seat_of[leader.pk], seat_of[member.pk]
        assert t1 == t2 and (n1 - n2) % 4 == 2  # one table, across: partners
    for pid, table_id in SearchRequest.objects.values_list("player_id", "table_id"):
        assert seat_of[pid][0] == table_id


def test_a_matcher_that_sees_half_a_party_leaves_it_whole(make_player, online):
    _needs_postgres()
    from social import matcher, queue
    from social.models import SearchRequest

    a, b, c, d, e = (make_player() for _ in range(5))
    online(a, b, c, d, e)
    make_party(a, b)
    for p in (c, d, e, a):
        queue.join(p, match_now=False, mode="pairs", rated="0", bot_fill="0")
    held, release = threading.Event(), threading.Event()

    def hold_the_member() -> None:  # another matcher, mid-run, holding his row
        try:
            with transaction.atomic():
                list(SearchRequest.objects.select_for_update().filter(player=b, status="waiting"))
                held.set()
                release.wait(30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_member)
    holder.start()
    try:
        assert held.wait(30)
        assert matcher.match() == 0  # the leader without his partner would fill the table of the three solos
        assert set(SearchRequest.objects.values_list("status", flat=True)) == {"waiting"}
    finally:
        release.set()
        holder.join()
    assert matcher.match() == 1
    matched = set(SearchRequest.objects.filter(status="matched").values_list("player_id", flat=True))
    assert {a.pk, b.pk} <= matched and len(matched) == 4


def test_two_acceptances_racing_put_nobody_in_two_parties(make_player, online):
    _needs_postgres()
    from durak_site.errors import ServiceError
    from social import party
    from social.models import Party, PartyMember

    a, b, c = make_player(), make_player(), make_player()
    online(a, b, c)
    friends(a, b, c)
    from_a, from_c = party.invite(a, b.pk), party.invite(c, b.pk)
    a_to_c = party.invite(a, c.pk)
    refused: list[str] = []

    def accept(guest, invitation):
        def run() -> None:
            try:
                party.answer(guest, invitation.pk, True)
            except ServiceError as exc:
                refused.append(exc.code)
        return run

    # b takes a's and c's at once, and c takes a's while a's party with b may be forming
    assert _threads(accept(b, from_a), accept(b, from_c), accept(c, a_to_c)) == []
    members = Counter(PartyMember.objects.values_list("player_id", flat=True))
    assert set(members.values()) == {1}  # one party per player
    active = Party.objects.filter(status="active")
    assert active.count() == 1 and PartyMember.objects.count() == 2
    assert len(refused) == 2 and set(refused) <= {"party_busy", "party_other_busy"}
