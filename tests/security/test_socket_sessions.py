"""A socket is only as good as its session.

Logging out, a new key, a moderator ending the sessions and a ban close the player's open sockets at
once with a documented code (4401 session ended, 4403 banned) after an error frame saying why; a
move that races the news is refused by the re-check, and a banned player's seat goes to a bot.
"""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db.models import F

from accounts import services as accounts_services
from accounts import sessions
from accounts.models import Player
from durak_site import close_codes
from game import engine, services
from game.models import Game, GameSeat
from tests.game.helpers import drain, make_player, make_table
from tests.security.kit import closed_with, first_frame, signed_in, socket_for, sync

pytestmark = pytest.mark.django_db(transaction=True)


def _two_player_game():
    a, b = make_player(), make_player()
    table = make_table(humans=[a, b], disconnect_policy="lose")
    game = services.start_game(table.pk)
    return a, b, table, game


async def _seated_socket(settings):
    settings.BOT_SCHEDULER = "off"
    a, b, table, game = await sync(_two_player_game)()
    client = await sync(signed_in)(a)
    comm, ok = await socket_for(client, f"/ws/tables/{table.pk}/")
    assert ok
    frame = await first_frame(comm)
    assert frame["type"] == "state" and frame["seat"] == 1
    return a, b, table, game, client, comm


async def test_logging_out_closes_that_sessions_socket_with_4401(settings):
    a, _b, _table, _game, client, comm = await _seated_socket(settings)
    response = await sync(client.post)("/accounts/logout/")
    assert response.status_code == 302
    frames, code = await closed_with(comm)
    assert code == close_codes.SESSION_ENDED
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "session_ended"
    assert "session" in frames[-1]["message"].lower() or "сеанс" in frames[-1]["message"].lower()


async def test_logging_out_on_another_device_leaves_this_socket_open(settings):
    a, _b, table, game, _client, comm = await _seated_socket(settings)
    other_device = await sync(signed_in)(a)
    await sync(other_device.post)("/accounts/logout/")
    await asyncio.sleep(0.5)
    frames = await drain(comm)  # a close would fail here: drain reads JSON frames only
    assert not [f for f in frames if f["type"] == "error"]
    await comm.send_json_to({"type": "resync"})
    frame = await comm.receive_json_from(timeout=5)
    assert frame["type"] == "state" and frame["game_id"] == game.pk
    await comm.disconnect(timeout=10)


async def test_a_move_after_the_session_ended_is_refused_even_if_the_news_was_lost(settings):
    """The re-check path: the session is gone and the generation moved, but no event reached the socket."""
    a, _b, _table, game, client, comm = await _seated_socket(settings)
    session_key = client.session.session_key

    def end_quietly():
        SessionStore(session_key).delete()
        Player.objects.filter(pk=a.pk).update(session_generation=F("session_generation") + 1)

    await sync(end_quietly)()
    await comm.send_json_to({"type": "action", "id": "m1", "version": game.version,
                             "action": {"type": "attack", "card": game.state["hands"][0][0]}})
    frames, code = await closed_with(comm)
    assert code == close_codes.SESSION_ENDED
    assert [f["code"] for f in frames if f["type"] == "error"] == ["session_ended"]
    assert not any(f["type"] == "ack" for f in frames)
    assert await sync(services.game_version)(game.pk) == game.version


async def test_a_move_goes_through_when_only_another_devices_session_ended(settings):
    """The generation moved (the news of the other device's logout is not for this socket): the move
    finds that out with its lock, this socket's session is checked, stands, and the move is applied."""
    settings.BOT_SCHEDULER = "off"
    a, b, table, game = await sync(_two_player_game)()
    state = engine.GameState.from_json(game.state)
    seat = engine.whose_turn(state)[0]
    mover = (a, b)[seat - 1]
    client = await sync(signed_in)(mover)
    comm, ok = await socket_for(client, f"/ws/tables/{table.pk}/")
    assert ok and (await first_frame(comm))["seat"] == seat
    other_device = await sync(signed_in)(mover)
    await sync(other_device.post)("/accounts/logout/")
    await comm.send_json_to({"type": "action", "id": "m1", "version": game.version,
                             "action": engine.legal_actions(state, seat)[0]})
    frames = await drain(comm, quiet=1.0)
    assert [(f["id"], f["version"], f["duplicate"]) for f in frames if f["type"] == "ack"] == [
        ("m1", game.version + 1, False)]
    assert not [f for f in frames if f["type"] == "error"]
    assert await sync(services.game_version)(game.pk) == game.version + 1
    await comm.disconnect(timeout=10)


