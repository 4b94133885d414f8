"""The search page shows one clock: with bots as the fallback it counts down to them (the choice line
no longer repeats «боты через 30 с» beside a clock counting up); without bots it counts the wait up."""

from __future__ import annotations

import re

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import make_player

pytestmark = [pytest.mark.timeout(300)]


@pytest.mark.parametrize("lang, bot_fill", [("ru", 30), ("en", 60), ("ru", 0)])
def test_the_search_shows_one_countdown_to_the_bots(asgi_live_server, transactional_db, browser, screenshot_dir,
                                                    lang, bot_fill):
    from social import queue

    player = make_player(f"seeker{bot_fill}{lang}")
    queue.join(player, variant="podkidnoy", players="3", bot_fill=str(bot_fill))
    context = login_browser_context(browser, asgi_live_server, player, locale="ru-RU" if lang == "ru" else "en-US",
                                    mobile=True)
    page = context.new_page()
    try:
        page.goto("/play/search/")
        wait = page.locator("[data-searching]")
        wait.wait_for()
        page.wait_for_timeout(1200)
        text = wait.inner_text()
        first = page.inner_text("[data-search-timer]")
        if bot_fill:
            word = "боты через" if lang == "ru" else "bots join in"
            assert text.count(word) == 1, text  # one countdown, and the choice line does not repeat it
            assert ("боты через 30 с" not in text) and ("bots after" not in text), text
            m = re.fullmatch(rf"{word} (\d+):(\d\d)", first)
            assert m, first
            left = int(m[1]) * 60 + int(m[2])
            assert bot_fill - 15 <= left < bot_fill, first  # counts down from the choice (the page took a moment)
            page.wait_for_timeout(2100)
            later = page.inner_text("[data-search-timer]")
            m2 = re.fullmatch(rf"{word} (\d+):(\d\d)", later)
            assert m2 and int(m2[1]) * 60 + int(m2[2]) <= left - 1, (first, later)
        else:
            assert re.fullmatch(r"0:0\d", first), first
            assert "без ботов" in text  # the choice line says there is no fallback
        page.screenshot(path=str(screenshot_dir / f"social_search_countdown_{lang}_{bot_fill}.png"))
    finally:
        context.close()
