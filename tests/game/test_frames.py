"""game.frames: every viewer's frame leaves the worker already encoded, each carrying only his view."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from durak_site import realtime
from game import engine, frames, services
from game.models import Game
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_group_gets_its_own_encoded_frame_and_the_spectators_see_no_hand():
    a, b = make_player(), make_player()
    game = Game.objects.get(pk=services.start_game(make_table(humans=[a, b]).pk).pk)
    state = engine.GameState.from_json(game.state)

    messages = frames.messages(game, state, frames.game_seats(game))

    groups = [group for group, _event in messages]
    assert groups == [realtime.seat_group(game.table_id, 1), realtime.seat_group(game.table_id, 2),
                      realtime.watch_group(game.table_id)]
    for (_group, event), seat in zip(messages, (1, 2, None), strict=True):
        assert (event["type"], event["game_id"], event["version"]) == ("game.frame", game.pk, game.version)
        frame = json.loads(event["text"])  # the wire text, encoded once for every socket of the group
        assert (frame["seat"], frame["version"]) == (seat, game.version)
        whole = engine.view_for(state, seat)
        assert frame["view"] == whole
        assert not {"reads", "drawn"} & set(frame["view"])  # the table's reads are the bots' alone
    hands, public = game.state["hands"], set(_strings(engine.view_for(state, None)))
    for seat in (1, 2):
        sent = json.loads(messages[seat - 1][1]["text"])
        assert sorted(sent["view"]["hand"]) == sorted(hands[seat - 1])
        assert not (set(hands[2 - seat]) - public) & set(_strings(sent))  # none of his opponent's cards
    assert json.loads(messages[2][1]["text"])["view"]["hand"] == []


def _strings(value) -> list[str]:
    """Every string anywhere in a decoded frame."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="on Postgres a move reads the seats with its lock")
def test_the_seats_a_move_reads_with_its_lock_are_those_a_fresh_read_gives():
    a, b, c = make_player(), make_player(), make_player()
    game = services.start_game(make_table(humans=[a, b, c]).pk)
    for player in (a, b, c):
        services.set_connected(game.pk, player, True)
    services.set_connected(game.pk, c, False)  # an absent seat: his clock is in every frame
    services.leave_game(game.pk, b)  # a seat that left: a bot plays it

    locked = services.locking.lock_for_move(game.pk, a.pk)

    assert locked.seat_number == 1
    assert locked.seats == frames.game_seats(Game.objects.get(pk=game.pk))
    assert [s.left_at is not None for s in locked.seats] == [False, True, False]
    assert [s.disconnected_at is not None for s in locked.seats] == [False, False, True]


def test_a_player_who_comes_back_is_told_how_long_a_bot_played_for_him():
    a, b = make_player(), make_player()
    game = services.start_game(make_table(humans=[a, b], disconnect_policy="bot").pk)
    assert frames.view_frame(Game.objects.get(pk=game.pk), 1)["bot_played"] is None
    services.takeover(game.pk, 1)
    ongoing = frames.view_frame(Game.objects.get(pk=game.pk), 1)["bot_played"]
    assert ongoing["since"] and ongoing["until"] is None
    services.hand_back(game.pk, a)
    told = frames.view_frame(Game.objects.get(pk=game.pk), 1)["bot_played"]
    assert told["since"] == ongoing["since"] and told["until"] >= told["since"] and told["moves"] == 0
    assert frames.view_frame(Game.objects.get(pk=game.pk), 2)["bot_played"] is None  # not his seat
    assert "bot_played" not in frames.view_frame(Game.objects.get(pk=game.pk), None)  # spectators: nothing


def test_the_table_page_says_who_asked_for_a_rematch(rf):
    from game.views import rematch_ready
    from lobby.models import Seat, Table

    a, b = make_player("Вера"), make_player()
    table = make_table(humans=[a, b])
    assert rematch_ready(table) == []
    Table.objects.filter(pk=table.pk).update(status="rematch")
    Seat.objects.filter(table=table, player=a).update(ready=True)
    Seat.objects.filter(table=table, player=b).update(ready=False)
    assert rematch_ready(Table.objects.get(pk=table.pk)) == ["Вера"]
