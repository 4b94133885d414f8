"""The social endpoints: signed-out, unknown and malformed requests are refused and change nothing;
friends, blocks and invitations work through the pages; a block keeps a player out of a table and
says nothing revealing."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    c = Client()
    c.force_login(player)
    return c


def _state():
    from social.models import Block, Friendship, Invitation, Preference, SearchRequest, TableRequirement

    return [m.objects.count() for m in (Block, Friendship, Invitation, Preference, SearchRequest, TableRequirement)]


POSTS = ["/play/search/start/", "/play/search/cancel/", "/people/settings/", "/people/{id}/friend/",
         "/people/{id}/block/", "/people/{id}/invite/", "/people/invitations/1/", "/people/tables/1/reliable/"]


def test_signed_out_posts_go_to_sign_in_and_change_nothing(make_player):
    other = make_player()
    before = _state()
    for url in POSTS:
        response = Client().post(url.format(id=other.pk))
        assert response.status_code == 302 and "/accounts/" in response["Location"], url
    assert _state() == before


def test_gets_on_post_only_endpoints_are_refused(make_player):
    me, other = make_player(), make_player()
    c = _client(me)
    for url in POSTS:
        assert c.get(url.format(id=other.pk)).status_code == 405, url


@pytest.mark.parametrize("url, data, code", [
    ("/people/{id}/friend/", {"op": "hug"}, "bad_action"),
    ("/people/{id}/block/", {}, "bad_action"),
    ("/people/999999/friend/", {"op": "request"}, "player_not_found"),
    ("/people/{me}/friend/", {"op": "request"}, "social_self"),
    ("/people/{id}/friend/", {"op": "accept"}, "friend_request_not_found"),
    ("/people/{id}/invite/", {}, "invite_no_table"),
    ("/people/invitations/77/", {"op": "accept"}, "invitation_not_found"),
    ("/people/invitations/77/", {"op": "maybe"}, "bad_action"),
    ("/people/settings/", {"friends_only": "yes"}, "bad_action"),
    ("/people/tables/999/reliable/", {"value": "1"}, "table_not_found"),
    ("/play/search/start/", {"form": "1", "players": "12"}, "bad_seats"),
    ("/play/search/start/", {"form": "1", "deck": "24", "players": "6"}, "deck_too_small"),
])
def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(make_player, url, data, code):
    me, other = make_player(), make_player()
    before = _state()
    response = _client(me).post(url.format(id=other.pk, me=me.pk), data, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
    assert _state() == before


def test_friend_request_accept_and_remove(make_player):
    from social import people

    a, b = make_player(), make_player()
    assert _client(a).post(f"/people/{b.pk}/friend/", {"op": "request"}).status_code == 302
    assert people.relation(a.pk, b.pk) == "pending" and people.relation(b.pk, a.pk) == "requested"
    page = _client(b).get("/people/")
    assert a.nick in page.content.decode()
    _client(b).post(f"/people/{a.pk}/friend/", {"op": "accept"})
    assert people.are_friends(a.pk, b.pk)
    _client(a).post(f"/people/{b.pk}/friend/", {"op": "remove"})
    assert not people.are_friends(a.pk, b.pk)


def test_a_block_keeps_him_off_your_table_and_out_of_requests_without_saying_so(make_player):
    from durak_site.errors import ServiceError
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people

    host, pest = make_player(), make_player()
    table = lobby_services.create_table(host, seats_count=4)
    _client(host).post(f"/people/{pest.pk}/block/", {"op": "block"})
    with pytest.raises(ServiceError) as exc:
        lobby_services.sit(table.pk, pest, 2)
    assert exc.value.code == "seat_unavailable"
    assert not Seat.objects.filter(table=table, player=pest).exists()
    # «Сесть» from the lobby list: the same refusal, and he is not seated
    _client(pest).post(f"/tables/{table.pk}/act/", {"op": "sit", "seat": "2"})
    assert not Seat.objects.filter(table=table, player=pest).exists()
    # his friend request and his invitation read like those to any unavailable player (not "no such
    # player": the card exists)
    response = _client(pest).post(f"/people/{host.pk}/friend/", {"op": "request"}, HTTP_ACCEPT="application/json")
    assert response.json()["code"] == "friend_unavailable"
    other_table = lobby_services.create_table(pest, seats_count=2)
    response = _client(pest).post(f"/people/{host.pk}/invite/", HTTP_ACCEPT="application/json")
    assert response.json()["code"] == "invite_unavailable"
    assert "block" not in response.json()["message"].lower() and "блок" not in response.json()["message"].lower()
    assert other_table.pk
    assert people.blocked_by(host.pk) == {pest.pk}


def test_invitations_respect_friends_only_and_are_rate_limited(make_player):
    from lobby import services as lobby_services
    from social import people

    host, guest = make_player(), make_player()
    lobby_services.create_table(host, seats_count=4)
    _client(guest).post("/people/settings/", {"friends_only": "1"})
    response = _client(host).post(f"/people/{guest.pk}/invite/", HTTP_ACCEPT="application/json")
    assert response.json()["code"] == "invite_unavailable"
    people.request_friend(host, guest.pk)
    people.accept_friend(guest, host.pk)
    for _ in range(people.INVITES_PER_MINUTE):
        assert _client(host).post(f"/people/{guest.pk}/invite/", HTTP_ACCEPT="application/json").status_code == 200
    response = _client(host).post(f"/people/{guest.pk}/invite/", HTTP_ACCEPT="application/json")
    assert response.json()["code"] == "social_too_many"


def test_quick_play_enters_the_search_and_the_second_lands_at_the_table(make_player, online):
    a, b = make_player(), make_player()
    online(a, b)
    first = _client(a).post("/tables/quick/")
    assert first.status_code == 302 and first["Location"] == "/play/search/"
    page = _client(a).get("/play/search/").content.decode()
    assert "data-searching" in page
    second = _client(b).post("/tables/quick/")
    assert second.status_code == 302 and second["Location"].startswith("/tables/")
    assert _client(a).get("/play/search/")["Location"] == second["Location"]


def test_play_logged_out_asks_for_a_nick_then_searches_at_once(make_player):
    response = Client().get("/play/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/signup/?next=") and "start%3D1" in response["Location"]
    me = make_player()
    page = _client(me).get("/play/search/?start=1").content.decode()
    assert "data-autostart" in page


def test_the_lobby_shows_who_is_online_and_sit_seats_you(make_player, online):
    from lobby import services as lobby_services
    from lobby.models import Seat

    host, me = make_player("Хозяйка"), make_player("Ира")
    online(host, me)
    table = lobby_services.create_table(host, seats_count=4)
    page = _client(me).get("/tables/").content.decode()
    assert "data-online-panel" in page and "Хозяйка" in page
    assert f'action="/tables/{table.pk}/act/"' in page  # «Сесть» is a form that seats
    _client(me).post(f"/tables/{table.pk}/act/", {"op": "sit", "seat": "2"})
    assert Seat.objects.filter(table=table, player=me, number=2).exists()


def test_reliability_marks(make_player):
    from social.reliability import HIGH, LOW, MEDIUM, NEW, mark_from

    assert mark_from(["won"] * 4) == NEW
    assert mark_from(["won"] * 50) == HIGH
    assert mark_from(["won"] * 45 + ["left"] * 5) == MEDIUM
    assert mark_from(["won"] * 40 + ["did_not_return"] * 10) == LOW
    assert mark_from(["won"] * 40 + ["lost_on_time"] * 10) == HIGH  # a slow player is not a leaver


def test_the_profile_shows_the_reliability_mark_and_the_friends_link(make_player):
    me = make_player()
    page = _client(me).get("/accounts/profile/").content.decode()
    assert "rel-mark rel-new" in page and 'href="/people/"' in page


def test_the_waiting_room_lists_its_players_with_their_marks_and_the_host_may_ask_for_reliable_ones(make_player):
    from durak_site.errors import ServiceError
    from lobby import services as lobby_services
    from social.models import TableRequirement

    host, guest = make_player("Хозяин"), make_player()
    table = lobby_services.create_table(host, seats_count=4)
    page = _client(host).get(f"/tables/{table.pk}/").content.decode()
    assert "table-people" in page and "rel-mark" in page
    assert _client(guest).post(f"/people/tables/{table.pk}/reliable/", {"value": "1"},
                               HTTP_ACCEPT="application/json").json()["code"] == "not_host"
    _client(host).post(f"/people/tables/{table.pk}/reliable/", {"value": "1"})
    assert TableRequirement.objects.get(table=table).reliable_only
    lobby_services.sit(table.pk, guest, 2)  # a new player is not "low": he may sit
    lobby_services.stand(table.pk, guest)
    _left_games(guest, left=5, of=10)
    from social import reliability

    assert reliability.mark(guest.pk) == reliability.LOW
    with pytest.raises(ServiceError) as exc:
        lobby_services.sit(table.pk, guest, 2)
    assert exc.value.code == "seat_reliable_only"


def _left_games(player, left: int, of: int) -> None:
    """`of` recorded games of his, `left` of them left («Выйти»): what ratings writes at a game's end."""
    from django.utils import timezone

    from lobby.models import Table
    from ratings.models import GameRecord, PlayerGame
    from tests.ratings.ratings_factories import finished_game_row

    table = Table.objects.create(name="old", seats_count=2, status=Table.Status.CLOSED)
    for i in range(of):
        game = finished_game_row(table, [player, "heuristic"], {})
        record = GameRecord.objects.create(game=game, table=table, variant="podkidnoy", finished_at=timezone.now())
        reason = "left" if i < left else "won"
        PlayerGame.objects.create(record=record, player=player, seat=1, outcome="loss" if i < left else "win",
                                  reason=reason, finished_at=timezone.now())


