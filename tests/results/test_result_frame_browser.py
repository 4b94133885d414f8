"""The browser's table socket receives the rating change and the new rating when the game ends, and
the result dialog and the header show them without a reload (from frame.result.outcomes)."""

from __future__ import annotations

import json
import random
import time

from results_helpers import play_until, player, start, state
from test_farming import _established

from game import services as game_services
from game.models import Game
from tests.conftest import login_browser_context


def test_the_stayer_sees_plus_15_and_his_new_rating_arrive_on_his_socket(transactional_db, asgi_live_server,
                                                                         browser, screenshot_dir):
    anna, boris = player("Anna"), player("Boris", "198.51.100.2")
    _established(anna, boris)
    game_id = start([anna, boris], policy="lose")
    received: list[dict] = []
    context = login_browser_context(browser, asgi_live_server, anna, mobile=True)
    page = context.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: received.append(json.loads(data))))
    try:
        page.goto(f"/tables/{_table_id(game_id)}/")
        page.wait_for_function("document.readyState === 'complete'")
        deadline = time.monotonic() + 10
        while not any(f.get("game_id") == game_id for f in received) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        play_until(game_id, random.Random(2), lambda: state(game_id).round >= 2)
        game_services.leave_game(game_id, boris)
        deadline = time.monotonic() + 10
        while not _final(received) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        final = _final(received)
        seen = [(f.get("type"), f.get("version"), f.get("status")) for f in received]
        assert final is not None, f"no frame with the result reached the page; frames seen: {seen}"
        rows = {row["seat"]: row for row in final["result"]["outcomes"]}
        assert rows[1] == {"seat": 1, "outcome": "won", "rating_change": 15, "rating_after": 1015}
        assert rows[2]["outcome"] == "left" and rows[2]["rating_change"] == -15
        assert final["result"]["rated"] is True
        # the dialog says it in words with the change and the new rating; the header follows without a reload
        page.wait_for_selector("#g-result:not([hidden])", timeout=10_000)
        page.wait_for_function("document.querySelector('#site-rating [data-rating-value]').textContent.trim() "
                               "=== '1015'", timeout=10_000)
        dialog = page.inner_text("#g-result")
        assert "+15 → 1015" in dialog, dialog
        assert "выход" in dialog.lower() or "left" in dialog.lower(), dialog  # Boris left
        page.screenshot(path=str(screenshot_dir / "results-dialog-phone.png"), full_page=True)
    finally:
        context.close()


def _table_id(game_id: int) -> int:
    return Game.objects.get(pk=game_id).table_id


def _final(frames: list[dict]) -> dict | None:
    return next((f for f in reversed(frames) if isinstance(f.get("result"), dict) and "outcomes" in f["result"]),
                None)
