"""The whole flow in a browser: a game ends, «Разобрать партию» in the game-over dialog, the
progress bar, then the chart and the marked moves; a marked move opens that position on the replay.
Phone (Russian) and desktop (English) screenshots."""

from __future__ import annotations

import random
import re

import pytest

from analysis.models import Analysis
from game import services as game_services
from game.models import Game
from tests.conftest import login_browser_context
from tests.results.results_helpers import play_until, player, start, state

pytestmark = [pytest.mark.browser]


def test_a_finished_game_is_analysed_from_the_result_dialog(transactional_db, asgi_live_server, browser,
                                                            screenshot_dir):
    anna, boris = player("Anna"), player("Boris")
    game_id = start([anna, boris], policy="lose")
    table_id = Game.objects.get(pk=game_id).table_id
    context = login_browser_context(browser, asgi_live_server, anna, mobile=True)
    page = context.new_page()
    try:
        page.goto(f"/tables/{table_id}/")
        page.wait_for_function("document.readyState === 'complete'")
        play_until(game_id, random.Random(3), lambda: state(game_id).round >= 4)
        game_services.leave_game(game_id, boris)  # the game ends: Boris left
        page.wait_for_selector("#g-result:not([hidden])", timeout=15_000)
        button = page.get_by_role("button", name="Разобрать партию")
        button.wait_for(timeout=5_000)
        page.screenshot(path=str(screenshot_dir / "analysis-result-dialog-phone.png"), full_page=True)
        button.click()
        page.wait_for_url(re.compile(rf"/analysis/games/{game_id}/$"), timeout=10_000)
        progress = page.locator(".an-progress progress")
        progress.wait_for(timeout=10_000)
        assert "Оценено решений" in page.inner_text(".an-progress") or "Ждём" in page.inner_text(".an-progress")
        page.screenshot(path=str(screenshot_dir / "analysis-progress-phone.png"), full_page=True)
        page.wait_for_selector(".an-chart svg", timeout=180_000)  # htmx reloads the page when it is done
        analysis = Analysis.objects.get(game_id=game_id)
        assert analysis.status == Analysis.Status.DONE and analysis.done == analysis.total > 0
        text = page.inner_text(".an")
        assert "Точность" in text and "Место 1: Anna" in text and "Место 2: Boris" in text
        assert page.locator(".an-chart svg .dot").count() >= 2
        page.screenshot(path=str(screenshot_dir / "analysis-result-phone.png"), full_page=True)
        # a point of the chart opens that position on the replay
        link = page.locator(".an-chart a").first
        href = link.get_attribute("href")
        step = int(href.rsplit("#step-", 1)[1])
        link.click()
        page.wait_for_url(re.compile(rf"/ratings/games/{game_id}/#step-{step}$"))
        page.wait_for_function(f"document.querySelector('.rp-pos').textContent.includes(' {step} ')")
        assert page.locator(".an-replay-panel a", has_text="Открыть разбор партии").count() == 1
        # her profile: the accuracy over her analysed games, and the automatic-analysis switch
        page.goto("/accounts/profile/")
        assert "Точность по последним разобранным партиям (1)" in page.inner_text(".an-profile")
        page.get_by_role("button", name="Разбирать мои рейтинговые партии автоматически").click()
        page.get_by_role("button", name="Остановить автоматический разбор").wait_for()
        page.screenshot(path=str(screenshot_dir / "analysis-profile-phone.png"), full_page=True)
    finally:
        context.close()
    desktop = login_browser_context(browser, asgi_live_server, boris, locale="en-US")
    page = desktop.new_page()
    try:
        page.goto(f"/analysis/games/{game_id}/")
        page.wait_for_selector(".an-chart svg")
        text = page.inner_text(".an")
        assert "Accuracy" in text and "Seat 2: Boris" in text
        page.screenshot(path=str(screenshot_dir / "analysis-result-desktop.png"), full_page=True)
    finally:
        desktop.close()
