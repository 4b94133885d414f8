"""An invitation the inviter withdraws leaves the guest's screen: its notice in the corner goes and
the friends page's row says it was withdrawn, on every tab of the guest's, in a real browser. An
invitation renewed by the same host replaces the old notice without a word."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player

pytestmark = [pytest.mark.timeout(300)]


def _tab(context, path):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path)
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)
    return page, errors


def test_a_withdrawn_invitation_leaves_the_notice_and_the_friends_page(asgi_live_server, transactional_db, browser,
                                                                        screenshot_dir):
    from playwright.sync_api import expect

    from accounts import services as accounts_services
    from lobby import services as lobby_services
    from social import people

    host, guest, moderator = make_player("Вера"), make_player("Глеб"), make_player("Модератор")
    lobby_services.create_table(host, seats_count=4)
    context = login_browser_context(browser, asgi_live_server, guest, mobile=True)
    try:
        news, news_errors = _tab(context, "/ratings/")
        people.invite(host, guest.pk)
        first = news.locator(".site-toast-invite")
        expect(first).to_have_count(1, timeout=10000)
        renewed = people.invite(host, guest.pk)  # the same host again: one notice, the new one
        expect(news.locator(f".site-toast-invite[data-invitation='{renewed.pk}']")).to_have_count(1, timeout=10000)
        expect(news.locator(".site-toast-invite")).to_have_count(1)
        expect(news.locator(".site-toast", has_text="отозвано")).to_have_count(0)
        panel, panel_errors = _tab(context, "/people/")
        row = panel.locator(f"[data-invitation='{renewed.pk}']")
        expect(row.get_by_role("button", name="Принять")).to_be_visible()
        accounts_services.ban(host, "farming", moderator)  # his pending invitations are withdrawn
        expect(news.locator(".site-toast-invite")).to_have_count(0, timeout=10000)
        expect(news.locator(".site-toast", has_text="Вера: приглашение отозвано")).to_be_visible()
        news.screenshot(path=str(screenshot_dir / "social-invitation-withdrawn-phone.png"))
        expect(row).to_contain_text("Вера: приглашение отозвано", timeout=10000)
        expect(row.get_by_role("button", name="Принять")).to_have_count(0)
        assert news_errors == [] and panel_errors == []
    finally:
        close(context)
