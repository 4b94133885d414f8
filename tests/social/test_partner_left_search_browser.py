"""A party's search ended by the partner: the other player reads that the partner left the search,
not the generic «Поиск завершён», in a real browser."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player
from tests.social.test_party import make_party

pytestmark = [pytest.mark.timeout(300)]


def test_the_leader_reads_that_the_partner_left_the_search(asgi_live_server, transactional_db, browser,
                                                           screenshot_dir):
    from playwright.sync_api import expect

    from social import presence, queue

    leader, member = make_player("Лида"), make_player("Митя")
    presence.opened(leader.pk)
    presence.opened(member.pk)
    make_party(leader, member)
    context = login_browser_context(browser, asgi_live_server, leader, mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/ratings/")
        page.wait_for_function("window.__site && window.__site.open", timeout=15000)
        queue.join(leader, mode="pairs", rated="0", bot_fill="0")
        assert queue.cancel(member) is True
        expect(page.locator(".site-toast", has_text="вашего напарника по группе больше нет в поиске")).to_be_visible(
            timeout=10000)
        page.screenshot(path=str(screenshot_dir / "social-partner-left-search-phone.png"))
        assert errors == []
    finally:
        close(context)
