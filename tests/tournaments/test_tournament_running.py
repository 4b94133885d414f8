"""The event page's games in progress list every player of a table (a pod of 3 or 4, or two pairs),
not only the pairing's first two, each game a link to its table to watch; the live frame carries the
same players in seat order."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.helpers import join_all, start
from tournaments import live, services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db


def _running_links(page: str) -> dict[str, str]:
    """{table URL: the link's text} of the page's games in progress."""
    section = page.split("data-running", 1)[1].split("</section>", 1)[0]
    return {href: re.sub(r"<[^>]+>", "", text).replace("&amp;", "&")
            for href, text in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', section)}


def _paired(make_event, make_player, seats: int, players: int, **extra):
    event = make_event(seats=seats, **extra)
    people = [make_player(f"Игрок{seats}{k}") for k in range(players)]
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    return event, TournamentGame.objects.get(tournament=event)


def _page(client, event, viewer) -> str:
    client.force_login(viewer)
    url = reverse("tournaments:detail", args=[event.pk]) + f"?code={event.invite_code}"
    return client.get(url).content.decode()


@pytest.mark.parametrize("seats", [3, 4])
def test_a_pod_in_progress_shows_every_player_and_opens_its_table(client, make_event, make_player, seats):
    event, pod = _paired(make_event, make_player, seats, seats)
    nicks = [s.player.nick for s in pod.seats.select_related("player").order_by("number")]
    assert len(nicks) == seats
    links = _running_links(_page(client, event, make_player()))  # a stranger, to watch
    assert links == {reverse("lobby:table", args=[pod.table_id]): " – ".join(nicks)}
    assert live.frame(event.pk)["running"] == [[pod.table_id, *nicks]]


def test_pairs_in_progress_show_both_teams(client, make_event, make_player):
    event, pod = _paired(make_event, make_player, 4, 4, pairs=True)
    n = [s.player.nick for s in pod.seats.select_related("player").order_by("number")]
    links = _running_links(_page(client, event, make_player()))
    assert links == {reverse("lobby:table", args=[pod.table_id]): f"{n[0]} & {n[2]} – {n[1]} & {n[3]}"}
    assert live.frame(event.pk)["running"] == [[pod.table_id, *n]]


def test_a_heads_up_game_in_progress_still_shows_its_two(client, make_event, make_player):
    event, game = _paired(make_event, make_player, 2, 2)
    links = _running_links(_page(client, event, make_player()))
    assert links == {reverse("lobby:table", args=[game.table_id]): f"{game.player_a.nick} – {game.player_b.nick}"}
