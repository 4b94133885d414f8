"""A player who comes back to a game a bot finished for him (docs/RULES.md#disconnect) reads, in the
result dialog, what happened and which rule set his result, with a link to that rule
(docs/RULES.md#ratings: a bot's moves are the seat's; a win counts only for a player who made at
least half of his seat's moves). The real stack: daphne, the table socket, game services."""

from __future__ import annotations

import pytest

from tests.game.helpers import play_with_seat_one_taken_over
from tests.game.test_table_ui_live import close, make_player, open_table

pytestmark = [pytest.mark.timeout(600)]


@pytest.mark.parametrize("lang, mobile", [("ru", True), ("en", False)])
def test_a_player_back_at_a_game_a_bot_finished_is_told_what_happened_and_the_rule(
        transactional_db, asgi_live_server, browser, screenshot_dir, lang, mobile):
    for attempt in range(8):  # the deal decides who wins: the case to show is a win the bot made
        people = [make_player(f"back{attempt}{lang}"), make_player(f"stay{attempt}{lang}")]
        table, game = play_with_seat_one_taken_over(people, seed=7)
        outcome = {o["seat"]: o for o in game.result["outcomes"]}[1]
        if outcome["outcome"] == "won":
            break
    assert outcome["outcome"] == "won", game.result
    assert outcome["rating_change"] == 0 and outcome.get("win_withheld") is True, outcome
    context, page = open_table(browser, asgi_live_server, people[0], table,
                               locale="ru-RU" if lang == "ru" else "en-US", mobile=mobile)
    try:
        page.wait_for_selector("#g-result-bot:not([hidden])", timeout=15000)
        told = page.inner_text("#g-result-bot")
        if lang == "ru":
            assert "Пока вас не было, партию за вас доиграл бот" in told, told
            assert "победа не принесла рейтинга" in told and "половины ходов своего места" in told, told
            assert page.inner_text("#g-result-sub") == ""  # not «отлично сыграно»: the bot played
        else:
            assert "While you were away, a bot finished the game for you" in told, told
            assert "the win earns you no rating" in told, told
        link = page.locator("#g-result-bot a")
        assert link.get_attribute("href").endswith("/rules/#rating-own-moves")
        page.screenshot(path=str(screenshot_dir / f"table_result_bot_finished_{lang}_{'phone' if mobile else 'desktop'}.png"))
        link.click()
        page.wait_for_url("**/rules/#rating-own-moves")
        rule = page.locator("#rating-own-moves")
        assert rule.is_visible()
        assert ("половину ходов" if lang == "ru" else "half of your seat's moves") in rule.inner_text()
        assert not page.errors, page.errors
    finally:
        close(context)
