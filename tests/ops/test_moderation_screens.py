"""The moderators' admin as docs/moderation.md shows it: each screen opened in Chromium and looked at.

The screenshots it saves (test-artifacts/screenshots/moderation-*.png) are the guide's pictures.
"""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _club():
    """A moderator, a banned player, a reported chat message, and a pair with many games together."""
    from accounts import services as accounts
    from chat import services as chat
    from chat.models import Report
    from ratings import services as ratings
    from tests.game.helpers import make_player, make_table
    from tests.ratings.ratings_factories import finished_game_row
    from tests.ratings.ratings_factories import make_table as ratings_table

    moderator = make_player("Модератор")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    vera, oleg, rude = make_player("Вера"), make_player("Олег"), make_player("Грубиян")
    accounts.ban(make_player("Спамер"), "Реклама в чате", by=moderator)
    table = make_table(humans=[vera, rude])
    rights = chat.access(table.pk, rude, game_seat=2)
    message = chat.post_message(table.pk, rude, "ты играешь как бот, уходи", rights, seat=2)
    Report.objects.create(message=message, reporter=vera, reason="Оскорбление")
    for _n in range(5):
        game = finished_game_row(ratings_table(seats_count=2), [vera, oleg],
                                 {"loser": 2, "losers": [2], "winners": [1]})
        ratings.record_game_result(game)
    return moderator, message


def test_the_moderators_screens(live_server, browser, screenshot_dir):
    moderator, message = _club()
    context = login_browser_context(browser, live_server.url, moderator)
    page = context.new_page()

    page.goto("/admin/accounts/player/")
    assert page.get_by_text("Спамер").is_visible()
    page.select_option("select[name=action]", "ban_players")
    page.screenshot(path=str(screenshot_dir / "moderation-players.png"))

    page.locator("tr", has_text="Грубиян").locator("input[type=checkbox]").check()
    page.select_option("select[name=action]", "ban_players")
    page.locator("button[name=index], .actions button").first.click()
    page.wait_for_selector("textarea, input[name=reason]")
    page.screenshot(path=str(screenshot_dir / "moderation-ban-form.png"))

    page.goto("/admin/chat/report/")
    assert page.get_by_text("Оскорбление").is_visible()
    page.screenshot(path=str(screenshot_dir / "moderation-reports.png"), full_page=True)

    page.goto("/admin/chat/message/")
    page.locator("tr", has_text="уходи").locator("input[type=checkbox]").check()
    page.select_option("select[name=action]", "mute_authors")
    page.locator("button[name=index], .actions button").first.click()
    page.wait_for_selector("select, input[name=period], input[type=radio]")
    page.screenshot(path=str(screenshot_dir / "moderation-mute-form.png"))

    page.goto("/admin/ratings/gamerecord/suspicious-pairs/")
    assert page.get_by_text("Олег").first.is_visible()
    page.screenshot(path=str(screenshot_dir / "moderation-suspicious-pairs.png"), full_page=True)
    context.close()