def test_a_move_under_a_session_generation_that_moved_is_refused_unapplied():
    a, b, _table, game = _two_player_game()
    state = engine.GameState.from_json(game.state)
    seat = engine.whose_turn(state)[0]
    mover, move = (a, b)[seat - 1], engine.legal_actions(state, seat)[0]
    known = sessions.generation(mover.pk)
    Player.objects.filter(pk=mover.pk).update(session_generation=F("session_generation") + 1)
    with pytest.raises(services.SessionMoved):
        services.apply_player_action(game.pk, mover, game.version, "m1", move, session_generation=known)
    assert services.game_version(game.pk) == game.version
    assert services.apply_player_action(game.pk, mover, game.version, "m1", move,
                                        session_generation=known + 1).version == game.version + 1


def test_a_heartbeat_under_a_session_generation_that_moved_writes_nothing():
    a, _b, _table, game = _two_player_game()
    services.set_connected(game.pk, a, True)
    GameSeat.objects.filter(game=game, player=a).update(last_heartbeat=None)
    known = sessions.generation(a.pk)
    Player.objects.filter(pk=a.pk).update(session_generation=F("session_generation") + 1)
    with pytest.raises(services.SessionMoved):
        services.heartbeat(game.pk, a, session_generation=known)
    assert GameSeat.objects.get(game=game, player=a).last_heartbeat is None
    assert services.heartbeat(game.pk, a, session_generation=known + 1) == game.version
    assert GameSeat.objects.get(game=game, player=a).last_heartbeat is not None


async def test_a_new_key_closes_the_sockets_of_the_old_key(settings):
    a, _b, _table, _game, _client, comm = await _seated_socket(settings)
    phone = await sync(signed_in)(a)
    response = await sync(phone.post)("/accounts/new-key/")
    assert response.status_code == 302
    _frames, code = await closed_with(comm)
    assert code == close_codes.SESSION_ENDED


async def test_a_moderators_end_sessions_closes_the_socket_and_the_session(settings):
    a, _b, _table, _game, client, comm = await _seated_socket(settings)
    moderator = await sync(make_player)()
    ended = await sync(accounts_services.end_sessions)(a, by=moderator)
    assert ended >= 1
    _frames, code = await closed_with(comm)
    assert code == close_codes.SESSION_ENDED
    profile = await sync(client.get)("/accounts/profile/")
    assert profile.status_code == 302  # the HTTP session is gone too


async def test_a_ban_mid_game_closes_the_socket_with_4403_and_a_bot_takes_his_seat(settings):
    a, _b, table, game, client, comm = await _seated_socket(settings)
    moderator = await sync(make_player)()
    await sync(accounts_services.ban)(a, "cheating with a friend", by=moderator)
    frames, code = await closed_with(comm)
    assert code == close_codes.BANNED
    assert frames[-1]["code"] == "banned" and "cheating with a friend" in frames[-1]["message"]

    def seat():
        return GameSeat.objects.get(game=game, player=a), Game.objects.get(pk=game.pk)

    gs, after = await sync(seat)()
    assert gs.left_at is not None and gs.takeover_level
    assert after.status == Game.Status.PLAYING  # the others play on against the bot

    again, ok = await socket_for(client, f"/ws/tables/{table.pk}/")
    assert ok
    frames, code = await closed_with(again)
    assert code == close_codes.BANNED


async def test_a_banned_players_move_racing_the_ban_is_refused(settings):
    a, _b, _table, game, _client, comm = await _seated_socket(settings)

    def ban_quietly():  # the ban committed, its news not (yet) delivered
        Player.objects.filter(pk=a.pk).update(banned_at="2026-01-01T00:00:00Z", ban_reason="x")
        Player.objects.filter(pk=a.pk).update(session_generation=F("session_generation") + 1)

    await sync(ban_quietly)()
    await comm.send_json_to({"type": "action", "id": "m1", "version": game.version,
                             "action": {"type": "attack", "card": game.state["hands"][0][0]}})
    frames, code = await closed_with(comm)
    assert code == close_codes.BANNED
    assert not any(f["type"] == "ack" for f in frames)
    assert await sync(services.game_version)(game.pk) == game.version
