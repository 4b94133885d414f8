"""The lobby cannot be flooded: sign-ups and new tables are limited per address and per account,
a waiting table is listed only while a person at it has the table open (a live socket, not an HTTP
ping), and table names are masked like the chat."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import Player
from lobby import services as lobby_services
from lobby.models import Table
from tests.game.helpers import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts():
    """Ids restart with every test database: counts an earlier test left under an id must not count."""
    cache.clear()


def _client(address: str, player=None) -> Client:
    client = Client(REMOTE_ADDR=address)
    if player is not None:
        client.force_login(player)
    return client


def test_sign_ups_from_one_address_are_limited(settings):
    settings.SIGNUP_LIMIT_PER_ADDRESS = (3, 3600)
    for k in range(3):
        assert _client("203.0.113.50").post(reverse("accounts:signup"), {"nick": f"flood{k}"}).status_code == 302
    refused = _client("203.0.113.50").post(reverse("accounts:signup"), {"nick": "flood9"})
    assert refused.status_code == 429
    assert "Too many" in refused.content.decode() or "Слишком много" in refused.content.decode()
    assert not Player.objects.filter(nick="flood9").exists()
    assert _client("198.51.100.60").post(reverse("accounts:signup"), {"nick": "elsewhere"}).status_code == 302


def _create(client: Client, name: str = ""):
    return client.post(reverse("lobby:create"), {"name": name, "preset": "classic", "seats_count": "2",
                                                  "turn_seconds": "30", "disconnect_policy": "bot",
                                                  "rules_setter": "host", "start_policy": "all_ready",
                                                  "series_length": "1"})


def test_new_tables_are_limited_per_account(settings):
    settings.TABLE_LIMIT_PER_ACCOUNT = (2, 600)
    host = make_player()
    client = _client("203.0.113.51", host)
    assert [_create(client).status_code for _ in range(2)] == [302, 302]
    refused = _create(client)
    assert refused.status_code == 429
    assert Table.objects.count() == 2


def test_new_tables_are_limited_per_address(settings):
    settings.TABLE_LIMIT_PER_ADDRESS = (3, 600)
    codes = [_create(_client("203.0.113.52", make_player())).status_code for _ in range(4)]
    assert codes == [302, 302, 302, 429]
    assert Table.objects.count() == 3


def _listed(table) -> bool:
    page = Client().get(reverse("lobby:index")).content.decode()
    return f'href="/tables/{table.pk}/"' in page


def test_a_waiting_table_is_listed_only_while_someone_has_it_open():
    host = make_player()
    table = lobby_services.create_table(host, name="open house")
    lobby_services.set_presence(table.pk, host.pk, True)  # his table socket is open
    assert _listed(table)
    lobby_services.set_presence(table.pk, host.pk, False)  # it closed (or went silent)
    assert not _listed(table)
    _client("203.0.113.53", host).post(reverse("lobby:ping", args=[table.pk]))  # a script's HTTP ping
    assert not _listed(table)
    lobby_services.set_presence(table.pk, host.pk, True)
    assert _listed(table)


@pytest.mark.parametrize(("name", "shown"), [("хуй club", "* club"), ("бл.я.дь", "*"), ("cука", "c***"), ("Friday night", "Friday night")])
def test_table_names_are_masked_like_chat(name, shown):
    host = make_player()
    assert _create(_client("203.0.113.54", host), name).status_code == 302
    assert Table.objects.get(host=host).name == shown
