"""Two people on two devices, in a real browser against the real stack: both press «Играть» and
land at one table, where the cards are dealt without «Готово»; a friend request and an invitation
accepted from another page; a blocked player cannot sit."""

from __future__ import annotations

import pytest

from accounts.models import Player
from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player
from tests.site.test_accounts_browser import press_play_as_a_newcomer

pytestmark = [pytest.mark.timeout(300)]


def _page(browser, base, player, **kw):
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _site_open(page):
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)


def test_two_players_press_play_and_land_at_one_table(asgi_live_server, transactional_db, browser, screenshot_dir):
    a, b = make_player("Аня"), make_player("Боря")
    ctx_a, page_a = _page(browser, asgi_live_server, a, mobile=True)
    ctx_b, page_b = _page(browser, asgi_live_server, b, locale="en-US")
    try:
        page_a.goto("/")
        _site_open(page_a)
        page_a.get_by_role("button", name="Играть").first.click()
        page_a.wait_for_url("**/play/search/")
        page_a.wait_for_selector("[data-searching]")
        _site_open(page_a)
        page_a.screenshot(path=str(screenshot_dir / "social-searching-phone.png"))
        # two people at two homes: a rated search never pairs two accounts on one address, and both
        # browsers here come from 127.0.0.1 (her pages have recorded it; nothing she does records it again)
        Player.objects.filter(pk=a.pk).update(last_address="198.51.100.7")
        page_b.goto("/tables/")
        _site_open(page_b)
        # the lobby lists who is online: she is searching
        page_b.locator("[data-online-list] .online-row.status-searching", has_text="Аня").wait_for(timeout=10000)
        page_b.screenshot(path=str(screenshot_dir / "social-lobby-online-desktop.png"))
        page_b.get_by_role("button", name="Quick play").click()
        page_b.wait_for_url("**/tables/*/", timeout=10000)
        page_a.wait_for_url("**/tables/*/", timeout=10000)  # the socket took her there
        assert page_a.url == page_b.url
        # both arrived: the 3-2-1 runs and the game table appears without «Готово»
        page_a.wait_for_function("window.__table && window.__table.view !== null", timeout=30000)
        page_b.wait_for_function("window.__table && window.__table.view !== null", timeout=30000)
        page_a.screenshot(path=str(screenshot_dir / "social-matched-phone.png"))
        assert page_a.errors == [] and page_b.errors == []
    finally:
        close(ctx_a, ctx_b)


def test_a_friend_request_and_an_invitation_accepted_from_another_page(asgi_live_server, transactional_db, browser,
                                                                       screenshot_dir):
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people

    host, guest = make_player("Вера"), make_player("Глеб")
    ctx_h, page_h = _page(browser, asgi_live_server, host)
    ctx_g, page_g = _page(browser, asgi_live_server, guest, mobile=True)
    try:
        page_g.goto("/ratings/")
        _site_open(page_g)
        page_h.goto(f"/people/{guest.pk}/")
        _site_open(page_h)
        page_h.get_by_role("button", name="Добавить в друзья").click()
        toast = page_g.locator(".site-toast", has_text="Вера хочет добавить вас в друзья")
        toast.wait_for(timeout=10000)
        page_g.screenshot(path=str(screenshot_dir / "social-friend-request-phone.png"))
        toast.get_by_role("link", name="Посмотреть").click()
        page_g.wait_for_url("**/people/")
        page_g.get_by_role("button", name="Принять заявку в друзья").click()
        page_g.wait_for_url("**/people/")
        assert people.are_friends(host.pk, guest.pk)
        table = lobby_services.create_table(host, seats_count=4)
        page_h.goto("/people/")
        page_g.goto("/ratings/")
        _site_open(page_g)
        page_h.get_by_role("button", name="Пригласить за мой стол").click()
        invite = page_g.locator(".site-toast-invite")
        invite.wait_for(timeout=10000)
        assert "Вера приглашает вас за стол «" in invite.inner_text()
        page_g.screenshot(path=str(screenshot_dir / "social-invitation-phone.png"))
        invite.get_by_role("button", name="Принять").click()
        page_g.wait_for_url(f"**/tables/{table.pk}/", timeout=10000)
        assert Seat.objects.filter(table=table, player=guest).exists()
        assert page_h.errors == [] and page_g.errors == []
    finally:
        close(ctx_h, ctx_g)


