"""A page holds one socket: a game tab (here a spectator's) only its table socket, which brings the site's news too (an
invitation shows and is accepted there), and every other page only the site socket."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, start_table, wait_for_view

pytestmark = [pytest.mark.timeout(300)]


def _page(browser, base, player, **kw):
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    page.errors = []
    page.sockets = []  # the path of every WebSocket the page opened
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("websocket", lambda ws: page.sockets.append(ws.url.split("//", 1)[1].split("/", 1)[1]))
    return context, page


def test_a_game_tab_holds_one_socket_and_an_invitation_reaches_it(asgi_live_server, transactional_db, browser,
                                                                  screenshot_dir):
    from lobby import services as lobby_services
    from lobby.models import Seat

    guest, host, player = make_player("Гостья"), make_player("Хозяин"), make_player("Игрок")
    game_table, _game = start_table([player], bots=["random"])  # she watches his game
    ctx_g, page_g = _page(browser, asgi_live_server, guest, mobile=True)
    ctx_h, page_h = _page(browser, asgi_live_server, host)
    try:
        page_g.goto(f"/tables/{game_table.pk}/")
        wait_for_view(page_g)
        page_g.wait_for_function("window.__site && window.__site.open", timeout=15000)
        table = lobby_services.create_table(host, seats_count=4)
        page_h.goto(f"/people/{guest.pk}/")
        page_h.wait_for_function("window.__site && window.__site.open", timeout=15000)
        assert page_h.sockets == ["ws/site/"]  # any other page: the site socket only
        page_h.locator(f"[data-invite='{guest.pk}']").click()
        invite = page_g.locator(".site-toast-invite")
        invite.wait_for(timeout=10000)
        assert "Хозяин" in invite.inner_text()
        page_g.screenshot(path=str(screenshot_dir / "social-invitation-at-the-game-phone.png"))
        assert page_g.sockets == [f"ws/tables/{game_table.pk}/"]  # the game tab: one socket, the table's
        page_g.sockets.clear()
        invite.get_by_role("button", name="Принять").click()  # answered on the table socket
        page_g.wait_for_url(f"**/tables/{table.pk}/", timeout=10000)
        assert Seat.objects.filter(table=table, player=guest).exists()
        page_g.wait_for_function("window.__site && window.__site.open", timeout=15000)
        page_g.wait_for_timeout(1000)  # a second socket, if any, would have opened by now
        assert page_g.sockets == [f"ws/tables/{table.pk}/"]  # the waiting room: its table socket only
        assert page_g.errors == [] and page_h.errors == []
    finally:
        close(ctx_g, ctx_h)
