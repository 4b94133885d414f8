"""The «Только надёжные игроки» switch belongs to a table's host: a table the search made has none
for its players (its seat 1 created nothing), so the waiting room offers it to nobody there and the
endpoint behind it refuses, changing nothing."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SWITCH = {"ru": "Только надёжные игроки", "en": "Only reliable players"}


def _client(player) -> Client:
    c = Client()
    c.force_login(player)
    return c


def _matched_table(make_player):
    """As social.matcher makes one: created for its first player, the others seated, locked."""
    from lobby import services as lobby_services

    first, second = make_player(), make_player()
    table = lobby_services.create_table(first, seats_count=2)
    lobby_services.sit(table.pk, second, 2)
    lobby_services.lock_as_matched(table.pk)
    return table, first, second


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_table_the_search_made_offers_its_seat_1_no_reliable_switch(make_player, lang):
    table, first, second = _matched_table(make_player)
    for player in (first, second):
        page = _client(player).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert "table-people" in page, page  # the people block is there, only the switch is not
        assert SWITCH[lang] not in page and "/reliable/" not in page, page


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_table_a_player_made_still_offers_its_host_the_switch(make_player, lang):
    from lobby import services as lobby_services

    host = make_player()
    table = lobby_services.create_table(host, seats_count=2)
    page = _client(host).get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert SWITCH[lang] in page and f"/people/tables/{table.pk}/reliable/" in page


def test_the_switch_endpoint_refuses_at_a_table_the_search_made(make_player):
    from social.models import TableRequirement

    table, first, second = _matched_table(make_player)
    for player, code in ((first, "matched_table_locked"), (second, "not_host")):
        for value in ("1", "0"):
            answer = _client(player).post(f"/people/tables/{table.pk}/reliable/", {"value": value},
                                          HTTP_ACCEPT="application/json")
            body = answer.json()
            assert body["ok"] is False and body["code"] == code, body
    assert not TableRequirement.objects.filter(table=table).exists()
