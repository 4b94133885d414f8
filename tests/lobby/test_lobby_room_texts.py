"""What a visitor of a waiting room is told: pick a free seat, or that the table is full."""

from __future__ import annotations

from django.urls import reverse

from lobby import services


def test_a_visitor_at_a_full_table_is_told_he_can_watch(client, host, make_player):
    table = services.create_table(host, seats_count=2)
    visitor = make_player("visitor")
    client.force_login(visitor)
    url = reverse("lobby:table", args=[table.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Выберите свободное место или просто смотрите." in html and "Стол заполнен" not in html
    services.add_bot(table.pk, host, 2, "random")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Стол заполнен — можно смотреть." in html
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The table is full — you can watch." in html
