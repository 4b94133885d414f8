"""A socket only ever passes on the private frames of the seat its player holds in the game it follows.

Seat numbers are per game and compacted: at the next deal a newcomer can hold the number a socket's
player held before, and the seat's frame group is named by table and number. Frames of the new
holder that reach the old socket (queued while it still listened on that group, or sent before it
learnt it had left) must never be forwarded."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import Game, GameSeat
from lobby.models import Seat, Table
from tests.game.helpers import (
    cards_in,
    close_quietly,
    drain,
    make_player,
    make_table,
    open_socket,
    receive_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_auto_bots(settings):
    settings.BOT_SCHEDULER = "off"


def _first_game_then_a_newcomer_on_seat_two():
    """Anna (1) and Boris (2) play; the game ends; Boris stands up and Vera sits on his number."""
    anna, boris, vera = make_player(), make_player(), make_player()
    table = make_table(humans=[anna, boris])
    game = services.start_game(table.pk)
    return anna, boris, vera, table, game


def _reseat_and_deal(table_id: int, first_game_id: int, newcomer) -> Game:
    services.abort_game(first_game_id)
    Table.objects.filter(pk=table_id).update(status=Table.Status.WAITING)
    Seat.objects.filter(table_id=table_id, number=2).update(player=newcomer, ready=False)
    return services.start_game(table_id)


def _hidden_from(game: Game, seat: int | None) -> set[str]:
    """The cards of every hand but `seat`'s at the deal (the trump card is shown to all)."""
    state = Game.objects.get(pk=game.pk).state
    hidden = {c for n, hand in enumerate(state["hands"], start=1) if n != seat for c in hand}
    return hidden - {state["trump_card"]}


async def test_the_previous_holder_of_a_seat_number_never_gets_the_next_holders_frames():
    anna, boris, vera, table, game = await database_sync_to_async(_first_game_then_a_newcomer_on_seat_two)()
    comm, ok, _ = await open_socket(table.pk, boris)
    assert ok
    first = await receive_until(comm, lambda f: f["type"] == "state")
    assert first["seat"] == 2
    second = await database_sync_to_async(_reseat_and_deal)(table.pk, game.pk, vera)
    got = await drain(comm, quiet=0.5)
    frames = [f for f in got if f.get("type") == "state" and f.get("game_id") == second.pk]
    assert frames, "the spectator frame of the new game comes"
    assert all(f["seat"] is None for f in frames), [f["seat"] for f in frames]
    leaked = cards_in(frames) & await database_sync_to_async(_hidden_from)(second, None)
    assert not leaked
    await close_quietly(comm)


def _leave(game_id: int, player) -> None:
    services.leave_game(game_id, player)


async def test_a_player_who_left_gets_the_spectators_frame_not_the_bots_hand():
    """After leaving, the seat is played by a bot: its hand is no longer the leaver's to see."""
    players = await database_sync_to_async(lambda: [make_player(), make_player(), make_player()])()
    table = await database_sync_to_async(make_table)(humans=players, disconnect_policy="bot")
    game = await database_sync_to_async(services.start_game)(table.pk)
    comm, ok, _ = await open_socket(table.pk, players[2])
    assert ok
    assert (await receive_until(comm, lambda f: f["type"] == "state"))["seat"] == 3
    await database_sync_to_async(_leave)(game.pk, players[2])
    # the other players move on; every later frame the leaver gets is the spectators'
    fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    mover = fresh.deadline_seats[0]
    await database_sync_to_async(services.apply_bot_action)(game.pk, mover, fresh.version)
    got = [f for f in await drain(comm, quiet=0.5) if f.get("type") == "state"]
    assert got and all(f["seat"] is None for f in got[1:]), [f["seat"] for f in got]
    bot_hand = set((await database_sync_to_async(Game.objects.get)(pk=game.pk)).state["hands"][2])
    assert not cards_in(got[-1]) & bot_hand
    left = await database_sync_to_async(
        lambda: GameSeat.objects.get(game_id=game.pk, number=3).left_at)()
    assert left is not None
    await close_quietly(comm)


def _private_room_of_two():
    from lobby import services as lobby_services

    host, guest = make_player(), make_player()
    table = lobby_services.create_table(host, private=True, seats_count=2)
    lobby_services.sit(table.pk, guest, 2)
    return host, guest, table


async def test_a_player_who_stood_up_from_a_private_table_is_closed_as_a_stranger():
    host, guest, table = await database_sync_to_async(_private_room_of_two)()
    comm, ok, _ = await open_socket(table.pk, guest)
    assert ok
    await receive_until(comm, lambda f: f["type"] == "lobby")
    from lobby import services as lobby_services

    await database_sync_to_async(lobby_services.stand)(table.pk, guest)
    output = await comm.receive_output(timeout=5)
    while output["type"] != "websocket.close":
        output = await comm.receive_output(timeout=5)
    assert output["code"] == 4404


