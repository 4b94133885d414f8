"""A bot that reads the table (the expert) decides from the seat's view plus the table's reads,
which the rules no longer record: the server replays them from the game's log for that bot only."""

from __future__ import annotations

import pytest

from game import engine, event_log
from game import services as game_services
from game.models import Game
from tests.game.helpers import make_player, make_table, play_out_with_bots

pytestmark = pytest.mark.django_db


def test_the_expert_is_given_the_tables_reads_replayed_from_the_log_and_the_heuristic_none():
    table = make_table(humans=(), bots=("expert", "heuristic"))
    game = game_services.start_game(table.pk)
    for _ in range(12):  # a few moves, so that there is something to read
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        for seat in game.deadline_seats:
            if game_services.apply_bot_action(game.pk, seat, game.version) is not None:
                break
    game = Game.objects.get(pk=game.pk)
    state = engine.GameState.from_json(game.state)
    events = [(e.seat, e.action) for e in game.events.order_by("seq")]
    _, reading = engine.read_table(engine.GameState.from_json(game.initial_state), events)

    expert = event_log.seat_view(game.pk, state, 1, "expert")
    assert expert["reads"] == [[*x] for x in reading.reads] and expert["drawn"] == [*reading.drawn]
    assert expert["drawn"] != [] and len(events) >= 6
    heuristic = event_log.seat_view(game.pk, state, 2, "heuristic")
    assert "reads" not in heuristic and heuristic == engine.view_for(state, 2)


def test_the_queued_expert_move_decides_from_a_view_with_reads():
    table = make_table(humans=(), bots=("expert", "heuristic"))
    game = game_services.start_game(table.pk)
    asked = None
    for _ in range(40):
        game = Game.objects.get(pk=game.pk)
        if 1 in game.deadline_seats and game.version > 3:
            asked = game_services.bot_view(game.pk, 1, game.version)
            break
        for seat in game.deadline_seats:
            if game_services.apply_bot_action(game.pk, seat, game.version) is not None:
                break
    assert asked is not None
    level, view, _ = asked
    assert level == "expert" and "reads" in view and view["drawn"] != []


def test_a_game_of_expert_bots_plays_to_its_end_through_the_server():
    table = make_table(humans=(), bots=("expert", "expert"))
    game = game_services.start_game(table.pk)
    assert play_out_with_bots(game.pk).status == Game.Status.FINISHED


def test_a_view_for_a_person_never_carries_reads():
    a = make_player()
    table = make_table(humans=(a,), bots=("expert",))
    game = game_services.start_game(table.pk)
    view = engine.view_for(engine.GameState.from_json(Game.objects.get(pk=game.pk).state), 1)
    assert "reads" not in view and "drawn" not in view
