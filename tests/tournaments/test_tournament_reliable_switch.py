"""A tournament table's waiting room offers nobody the host's «Только надёжные игроки»: the event made
the table and seated its players, so its seat 1 has no host's switch, and the endpoint refuses it."""

from __future__ import annotations

import pytest
from django.test import Client

from lobby.models import Table
from social.models import TableRequirement
from tests.tournaments.helpers import join_all, start
from tournaments import services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db

SWITCH = {"ru": "Только надёжные игроки", "en": "Only reliable players"}


def _pairing(make_event, make_player) -> TournamentGame:
    event = make_event(fmt="arena")
    join_all(event, [make_player(), make_player()])
    start(event)
    assert services.arena_wave(event.pk) == 1
    return TournamentGame.objects.get(tournament=event)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_tournament_table_offers_no_reliable_switch(make_event, make_player, lang):
    pairing = _pairing(make_event, make_player)
    table = Table.objects.get(pk=pairing.table_id)
    assert table.host_id in pairing.player_ids()  # seat 1 is the table's host column
    client = Client()
    for pid in pairing.player_ids():
        client.force_login(table.seats.get(player_id=pid).player)
        page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert "table-people" in page, page
        assert SWITCH[lang] not in page and "/reliable/" not in page, page


def test_the_switch_endpoint_refuses_at_a_tournament_table(make_event, make_player):
    pairing = _pairing(make_event, make_player)
    table = Table.objects.get(pk=pairing.table_id)
    client = Client()
    client.force_login(table.host)
    answer = client.post(f"/people/tables/{table.pk}/reliable/", {"value": "1"}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "matched_table_locked", answer.json()
    assert not TableRequirement.objects.filter(table=table).exists()
