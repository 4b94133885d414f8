"""Moves the clock or a bot made for a seat are the seat's: nobody gets a free option by letting
them play. A player who sat a game out is rated by the board like anyone (his opponent's win
counts); one who let a bot play most of his game cannot collect a win for it."""

from __future__ import annotations

import pytest
from ratings_factories import finished_game_row, make_player, make_table

from game.models import GameEvent
from ratings import services
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def _moves(game, seat: int, source: str, count: int) -> None:
    start = GameEvent.objects.filter(game=game).count() + 1
    GameEvent.objects.bulk_create([GameEvent(game=game, seq=start + i, seat=seat, action={"type": "pass"},
                                             source=source) for i in range(count)])


def _value(player) -> int:
    return Rating.objects.get(player=player).value


def test_a_loser_who_let_the_clock_play_his_seat_cannot_deny_the_winner_a_rated_win():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 2, "losers": [2], "winners": [1]},
                             final_round=12)
    GameEvent.objects.filter(game=game, seat=2).update(source="timeout")  # b never moved himself
    _moves(game, 2, "timeout", 20)
    _moves(game, 1, "player", 20)
    record = services.record_game_result(game)
    assert record.rated and record.unrated_reason == ""
    assert (_value(a), _value(b)) == (1015, 985)


def test_a_player_who_let_a_bot_play_most_of_a_won_game_collects_nothing_for_it():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 2, "losers": [2], "winners": [1]},
                             final_round=12)
    _moves(game, 1, "bot", 30)  # a bot played seat 1 while a was away; he came back to win
    _moves(game, 1, "player", 3)
    _moves(game, 2, "player", 30)
    record = services.record_game_result(game)
    assert record.rated
    assert (_value(a), _value(b)) == (1000, 985)


def test_a_player_who_played_most_of_his_game_himself_collects_his_win():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 2, "losers": [2], "winners": [1]},
                             final_round=12)
    _moves(game, 1, "bot", 5)
    _moves(game, 1, "player", 25)
    record = services.record_game_result(game)
    assert record.rated and (_value(a), _value(b)) == (1015, 985)


def test_the_last_person_leaving_cannot_cancel_the_first_leavers_loss():
    """Under the bot policy the game is aborted once every person has left; leaving still cost each."""
    a, b, c = make_player(), make_player(), make_player()
    game = finished_game_row(make_table(seats_count=3), [a, b, c], {"left": [1, 2]}, final_round=6)
    game.status = game.Status.ABORTED
    game.result = {**game.result, "reason": "abandoned"}
    game.save()
    record = services.record_game_result(game)
    assert not record.rated and record.unrated_reason == "aborted"
    assert (_value(a), _value(b)) == (985, 985)
    assert not Rating.objects.filter(player=c, games__gt=0).exists()
