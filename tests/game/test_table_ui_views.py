"""The game table's server side: the page context (lobby's table view renders game/table.html),
the game permalink, and «Выйти»."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def make_player(nick):
    from accounts.models import Player

    return Player.objects.create_user(nick)


def playing_table(humans, bots=()):
    from game import services
    from lobby.models import Seat, Table

    seats = [("h", p) for p in humans] + [("b", level) for level in bots]
    table = Table.objects.create(name="ui", seats_count=len(seats), status=Table.Status.PLAYING,
                                 disconnect_policy="lose")
    for number, (kind, who) in enumerate(seats, start=1):
        if kind == "h":
            Seat.objects.create(table=table, number=number, player=who)
        else:
            Seat.objects.create(table=table, number=number, bot_level=who)
    return table, services.start_game(table.pk)


def page_json(html: str, element_id: str) -> dict:
    start = html.index(f'id="{element_id}"')
    start = html.index(">", start) + 1
    return json.loads(html[start:html.index("</script>", start)])


def test_the_table_page_carries_the_seat_socket_and_translated_strings(client):
    person = make_player("Вася")
    table, game = playing_table([person], bots=("lowest",))
    client.force_login(person)
    response = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert "game/table.html" in [t.name for t in response.templates]
    html = response.content.decode()
    config = page_json(html, "table-config")
    assert config["seat"] == 1
    assert config["game_id"] == game.pk
    assert config["ws_url"] == f"/ws/tables/{table.pk}/"
    assert config["leave_url"] == f"/games/{game.pk}/leave/"
    assert config["ready_url"] == f"/tables/{table.pk}/ready/"
    strings = page_json(html, "table-strings")
    assert strings["take"] == "Беру" and strings["bito"] == "Бито" and strings["catch"] == "Поймать!"
    errors = page_json(html, "table-errors")
    from durak_site.errors import message_for  # the page's refusals are the one catalogue's

    assert errors["does_not_beat"] == message_for("does_not_beat") == "Эта карта не бьёт атакующую."
    assert 'type="module"' in html and "game/table.js" in html
    # nothing secret is on the page: the view arrives over the socket, redacted per seat
    for card in game.state["stock"]:
        assert f'"{card}"' not in html


def test_a_spectator_page_has_no_seat(client):
    person, watcher = make_player("Игрок"), make_player("Зритель")
    table, game = playing_table([person], bots=("lowest",))
    client.force_login(watcher)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert page_json(html, "table-config")["seat"] is None


def test_english_strings(client):
    person = make_player("Bob")
    table, game = playing_table([person], bots=("lowest",))
    client.force_login(person)
    html = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page_json(html, "table-strings")["take"] == "Take"


def test_the_game_permalink_redirects_to_its_table(client):
    person = make_player("Вася")
    table, game = playing_table([person], bots=("lowest",))
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{table.pk}/"
    assert client.get("/games/999999/").status_code == 404


def test_leaving_ends_the_game_as_a_loss_and_goes_back_to_the_lobby(client):
    from game.models import Game

    person = make_player("Вася")
    table, game = playing_table([person], bots=("lowest",))
    client.force_login(person)
    assert client.get(f"/games/{game.pk}/leave/").status_code == 405
    response = client.post(f"/games/{game.pk}/leave/")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert 1 in game.result.get("losers", [game.result.get("loser")])
    # leaving twice is harmless
    assert client.post(f"/games/{game.pk}/leave/").status_code == 302


def test_leaving_needs_a_login(client):
    person = make_player("Вася")
    table, game = playing_table([person], bots=("lowest",))
    response = client.post(f"/games/{game.pk}/leave/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/")


def test_the_apps_above_fill_the_table_page_through_the_lobbys_registry(client):
    """The game table names no app above it (tests/site/test_architecture.py): the chat panel with its
    button's dock, the series standings and the replay link come from lobby.pages' registry."""
    from django.urls import reverse

    from lobby.models import Table

    person = make_player("Вася")
    table, game = playing_table([person], bots=("lowest",))
    client.force_login(person)
    html = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="chat"' in html and "chat/chat.js" in html and "data-panel-dock" in html
    replay = reverse("ratings:replay", args=[game.pk])
    assert f'href="{replay}">Повтор партии</a>' in html
    assert 'class="g-series"' not in html  # a single game: no series
    Table.objects.filter(pk=table.pk).update(series_length=3, status=Table.Status.REMATCH)
    html = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'class="g-series"' in html
    assert html.index('class="g-series"') < html.index('class="g-result-actions"') < html.index(f'href="{replay}"')
