"""The queue against the database: two searches meet at one table, arrival starts the countdown,
a no-show is dropped and the others go back to the head, bots fill after the chosen wait, blocks and
bad input."""

from __future__ import annotations

import pytest

from durak_site import deadlines
from tests.social.conftest import age, sweep_until

pytestmark = pytest.mark.django_db(transaction=True)


def _tables():
    from lobby.models import Table

    return list(Table.objects.exclude(status=Table.Status.CLOSED))


def test_two_quick_plays_meet_at_one_table_and_arriving_starts_the_countdown(make_player, online):
    from lobby.models import Seat, Table
    from social import queue
    from social.models import SearchRequest

    a, b = make_player("Аня"), make_player("Боря")
    online(a, b)
    first = queue.join(a)
    assert first.status == SearchRequest.Status.WAITING and _tables() == []
    second = queue.join(b)
    assert second.status == SearchRequest.Status.MATCHED
    [table] = _tables()
    assert sorted(Seat.objects.filter(table=table, player__isnull=False).values_list("player__nick", flat=True)) == [
        "Аня", "Боря"]
    assert table.seats_count == 2 and table.status == Table.Status.WAITING
    assert queue.status_for(a.pk) == {"state": "matched", "url": f"/tables/{table.pk}/"}
    assert queue.arrived(a.pk, table.pk) is True
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING  # one has not arrived yet
    assert queue.arrived(b.pk, table.pk) is True
    table.refresh_from_db()
    assert table.status == Table.Status.COUNTDOWN  # nobody pressed «Готово»
    assert queue.arrived(b.pk, table.pk) is False  # a second arrival changes nothing


def test_quick_play_repeats_the_last_choice(make_player, online):
    from social import queue

    a = make_player()
    online(a)
    queue.join(a, variant="perevodnoy", players="3", deck="36", turn_seconds="60", rated="0", bot_fill="0")
    queue.cancel(a)
    again = queue.join(a)
    assert again.choices() == {"mode": "classic", "variant": "perevodnoy", "players": 3, "deck": 36, "turn_seconds": 60,
                               "rated": False, "bot_fill": 0}


def test_one_live_search_per_player_and_cancel_leaves_the_queue(make_player, online):
    from social import queue
    from social.models import SearchRequest

    a = make_player()
    online(a)
    one = queue.join(a, players="4", bot_fill="0")
    two = queue.join(a, players="4", bot_fill="0")
    assert one.pk == two.pk
    assert queue.cancel(a) is True
    assert queue.cancel(a) is False
    assert SearchRequest.objects.get(pk=one.pk).status == SearchRequest.Status.CANCELLED


def test_a_matched_player_who_never_arrives_is_dropped_and_the_other_goes_back_to_the_head(make_player, online):
    from django.utils import timezone

    from lobby.models import Table
    from social import queue
    from social.models import SearchRequest

    a, b, c = make_player(), make_player(), make_player()
    online(a, b, c)
    ra = queue.join(a, players="2", bot_fill="0")
    age(ra, 3)
    queue.join(b, players="2", bot_fill="0")
    ra.refresh_from_db()
    table = ra.table
    queued_at = ra.queued_at
    queue.arrived(a.pk, table.pk)
    deadlines.sweep()
    assert SearchRequest.objects.get(player=b, table=table).status == SearchRequest.Status.MATCHED  # not yet
    SearchRequest.objects.filter(table=table).update(arrive_deadline=timezone.now())
    sweep_until(lambda: SearchRequest.objects.filter(player=b, status="dropped").exists())  # "arrival"
    ra.refresh_from_db()
    assert ra.status == SearchRequest.Status.WAITING and ra.queued_at == queued_at and ra.table is None
    assert SearchRequest.objects.get(player=b, status="dropped")
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    # the head of the queue is served first: a newcomer meets him at once
    rc = queue.join(c, players="2", bot_fill="0")
    assert rc.status == SearchRequest.Status.MATCHED
    ra.refresh_from_db()
    assert ra.table_id == rc.table_id


