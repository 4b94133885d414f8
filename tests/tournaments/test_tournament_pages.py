"""The pages: the next events on the home page and the lobby with «Участвовать», the event page
with its standings, the live fragment, a private event hidden from strangers, the podium on the profile."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.helpers import begin, join_all, resign, start
from tournaments import services
from tournaments.models import Entry, TournamentGame

pytestmark = pytest.mark.django_db


def _public(event):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=event.pk).update(private=False)
    event.refresh_from_db()
    return event


def test_home_and_lobby_show_the_next_event_with_one_tap_join(client, make_event, make_player):
    event = _public(make_event())
    me = make_player()
    client.force_login(me)
    for url in (reverse("home"), reverse("lobby:index")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert event.name in page and "Участвовать" in page and "data-countdown" in page
    resp = client.post(reverse("tournaments:join", args=[event.pk]))
    assert resp.status_code == 302
    assert Entry.objects.filter(tournament=event, player=me).exists()


def test_a_private_event_is_hidden_without_its_link(client, make_event, make_player):
    event = make_event()
    client.force_login(make_player())
    assert client.get(reverse("tournaments:detail", args=[event.pk])).status_code == 404
    assert client.get(reverse("tournaments:live", args=[event.pk])).status_code == 404
    assert client.get(reverse("tournaments:detail", args=[event.pk]) + f"?code={event.invite_code}").status_code == 200


def test_a_refused_join_says_why_in_english_too(client, make_event, make_player):
    event = make_event()
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:join", args=[event.pk]), HTTP_ACCEPT="application/json")
    assert resp.status_code == 400 and resp.json()["code"] == "tournament_private"


def test_the_event_page_shows_standings_marks_and_after_the_end_the_podium_and_profile(client, make_event,
                                                                                       make_player):
    event = make_event()
    a, b = make_player("Анна"), make_player("Борис")
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = TournamentGame.objects.get(tournament=event)
    winner, loser = (a, b) if pairing.player_a_id == a.pk else (b, a)
    resign(begin(pairing).pk, loser)
    client.force_login(winner)
    url = reverse("tournaments:detail", args=[event.pk]) + f"?code={event.invite_code}"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Standings" in page and winner.nick in page and "Pause" in page
    services.fire_end(event.pk)
    live = client.get(reverse("tournaments:live", args=[event.pk]) + f"?code={event.invite_code}").content.decode()
    assert "t-podium" in live and winner.nick in live
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert "t-medal-1" in profile and event.name in profile


def test_creating_a_private_event_gives_its_link(client, make_player):
    client.force_login(make_player())
    resp = client.post(reverse("tournaments:create"), {
        "name": "Пятничная", "format": "swiss", "variant": "perevodnoy", "deck_size": "36", "turn_seconds": "30",
        "minutes": "30", "rounds": "3", "starts_at": "2099-01-01T20:00"})
    assert resp.status_code == 200 and "tournament_bad_start" not in resp.content.decode()
    # a start beyond 30 days is refused with the catalogue's sentence, nothing made
    from tournaments.models import Tournament

    assert Tournament.objects.count() == 0
    assert "30" in resp.content.decode()
