"""`/people/online/` is a page for a person (the whole online list, searchable by nick) and stays
JSON for a script that asks for JSON."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from social import presence
from tests.game.helpers import make_player

pytestmark = pytest.mark.django_db


def test_a_person_gets_the_online_page_with_a_search_and_a_script_gets_json(client):
    cache.clear()
    for nick in ("Аня", "Анатолий", "Борис"):
        presence.opened(make_player(nick).pk)
    stranger = client.get("/people/online/", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Войдите, чтобы увидеть, кто в сети." in stranger and "Борис" not in stranger  # names: signed in only
    client.force_login(make_player("Зритель"))
    page = client.get("/people/online/", HTTP_ACCEPT="text/html,application/xhtml+xml", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert "Кто в сети" in html and all(n in html for n in ("Аня", "Анатолий", "Борис"))
    found = client.get("/people/online/", {"q": "  натол "}, HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="ru")
    html = found.content.decode()
    assert "Анатолий" in html and "Борис" not in html and 'value="натол"' in html
    none = client.get("/people/online/", {"q": "x" * 500}, HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="ru")
    assert none.status_code == 200 and "В сети нет никого с «" + "x" * 20 + "» в нике." in none.content.decode()
    data = client.get("/people/online/", HTTP_ACCEPT="application/json").json()
    assert data["ok"] is True and data["online"] == 3 and {p["nick"] for p in data["players"]} == {"Аня", "Анатолий", "Борис"}


def test_the_lobbys_online_block_links_to_the_page(client):
    from django.urls import reverse

    client.force_login(make_player("Вера"))
    html = client.get(reverse("lobby:index"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "data-online-panel" in html and 'href="/people/online/"' in html
