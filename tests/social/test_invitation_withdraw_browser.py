"""The host presses «Отозвать» on his friends page: the guest's invitation notice goes and he reads
that it was withdrawn, in two real browsers on phones."""

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


def test_the_hosts_withdraw_button_takes_the_invitation_off_the_guests_screen(
        asgi_live_server, transactional_db, browser, screenshot_dir):
    from playwright.sync_api import expect

    from lobby import services as lobby_services
    from social import people
    from social.models import Invitation

    host, guest = make_player("Хозяйка"), make_player("Гость")
    lobby_services.create_table(host, seats_count=4)
    guest_context = login_browser_context(browser, asgi_live_server, guest, mobile=True)
    host_context = login_browser_context(browser, asgi_live_server, host, mobile=True)
    try:
        news, news_errors = _tab(guest_context, "/ratings/")
        row = people.invite(host, guest.pk)
        expect(news.locator(".site-toast-invite")).to_have_count(1, timeout=10000)
        mine, mine_errors = _tab(host_context, "/people/")
        sent = mine.locator(f"[data-sent-invitation='{row.pk}']")
        expect(sent).to_contain_text("Гость")
        mine.screenshot(path=str(screenshot_dir / "social-invitation-sent-phone.png"))
        sent.get_by_role("button", name="Отозвать").click()
        expect(mine.locator(f"[data-sent-invitation='{row.pk}']")).to_have_count(0, timeout=10000)
        expect(news.locator(".site-toast-invite")).to_have_count(0, timeout=10000)
        expect(news.locator(".site-toast", has_text="Хозяйка: приглашение отозвано")).to_be_visible()
        assert Invitation.objects.get(pk=row.pk).status == Invitation.Status.EXPIRED
        assert news_errors == [] and mine_errors == []
    finally:
        close(host_context)
        close(guest_context)
