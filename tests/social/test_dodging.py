"""Dodging costs: a matched player who does not come, or stands up before the deal, is recorded (a
growing wait before his next search, and his reliability mark); the dodged pair is not matched
again at once; his victims go back to the head of the queue; and nobody learns who the opponent
is before everyone has arrived."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.social.conftest import age, sweep_until

pytestmark = pytest.mark.django_db(transaction=True)


def _match(make_player, online, *people):
    from social import queue

    people = people or (make_player(), make_player())
    online(*people)
    rows = [queue.join(p, players=str(len(people)), bot_fill="0", rated="0") for p in people]
    age(rows[0], 3)
    for r in rows:
        r.refresh_from_db()
    assert {r.status for r in rows} == {"matched"}
    return people, rows, rows[0].table


def _no_show(table):
    from django.utils import timezone

    from social.models import SearchRequest

    SearchRequest.objects.filter(table=table).update(arrive_deadline=timezone.now())
    sweep_until(lambda: not SearchRequest.objects.filter(table=table, status="matched").exists())  # "arrival"


def _age_dodges(player, seconds: float) -> None:
    from social.models import Dodge

    for d in Dodge.objects.filter(player=player):
        Dodge.objects.filter(pk=d.pk).update(created_at=d.created_at - timedelta(seconds=seconds))


def test_a_no_show_waits_before_searching_again_and_the_wait_grows(make_player, online):
    from durak_site.errors import ServiceError
    from social import queue
    from social.models import Dodge

    (a, b), (ra, rb), table = _match(make_player, online)
    queue.arrived(a.pk, table.pk)
    _no_show(table)
    assert Dodge.objects.get(player=b).kind == "no_show"
    with pytest.raises(ServiceError) as exc:
        queue.join(b, players="2", bot_fill="0")
    assert exc.value.code == "search_wait" and 0 < exc.value.params["seconds"] <= 30
    _age_dodges(b, 31)
    queue.cancel(a)
    rb2 = queue.join(b, players="2", bot_fill="0", rated="0")  # the first wait is over
    c = make_player()
    online(c)
    queue.join(c, players="2", bot_fill="0", rated="0")
    rb2.refresh_from_db()
    queue.arrived(c.pk, rb2.table_id)
    _no_show(rb2.table)  # a second dodge: the wait doubles
    _age_dodges(b, 31)
    with pytest.raises(ServiceError) as exc:
        queue.join(b, players="2", bot_fill="0")
    assert exc.value.code == "search_wait" and 25 < exc.value.params["seconds"] <= 60


def test_the_victim_goes_back_to_the_head_and_never_meets_the_dodger_at_once(make_player, online):
    from durak_site import deadlines
    from social import queue
    from social.models import SearchRequest

    (a, b), (ra, rb), table = _match(make_player, online)
    queued_at = SearchRequest.objects.get(pk=ra.pk).queued_at
    queue.arrived(a.pk, table.pk)
    _no_show(table)
    ra.refresh_from_db()
    assert ra.status == "waiting" and ra.queued_at == queued_at
    _age_dodges(b, 100)  # his wait is over, but the pair still rests
    rb2 = queue.join(b, players="2", bot_fill="0", rated="0")
    deadlines.sweep()
    assert SearchRequest.objects.get(pk=rb2.pk).status == "waiting"
    assert SearchRequest.objects.get(pk=ra.pk).status == "waiting"
    c = make_player()
    online(c)
    rc = queue.join(c, players="2", bot_fill="0", rated="0")
    assert rc.status == "matched"
    ra.refresh_from_db()
    assert ra.table_id == rc.table_id  # the head of the queue is served first


def test_standing_up_during_the_countdown_is_a_dodge_and_the_victim_is_requeued(make_player, online):
    from lobby import services as lobby_services
    from lobby.models import Table
    from social import queue, reliability
    from social.models import Dodge, SearchRequest

    (a, b), (ra, rb), table = _match(make_player, online)
    queued_at = SearchRequest.objects.get(pk=ra.pk).queued_at
    queue.arrived(a.pk, table.pk)
    queue.arrived(b.pk, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.COUNTDOWN
    lobby_services.stand(table.pk, b)
    assert Dodge.objects.get(player=b).kind == "countdown_exit"
    ra.refresh_from_db()
    assert ra.status == "waiting" and ra.queued_at == queued_at and ra.table_id is None
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    assert reliability.mark(b.pk) == reliability.NEW  # one dodge and no games: nothing known yet
    assert not Dodge.objects.filter(player=a).exists()


def test_dodges_count_in_the_reliability_mark(make_player):
    from social import reliability
    from social.models import Dodge

    games = ["won"] * 8
    assert reliability.mark_from(games) == reliability.HIGH
    from django.utils import timezone

    from game.models import Game
    from lobby.models import Table
    from ratings.models import GameRecord, PlayerGame

    p = make_player()
    for _k in range(8):
        t = Table.objects.create(name="t", rules={}, seats_count=2)
        g = Game.objects.create(table=t, rules={}, seed="1", initial_state={}, state={}, status="finished")
        now = timezone.now()
        rec = GameRecord.objects.create(game=g, table=t, variant="podkidnoy", rated=False, finished_at=now)
        PlayerGame.objects.create(record=rec, player=p, seat=1, outcome="win", reason="won", finished_at=now)
    assert reliability.mark(p.pk) == reliability.HIGH
    Dodge.objects.create(player=p, kind="no_show", against=[])
    assert reliability.mark(p.pk) == reliability.MEDIUM  # 1 of 9 > 5 %: not "reliable" any more
    assert reliability.marks([p.pk]) == {p.pk: reliability.mark(p.pk)}


def test_nobody_learns_the_opponent_before_both_arrived(make_player, online, client):
    from social import presence, queue

    a, b = make_player("Алиса"), make_player("Борис")
    (a, b), (ra, rb), table = _match(make_player, online, a, b)
    client.force_login(a)
    queue.arrived(a.pk, table.pk)
    room = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Борис" not in room and f"/people/{b.pk}/" not in room and f'data-player="{b.pk}"' not in room
    from django.test import Client

    assert f"/tables/{table.pk}/" not in Client().get("/tables/").content.decode()  # the lobby lists it not
    assert presence.statuses([b.pk])[b.pk]["status"] == "searching"  # not "lobby": no tell-tale change
    queue.arrived(b.pk, table.pk)
    room = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Борис" in room
