"""Sign-up logs the player in and shows a private recovery key exactly once; only its hash is stored."""

from __future__ import annotations

import logging
import re

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection

from accounts import keys
from accounts.models import Player

pytestmark = pytest.mark.django_db


def sign_up_through_pages(client, nick="Вася", key_on_page=None):
    response = client.post("/accounts/signup/", {"nick": nick})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/key/"
    page = client.get("/accounts/key/")
    assert page.status_code == 200
    return page


def test_sign_up_logs_in_and_redirects_to_the_key_page(client, key_on_page):
    page = sign_up_through_pages(client)
    player = Player.objects.get(nick="Вася")
    assert int(client.session["_auth_user_id"]) == player.pk
    assert key_on_page(page)
    assert "Вася" in page.content.decode()


def test_the_key_has_at_least_128_random_bits_in_readable_groups(client, key_on_page):
    shown = key_on_page(sign_up_through_pages(client))
    assert re.fullmatch(r"([0-9A-HJKMNP-TV-Z]{4}-){6}[0-9A-HJKMNP-TV-Z]{4}", shown)
    assert keys.LENGTH * 5 >= 128  # 28 characters of a 32-letter alphabet
    others = {keys.generate() for _ in range(200)}
    assert len(others) == 200


def test_the_key_is_the_password_and_only_its_hash_is_stored(client, key_on_page):
    shown = key_on_page(sign_up_through_pages(client))
    player = Player.objects.get(nick="Вася")
    assert player.check_password(keys.normalize(shown))
    assert keys.normalize(shown) not in player.password
    assert player.password.startswith(settings.PASSWORD_HASHERS[0].rsplit(".", 1)[-1].replace("PasswordHasher", "").lower())


def test_the_key_is_nowhere_in_the_database(client, key_on_page):
    shown = key_on_page(sign_up_through_pages(client))
    plain = keys.normalize(shown)
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                text = " ".join(str(value) for value in row)
                assert plain not in text and shown not in text, f"key found in table {table}"
    for session in Session.objects.all():
        decoded = str(session.get_decoded())
        assert plain not in decoded and shown not in decoded


def test_the_key_is_never_logged(client, caplog, key_on_page):
    caplog.set_level(logging.DEBUG)
    shown = key_on_page(sign_up_through_pages(client))
    plain = keys.normalize(shown)
    client.post("/accounts/logout/")
    other = client.__class__()
    other.post("/accounts/restore/", {"nick": "Вася", "key": "WRONG-KEY"})
    other.post("/accounts/restore/", {"nick": "Вася", "key": shown})
    other.post("/accounts/new-key/")
    logged = "\n".join(record.getMessage() + repr(record.args) for record in caplog.records)
    assert caplog.records, "the flows above log something (sign-up, restore)"
    assert plain not in logged and shown not in logged


def test_reloading_the_key_page_does_not_show_the_key_again(client, key_on_page):
    first = sign_up_through_pages(client)
    assert key_on_page(first)
    again = client.get("/accounts/key/")
    assert again.status_code == 200
    assert key_on_page(again) is None
    assert "не показывается" in again.content.decode()


def test_a_client_that_keeps_the_cookie_still_sees_the_key_once(client, key_on_page):
    response = client.post("/accounts/signup/", {"nick": "Keeper"})
    kept = response.cookies["durak_key_once"].value
    assert key_on_page(client.get("/accounts/key/"))
    client.cookies["durak_key_once"] = kept  # a client ignoring the deletion, or a replay
    assert key_on_page(client.get("/accounts/key/")) is None


def test_the_key_page_is_never_cached(client):
    page = sign_up_through_pages(client)
    assert "no-store" in page["Cache-Control"]


def test_a_key_cookie_from_another_player_shows_nothing(client, key_on_page):
    sign_up_through_pages(client, "First")
    client.post("/accounts/logout/")
    response = client.post("/accounts/signup/", {"nick": "Second"})
    stolen = response.cookies["durak_key_once"].value
    client.post("/accounts/logout/")
    client.post("/accounts/signup/", {"nick": "Third"})
    client.cookies["durak_key_once"] = stolen  # Second's cookie, Third's session
    assert key_on_page(client.get("/accounts/key/")) is None


def test_the_session_lasts_a_year(client):
    sign_up_through_pages(client)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) >= 360 * 24 * 3600


def test_a_logged_in_player_is_sent_from_sign_up_to_his_profile(client):
    sign_up_through_pages(client)
    response = client.get("/accounts/signup/")
    assert response.status_code == 302 and response["Location"] == "/accounts/profile/"


def test_a_refused_sign_up_creates_nothing_and_logs_nobody_in(client):
    response = client.post("/accounts/signup/", {"nick": "x"})
    assert response.status_code == 400
    assert not Player.objects.exists()
    assert "_auth_user_id" not in client.session
    assert "durak_key_once" not in response.cookies


def test_sign_up_keeps_a_safe_next_url_and_drops_a_foreign_one(client, key_on_page):
    response = client.post("/accounts/signup/", {"nick": "Nexter", "next": "/tables/"})
    assert response["Location"] == "/tables/"  # on the way somewhere: straight on, the key waits
    page = client.get("/accounts/key/?next=/tables/")
    assert key_on_page(page) and 'href="/tables/"' in page.content.decode()
    client.post("/accounts/logout/")
    response = client.post("/accounts/signup/", {"nick": "Nexter2", "next": "https://evil.example/"})
    assert response["Location"] == "/accounts/key/"


def test_a_logged_out_visitor_of_the_profile_is_sent_to_the_key_log_in_not_to_sign_up(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/restore/")
