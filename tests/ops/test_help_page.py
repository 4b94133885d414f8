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
    from tests.conftest import login_browser_context
    from tests.game.helpers import make_player

    context = login_browser_context(browser, live_server.url, make_player("Помощник"), mobile=True)
    page = context.new_page()
    page.goto("/help/")
    for link in page.locator(".site-nav a").all():  # every link of the header's nav shows whole
        if link.is_visible():
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (link.inner_text(), box)
    page.get_by_role("link", name="Таймеры").click()
    assert page.locator("#help-6").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    page.screenshot(path=str(screenshot_dir / "help-phone-ru.png"), full_page=True)
    context.close()