def _room_with_hidden_chat():
    from chat import services as chat_services
    from lobby import services as lobby_services

    host, guest = make_player(), make_player()
    table = lobby_services.create_table(host, seats_count=2)
    lobby_services.sit(table.pk, guest, 2)
    rights = chat_services.access(table.pk, host)
    chat_services.update_settings(table.pk, host, rights, spectators="hidden")
    return host, guest, table


async def test_a_player_who_stood_up_loses_a_chat_hidden_from_spectators_at_once():
    host, guest, table = await database_sync_to_async(_room_with_hidden_chat)()
    comm, ok, _ = await open_socket(table.pk, guest)
    assert ok
    state = await receive_until(comm, lambda f: f["type"] == "chat_state")
    assert state["write"] is True
    from lobby import services as lobby_services

    await database_sync_to_async(lobby_services.stand)(table.pk, guest)
    state = await receive_until(comm, lambda f: f["type"] == "chat_state")
    assert state["read"] is False and state["write"] is False
    await comm.send_json_to({"type": "chat_send", "text": "still here?"})
    refused = await receive_until(comm, lambda f: f["type"] in ("chat_error", "chat"))
    assert refused["type"] == "chat_error"
    await close_quietly(comm)


async def test_an_account_cannot_hold_more_sockets_than_allowed_and_a_closed_one_frees_its_place(settings):
    settings.SOCKETS_PER_ACCOUNT = 3
    players, table = await database_sync_to_async(lambda: ([make_player(), make_player()], None))()
    table = await database_sync_to_async(make_table)(humans=players)
    await database_sync_to_async(services.start_game)(table.pk)
    comms = []
    for _ in range(3):
        comm, ok, _code = await open_socket(table.pk, players[0])
        assert ok
        await receive_until(comm, lambda f: f["type"] == "state")
        comms.append(comm)
    extra, ok, _code = await open_socket(table.pk, players[0])
    refused = await receive_until(extra, lambda f: f["type"] == "error")
    assert refused["code"] == "too_many_sockets" and refused["message"]
    output = await extra.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 4408}
    other, ok, _code = await open_socket(table.pk, players[1])  # someone else is not affected
    assert (await receive_until(other, lambda f: f["type"] == "state"))["seat"] == 2
    await close_quietly(comms.pop())
    again, ok, _code = await open_socket(table.pk, players[0])
    assert (await receive_until(again, lambda f: f["type"] == "state"))["seat"] == 1
    for comm in [*comms, other, again]:
        await close_quietly(comm)


def _deal_with_lineup(table_id: int, previous_game_id: int | None, lineup: list) -> Game:
    """End the running game (if any) and deal the next one with `lineup` in seats 1..n."""
    if previous_game_id is not None:
        services.abort_game(previous_game_id)
    Table.objects.filter(pk=table_id).update(status=Table.Status.WAITING)
    Seat.objects.filter(table_id=table_id).update(player=None)
    for number, player in enumerate(lineup, start=1):
        Seat.objects.filter(table_id=table_id, number=number).update(player=player, ready=False)
    return services.start_game(table_id)


def _what_each_may_see(game_id: int, people: list) -> dict[int, set[str]]:
    """player id -> the cards of the deal he may not see (every hand but his own seat's)."""
    game = Game.objects.get(pk=game_id)
    seats = dict(GameSeat.objects.filter(game=game).values_list("player_id", "number"))
    return {p.pk: _hidden_from(game, seats.get(p.pk)) for p in people}


async def test_no_frame_carries_a_card_its_viewer_could_not_know_across_games_with_players_moving_seats():
    people = await database_sync_to_async(lambda: [make_player() for _ in range(4)])()
    table = await database_sync_to_async(make_table)(humans=people[:3])
    sockets = []
    for person in people:  # the fourth watches first, then plays
        comm, ok, _ = await open_socket(table.pk, person)
        assert ok
        sockets.append(comm)
    lineups = [people[:3], [people[3], people[0], people[1]], [people[1], people[3], people[2]]]
    game_id = None
    hidden: dict[int, dict[int, set[str]]] = {}
    for lineup in lineups:
        game = await database_sync_to_async(_deal_with_lineup)(table.pk, game_id, lineup)
        game_id = game.pk
        hidden[game_id] = await database_sync_to_async(_what_each_may_see)(game_id, people)
        mover = game.deadline_seats[0]
        await database_sync_to_async(services.apply_bot_action)(game_id, mover, game.version)
        for person, comm in zip(people, sockets, strict=True):
            for frame in await drain(comm, quiet=0.4):
                if frame.get("type") == "state" and frame.get("game_id") in hidden:
                    leaked = cards_in(frame["view"]) & hidden[frame["game_id"]][person.pk]
                    assert not leaked, (person.pk, frame["game_id"], frame["seat"], leaked)
    for comm in sockets:
        await close_quietly(comm)
