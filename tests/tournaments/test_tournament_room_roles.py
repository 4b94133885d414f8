"""A tournament table's waiting room names no creator: the event made the table, not its seat 1."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from lobby import services as lobby_services
from tests.tournaments.helpers import join_all, start
from tournaments import services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db

HOST_WORD = {"ru": "создатель", "en": "host"}


def _seat_tags(html: str) -> list[str]:
    seats = re.search(r'<ol class="seats.*?</ol>', html, re.S)
    assert seats is not None
    return [" ".join(re.sub(r"<[^>]+>", " ", t).split()) for t in re.findall(r'<span class="tag"[^>]*>(.*?)</span>',
                                                                              seats.group(0), re.S)]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_tournament_table_names_no_host_among_its_players(client, make_event, make_player, lang):
    event = make_event(fmt="arena")
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    assert services.arena_wave(event.pk) == 1
    pairing = TournamentGame.objects.get(tournament=event)
    url = reverse("lobby:table", args=[pairing.table_id])
    for player in (a, b):
        client.force_login(player)
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert HOST_WORD[lang] not in _seat_tags(html), html
    for pid in pairing.player_ids():  # everyone has arrived: the names are shown, still no host
        services.arrived(pid, pairing.table_id)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'class="seat-nick">' + a.nick in html and HOST_WORD[lang] not in _seat_tags(html)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_table_someone_made_still_names_its_host(client, make_player, lang):
    """The tag the tournament table leaves out is there at a table a player made."""
    host, guest = make_player(), make_player()
    table = lobby_services.create_table(host, seats_count=2)
    lobby_services.sit(table.pk, guest, 2)
    client.force_login(guest)
    html = client.get(reverse("lobby:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert _seat_tags(html).count(HOST_WORD[lang]) == 1