def test_bots_fill_after_the_chosen_wait_and_never_for_keep_waiting(make_player, online):
    from lobby.models import Seat
    from social import queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    online(a, b)
    ra = queue.join(a, players="4", bot_fill="15")
    rb = queue.join(b, players="4", bot_fill="15")
    deadlines.sweep()
    assert _tables() == []
    age(ra, 16)
    age(rb, 16)
    sweep_until(lambda: len(_tables()) == 1)  # the "search_match" deadline: bot fills fall due with time
    [table] = _tables()
    seats = Seat.objects.filter(table=table)
    assert seats.filter(player__isnull=False).count() == 2 and seats.exclude(bot_level="").count() == 2
    lonely = make_player()
    online(lonely)
    rl = queue.join(lonely, players="4", bot_fill="0")
    age(rl, 3600)
    deadlines.sweep()
    assert SearchRequest.objects.get(pk=rl.pk).status == SearchRequest.Status.WAITING


def test_a_wide_rating_gap_waits_for_the_window(make_player, online):
    from ratings.models import Rating
    from social import queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    Rating.objects.create(player=a, value=1000)
    Rating.objects.create(player=b, value=1400)
    online(a, b)
    ra = queue.join(a, players="2", bot_fill="0")
    rb = queue.join(b, players="2", bot_fill="0")
    assert rb.status == SearchRequest.Status.WAITING
    age(ra, 31)  # window 100 + 6 × 50 = 400
    sweep_until(lambda: SearchRequest.objects.get(pk=rb.pk).status == SearchRequest.Status.MATCHED)


def test_blocked_players_are_never_paired(make_player, online):
    from social import people, queue
    from social.models import SearchRequest

    a, b = make_player(), make_player()
    online(a, b)
    people.block(a, b.pk)
    ra = queue.join(a, players="2", bot_fill="0")
    queue.join(b, players="2", bot_fill="0")
    age(ra, 3600)
    deadlines.sweep()
    assert SearchRequest.objects.filter(status="waiting").count() == 2


def test_closing_every_tab_leaves_the_queue_after_a_grace(make_player, online):
    from social import presence, queue
    from social.models import Presence, SearchRequest

    a = make_player()
    online(a)
    ra = queue.join(a, players="4", bot_fill="0")
    presence.closed(a.pk)
    deadlines.sweep()
    assert SearchRequest.objects.get(pk=ra.pk).status == SearchRequest.Status.WAITING  # a page change
    age(ra, 10)
    from datetime import timedelta
    Presence.objects.filter(pk=a.pk).update(changed_at=ra.queued_at - timedelta(seconds=10))
    deadlines.sweep()
    assert SearchRequest.objects.get(pk=ra.pk).status == SearchRequest.Status.CANCELLED


@pytest.mark.parametrize("raw, code", [
    ({"variant": "durak"}, "search_bad_variant"),
    ({"players": "7"}, "bad_seats"),
    ({"players": "x"}, "bad_seats"),
    ({"deck": "40"}, "search_bad_deck"),
    ({"turn_seconds": "45"}, "bad_timer"),
    ({"bot_fill": "5"}, "search_bad_bot_fill"),
    ({"rated": "maybe"}, "search_bad_rated"),
    ({"rated": 3}, "search_bad_rated"),
    ({"deck": "24", "players": "6"}, "deck_too_small"),
    ({"colour": "red"}, "unknown_setting"),
    ({"mode": "poker"}, "search_bad_mode"),
    ({"mode": ""}, "search_bad_mode"),  # the mode is never left open
    ({"mode": "pairs", "players": "3"}, "pairs_need_four_seats"),
])
def test_bad_choices_are_refused_and_nothing_is_queued(make_player, raw, code):
    from durak_site.errors import ServiceError
    from social import queue
    from social.models import SearchRequest

    a = make_player()
    with pytest.raises(ServiceError) as exc:
        queue.join(a, **raw)
    assert exc.value.code == code
    assert not SearchRequest.objects.exists()


def test_a_banned_player_cannot_search(make_player):
    from django.utils import timezone

    from durak_site.errors import ServiceError
    from social import queue

    a = make_player(banned_at=timezone.now())
    with pytest.raises(ServiceError) as exc:
        queue.join(a)
    assert exc.value.code == "banned"
