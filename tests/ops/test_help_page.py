"""The players' help page («Помощь»): linked from the header, in Russian and English, on a phone."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "link", "heading", "section"), [
    ("ru", "Помощь", "Помощь: как здесь играть", "Если пропала связь"),
    ("en", "Help", "Help: how to play here", "When the connection is lost"),
])
def test_the_help_page_is_linked_from_the_header_in_the_players_language(client, language, link, heading, section):
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'href="/help/">{link}</a>' in home
    page = client.get("/help/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert heading in page and section in page
    assert 'aria-current="page">' + link in page


@pytest.mark.browser
def test_the_help_page_reads_on_a_phone(live_server, browser, screenshot_dir):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU",
                                  extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    page.goto(f"{live_server.url}/help/")
    page.get_by_role("link", name="Таймеры").click()
    assert page.locator("#help-6").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    page.screenshot(path=str(screenshot_dir / "help-phone-ru.png"), full_page=True)
    context.close()