def test_the_rules_page_states_the_matching_rule_and_the_reliability_mark(client):
    page = client.get("/tables/rules/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="matchmaking"' in page and "каждые 5 с ожидания она растёт на 50" in page
    assert 'id="reliability"' in page and "последним 50 играм" in page
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get("/tables/rules/").content.decode()
    assert "it grows by 50 every 5 s of waiting" in english and "“often leaves”" in english


@pytest.mark.django_db
def test_the_marks_of_many_players_are_each_ones_mark_over_his_last_games():
    """The lobby's list reads a hundred marks in one query: each is what his own last RECENT games say
    (older leaves do not count), and a player with no games is new."""
    from datetime import timedelta

    from django.db.models import F

    from ratings.models import PlayerGame
    from social import reliability
    from tests.social.test_seat_marks import make_player, record_games

    steady, leaver, reformed, newcomer = (make_player(n) for n in ("Ровный", "Беглец", "Исправленный", "Новый"))
    record_games(steady, left=0, of=10)
    record_games(leaver, left=5, of=10)
    record_games(reformed, left=10, of=10)
    PlayerGame.objects.filter(player=reformed).update(finished_at=F("finished_at") - timedelta(days=30))
    record_games(reformed, left=0, of=reliability.RECENT)  # fifty good games since
    ids = [steady.pk, leaver.pk, reformed.pk, newcomer.pk]
    assert reliability.marks(ids) == {pid: reliability.mark(pid) for pid in ids}
    assert reliability.marks(ids) == {steady.pk: reliability.HIGH, leaver.pk: reliability.LOW,
                                      reformed.pk: reliability.HIGH, newcomer.pk: reliability.NEW}
    assert reliability.marks([]) == {}


def test_a_stranger_gets_one_answer_for_a_private_table_and_a_missing_one(make_player):
    from lobby import services as lobby_services
    from social.models import TableRequirement

    host, stranger = make_player(), make_player()
    table = lobby_services.create_table(host, private=True)
    c = _client(stranger)
    answers = [c.post(f"/people/tables/{tid}/reliable/", {"value": "1"}, HTTP_ACCEPT="application/json").json()
               for tid in (table.pk, table.pk + 1000)]
    assert answers[0] == answers[1] and answers[0]["code"] == "table_not_found"
    assert not TableRequirement.objects.exists()
