"""«Встать» at a table the search made warns first that standing up before the deal is a dodge: a
dialog says so, «Остаться» (or Esc) keeps the seat, and only its «Всё равно встать» stands up;
by keyboard, in Russian and in English. At a table a person made, «Встать» acts at once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player

pytestmark = [pytest.mark.timeout(300)]


def _matched(a, b):
    """Two people the search put at one table; nobody is due to be dropped for not coming."""
    from django.utils import timezone

    from social import presence, queue
    from social.models import SearchRequest

    presence.opened(a.pk)
    presence.opened(b.pk)
    first = queue.join(a, players="2", bot_fill="0", rated="0")
    queue.join(b, players="2", bot_fill="0", rated="0")
    first.refresh_from_db()
    assert first.status == "matched" and first.table.matched
    SearchRequest.objects.filter(table=first.table).update(arrive_deadline=timezone.now() + timedelta(minutes=10))
    return first.table


def _room(browser, base, player, table, **kw):
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/tables/{table.pk}/")
    page.locator("#room .seat-me .ready.yes").wait_for(timeout=15000)  # arriving pressed «Готово»
    return context, page, errors


def _until(predicate, timeout: float = 10.0) -> None:
    """The server records the dodge right after the stand, which the room may show first."""
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline
        time.sleep(0.1)


def _seated(table, player) -> bool:
    from lobby.models import Seat

    return Seat.objects.filter(table=table, player=player).exists()


def test_standing_up_at_a_matched_table_asks_first_and_says_it_is_a_dodge(asgi_live_server, transactional_db,
                                                                          browser, screenshot_dir):
    from playwright.sync_api import expect

    from social.models import Dodge

    a, b = make_player("Уклонист"), make_player("Ждущий")
    table = _matched(a, b)
    ctx, page, errors = _room(browser, asgi_live_server, a, table, mobile=True)
    try:
        dialog = page.locator("#stand-dialog")
        stand = page.get_by_role("button", name="Встать", exact=True)
        stand.click()
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("засчитается как уклонение")
        page.screenshot(path=str(screenshot_dir / "lobby-matched-stand-warning-phone.png"))
        expect(dialog.get_by_role("button", name="Остаться")).to_be_focused()
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        stand.click()
        dialog.get_by_role("button", name="Остаться").click()
        expect(dialog).to_be_hidden()
        page.wait_for_timeout(500)  # were the seat given up, the stand would be on its way by now
        assert _seated(table, a) and not Dodge.objects.filter(player=a).exists()
        # by keyboard: focus «Встать», Enter opens the warning, Tab to «Всё равно встать», Enter
        stand.focus()
        page.keyboard.press("Enter")
        expect(dialog).to_be_visible()
        page.keyboard.press("Tab")
        expect(dialog.get_by_role("button", name="Всё равно встать")).to_be_focused()
        page.keyboard.press("Enter")
        expect(dialog).to_be_hidden()
        expect(page.locator("#room")).not_to_contain_text("Встать", timeout=10000)
        assert not _seated(table, a)
        _until(lambda: Dodge.objects.filter(player=a).exists())
        assert Dodge.objects.get(player=a).kind == "countdown_exit"  # he had arrived: he left before the deal
        assert errors == []
    finally:
        close(ctx)


def test_the_warning_reads_in_english(asgi_live_server, transactional_db, browser):
    from playwright.sync_api import expect

    a, b = make_player("Dodger"), make_player("Waiter")
    table = _matched(a, b)
    ctx, page, errors = _room(browser, asgi_live_server, a, table, locale="en-US")
    try:
        page.get_by_role("button", name="Stand up", exact=True).click()
        dialog = page.locator("#stand-dialog")
        expect(dialog).to_contain_text("Stand up from a matched table?")
        expect(dialog).to_contain_text("counts as a dodge")
        dialog.get_by_role("button", name="Stay").click()
        expect(dialog).to_be_hidden()
        assert _seated(table, a) and errors == []
    finally:
        close(ctx)


def test_standing_up_at_a_table_a_person_made_acts_at_once(asgi_live_server, transactional_db, browser):
    from playwright.sync_api import expect

    from lobby import services

    host = make_player("Хозяйка")
    table = services.create_table(host, seats_count=2)
    context = login_browser_context(browser, asgi_live_server, host)
    page = context.new_page()
    try:
        page.goto(f"/tables/{table.pk}/")
        assert page.locator("#stand-dialog").count() == 0
        page.get_by_role("button", name="Встать", exact=True).click()
        expect(page.get_by_role("button", name="Встать", exact=True)).to_have_count(0, timeout=10000)
        assert not _seated(table, host)
    finally:
        close(context)
