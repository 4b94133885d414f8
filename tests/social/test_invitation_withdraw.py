"""The host takes back a table invitation he sent: the guest hears `invitation_withdrawn` (site.js
removes his notice) and can no longer accept it. Only the host may; anyone else gets the catalogue's
sentence and nothing changes. The endpoint is the friends page's «Отозвать» button."""

from __future__ import annotations

import pytest
from django.test import Client

from durak_site.errors import ServiceError
from tests.social.test_party import news  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _invited(make_player):
    from lobby import services as lobby_services
    from social import people

    host, guest = make_player("Хозяин"), make_player("Гость")
    lobby_services.create_table(host, seats_count=4)
    return host, guest, people.invite(host, guest.pk)


def _client(player) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="ru")
    c.force_login(player)
    return c


def test_the_host_withdraws_and_the_guest_is_told_and_cannot_accept(make_player, news):  # noqa: F811
    from social import people
    from social.models import Invitation

    host, guest, row = _invited(make_player)
    people.withdraw(host, row.pk)
    assert Invitation.objects.get(pk=row.pk).status == Invitation.Status.EXPIRED
    assert (guest.pk, "invitation_withdrawn", {"id": row.pk, "nick": "Хозяин", "renewed": False}) in news
    with pytest.raises(ServiceError) as exc:
        people.answer(guest, row.pk, True)
    assert exc.value.code == "invitation_expired"
    assert people.sent_by(host.pk) == []


@pytest.mark.parametrize("who, code", [("guest", "invitation_not_yours"), ("stranger", "invitation_not_found")])
def test_only_the_host_may_withdraw_and_nothing_changes_otherwise(make_player, news, who, code):  # noqa: F811
    from social import people
    from social.models import Invitation

    host, guest, row = _invited(make_player)
    actor = guest if who == "guest" else make_player()
    with pytest.raises(ServiceError) as exc:
        people.withdraw(actor, row.pk)
    assert exc.value.code == code
    assert Invitation.objects.get(pk=row.pk).status == Invitation.Status.PENDING
    assert not [n for n in news if n[1] == "invitation_withdrawn"]


def test_an_answered_or_unknown_invitation_cannot_be_withdrawn(make_player):
    from social import people

    host, guest, row = _invited(make_player)
    people.answer(guest, row.pk, False)
    for invitation_id, code in ((row.pk, "invitation_expired"), (999999, "invitation_not_found"),
                                ("x", "invitation_not_found")):
        with pytest.raises(ServiceError) as exc:
            people.withdraw(host, invitation_id)
        assert exc.value.code == code


def test_the_host_withdraws_from_the_friends_page(make_player, news):  # noqa: F811
    from social.models import Invitation

    host, guest, row = _invited(make_player)
    page = _client(host).get("/people/").content.decode()
    assert f'action="/people/invitations/{row.pk}/withdraw/"' in page and "Отозвать" in page
    assert "/withdraw/" not in _client(guest).get("/people/").content.decode()  # the guest answers instead
    done = _client(host).post(f"/people/invitations/{row.pk}/withdraw/", {"back": "/people/"})
    assert done.status_code == 302 and done["Location"] == "/people/"
    assert Invitation.objects.get(pk=row.pk).status == Invitation.Status.EXPIRED
    assert f"/people/invitations/{row.pk}/withdraw/" not in _client(host).get("/people/").content.decode()


def test_the_endpoint_is_authorised_and_rate_limited(make_player, monkeypatch):
    from social import views
    from social.models import Invitation

    host, guest, row = _invited(make_player)
    url = f"/people/invitations/{row.pk}/withdraw/"
    assert Client().post(url).status_code == 302  # to the sign-in page
    assert _client(host).get(url).status_code == 405
    refused = _client(guest).post(url, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and refused.json()["code"] == "invitation_not_yours"
    assert refused.json()["message"] == "Only the player who sent this invitation can withdraw it."
    monkeypatch.setattr(views, "POSTS_PER_MINUTE", 0)
    limited = _client(host).post(url, HTTP_ACCEPT="application/json")
    assert limited.status_code == 400 and limited.json()["code"] == "social_too_many"
    assert Invitation.objects.get(pk=row.pk).status == Invitation.Status.PENDING
