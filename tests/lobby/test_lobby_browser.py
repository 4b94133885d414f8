"""Headless Chromium: create a table, add 3 bots, press «Готово», see 3-2-1 and the game table.

Screenshots of the lobby, the create form and the waiting room (phone and desktop) are saved to
test-artifacts/screenshots/ for people to look at.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import login_browser_context

pytestmark = [pytest.mark.browser]


@pytest.fixture(autouse=True)
def _sync_orm_beside_playwright(monkeypatch):
    """Playwright's sync API runs an event loop in this thread; the ORM calls here are plain sync."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def player(transactional_db):
    from accounts.models import Player

    return Player.objects.create_user("Игрок")


@pytest.fixture
def other_tables(player):
    """A few tables so the lobby screenshot shows a realistic list."""
    from accounts.models import Player
    from lobby import services

    olga = Player.objects.create_user("Ольга")
    ivan = Player.objects.create_user("Иван")
    t1 = services.create_table(olga, preset="perevodnoy", seats_count=3, name="Переводной у Ольги")
    services.add_bot(t1.pk, olga, 2, "heuristic")
    t2 = services.create_table(ivan, preset="pairs")
    services.add_bot(t2.pk, ivan, 2, "random")
    services.add_bot(t2.pk, ivan, 4, "lowest")
    return [t1, t2]


def test_create_table_add_three_bots_ready_countdown_and_game_starts(
        transactional_db, asgi_live_server, browser, screenshot_dir, player, other_tables):
    from playwright.sync_api import expect

    from lobby.models import Table

    ctx = login_browser_context(browser, asgi_live_server, player)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/tables/")
        expect(page.locator("#table-list")).to_contain_text("Переводной у Ольги")
        page.screenshot(path=str(screenshot_dir / "lobby-list-desktop.png"), full_page=True)

        page.get_by_role("link", name="Новый стол").click()
        expect(page.locator("h1")).to_have_text("Новый стол")
        page.locator("details.advanced summary").click()
        page.screenshot(path=str(screenshot_dir / "lobby-create-desktop.png"), full_page=True)
        page.get_by_label("Классический подкидной").check()
        page.locator("select[name=seats_count]").select_option("4")
        page.get_by_role("button", name="Создать стол").click()
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))

        for n in (1, 2, 3):
            page.locator(".seat-free form.bot-form button").first.click()
            expect(page.locator(".seat-bot")).to_have_count(n)
        expect(page.locator(".seat-me .dot.on")).to_have_count(1, timeout=8000)  # our socket is connected
        page.screenshot(path=str(screenshot_dir / "lobby-waiting-room-desktop.png"), full_page=True)

        page.get_by_role("button", name="Готово", exact=True).click()
        expect(page.locator(".countdown")).to_be_visible()
        expect(page.locator("#countdown-n")).to_have_text(re.compile(r"^[123]$"))
        page.screenshot(path=str(screenshot_dir / "lobby-countdown-desktop.png"))

        # at zero the game is created and the page becomes the game table
        expect(page.locator("#game")).to_be_attached(timeout=15000)
        assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
        page.wait_for_timeout(1500)  # let the game client draw the first frame for the screenshot
        page.screenshot(path=str(screenshot_dir / "lobby-game-started-desktop.png"))
    finally:
        ctx.close()
    assert not errors, errors


def test_waiting_room_and_lobby_on_a_phone(transactional_db, asgi_live_server, browser, screenshot_dir, player, other_tables):
    from playwright.sync_api import expect

    from lobby import services

    table = services.create_table(player, preset="pairs", name="Пара на пару")
    services.add_bot(table.pk, player, 2, "heuristic")
    ctx = login_browser_context(browser, asgi_live_server, player, mobile=True)
    page = ctx.new_page()
    try:
        page.goto("/tables/")
        expect(page.locator("#table-list .tcard")).to_have_count(3)
        page.screenshot(path=str(screenshot_dir / "lobby-list-phone.png"), full_page=True)
        page.goto("/tables/new/")
        page.screenshot(path=str(screenshot_dir / "lobby-create-phone.png"), full_page=True)
        page.goto("/tables/rules/")
        page.locator("#settings").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / "lobby-rules-settings-phone.png"))
        page.goto(f"/tables/{table.pk}/")
        expect(page.locator(".seat")).to_have_count(4)
        page.screenshot(path=str(screenshot_dir / "lobby-waiting-room-phone.png"), full_page=True)
        # nothing wider than the screen
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        # the longer take-back label still fits beside «Встать»
        page.get_by_role("button", name="Готово", exact=True).click()
        expect(page.get_by_role("button", name="Отменить готовность", exact=True)).to_be_visible()
        page.screenshot(path=str(screenshot_dir / "lobby-waiting-room-ready-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    finally:
        ctx.close()


def test_a_second_player_sees_the_first_sit_down_without_reloading(transactional_db, asgi_live_server, browser, player):
    from playwright.sync_api import expect

    from accounts.models import Player
    from lobby import services

    anna = Player.objects.create_user("Анна")
    table = services.create_table(player, seats_count=3)
    ctx_a = login_browser_context(browser, asgi_live_server, player)
    ctx_b = login_browser_context(browser, asgi_live_server, anna)
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        a.goto(f"/tables/{table.pk}/")
        b.goto(f"/tables/{table.pk}/")
        b.locator(".seat[data-seat='3'] form:not(.bot-form) button").click()
        expect(a.locator(".seat[data-seat='3'] .seat-nick")).to_have_text("Анна", timeout=8000)
        b.get_by_role("button", name="Готово", exact=True).click()
        expect(a.locator(".seat[data-seat='3'] .ready.yes")).to_be_visible(timeout=8000)
    finally:
        ctx_a.close()
        ctx_b.close()


def test_quick_play_deals_the_cards_without_a_ready_click(transactional_db, asgi_live_server, browser, screenshot_dir,
                                                          player):
    """«Быстрая игра» searches for opponents; when nobody comes within the player's bot wait (15 s
    here, his last choice) three bots take the seats and the game starts by itself: the page turns
    into the game table with six cards in the player's hand, and no «Готово» button is ever pressed."""
    from playwright.sync_api import expect

    from lobby.models import Table
    from social import queue

    queue.join(player, match_now=False, bot_fill="15")  # his last choice: bots after 15 s
    queue.cancel(player)

    ctx = login_browser_context(browser, asgi_live_server, player, mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    ready_posts: list[str] = []
    page.on("request", lambda r: ready_posts.append(r.url) if r.method == "POST" and "/ready" in r.url else None)
    try:
        page.goto("/tables/")
        page.get_by_role("button", name="Быстрая игра").click()
        expect(page.locator("[data-searching]")).to_be_visible(timeout=10000)
        expect(page.locator("#game")).to_be_attached(timeout=40000)
        expect(page.locator("#g-hand .card")).to_have_count(6, timeout=15000)
        table = Table.objects.get(seats__player=player)
        assert table.status == Table.Status.PLAYING
        page.wait_for_timeout(1200)  # the deal animation settles before the screenshot
        page.screenshot(path=str(screenshot_dir / "lobby-quick-play-dealt-phone.png"))
    finally:
        ctx.close()
    assert not ready_posts, ready_posts
    assert not errors, errors