def test_a_blocked_player_does_not_find_the_blockers_table(asgi_live_server, transactional_db, browser, screenshot_dir):
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people

    host, pest = make_player("Хозяйка"), make_player("Назойливый")
    table = lobby_services.create_table(host, seats_count=4)
    people.block(host, pest.pk)
    ctx, page = _page(browser, asgi_live_server, pest, mobile=True)
    try:
        # a block hides the blocker's table from him: the lobby does not list it, its page answers
        # as a missing table's does, and nothing says why
        page.goto("/tables/")
        assert page.locator(f"form[action='/tables/{table.pk}/act/']").count() == 0
        missing = page.goto(f"/tables/{table.pk + 1000}/")
        assert missing is not None and missing.status == 404
        missing_text = page.locator("main").inner_text()
        answer = page.goto(f"/tables/{table.pk}/")
        assert answer is not None and answer.status == 404
        assert page.locator("main").inner_text() == missing_text  # the same page as for no table
        assert "блок" not in missing_text.lower()
        assert not Seat.objects.filter(table=table, player=pest).exists()
        page.screenshot(path=str(screenshot_dir / "social-blocked-phone.png"))
    finally:
        close(ctx)


def test_play_from_the_home_page_logged_out_is_a_nick_then_the_search(asgi_live_server, transactional_db, browser,
                                                                     screenshot_dir):
    from social.models import SearchRequest

    context = browser.new_context(base_url=asgi_live_server, locale="ru-RU", viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    try:
        press_play_as_a_newcomer(page, "Новенький")  # straight on: the key waits in a reminder
        assert "/accounts/key/" not in page.url
        assert page.get_by_role("complementary", name="Сохраните ключ восстановления").is_visible()
        assert SearchRequest.objects.filter(player__nick="Новенький", status="waiting").exists()
        page.screenshot(path=str(screenshot_dir / "social-first-search-phone.png"))
    finally:
        close(context)


def test_the_online_list_updates_when_a_tab_closes(asgi_live_server, transactional_db, browser):
    viewer, other = make_player("Зритель"), make_player("Ушедший")
    ctx_v, page_v = _page(browser, asgi_live_server, viewer)
    ctx_o, page_o = _page(browser, asgi_live_server, other, mobile=True)
    try:
        page_v.goto("/tables/")
        _site_open(page_v)
        page_o.goto("/ratings/")
        _site_open(page_o)
        row = page_v.locator("[data-online-list] .online-row", has_text="Ушедший")
        row.wait_for(timeout=10000)
        ctx_o.close()
        row.wait_for(state="detached", timeout=10000)
        assert page_v.locator("[data-online-list] .online-row", has_text="Зритель").count() == 1
    finally:
        close(ctx_v)


def test_a_four_player_search_fills_with_two_humans_and_two_bots_after_the_wait(asgi_live_server, transactional_db,
                                                                              browser, screenshot_dir):
    from lobby.models import Seat
    from social import queue

    a, b = make_player("Дина"), make_player("Егор")
    for p in (a, b):  # their last choice: four players, bots after 15 s
        queue.join(p, match_now=False, players="4", bot_fill="15", rated="0")
        queue.cancel(p)
    ctx_a, page_a = _page(browser, asgi_live_server, a, mobile=True)
    ctx_b, page_b = _page(browser, asgi_live_server, b)
    try:
        for page in (page_a, page_b):
            page.goto("/tables/")
            _site_open(page)
            page.get_by_role("button", name="Быстрая игра").click()
            page.wait_for_selector("[data-searching]")
        assert page_a.locator("[data-search-others]").inner_text() in ("0", "1")
        page_a.wait_for_url("**/tables/*/", timeout=40000)
        page_b.wait_for_url("**/tables/*/", timeout=10000)
        assert page_a.url == page_b.url
        table_id = int(page_a.url.rstrip("/").rsplit("/", 1)[1])
        seats = Seat.objects.filter(table_id=table_id)
        assert seats.filter(player__isnull=False).count() == 2 and seats.exclude(bot_level="").count() == 2
        page_a.wait_for_function("window.__table && window.__table.view !== null", timeout=30000)
        page_a.screenshot(path=str(screenshot_dir / "social-bot-fill-phone.png"))
    finally:
        close(ctx_a, ctx_b)
