"""A player who comes back to a game a bot finished for him (docs/RULES.md#disconnect) reads, in the
result dialog, what happened and which rule set his result, with a link to that rule
(docs/RULES.md#ratings: a bot's moves are the seat's; a win counts only for a player who made at
least half of his seat's moves). The real stack: daphne, the table socket, game services."""

from __future__ import annotations

import random
import threading

import pytest

from tests.game.test_table_ui_live import close, make_player, open_table

pytestmark = [pytest.mark.timeout(600)]


def play_with_seat_one_taken_over(people) -> tuple:
    """A two-person table under the `bot` disconnect policy; a bot takes seat 1 over at once and
    plays the whole game for its player while seat 2's player plays. Run in a thread of its own (the
    browser's loop runs in this one). (table, game)."""
    from django.db import connections

    from durak_site.errors import ServiceError
    from game import engine
    from game import services as game_services
    from game.engine.bots import choose_action
    from game.models import Game
    from lobby.models import Seat, Table

    done: dict = {}

    def run() -> None:
        try:
            table = Table.objects.create(name="ui", seats_count=2, turn_seconds=90, disconnect_policy="bot",
                                         status=Table.Status.PLAYING)
            for number, p in enumerate(people, start=1):
                Seat.objects.create(table=table, number=number, player=p)
            game = game_services.start_game(table.pk)
            game_services.takeover(game.pk, 1)
            rng = random.Random(7)
            for k in range(3000):
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.PLAYING:
                    break
                state = engine.GameState.from_json(game.state)
                turn = engine.whose_turn(state)
                try:
                    if 2 in turn:
                        action = choose_action("heuristic", engine.view_for(state, 2), rng) or \
                            engine.timeout_action(state, 2)
                        game_services.apply_player_action(game.pk, people[1], game.version, f"m{k}", action)
                    elif turn:
                        game_services.apply_bot_action(game.pk, turn[0], game.version)
                except ServiceError:
                    pass  # the server's own bot moved first: read the game again
            done["table"], done["game"] = table, Game.objects.get(pk=game.pk)
        finally:
            connections.close_all()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    return done["table"], done["game"]


@pytest.mark.parametrize("lang, mobile", [("ru", True), ("en", False)])
def test_a_player_back_at_a_game_a_bot_finished_is_told_what_happened_and_the_rule(
        transactional_db, asgi_live_server, browser, screenshot_dir, lang, mobile):
    for attempt in range(8):  # the deal decides who wins: the case to show is a win the bot made
        people = [make_player(f"back{attempt}{lang}"), make_player(f"stay{attempt}{lang}")]
        table, game = play_with_seat_one_taken_over(people)
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
