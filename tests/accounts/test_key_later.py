"""Signing up on the way to a game goes straight on; the key waits behind a reminder and is shown once."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import translation

from accounts import key_once, keys

pytestmark = pytest.mark.django_db

SEARCH = "/play/search/?start=1"
REMINDER = "Сохраните ключ восстановления"


def play_sign_up(client, nick="Новичок"):
    """«Играть» logged out: the nick form with the search as next, then the sign-up."""
    start = client.get("/play/")
    assert start.status_code == 302 and start["Location"] == "/accounts/signup/?next=" + quote(SEARCH, safe="")
    return client.post("/accounts/signup/", {"nick": nick, "next": SEARCH})


def test_a_play_sign_up_goes_straight_on_and_the_next_page_reminds_without_the_key(client, key_on_page):
    response = play_sign_up(client)
    assert response.status_code == 302 and response["Location"] == SEARCH

    cookie = response.cookies[key_once.COOKIE]
    assert cookie["path"] == "/accounts/key/" and cookie["httponly"] and cookie["samesite"] == "Strict"
    assert int(cookie["max-age"]) >= 3600  # long enough for a first game

    page = client.get(SEARCH)
    html = page.content.decode()
    assert page.status_code == 200 and "data-search-page" in html
    assert REMINDER in html
    assert 'href="/accounts/key/?next=' + quote(SEARCH, safe="") + '"' in html  # opens the key, comes back here
    assert key_on_page(page) is None

    shown = key_on_page(client.get("/accounts/key/?next=" + quote(SEARCH, safe="")))
    assert shown and keys.is_well_formed(keys.normalize(shown))
    assert shown not in html and keys.normalize(shown) not in html


def test_the_key_page_shows_the_key_once_and_then_the_reminder_is_gone(client, key_on_page):
    play_sign_up(client)
    first = client.get("/accounts/key/?next=" + quote(SEARCH, safe=""))
    assert key_on_page(first)
    assert f'href="{SEARCH.replace("&", "&amp;")}"' in first.content.decode()  # «continue» goes back to the search
    assert REMINDER not in first.content.decode()  # the key page itself carries no reminder
    again = client.get("/accounts/key/")
    assert key_on_page(again) is None and "не показывается" in again.content.decode()
    for path in (SEARCH, "/", "/tables/", "/accounts/profile/"):
        assert "data-key-reminder" not in client.get(path).content.decode(), path


def test_the_reminder_stays_on_every_page_until_the_key_is_shown(client, key_on_page):
    play_sign_up(client)
    for path in ("/", "/tables/", "/accounts/profile/", SEARCH, "/"):
        html = client.get(path).content.decode()
        assert REMINDER in html and 'href="/accounts/key/?next=' + quote(path, safe="") + '"' in html, path
    assert key_on_page(client.get("/accounts/key/"))


def test_a_kept_cookie_still_shows_the_key_once_after_a_play_sign_up(client, key_on_page):
    kept = play_sign_up(client).cookies[key_once.COOKIE].value
    assert key_on_page(client.get("/accounts/key/"))
    client.cookies[key_once.COOKIE] = kept
    assert key_on_page(client.get("/accounts/key/")) is None


def test_the_waiting_key_is_nowhere_in_the_session(client):
    play_sign_up(client, "Тайник")
    carried = client.cookies[key_once.COOKIE].value
    decoded = " ".join(str(s.get_decoded()) for s in Session.objects.all())
    parts = carried.split(":")  # nonce:KEY-WITH-DASHES:timestamp:signature
    key = parts[1]
    assert keys.is_well_formed(key)
    assert key not in decoded and keys.normalize(key) not in decoded


def test_at_a_table_the_reminder_is_a_line_that_does_not_lead_away(client):
    from lobby import services as lobby_services

    play_sign_up(client, "ЗаСтолом")
    from accounts.models import Player

    table = lobby_services.create_table(Player.objects.get(nick="ЗаСтолом"), seats_count=2)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert "откройте его после игры" in html
    assert "/accounts/key/" not in html and REMINDER not in html


def test_when_the_time_runs_out_the_reminder_points_to_a_new_key_on_the_profile(client, key_on_page, monkeypatch):
    play_sign_up(client, "Опоздун")
    later = key_once._now() + key_once.LATER_AGE + 1
    monkeypatch.setattr(key_once, "_now", lambda: later)

    html = client.get("/").content.decode()
    assert REMINDER not in html and "Ключ восстановления больше не показать" in html
    assert 'href="/accounts/profile/"' in html and "/accounts/key/?next" not in html

    profile = client.get("/accounts/profile/").content.decode()
    assert "не открыли вовремя" in profile
    assert "data-key-reminder" not in client.get("/").content.decode()  # the profile has said it
    assert "не открыли вовремя" not in client.get("/accounts/profile/").content.decode()


def test_an_expired_key_is_not_shown_even_with_its_cookie(client, key_on_page, monkeypatch):
    play_sign_up(client, "Поздно")
    later = key_once._now() + key_once.LATER_AGE + 1
    monkeypatch.setattr(key_once, "_now", lambda: later)
    assert key_on_page(client.get("/accounts/key/")) is None
    assert "data-key-reminder" not in client.get("/").content.decode()


def test_a_new_key_from_the_profile_replaces_the_waiting_one(client, key_on_page):
    play_sign_up(client, "Передумал")
    response = client.post("/accounts/new-key/")
    assert response["Location"] == "/accounts/key/"
    assert key_on_page(client.get("/accounts/key/"))
    assert "data-key-reminder" not in client.get("/").content.decode()


def test_a_plain_sign_up_still_shows_the_key_at_once_with_no_reminder(client, key_on_page):
    response = client.post("/accounts/signup/", {"nick": "Простой"})
    assert response["Location"] == "/accounts/key/"
    assert int(response.cookies[key_once.COOKIE]["max-age"]) == key_once.AT_ONCE_AGE
    assert "data-key-reminder" not in client.get("/").content.decode()
    assert key_on_page(client.get("/accounts/key/"))


def test_english_reminder(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    try:
        play_sign_up(client, "Newbie")
        html = client.get("/").content.decode()
        assert "Save your recovery key" in html and "Show the key" in html
    finally:
        translation.activate(settings.LANGUAGE_CODE)  # the request's language stays on this thread


def test_logging_out_drops_a_waiting_key_and_its_reminder(client, key_on_page):
    play_sign_up(client, "Ушедший")
    response = client.post("/accounts/logout/")
    assert response.cookies[key_once.COOKIE].value == "" and response.cookies[key_once.COOKIE]["path"] == "/accounts/key/"
    assert "data-key-reminder" not in client.get("/").content.decode()
