"""Two friends write to each other in real browsers against the real stack (daphne, the site
socket, the database): letters arrive live on the open conversation, as a notice with the unread
badge on any other page; bad input is answered in the catalogue's words; after a block the blocked
player's letters never arrive. Screenshots on a phone (320 and 390 px) and a desktop, ru and en; axe and the focus rings on the
desktop pages."""

from __future__ import annotations

import re

import pytest

from letters.models import Letter
from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close
from tests.letters.conftest import befriend, make_player

pytestmark = [pytest.mark.timeout(300)]


def _page(browser, base, player, width=None, **kw):
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    if width:
        page.set_viewport_size({"width": width, "height": 700})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _socket_open(page):
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)


def _write(page, text):
    box = page.locator("#letters-input")
    box.fill(text)
    box.press("Enter")


def _fits(page) -> bool:
    """Nothing of the page is wider than the screen (no sideways scrolling on a phone)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_friends_write_live_and_a_blocked_players_letters_never_arrive(asgi_live_server, transactional_db, browser,
                                                                       screenshot_dir):
    a, b, c = make_player("Аня"), make_player("Boris"), make_player("Вика")
    befriend(a, b)
    befriend(c, b)
    ctx_a, page_a = _page(browser, asgi_live_server, a, mobile=True)
    ctx_b, page_b = _page(browser, asgi_live_server, b, locale="en-US")
    try:
        # from her friend's card and from his friends list
        page_a.goto(f"/people/{b.pk}/")
        page_a.get_by_role("link", name="Написать сообщение").click()
        page_a.wait_for_url(f"**/messages/{b.pk}/")
        page_b.goto("/people/")
        page_b.screenshot(path=str(screenshot_dir / "letters-friends-desktop-en.png"))
        page_b.get_by_role("link", name=re.compile(r"^Write\W+Аня$")).click()
        page_b.wait_for_url(f"**/messages/{a.pk}/")
        _socket_open(page_a)
        _socket_open(page_b)

        _write(page_a, "Привет! Сыграем партию?")
        page_a.locator(".letter-mine", has_text="Привет! Сыграем партию?").wait_for()
        page_b.locator(".letter-theirs", has_text="Привет! Сыграем партию?").wait_for(timeout=10000)
        _write(page_b, "Sure, give me a minute")
        page_a.locator(".letter-theirs", has_text="Sure, give me a minute").wait_for(timeout=10000)
        assert _fits(page_a)
        page_a.screenshot(path=str(screenshot_dir / "letters-conversation-phone-390-ru.png"))
        page_b.screenshot(path=str(screenshot_dir / "letters-conversation-desktop-en.png"))

        # on another page: a notice with the way there, and the badge at «Friends»
        page_b.goto("/ratings/")
        _socket_open(page_b)
        _write(page_a, "Жду за столом")
        notice = page_b.locator(".letters-toast", has_text="Аня writes: Жду за столом")
        notice.wait_for(timeout=10000)
        badge = page_b.locator("[data-letters-unread]").first
        assert badge.is_visible() and badge.locator("[data-n]").inner_text() == "1"
        page_b.screenshot(path=str(screenshot_dir / "letters-notice-desktop-en.png"))
        notice.get_by_role("link", name="Open").click()
        page_b.wait_for_url(f"**/messages/{a.pk}/")
        assert page_b.locator("[data-letters-unread]").first.is_hidden()

        # bad input: the catalogue's sentence under the form, nothing written
        _socket_open(page_a)
        before = Letter.objects.count()
        page_a.locator("#letters-input").fill("   ")
        page_a.get_by_role("button", name="Отправить", exact=True).click()
        page_a.locator("#letters-error", has_text="Сначала напишите что-нибудь.").wait_for()
        assert Letter.objects.count() == before
        too_often = page_a.locator("#letters-error", has_text="Слишком часто: подождите несколько секунд.")
        for k in range(6):  # five in any ten seconds
            _write(page_a, f"флуд {k}")
            page_a.locator(".letter-mine", has_text=f"флуд {k}").or_(too_often).wait_for()
            if too_often.is_visible():
                break
        assert too_often.is_visible()
        page_a.screenshot(path=str(screenshot_dir / "letters-too-often-phone-390-ru.png"))

        # he blocks her: her letters are refused, and none of hers reaches him afterwards
        page_b.get_by_role("button", name="Block Аня").click()
        page_b.wait_for_url("**/messages/")
        _socket_open(page_b)
        sent_before_block = Letter.objects.filter(author=a).count()
        _write(page_a, "Ты где?")
        page_a.locator("#letters-error", has_text="Писать можно только друзьям.").wait_for(timeout=15000)
        assert Letter.objects.filter(author=a).count() == sent_before_block
        ctx_c, page_c = _page(browser, asgi_live_server, c)
        page_c.goto(f"/messages/{b.pk}/")
        _socket_open(page_c)
        _write(page_c, "Ты играешь сегодня?")
        page_b.locator(".letters-toast", has_text="Вика writes").wait_for(timeout=10000)
        assert page_b.locator(".letters-toast", has_text="Аня").count() == 0
        assert page_b.locator("[data-letters-unread] [data-n]").first.inner_text() == "1"
        assert "Аня" not in page_b.locator(".letters-list").inner_text()
        assert page_a.errors == [] and page_b.errors == [] and page_c.errors == []
        ctx_c.close()
    finally:
        close(ctx_a, ctx_b)


@pytest.mark.parametrize(("locale", "lang"), [("ru-RU", "ru"), ("en-US", "en")])
def test_the_pages_fit_a_small_phone_and_a_desktop(asgi_live_server, transactional_db, browser, screenshot_dir,
                                                   locale, lang):
    from letters import services

    a, b = make_player("Анастасия_Длинная"), make_player("Friend")
    befriend(a, b)
    for k, text in enumerate(["Привет!", "Hi! Ready for a rematch? " * 4, "Давай через пять минут",
                              "ok"]):
        author, other = (b, a) if k % 2 == 0 else (a, b)
        services.send(author, other.pk, text)
    from tests.a11y.test_axe import focus_rings, violations

    phone, page = _page(browser, asgi_live_server, a, width=320, mobile=True, locale=locale)
    desk, wide = _page(browser, asgi_live_server, a, locale=locale)
    try:
        for shown, width in ((page, 320), (wide, None)):
            shown.goto(f"/messages/{b.pk}/")
            shown.locator(".letter").first.wait_for()
            assert _fits(shown)
            kind = f"phone-{width}" if width else "desktop"
            shown.screenshot(path=str(screenshot_dir / f"letters-conversation-{kind}-{lang}.png"))
            if not width:  # axe and the keyboard's focus rings, once per language
                assert violations(shown) == [] and focus_rings(shown, 30) == []
            shown.goto("/messages/")
            assert _fits(shown)
            shown.screenshot(path=str(screenshot_dir / f"letters-inbox-{kind}-{lang}.png"))
            if not width:
                assert violations(shown) == []
        page.goto("/people/")
        assert _fits(page)
        page.screenshot(path=str(screenshot_dir / f"letters-friends-phone-320-{lang}.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"/messages/{b.pk}/")
        page.locator(".letter-theirs summary").first.click()  # the report form opens in place
        page.screenshot(path=str(screenshot_dir / f"letters-report-phone-390-{lang}.png"))
        form = page.locator(".letter-theirs form").first
        form.locator("input[name=reason]").fill("spam")
        form.locator("button[type=submit]").click()
        thanks = {"ru": "Спасибо: модераторы прочитают переписку.",
                  "en": "Thank you: the moderators will read the conversation."}[lang]
        form.locator(".letter-report-result", has_text=thanks).wait_for()
        from letters.models import Report

        assert Report.objects.filter(reporter=a, reason="spam").count() == 1
        assert page.errors == [] and wide.errors == []
    finally:
        close(phone, desk)
