"""A mistyped address shows the site's own 404 page in the player's language, not Django's debug page
(which only DEBUG=1 asks for); a server error shows the site's own 500 page."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.utils import translation

from durak_site.views import server_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "heading"), [("ru", "Страница не найдена"), ("en", "Page not found")])
def test_a_mistyped_address_shows_the_site_404_in_the_players_language(client, language, heading):
    response = client.get("/tabels/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    page = response.content.decode()
    assert heading in page
    assert 'class="site-header"' in page  # the site's frame, with its navigation
    assert "Using the URLconf" not in page and "technical" not in page


def test_the_500_page_is_the_sites_own_and_translated():
    """handler500: an error that is not a full connection pool gets the site's own page."""
    request = RequestFactory().get("/")
    try:
        raise ValueError("boom")
    except ValueError:
        with translation.override("ru"):
            response = server_error(request)
        with translation.override("en"):
            english = server_error(request).content.decode()
    page = response.content.decode()
    assert response.status_code == 500
    assert "Что-то пошло не так" in page and 'lang="ru"' in page
    assert "Something went wrong" in english
