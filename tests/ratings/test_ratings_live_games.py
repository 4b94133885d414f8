"""End to end through game.services: games played move by move by people (and a takeover bot) pay
their ratings once, in the finishing transaction, and replay to their final state."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from ratings_factories import make_player, make_table

from game import engine
from game import services as game_services
from game.engine.bots import choose_action
from game.models import Game, GameSeat
from lobby.models import Seat
from ratings import services
from ratings.models import GameRecord, Rating, RatingChange

pytestmark = pytest.mark.django_db


def _table(people, **kw):
    table = make_table(seats_count=len(people), **kw)
    for n, p in enumerate(people, start=1):
        Seat.objects.create(table=table, number=n, player=p)
    return table


def _play_out(game_id: int, people, seed: int, leave: dict | None = None) -> Game:
    """Every awaited human moves like the heuristic bot; takeover seats move via apply_bot_action."""
    rng = random.Random(seed)
    leave = dict(leave or {})
    for k in range(2000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return game
        for seat_no, at in list(leave.items()):
            if game.version >= at:
                game_services.leave_game(game_id, people[seat_no - 1])
                del leave[seat_no]
                break
        else:
            state = engine.GameState.from_json(game.state)
            seat = engine.whose_turn(state)[0]
            gs = GameSeat.objects.get(game=game, number=seat)
            if gs.bot_controlled:
                game_services.apply_bot_action(game_id, seat, game.version)
            else:
                action = choose_action("heuristic", engine.view_for(state, seat), rng) or \
                    engine.timeout_action(state, seat)
                game_services.apply_player_action(game_id, gs.player, game.version, f"m{k}", action)
    raise AssertionError("the game did not finish")


def test_a_two_person_game_played_through_the_game_server_pays_once_and_replays(client):
    a, b = make_player("ann"), make_player("bob")
    table = _table([a, b])
    game = _play_out(game_services.start_game(table.pk).pk, [a, b], seed=3)
    assert game.status == Game.Status.FINISHED
    record = GameRecord.objects.get(game=game)
    assert record.rated
    changes = RatingChange.objects.filter(game=game)
    assert changes.count() == 2
    if not game.result["draw"]:
        assert sorted(Rating.objects.filter(player__in=[a, b]).values_list("value", flat=True)) == [985, 1015]
    again = services.record_game_result(game)  # a second finish pays nothing
    assert again.pk == record.pk and RatingChange.objects.filter(game=game).count() == 2
    resp = client.get(reverse("ratings:replay", args=[game.pk]))
    assert resp.context["reproduces"] is True


def test_a_leaver_whose_seat_a_bot_finished_loses_and_the_game_stays_rated(client):
    people = [make_player(n) for n in ("ann", "bob", "cat")]
    table = _table(people, disconnect_policy="bot")
    game = game_services.start_game(table.pk)
    game = _play_out(game.pk, people, seed=5, leave={2: 12})
    assert game.status == Game.Status.FINISHED and game.result["left"] == [2]
    record = GameRecord.objects.get(game=game)
    assert record.rated, record.unrated_reason
    assert RatingChange.objects.get(game=game, player=people[1]).delta == -15
    resp = client.get(reverse("ratings:replay", args=[game.pk]))
    assert resp.context["reproduces"] is True
