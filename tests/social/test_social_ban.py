"""A ban stops the social layer too: a banned player's session can send no friend request, no
invitation and no analysis request; banning him frees his waiting-room seats, withdraws his pending
invitations and ends his search."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def _moderator(make_player):
    mod = make_player()
    mod.is_staff = True
    mod.save()
    return mod


def _ban(player, make_player):
    from accounts import services as accounts_services

    return accounts_services.ban(player, "farming", _moderator(make_player))


def test_a_banned_session_sends_no_friend_request_and_the_victim_hears_nothing(make_player, client):
    from social.models import Friendship

    bad, victim = make_player("bad"), make_player("victim")
    client.force_login(bad)
    _ban(bad, make_player)
    for _k in range(3):
        answer = client.post(f"/people/{victim.pk}/friend/", {"op": "request"}, HTTP_ACCEPT="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "banned"
    assert not Friendship.objects.exists()


@pytest.mark.parametrize("action", ["request_friend", "accept_friend", "block", "invite", "answer",
                                    "set_invites_friends_only", "set_reliable_only"])
def test_every_social_action_refuses_a_banned_player(make_player, action):
    from durak_site.errors import ServiceError
    from lobby import services as lobby_services
    from social import people

    bad, other = make_player(), make_player()
    table = lobby_services.create_table(other)
    invitation = people.invite(other, bad.pk)
    people.request_friend(other, bad.pk)
    bad = _ban(bad, make_player)
    calls = {
        "request_friend": lambda: people.request_friend(bad, other.pk),
        "accept_friend": lambda: people.accept_friend(bad, other.pk),
        "block": lambda: people.block(bad, other.pk),
        "invite": lambda: people.invite(bad, other.pk),
        "answer": lambda: people.answer(bad, invitation.pk, True),
        "set_invites_friends_only": lambda: people.set_invites_friends_only(bad, True),
        "set_reliable_only": lambda: people.set_reliable_only(bad, table.pk, True),
    }
    with pytest.raises(ServiceError) as exc:
        calls[action]()
    assert exc.value.code == "banned"


def test_banning_frees_his_waiting_room_seats_and_withdraws_his_invitations(make_player, online):
    from lobby import services as lobby_services
    from lobby.models import Seat, Table
    from social import people, queue
    from social.models import Invitation, SearchRequest

    bad, guest, host, other = make_player("bad"), make_player("guest"), make_player("host"), make_player()
    table = lobby_services.create_table(bad)
    lobby_services.sit(table.pk, other, 2)
    sent = people.invite(bad, guest.pk)
    theirs = lobby_services.create_table(host)
    received = people.invite(host, bad.pk)
    _ban(bad, make_player)
    assert not Seat.objects.filter(player=bad).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.host_id == other.pk
    assert Invitation.objects.get(pk=sent.pk).status != Invitation.Status.PENDING
    assert Invitation.objects.get(pk=received.pk).status != Invitation.Status.PENDING
    assert theirs.pk  # the other host's table is untouched
    # a search he had is over too
    searcher = make_player()
    online(searcher)
    row = queue.join(searcher, players="4", bot_fill="0")
    _ban(searcher, make_player)
    assert SearchRequest.objects.get(pk=row.pk).status == SearchRequest.Status.CANCELLED


def test_a_banned_player_queues_no_analysis(make_player):
    from analysis import services as analysis_services
    from analysis.models import Analysis
    from durak_site.errors import ServiceError
    from game.models import Game
    from lobby.models import Table

    bad = make_player()
    table = Table.objects.create(name="t", rules={}, seats_count=2)
    game = Game.objects.create(table=table, rules={}, seed="1", initial_state={}, state={},
                               status=Game.Status.FINISHED)
    bad = _ban(bad, make_player)
    with pytest.raises(ServiceError) as exc:
        analysis_services.request_analysis(game.pk, bad)
    assert exc.value.code == "banned"
    assert not Analysis.objects.exists()
