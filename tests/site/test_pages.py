"""Base layout and home page: Russian by default, English on request, header with nick and rating."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from accounts import services

pytestmark = pytest.mark.django_db


def url_or_none(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def test_home_is_in_russian_by_default(client):
    html = client.get("/").content.decode()
    assert '<html lang="ru">' in html
    assert "Подкидной и переводной дурак" in html
    assert "Выбрать ник" in html
    assert 'href="/accounts/signup/"' in html and 'href="/accounts/restore/"' in html


def test_the_language_switch_turns_pages_english_and_back(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/signup/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/"
    html = client.get("/accounts/signup/").content.decode()
    assert '<html lang="en">' in html and "Pick a nick" in html and 'aria-pressed="true">EN<' in html
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert "Выбрать ник" in client.get("/accounts/signup/").content.decode()


def test_every_page_has_the_shared_header_skip_link_and_language_switch(client):
    for url in ("/", "/accounts/signup/", "/accounts/restore/"):
        html = client.get(url).content.decode()
        assert 'class="skip-link" href="#main"' in html
        assert 'action="/i18n/setlang/"' in html
        assert 'value="ru"' in html and 'value="en"' in html
        assert 'name="viewport"' in html


def test_navigation_links_appear_for_the_urls_that_exist(client):
    html = client.get("/").content.decode()
    for name in ("lobby:index", "ratings:leaderboard", "lobby:rules"):
        url = url_or_none(name)
        if url:
            assert f'href="{url}"' in html, name


def test_play_now_is_quick_play_for_players_and_the_lobby_for_visitors(client):
    quick, lobby = url_or_none("lobby:quick_play"), url_or_none("lobby:index")
    html = client.get("/").content.decode()
    if lobby:
        assert f'href="{lobby}"' in html and "Играть" in html
    if quick:  # quick play is a POST for a logged-in player; a visitor would land on a 405 after sign-up
        assert f'action="{quick}"' not in html
        player, _ = services.sign_up("Quick")
        client.force_login(player)
        assert f'action="{quick}"' in client.get("/").content.decode()


def test_header_shows_nick_and_start_rating_for_a_player_without_a_rating_row(client):
    player, _ = services.sign_up("Новичок")
    client.force_login(player)
    html = client.get("/").content.decode()
    assert "Новичок" in html
    assert ">1000<" in html.replace("\n", "").replace(" ", "")


def test_header_rating_costs_no_extra_query(client):
    from ratings.models import Rating

    rated, _ = services.sign_up("Rated")
    Rating.objects.create(player=rated, value=1234)
    client.force_login(rated)
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/").content.decode()
    assert "1234" in html
    rating_queries = [q["sql"] for q in queries.captured_queries if "ratings_rating" in q["sql"]]
    assert len(rating_queries) == 1 and "accounts_player" in rating_queries[0]  # joined to the user load


def test_anonymous_visitors_see_log_in_and_sign_up(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get("/").content.decode()
    assert "Log in" in html and "Sign up" in html
    assert "Podkidnoy and perevodnoy Durak, live" in html


def test_staff_see_the_admin_link_and_players_do_not(client):
    player, _ = services.sign_up("Plain")
    client.force_login(player)
    assert 'href="/admin/"' not in client.get("/").content.decode()
    from accounts.models import Player

    staff = Player.objects.create_superuser("Staffer", password="x-long-password")
    client.force_login(staff)
    assert 'href="/admin/"' in client.get("/").content.decode()


def test_static_css_is_served(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"--felt" in b"".join(response.streaming_content)
