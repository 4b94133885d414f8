"""Moderators see parties (leader, partner, state, created) and cannot add, change or delete one:
social.party is the only writer."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.social.test_party import make_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(make_player) -> Client:
    moderator = make_player("Модератор")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(moderator)
    return client


def test_moderators_see_a_partys_leader_partner_and_state(make_player, moderator):
    leader, member = make_player("Ведущий"), make_player("Второй")
    make_party(leader, member)
    html = moderator.get("/admin/social/party/").content.decode()
    assert "Ведущий" in html and "Второй" in html and "вместе" in html
    assert "Напарник" in html  # the partner's column, in Russian


def test_parties_cannot_be_added_changed_or_deleted_from_the_admin(make_player, moderator):
    from social.models import Party

    leader, member = make_player(), make_player()
    make_party(leader, member)
    party = Party.objects.get(leader=leader)
    assert moderator.get("/admin/social/party/add/").status_code == 403
    assert moderator.post(f"/admin/social/party/{party.pk}/change/", {"status": "ended"}).status_code == 403
    assert moderator.post(f"/admin/social/party/{party.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Party.objects.get(pk=party.pk).status == Party.Status.ACTIVE
