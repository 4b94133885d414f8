"""A phone-sized browser signs up, sees the recovery key, copies it, switches to English; screenshots saved."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser]

# The test process seats the player and the live daphne (another process) must hear of it: only a
# shared channel layer (Redis) carries that; the embedded in-memory one stays in its own process.
SHARED_LAYER = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (a shared channel layer)")


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch):
    """Playwright's sync API keeps an event loop in this thread; the test's own ORM reads are still sync."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

KEY_PATTERN = re.compile(r"^([0-9A-Z]{4}-){6}[0-9A-Z]{4}$")


def phone(browser, base_url):
    context = browser.new_context(bypass_csp=True, base_url=base_url, locale="ru-RU", viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    return context


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def press_play_as_a_newcomer(page, nick: str) -> None:
    """Logged out: «Играть» on the home page, a nick, and straight into the search (no key page)."""
    page.goto("/")
    page.get_by_role("link", name="Играть").first.click()
    page.wait_for_url("**/accounts/signup/**")
    page.get_by_label("Ник").fill(nick)
    page.get_by_role("button", name="Начать играть").click()
    page.wait_for_selector("[data-searching]", timeout=10000)


def test_sign_up_on_a_phone_shows_the_key_once_copies_it_and_switches_to_english(
        asgi_live_server, browser, transactional_db, screenshot_dir):
    from accounts.models import Player

    context = phone(browser, asgi_live_server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/")
        assert page.locator("html").get_attribute("lang") == "ru"
        page.screenshot(path=str(screenshot_dir / "accounts-home-phone-ru.png"), full_page=True)
        assert no_horizontal_scroll(page)

        page.get_by_role("link", name="Выбрать ник").first.click()
        page.get_by_label("Ник").fill("admin")
        page.get_by_role("button", name="Начать играть").click()
        assert page.locator(".field-error").inner_text().startswith("Ник «admin» зарезервирован")
        page.screenshot(path=str(screenshot_dir / "accounts-signup-error-phone-ru.png"), full_page=True)
        assert no_horizontal_scroll(page)
        assert page.get_by_role("button", name="EN").is_visible()  # the language switch fits on a phone

        page.get_by_label("Ник").fill("Вася_Тест")
        page.get_by_role("button", name="Начать играть").click()
        page.wait_for_url("**/accounts/key/")
        key = page.locator("#recovery-key").inner_text().strip()
        assert KEY_PATTERN.match(key)
        assert page.locator(".user-chip .nick").inner_text() == "Вася_Тест"
        assert "1000" in page.locator(".user-chip .rating").inner_text()
        assert no_horizontal_scroll(page)

        page.get_by_role("button", name="Копировать").click()
        page.wait_for_function("document.getElementById('copy-status').textContent.length > 0")
        assert page.locator("#copy-status").inner_text() == "Скопировано!"
        assert page.evaluate("navigator.clipboard.readText()") == key
        page.screenshot(path=str(screenshot_dir / "accounts-key-phone-ru.png"), full_page=True)

        stored = Player.objects.get(nick="Вася_Тест").password
        assert key not in stored and key.replace("-", "") not in stored

        # switching the language reloads the page, so the switch waits until the key is saved
        assert page.locator(".lang-switch").count() == 0
        page.get_by_role("link", name="Ключ сохранён, дальше").click()
        page.wait_for_url(re.compile(r"/$"))
        page.get_by_role("button", name="EN").click()
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.goto("/accounts/key/")
        assert page.locator("#recovery-key").count() == 0  # the key page does not show it again
        assert "The key is not shown again" in page.locator("h1").inner_text()
        page.screenshot(path=str(screenshot_dir / "accounts-key-again-phone-en.png"), full_page=True)

        page.goto("/accounts/profile/")
        # a new key logs other devices out: the first click only opens the confirmation
        page.get_by_text("Issue a new key…").click()
        assert page.get_by_role("button", name="Yes, issue a new key").is_visible()
        page.screenshot(path=str(screenshot_dir / "accounts-profile-phone-en.png"), full_page=True)
        assert no_horizontal_scroll(page)
        assert page.get_by_role("button", name="RU").is_visible()
        page.goto("/")
        assert "Podkidnoy and perevodnoy Durak, live" in page.locator("h1").inner_text()
        page.screenshot(path=str(screenshot_dir / "accounts-home-phone-en.png"), full_page=True)

        page.goto("/accounts/profile/")
        page.get_by_role("button", name="Log out").click()
        page.goto("/accounts/restore/")
        page.get_by_label("Nick").fill("вася_тест")
        page.get_by_label("Recovery key").fill(key.lower())
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r"/$"))
        assert "Welcome back, Вася_Тест!" in page.locator(".messages").inner_text()
        assert errors == []
    finally:
        context.close()


