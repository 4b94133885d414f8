"""Lobby pages over HTTP (Django test client): list, create, waiting-room buttons, rules pages."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.conf import settings
from django.urls import reverse

from lobby import services
from lobby.models import Seat, Table

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client_for(client):
    def login(player):
        client.force_login(player)
        return client

    return login


def test_lobby_lists_open_tables_with_their_rules_and_seats(client, table, host):
    services.add_bot(table.pk, host, 2, "random")
    html = client.get(reverse("lobby:index")).content.decode()
    assert reverse("lobby:table", args=[table.pk]) in html
    assert 'hx-trigger="every 3s"' in html
    assert "36" in html


def test_lobby_partial_is_only_the_list_for_htmx_polling(client, table):
    response = client.get(reverse("lobby:index"), **HX)
    html = response.content.decode()
    assert html.lstrip().startswith("<div id=\"table-list\"") and "<html" not in html


def test_lobby_filters_by_variant_and_players(client, make_player):
    a, b = make_player("anna"), make_player("boris")
    t1 = services.create_table(a, preset="perevodnoy", seats_count=3, name="Perevod3")
    t2 = services.create_table(b, seats_count=2, name="Podk2")
    html = client.get(reverse("lobby:index"), {"variant": "perevodnoy"}).content.decode()
    assert "Perevod3" in html and "Podk2" not in html
    html = client.get(reverse("lobby:index"), {"players": "2"}).content.decode()
    assert "Podk2" in html and "Perevod3" not in html
    assert t1.pk and t2.pk


def test_private_tables_are_hidden_and_need_the_invite_link(client, client_for, host, make_player):
    table = services.create_table(host, private=True, name="Secret")
    assert "Secret" not in client.get(reverse("lobby:index")).content.decode()
    guest = client_for(make_player("guest"))
    assert guest.get(reverse("lobby:table", args=[table.pk])).status_code == 404
    url = reverse("lobby:table", args=[table.pk]) + f"?invite={table.invite_code}"
    assert guest.get(url).status_code == 200
    assert guest.get(reverse("lobby:table", args=[table.pk])).status_code == 200  # remembered in the session


def test_create_form_shows_presets_and_every_rule_with_an_explanation(client_for, host):
    from game.engine.rules import RULE_CHOICES

    html = client_for(host).get(reverse("lobby:create")).content.decode()
    for key in RULE_CHOICES:
        assert f'name="rule_{key}"' in html
    for name in ("Классический подкидной", "Переводной", "Пара на пару 2×2", "Шулер", "Квартет"):
        assert name in html
    assert html.count('class="help"') >= len(RULE_CHOICES)


def test_creating_a_table_from_the_form_redirects_to_its_waiting_room(client_for, host):
    c = client_for(host)
    response = c.post(reverse("lobby:create"), {
        "preset": "perevodnoy", "seats_count": "3", "turn_seconds": "60", "disconnect_policy": "bot",
        "rules_setter": "host", "start_policy": "all_ready", "series_length": "", "rule_deck_size": "52"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("lobby:table", args=[table.pk])
    assert table.rules["variant"] == "perevodnoy" and table.rules["deck_size"] == 52
    assert table.seats_count == 3 and table.turn_seconds == 60 and table.disconnect_policy == "bot"


def test_bad_form_values_are_refused_with_a_message(client_for, host):
    c = client_for(host)
    response = c.post(reverse("lobby:create"), {
        "preset": "classic", "seats_count": "5", "turn_seconds": "45", "disconnect_policy": "lose",
        "rules_setter": "host", "start_policy": "all_ready", "rule_deck_size": "24"})
    assert response.status_code == 200 and not Table.objects.exists()


def test_waiting_room_buttons_post_via_htmx_and_return_the_fragment(client_for, table, host):
    c = client_for(host)
    url = reverse("lobby:act", args=[table.pk])
    html = c.post(url, {"op": "add_bot", "seat": "2", "level": "lowest"}, **HX).content.decode()
    assert html.lstrip().startswith("<section id=\"room\"")
    assert Seat.objects.get(table=table, number=2).bot_level == "lowest"
    html = c.post(url, {"op": "ready"}, **HX).content.decode()
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN
    assert 'id="countdown-n"' in html
    c.post(url, {"op": "cancel"}, **HX)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_a_refused_button_shows_the_error_in_the_fragment(client_for, table, host, make_player):
    services.sit(table.pk, make_player("anna"), 2)
    c = client_for(host)
    html = c.post(reverse("lobby:act", args=[table.pk]), {"op": "sit", "seat": "2"}, **HX).content.decode()
    assert 'data-code="seat_taken"' in html
    html = c.post(reverse("lobby:act", args=[table.pk]), {"op": "sit", "seat": "7"}, **HX).content.decode()
    assert 'data-code="no_such_seat"' in html


def test_anonymous_visitors_cannot_act(client, table):
    html = client.post(reverse("lobby:act", args=[table.pk]), {"op": "sit", "seat": "2"}, **HX).content.decode()
    assert 'data-code="login_required"' in html
    assert Seat.objects.get(table=table, number=2).is_free


def test_editing_rules_resets_ready_and_non_hosts_cannot(client_for, table, host, make_player):
    anna = make_player("anna")
    services.sit(table.pk, anna, 2)
    services.set_ready(table.pk, anna, True)
    data = {"preset": "", "seats_count": "4", "turn_seconds": "30", "disconnect_policy": "lose",
            "rules_setter": "host", "start_policy": "all_ready", "series_length": "1",
            "rule_variant": "perevodnoy"}
    client = client_for(anna)
    client.post(reverse("lobby:edit_rules", args=[table.pk]), data)
    assert Table.objects.get(pk=table.pk).rules["variant"] == "podkidnoy"
    client.force_login(host)
    response = client.post(reverse("lobby:edit_rules", args=[table.pk]), data)
    assert response.status_code == 302
    t = Table.objects.get(pk=table.pk)
    assert t.rules["variant"] == "perevodnoy" and not Seat.objects.get(table=t, number=2).ready


@pytest.mark.parametrize("lang,phrase", [("ru", "Колода"), ("en", "Deck")])
def test_rules_page_in_russian_and_english(client, lang, phrase):
    client.cookies["django_language"] = lang
    html = client.get(reverse("lobby:rules")).content.decode()
    assert phrase in html


@pytest.mark.parametrize("lang,heading", [("ru", "Как играть в дурака"), ("en", "How to play durak")])
def test_the_rules_page_speaks_to_players_not_developers(client, lang, heading):
    """No provenance codes (000–004), no «Источники», no server talk, no «Переводной 2» quotes."""
    client.cookies["django_language"] = lang
    html = client.get(reverse("lobby:rules")).content.decode()
    text = re.sub(r"<[^>]+>", " ", html.split("<main", 1)[-1])
    assert heading in text
    assert not re.search(r"\b00[0-4]\b", text), re.findall(r".{40}\b00[0-4]\b.{20}", text)
    for word in ("Источник", "Source", "сервер", "server", "Переводной 2", "Perevodnoy 2"):
        assert word not in text, word
    assert 'class="card-examples"' in html and "settings-table" in html
    if lang == "en":
        assert "«" not in text and "each for himself" not in text


def test_every_table_links_to_a_summary_of_its_settings(client, table):
    html = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert reverse("lobby:table_rules", args=[table.pk]) in html
    assert client.get(reverse("lobby:table_rules", args=[table.pk])).status_code == 200


def test_a_closed_table_tells_why(client, table):
    services.close_table(table.pk, "Offensive name")
    html = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "Offensive name" in html


def test_quick_play_enters_the_search_for_opponents_instead_of_a_table_of_bots(client_for, make_player):
    """The social app answers «Быстрая игра» (lobby.pages.register_quick_play): a lone player waits
    on the search page; nobody is seated alone with bots at once."""
    c = client_for(make_player("anna"))
    response = c.post(reverse("lobby:quick_play"))
    assert response["Location"] == reverse("social:search")
    assert not Table.objects.exists()


def test_moderator_closes_a_table_with_a_reason_from_the_admin(client, table, make_player):
    mod = make_player("mod", is_staff=True, is_superuser=True)
    client.force_login(mod)
    url = reverse("admin:lobby_table_changelist")
    assert client.get(url).status_code == 200
    page = client.post(url, {"action": "close_tables", "_selected_action": [table.pk]})
    assert page.status_code == 200 and not Table.objects.filter(status=Table.Status.CLOSED).exists()
    client.post(url, {"action": "close_tables", "_selected_action": [table.pk], "apply": "1",
                      "reason": "Spam table"})
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.CLOSED and t.closed_reason == "Spam table"


@pytest.mark.django_db
def test_quick_play_sends_a_visitor_to_sign_up_and_back_to_the_lobby(client):
    response = client.post(reverse("lobby:quick_play"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse(settings.LOGIN_URL))
    assert f"next={quote(reverse('lobby:index'), safe='')}" in response["Location"]


def test_the_waiting_room_docks_panel_buttons_above_the_room(client, table):
    """The chat's button sits in the page's flow above the room (never floating over «Встать»), outside
    the fragment htmx swaps, so it survives every action."""
    html = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    dock = html.find("data-panel-dock")
    assert 0 < dock < html.find('id="room"')


def test_the_table_list_says_the_variant_once_and_titles_custom_tables(client, make_player):
    services.create_table(make_player("anna"), preset="perevodnoy")
    services.create_table(make_player("boris"), variant="perevodnoy", cheater=True)  # custom rules
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("lobby:index")).content.decode().split('id="table-list"', 1)[1].split("</footer")[0]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split("site-footer")[0]))
    assert text.count("ереводной") == 2, text  # the preset's title, and the custom table's variant
    assert "Свои правила" in text and "свои правила" not in text
