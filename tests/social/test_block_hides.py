"""What a block hides (stated on the rules page): the blocked player's account does not see the
blocker in the online list, on his card (online, playing, searching), in the lobby's tables, nor at
his table (its page and socket answer as for a missing table); a friend request reads like any
refusal; anonymous visitors see how many are online, not who."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_summary():
    from django.core.cache import cache

    cache.clear()


def _client(player=None) -> Client:
    c = Client()
    if player is not None:
        c.force_login(player)
    return c


def _pair(make_player, online):
    from social import people

    blocker, blocked, third = make_player("Блокирующий"), make_player("Заблокированный"), make_player("Третий")
    online(blocker, blocked, third)
    people.block(blocker, blocked.pk)
    from django.core.cache import cache

    cache.clear()  # the online block is cached for a second: read it anew
    return blocker, blocked, third


def test_the_online_list_hides_the_blocker_from_the_blocked_and_names_nobody_to_strangers(make_player, online):
    blocker, blocked, third = _pair(make_player, online)
    names = {c: [p["nick"] for p in _client(who).get("/people/online/", HTTP_ACCEPT="application/json")
                                                 .json()["players"]]
             for c, who in (("blocked", blocked), ("third", third))}
    assert "Блокирующий" not in names["blocked"] and "Блокирующий" in names["third"]
    anonymous = _client().get("/people/online/", HTTP_ACCEPT="application/json").json()
    assert anonymous["online"] == 3 and anonymous["players"] == []
    page = _client(blocked).get("/people/online/?q=Бло").content.decode()
    assert "Блокирующий" not in page and "Заблокированный" in page
    assert "Блокирующий" in _client(third).get("/people/online/?q=Бло").content.decode()
    assert "Блокирующий" not in _client().get("/people/online/?q=Бло").content.decode()
    lobby = _client(blocked).get("/tables/").content.decode()
    assert "Блокирующий" not in lobby and "Третий" in lobby
    assert "Блокирующий" not in _client().get("/tables/").content.decode()


def test_his_card_shows_the_blocked_player_nothing_of_where_he_is(make_player, online):
    from social import queue

    blocker, blocked, third = _pair(make_player, online)
    queue.join(blocker, players="4", bot_fill="0")
    mine = _client(blocked).get(f"/people/{blocker.pk}/")
    assert mine.status_code == 200 and mine.context["online"] is False and mine.context["state"] == {}
    theirs = _client(third).get(f"/people/{blocker.pk}/")
    assert theirs.context["online"] is True and theirs.context["state"]["status"] == "searching"
    assert _client().get(f"/people/{blocker.pk}/").context["online"] is False  # strangers: nothing


def test_a_friend_request_to_a_blocker_reads_like_any_refusal(make_player, online):
    blocker, blocked, _third = _pair(make_player, online)
    answer = _client(blocked).post(f"/people/{blocker.pk}/friend/", {"op": "request"}, HTTP_ACCEPT="application/json")
    assert answer.json()["code"] == "friend_unavailable"
    assert _client(blocked).get(f"/people/{blocker.pk}/").status_code == 200


def test_the_blocked_player_cannot_find_or_watch_the_blockers_table(make_player, online):
    from game import access
    from lobby import services as lobby_services

    blocker, blocked, third = _pair(make_player, online)
    table = lobby_services.create_table(blocker, name="стол блокирующего")
    lobby_services.set_presence(table.pk, blocker.pk, True)
    assert _client(blocked).get(f"/tables/{table.pk}/").status_code == 404
    assert _client(blocked).get(f"/tables/{table.pk + 1000}/").status_code == 404
    assert not access.may_open(table.pk, blocked)
    assert access.may_open(table.pk, third)
    assert _client(third).get(f"/tables/{table.pk}/").status_code == 200
    assert f"/tables/{table.pk}/" not in _client(blocked).get("/tables/").content.decode()
    assert f"/tables/{table.pk}/" in _client(third).get("/tables/").content.decode()
