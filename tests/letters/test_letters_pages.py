"""The letters' pages without a script: the conversation and its form, the list of conversations,
«Написать» on the friends page and a friend's card, the unread badge at «Друзья», the push switch."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from letters import services
from letters.models import Letter
from social import people
from tests.letters.conftest import make_player

pytestmark = pytest.mark.django_db


def _client(player) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(player)
    return client


def _badge(html: str, attr: str = "data-letters-unread") -> str | None:
    """The count in the first badge marked `attr`, or None when it is hidden."""
    found = re.search(rf'<span class="letters-badge" {attr}( hidden)?>.*?<span data-n>(\d+)</span>', html, re.S)
    assert found, html
    return None if found.group(1) else found.group(2)


def test_signed_out_visitors_are_sent_to_sign_in(client):
    assert client.get("/messages/").status_code == 302
    assert client.post("/messages/1/", {"text": "hi"}).status_code == 302


def test_the_form_writes_without_a_script_and_a_refusal_comes_back_as_a_message(friends):
    a, b = friends
    client = _client(a)
    answer = client.post(f"/messages/{b.pk}/", {"text": "привет"})
    assert answer.status_code == 302 and answer["Location"] == f"/messages/{b.pk}/"
    refused = client.post(f"/messages/{b.pk}/", {"text": "   "}, follow=True)
    assert "Сначала напишите что-нибудь." in refused.content.decode()
    assert list(Letter.objects.values_list("text", flat=True)) == ["привет"]


def test_the_conversation_page_shows_the_letters_and_reads_them(friends):
    a, b = friends
    services.send(b, a.pk, "как дела?")
    html = _client(a).get(f"/messages/{b.pk}/").content.decode()
    assert "как дела?" in html and 'id="letters-form"' in html
    assert "В переписке хранятся только последние 100 сообщений." in html
    assert "Пожаловаться" in html and "И заблокировать: Боря" in html
    assert services.unread_total(a.pk) == 0  # opening the page read it


def test_a_stranger_gets_the_page_without_a_form(friends):
    a, _b = friends
    stranger = make_player("Чужой")
    html = _client(stranger).get(f"/messages/{a.pk}/").content.decode()
    assert "Писать можно только друзьям." in html and 'id="letters-form"' not in html
    assert _client(stranger).get("/messages/999999999/").status_code == 404


def test_the_friends_page_and_the_menu_show_the_unread_letters(friends, django_capture_on_commit_callbacks):
    a, b = friends
    with django_capture_on_commit_callbacks(execute=True):
        services.send(b, a.pk, "раз")
        services.send(b, a.pk, "два")
    client = _client(a)
    html = client.get("/people/").content.decode()
    assert f'href="/messages/{b.pk}/" data-letters-from="{b.pk}"><span>Написать<span class="visually-hidden">— Боря' in html
    assert _badge(html) == "2"  # at «Друзья» in the menu
    assert 'href="/messages/"' in html
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/messages/{b.pk}/")
    assert _badge(client.get("/people/").content.decode()) is None


def test_the_menus_badge_costs_no_statement_and_a_block_is_mended_by_the_friends_page(
        friends, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, b = friends
    with django_capture_on_commit_callbacks(execute=True):
        services.send(b, a.pk, "раз")
    client = _client(a)
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/ratings/").content.decode()
    assert _badge(html) == "1"
    assert not [q for q in queries.captured_queries if "letters_" in q["sql"]]
    people.block(a, b.pk)  # social does not tell letters: the next page that counts the rows mends it
    with django_capture_on_commit_callbacks(execute=True):
        client.get("/people/")
    assert _badge(client.get("/ratings/").content.decode()) is None


def test_the_card_offers_a_letter_to_a_friend_only(friends):
    a, b = friends
    stranger = make_player("Чужой")
    client = _client(a)
    assert f'href="/messages/{b.pk}/"' in client.get(f"/people/{b.pk}/").content.decode()
    assert "/messages/" not in client.get(f"/people/{stranger.pk}/").content.decode().split("<main")[1]


def test_the_list_of_conversations_shows_the_newest_first(friends):
    a, b = friends
    c = make_player("Вика")
    people.request_friend(a, c.pk)
    people.accept_friend(c, a.pk)
    services.send(b, a.pk, "от Бори")
    services.send(c, a.pk, "от Вики")
    html = _client(a).get("/messages/").content.decode()
    assert html.index("Вика") < html.index("Боря") and "от Вики" in html


def test_the_settings_offer_a_push_for_a_friends_letter(friends, settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "pub", "priv"
    a, _b = friends
    client = _client(a)
    assert "мне пишет друг" in client.get("/accounts/profile/").content.decode()
    client.post("/notifications/settings/", {"letter": "on"})
    from notifications import services as push

    assert push.wants(a.pk, "letter") and not push.wants(a.pk, "friend_request")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_letters_pages_read_in_one_language(db, lang):
    from tests.site.test_language_sweep_browser import foreign, visible_text, without

    a, b = make_player("Tester"), make_player("Marta")
    people.request_friend(a, b.pk)
    people.accept_friend(b, a.pk)
    services.send(b, a.pk, "123")
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(a)
    for url in ("/messages/", f"/messages/{b.pk}/", "/people/", f"/people/{b.pk}/"):
        text = without(visible_text(client.get(url).content.decode()), {"Tester", "Marta"})
        assert foreign(text, lang) == [], (url, foreign(text, lang))


def test_a_report_from_the_page_without_a_script_and_with_a_block_from_the_script(friends):
    from letters.models import Report

    a, b = friends
    first = services.send(b, a.pk, "гадость")
    second = services.send(b, a.pk, "ещё гадость")
    client = _client(a)
    answer = client.post(f"/messages/{b.pk}/report/{first.pk}/", {"reason": "оскорбление"}, follow=True)
    assert "Спасибо: модераторы прочитают переписку." in answer.content.decode()
    refused = client.post(f"/messages/{b.pk}/report/{second.pk}/", {"reason": ""}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "letter_bad_reason"
    blocked = client.post(f"/messages/{b.pk}/report/{second.pk}/", {"reason": "спам", "block": "1"},
                          HTTP_ACCEPT="application/json")
    assert blocked.json() == {"ok": True, "blocked": True}
    assert Report.objects.count() == 2 and people.relation(a.pk, b.pk) == "blocked"
