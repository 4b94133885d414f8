"""The move log survives a reload and tells a returning player who made his seat's moves: the first
frame brings the game's recent moves from its events (game/move_log.py), each marked with its maker.
The real stack: daphne, the table socket, game services."""

from __future__ import annotations

import pytest

from tests.game.helpers import play_with_seat_one_taken_over
from tests.game.test_table_ui_live import close, make_player, open_table

pytestmark = [pytest.mark.timeout(600)]


def test_a_returning_player_reads_his_seats_moves_as_the_bots_and_a_reload_keeps_the_log(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    from game.models import GameEvent

    people = [make_player("back_log"), make_player("stay_log")]
    table, game = play_with_seat_one_taken_over(people, seed=3, moves=14)
    assert GameEvent.objects.filter(game=game, seat=1, source="bot").exists()
    context, page = open_table(browser, asgi_live_server, people[0], table, mobile=True)
    try:
        page.wait_for_function("window.__table.log.length >= 8", timeout=15000)
        log = page.evaluate("window.__table.log")
        bots = [e for e in log if e.startswith("Бот за вас")]
        assert bots, log
        assert not any(e.startswith("Вы ") for e in log[:-2]), log  # none of the bot's moves read as his
        assert any(e.startswith("stay_log") for e in log), log
        if log[-1].startswith("Бот за вас"):  # the hint line tells the last move as the log does
            assert page.inner_text("#g-hint") == log[-1] or not page.inner_text("#g-hint").startswith("Вы "), \
                page.inner_text("#g-hint")
        page.click("#g-log-toggle")
        page.screenshot(path=str(screenshot_dir / "table_log_history_return_phone.png"))
        page.reload()
        page.wait_for_function("window.__table && window.__table.view !== null", timeout=20000)
        page.wait_for_function("window.__table.log.length >= 8", timeout=15000)
        again = page.evaluate("window.__table.log")
        assert again[:len(bots)] and [e for e in again if e.startswith("Бот за вас")] == bots, (again, bots)
        assert not page.errors, page.errors
    finally:
        close(context)