def test_desktop_home_and_restore_pages(asgi_live_server, browser, transactional_db, screenshot_dir):
    context = browser.new_context(bypass_csp=True, base_url=asgi_live_server, locale="ru-RU", viewport={"width": 1280, "height": 860})
    page = context.new_page()
    try:
        page.goto("/")
        page.screenshot(path=str(screenshot_dir / "accounts-home-desktop-ru.png"), full_page=True)
        page.goto("/accounts/restore/")
        page.get_by_label("Ник").fill("nobody")
        page.get_by_label("Ключ восстановления").fill("AAAA-BBBB")
        page.get_by_role("button", name="Войти").last.click()
        assert "Ник и ключ не подходят" in page.locator(".alert-error").inner_text()
        page.screenshot(path=str(screenshot_dir / "accounts-restore-error-desktop-ru.png"), full_page=True)
        # keyboard: the skip link is the first stop and is visible when focused
        page.goto("/")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip-link"
    finally:
        context.close()


def test_play_logged_out_on_a_phone_goes_to_the_search_and_the_key_waits_in_a_sheet(
        asgi_live_server, browser, transactional_db, screenshot_dir):
    from social.models import SearchRequest

    context = phone(browser, asgi_live_server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        press_play_as_a_newcomer(page, "Новичок_Ключ")  # one tap after the nick: the search, no key page
        assert "/play/search/" in page.url
        assert SearchRequest.objects.filter(player__nick="Новичок_Ключ", status="waiting").exists()

        sheet = page.get_by_role("complementary", name="Сохраните ключ восстановления")
        assert sheet.is_visible()
        assert sheet.locator("#recovery-key").count() == 0 and page.locator("#recovery-key").count() == 0
        box = sheet.bounding_box()
        assert box["y"] + box["height"] <= 844 + 1 and box["width"] <= 390  # on screen, at the bottom
        assert no_horizontal_scroll(page)
        page.screenshot(path=str(screenshot_dir / "accounts-key-sheet-search-phone-ru.png"))

        # «Позже» hides it for this page view; Escape does too, from the keyboard
        sheet.get_by_role("button", name="Позже").click()
        assert not sheet.is_visible()
        page.screenshot(path=str(screenshot_dir / "accounts-key-sheet-hidden-phone-ru.png"))
        page.goto("/")
        sheet = page.get_by_role("complementary", name="Сохраните ключ восстановления")
        assert sheet.is_visible()  # the next page reminds again
        page.set_viewport_size({"width": 1280, "height": 860})
        box = sheet.bounding_box()
        assert box["width"] < 700 and box["y"] + box["height"] <= 860  # a card at the bottom on a desktop
        page.screenshot(path=str(screenshot_dir / "accounts-key-sheet-home-desktop-ru.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        sheet.get_by_role("link", name="Показать ключ").focus()
        page.keyboard.press("Escape")
        assert not sheet.is_visible()
        page.goto("/play/search/")
        page.wait_for_selector("[data-searching]")

        # the key from the sheet: the key page, and «continue» comes back to the search
        page.get_by_role("link", name="Показать ключ").click()
        page.wait_for_url("**/accounts/key/?next=**")
        key = page.locator("#recovery-key").inner_text().strip()
        assert KEY_PATTERN.match(key)
        assert page.locator("[data-key-reminder]").count() == 0
        page.screenshot(path=str(screenshot_dir / "accounts-key-from-sheet-phone-ru.png"), full_page=True)
        page.get_by_role("link", name="Ключ сохранён, дальше").click()
        page.wait_for_selector("[data-searching]", timeout=10000)
        assert "/play/search/" in page.url
        assert page.locator("[data-key-reminder]").count() == 0  # shown: the reminder is gone
        page.screenshot(path=str(screenshot_dir / "accounts-key-sheet-gone-phone-ru.png"))
        page.goto("/accounts/key/")
        assert page.locator("#recovery-key").count() == 0  # and the key is not shown again
        assert errors == []
    finally:
        context.close()


def test_at_a_live_table_on_a_phone_the_key_reminder_is_a_line_that_leads_nowhere(
        asgi_live_server, browser, transactional_db, screenshot_dir):
    import time

    from django.conf import settings
    from django.test import Client

    from accounts import key_once
    from accounts.models import Player
    from tests.game.test_table_ui_live import close, start_table, wait_for_view

    player = Player.objects.create_user("Игрок_Стола")
    table, _game = start_table([player], bots=["easy"])
    client = Client()
    client.force_login(player)
    session = client.session
    session[key_once.NONCE], session[key_once.DUE] = "pending", int(time.time()) + 3600  # a key not shown yet
    session.save()
    context = phone(browser, asgi_live_server)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key,
                          "url": asgi_live_server}])
    page = context.new_page()
    try:
        page.goto(f"/tables/{table.pk}/")
        wait_for_view(page)
        line = page.locator(".key-line")
        assert line.is_visible() and "после игры" in line.inner_text()
        assert page.get_by_role("complementary").filter(has_text="ключ").count() == 0  # no sheet at a table
        assert page.locator("a[href^='/accounts/key/']").count() == 0  # nothing that leaves the game
        assert page.locator("#g-felt").is_visible()
        page.screenshot(path=str(screenshot_dir / "accounts-key-line-table-phone-ru.png"))
        line.get_by_role("button", name="Скрыть напоминание").click()
        assert not line.is_visible()
    finally:
        close(context)


