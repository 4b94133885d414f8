"""The move log survives a reload and tells a returning player who made his seat's moves: the first
frame brings the game's recent moves from its events (game/move_log.py), each marked with its maker.
The real stack: daphne, the table socket, game services."""

from __future__ import annotations

import random
import threading

import pytest

from tests.game.test_table_ui_live import close, make_player, open_table

pytestmark = [pytest.mark.timeout(600)]


def play_some_with_seat_one_taken_over(people, moves: int = 14) -> tuple:
    """A two-person table (`bot` disconnect policy); a bot takes seat 1 over and plays it while seat
    2's player plays, for `moves` moves. In a thread of its own (the browser's loop runs here)."""
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
            rng = random.Random(3)
            made = 0
            for k in range(500):
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.PLAYING or made >= moves:
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
                    made += 1
                except ServiceError:
                    pass
            done["table"], done["game"] = table, Game.objects.get(pk=game.pk)
        finally:
            connections.close_all()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    return done["table"], done["game"]


def test_a_returning_player_reads_his_seats_moves_as_the_bots_and_a_reload_keeps_the_log(
        transactional_db, asgi_live_server, browser, screenshot_dir):
    from game.models import GameEvent

    people = [make_player("back_log"), make_player("stay_log")]
    table, game = play_some_with_seat_one_taken_over(people)
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
