"""Quick play in a mode, in a real browser: the lobby's «Шулер» button on a 320 px phone and
“Cheater” on an English desktop bring two people to one cheater-mode table; the search form offers
every mode and hides the number of players for pairs (always four)."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player

pytestmark = [pytest.mark.timeout(300)]


def _page(browser, base, player, width=None, **kw):
    context = login_browser_context(browser, base, player, mobile=width is not None, **kw)
    page = context.new_page()
    if width is not None:
        page.set_viewport_size({"width": width, "height": 760})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _no_overflow(page) -> None:
    """Nothing on the page is wider than the screen (a phone never scrolls sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_lobbys_cheater_button_brings_two_people_to_one_cheater_table(asgi_live_server, transactional_db, browser,
                                                                          screenshot_dir):
    from lobby.models import Table
    from social import queue

    a, b = make_player("Лиза"), make_player("Max")
    for p in (a, b):  # their last choices: two players, unrated, no bots
        queue.join(p, match_now=False, players="2", bot_fill="0", rated="0")
        queue.cancel(p)
    ctx_a, page_a = _page(browser, asgi_live_server, a, width=320)
    ctx_b, page_b = _page(browser, asgi_live_server, b, locale="en-US")
    try:
        page_a.goto("/tables/")
        _no_overflow(page_a)
        page_a.screenshot(path=str(screenshot_dir / "search-modes-lobby-320-ru.png"))
        page_a.locator(".quick-modes").get_by_role("button", name="Шулер").click()
        page_a.wait_for_selector("[data-searching]")
        assert page_a.locator(".search-choice").inner_text().startswith("Шулер · ")
        page_a.screenshot(path=str(screenshot_dir / "search-modes-searching-320-ru.png"))
        page_b.goto("/tables/")
        page_b.screenshot(path=str(screenshot_dir / "search-modes-lobby-desktop-en.png"))
        page_b.locator(".quick-modes").get_by_role("button", name="Cheater").click()
        page_b.wait_for_url("**/tables/*/", timeout=15000)
        page_a.wait_for_url("**/tables/*/", timeout=15000)  # her socket took her there
        assert page_a.url == page_b.url
        table = Table.objects.get(pk=int(page_b.url.rstrip("/").rsplit("/", 1)[1]))
        assert table.preset == "cheater" and table.rules["cheater"] is True
        page_a.wait_for_function("window.__table && window.__table.view !== null", timeout=30000)
        page_a.screenshot(path=str(screenshot_dir / "search-modes-cheater-table-320-ru.png"))
        assert page_a.errors == [] and page_b.errors == []
    finally:
        close(ctx_a, ctx_b)


@pytest.mark.parametrize("width, locale, pairs", [(320, "ru-RU", "Пара на пару 2×2"), (390, "en-US", "Pairs 2×2"),
                                                  (None, "ru-RU", "Пара на пару 2×2")])
def test_the_search_form_offers_every_mode_and_pairs_need_no_number_of_players(asgi_live_server, transactional_db,
                                                                              browser, screenshot_dir, width, locale,
                                                                              pairs):
    from social.models import SearchRequest

    player = make_player(f"Форма{width}")
    ctx, page = _page(browser, asgi_live_server, player, width=width, locale=locale)
    try:
        page.goto("/play/search/")
        players = page.locator(".search-players")
        assert players.is_visible()
        page.locator(".search-modes label", has_text=pairs).click()
        assert not players.is_visible()
        if width:
            _no_overflow(page)
        name = f"search-modes-form-{width or 'desktop'}-{locale[:2]}.png"
        page.screenshot(path=str(screenshot_dir / name), full_page=True)
        page.locator("[data-search-start]").click()
        page.wait_for_selector("[data-searching]")
        row = SearchRequest.objects.get(player=player)
        assert (row.mode, row.players) == ("pairs", 4)
        assert page.errors == []
    finally:
        close(ctx)
