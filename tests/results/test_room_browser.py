"""The waiting room on a phone says, before the start, whether the game will be rated and why not."""

from __future__ import annotations

from results_helpers import player

from lobby.models import Seat, Table
from tests.conftest import login_browser_context


def test_the_room_says_bots_make_the_game_unrated_on_a_phone(transactional_db, asgi_live_server, browser,
                                                             screenshot_dir):
    ann = player("Anna")
    t = Table.objects.create(name="t", seats_count=2, host=ann)
    Seat.objects.create(table=t, number=1, player=ann)
    Seat.objects.create(table=t, number=2, bot_level="heuristic")
    context = login_browser_context(browser, asgi_live_server, ann, mobile=True)
    page = context.new_page()
    try:
        page.goto(f"/tables/{t.pk}/")
        note = page.locator(".room-rated")
        note.wait_for()
        assert "без рейтинга: за столом боты" in note.inner_text()
        assert note.locator("a").get_attribute("href").endswith("/rules/#rating")
        assert page.evaluate("document.documentElement.scrollWidth") <= 391
        page.screenshot(path=str(screenshot_dir / "results-room-unrated-phone.png"), full_page=True)
    finally:
        context.close()