@SHARED_LAYER
def test_a_match_found_while_the_key_is_on_screen_waits_for_the_player(
        asgi_live_server, browser, transactional_db, screenshot_dir):
    """The key is shown once: a match never pulls the page away from it; a notice links to the table."""
    from social import queue
    from tests.game.test_table_ui_live import make_player

    context = phone(browser, asgi_live_server)
    page = context.new_page()
    try:
        press_play_as_a_newcomer(page, "Новичок_Матч")
        page.get_by_role("link", name="Показать ключ").click()
        page.wait_for_url("**/accounts/key/?next=**")
        page.wait_for_function("window.__site && window.__site.open", timeout=15000)
        key = page.locator("#recovery-key").inner_text().strip()

        queue.join(make_player("Соперник_Матч"))  # the match: both are seated at a new table
        notice = page.locator(".site-toast", has_text="Соперники найдены! Сохраните ключ")
        notice.wait_for(timeout=10000)
        page.wait_for_timeout(500)
        assert "/accounts/key/" in page.url and page.locator("#recovery-key").inner_text().strip() == key
        page.screenshot(path=str(screenshot_dir / "accounts-key-match-held-phone-ru.png"))
        notice.get_by_role("link", name="К столу").click()
        page.wait_for_url("**/tables/*/", timeout=10000)
    finally:
        context.close()


@SHARED_LAYER
def test_an_invitation_accepted_while_the_key_is_on_screen_waits_for_the_player(
        asgi_live_server, browser, transactional_db, screenshot_dir):
    """Accepting seats him, but the page with his key stays: a notice links to the table."""
    from accounts.models import Player
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people, queue
    from tests.game.test_table_ui_live import make_player

    context = phone(browser, asgi_live_server)
    page = context.new_page()
    try:
        press_play_as_a_newcomer(page, "Новичок_Гость")
        guest = Player.objects.get(nick="Новичок_Гость")
        queue.cancel(guest)  # he stopped searching: an invitation is what he waits for now
        page.get_by_role("link", name="Показать ключ").click()
        page.wait_for_url("**/accounts/key/?next=**")
        page.wait_for_function("window.__site && window.__site.open", timeout=15000)
        key = page.locator("#recovery-key").inner_text().strip()

        host = make_player("Хозяйка_Стола")
        table = lobby_services.create_table(host, seats_count=3)
        people.invite(host, guest.pk)
        invite = page.locator(".site-toast-invite")
        invite.wait_for(timeout=10000)
        invite.get_by_role("button", name="Принять").click()
        notice = page.locator(".site-toast", has_text="Место за столом за вами. Сохраните ключ")
        notice.wait_for(timeout=10000)
        page.wait_for_timeout(500)
        assert Seat.objects.filter(table=table, player=guest).exists()
        assert "/accounts/key/" in page.url and page.locator("#recovery-key").inner_text().strip() == key
        page.screenshot(path=str(screenshot_dir / "accounts-key-invitation-held-phone-ru.png"))
        notice.get_by_role("link", name="К столу").click()
        page.wait_for_url(f"**/tables/{table.pk}/", timeout=10000)
    finally:
        context.close()
