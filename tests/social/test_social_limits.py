"""The social layer's limits hold: a bot-filled match is a new table like any (the per-player and
per-address limits count it), friend requests withdrawn and sent again still count, parallel
invitations cannot pass the per-minute limit."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.test import Client
from django.urls import reverse

from tests.social.conftest import age

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_counters():
    from django.core.cache import cache

    cache.clear()  # the windows are counted in the cache, keyed by ids that restart with each test


def _create(player):
    c = Client(REMOTE_ADDR="203.0.113.70")
    c.force_login(player)
    return c.post(reverse("lobby:create"), {"name": "", "preset": "classic", "seats_count": "2",
                                            "turn_seconds": "30", "disconnect_policy": "bot",
                                            "rules_setter": "host", "start_policy": "all_ready",
                                            "series_length": "1"}).status_code


def _bot_match(player, online) -> bool:
    from durak_site import deadlines
    from social import queue

    online(player)
    row = queue.join(player, players="4", bot_fill="15", rated="0")
    age(row, 16)
    deadlines.sweep()  # the "search_match" deadline: the bot fill falls due
    row.refresh_from_db()
    return row.status == "matched"


def test_a_bot_filled_match_counts_as_a_new_table(make_player, online, settings):
    settings.TABLE_LIMIT_PER_ACCOUNT = (2, 600)
    p = make_player()
    assert _bot_match(p, online)
    assert _create(p) == 302
    assert _create(p) == 429  # the match was his first new table of the window


def test_no_bot_filled_match_past_the_new_table_limit(make_player, online, settings):
    from lobby.models import Table

    settings.TABLE_LIMIT_PER_ACCOUNT = (2, 600)
    p = make_player()
    assert [_create(p), _create(p)] == [302, 302]
    tables = Table.objects.count()
    assert not _bot_match(p, online)  # he keeps searching (a match with people is no new table of his)
    assert Table.objects.count() == tables


def test_withdrawn_friend_requests_still_count_against_the_hourly_limit(make_player):
    from durak_site.errors import ServiceError
    from social import people
    from social.models import Friendship

    me, other = make_player(), make_player()
    sent = 0
    with pytest.raises(ServiceError) as exc:
        for _k in range(people.FRIEND_REQUESTS_PER_HOUR + 5):
            people.request_friend(me, other.pk)
            sent += 1
            people.remove_friend(me, other.pk)
    assert exc.value.code == "social_too_many" and sent == people.FRIEND_REQUESTS_PER_HOUR
    assert not Friendship.objects.exists()


def test_parallel_invitations_cannot_pass_the_per_minute_limit(make_player):
    from lobby import services as lobby_services
    from social import people
    from social.models import Invitation

    host = make_player()
    lobby_services.create_table(host, seats_count=6)
    guests = [make_player() for _k in range(12)]
    barrier = threading.Barrier(len(guests))

    def invite(guest):
        barrier.wait()
        with contextlib.suppress(Exception):  # refusals and lock waits: only the count matters
            people.invite(host, guest.pk)

    threads = [threading.Thread(target=invite, args=(g,)) for g in guests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Invitation.objects.filter(host=host).count() <= people.INVITES_PER_MINUTE


def test_a_second_rated_search_from_one_address_is_refused(make_player, online):
    from accounts.models import Player
    from durak_site.errors import ServiceError
    from social import queue
    from social.models import SearchRequest

    a, b, c = make_player(), make_player(), make_player()
    Player.objects.filter(pk__in=[a.pk, b.pk]).update(last_address="203.0.113.80")
    online(a, b, c)
    queue.join(a, players="2", bot_fill="0", rated="1")
    with pytest.raises(ServiceError) as exc:
        queue.join(b, players="2", bot_fill="0", rated="1")
    assert exc.value.code == "search_address_busy"
    assert queue.join(b, players="3", bot_fill="0", rated="0").status == "waiting"  # unrated is fine
    queue.join(c, players="2", bot_fill="0", rated="1")  # another address meets her
    assert SearchRequest.objects.get(player=a, status__in=["waiting", "matched"]).status == "matched"
