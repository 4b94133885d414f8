"""The sockets' schema (game/protocol) at work: every frame of a live game and of the site socket, as
the browser receives it, fits its definition; every malformed message, made from the definitions
themselves (each field of each message given a value of the wrong kind, or left out), gets the
field's catalogue error and changes nothing; an unknown type gets `unknown_type`."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any, Literal, get_args, get_origin, is_typeddict

import pytest

from game.protocol import IN, TABLE, Malformed, check_out, schema
from tests.game.helpers import (
    close_quietly,
    make_player,
    make_table,
    open_socket,
    receive_until,
    session_cookie,
)
from tests.security.kit import signed_in, socket_for, sync

SITE = "site"
_ids = itertools.count(1)


def _fits(socket: str, frames: list[dict]) -> list[str]:
    """The frames that do not fit their definitions, with why."""
    wrong = []
    for frame in frames:
        try:
            check_out(socket, frame)
        except Malformed as exc:
            wrong.append(f"{frame.get('type')}: {exc}")
    return wrong


# ---------------------------------------------------------------- a live game, over a real socket


async def _play_out(host: str, table_id: int, cookie: str) -> list[dict]:
    """Play the person's seat to the game's end as the browser does (moves without a type; pings,
    a resync, the chat, visibility on the way): every frame the socket sent, in order."""
    import websockets
    from django.conf import settings

    frames: list[dict] = []
    async with websockets.connect(f"ws://{host}/ws/tables/{table_id}/", origin=f"http://{host}",
                                  additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
                                  max_size=2**22, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "visibility", "visible": True}))
        await ws.send(json.dumps({"type": "chat_send", "text": "удачи"}))
        await ws.send(json.dumps({"type": "chat_react", "key": "emoji_like"}))
        moved: set[int] = set()
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        finished = False
        while loop.time() < end:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            frames.append(frame)
            if frame["type"] == "state" and frame["status"] != "playing":
                finished = True
                await ws.send(json.dumps({"type": "resync"}))
                await ws.send(json.dumps({"type": "ping"}))
                await ws.send(json.dumps({"type": "chat_sync"}))
                for _ in range(3):  # the resync's frame, the pong, the chat's state
                    frames.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=30)))
                break
            if frame["type"] == "state" and frame["view"]["legal"] and frame["version"] not in moved:
                moved.add(frame["version"])
                if len(moved) % 5 == 1:
                    await ws.send(json.dumps({"type": "ping"}))
                await ws.send(json.dumps({"id": f"m{next(_ids)}", "version": frame["version"],
                                          "action": frame["view"]["legal"][-1]}))
        assert finished, "the game did not end in time"
    return frames


def test_every_frame_of_a_live_game_fits_its_definition(transactional_db, asgi_live_server, settings):
    from game import services

    settings.BOT_SCHEDULER = "off"  # this process only: the live server moves the bot
    person = make_player()
    table = make_table(humans=[person], bots=["random"], turn_seconds=90, rules={"deck_size": 24})
    services.start_game(table.pk)
    host = asgi_live_server.removeprefix("http://")
    frames = asyncio.run(_play_out(host, table.pk, session_cookie(person)))
    kinds = {f["type"] for f in frames}
    assert {"state", "ack", "pong", "chat_state", "chat", "chat_reaction"} <= kinds
    assert _fits(TABLE, frames) == []
    last = [f for f in frames if f["type"] == "state"][-1]
    assert last["result"]["outcomes"] and last["view"]["result"] is not None


def test_a_frame_out_of_shape_does_not_fit():
    """The check above can fail: a frame with a field of the wrong kind, a missing or an extra one."""
    good = {"type": "ack", "id": "m1", "version": 3, "duplicate": False}
    assert _fits(TABLE, [good]) == []
    assert len(_fits(TABLE, [{**good, "version": "3"}, {**good, "extra": 1}, {"type": "ack", "id": "m1"},
                             {"type": "no_such_frame"}])) == 4


# ---------------------------------------------------------------- the site socket


def _invite(host, guest_id: int) -> None:
    from lobby import services as lobby_services
    from social import people

    lobby_services.create_table(host, seats_count=4)  # the host sits in seat 1
    people.invite(host, guest_id)


async def test_every_frame_of_the_site_socket_fits_its_definition(transactional_db):
    guest = await sync(make_player)()
    host = await sync(make_player)()
    comm, ok = await socket_for(await sync(signed_in)(guest), "/ws/site/")
    assert ok
    frames = [await comm.receive_json_from(timeout=5)]  # hello
    for message, answer in [({"type": "ping"}, "pong"), ({"type": "page", "path": "/tables/"}, "online"),
                            ({"type": "search", "choices": {"players": 2, "bot_fill": 0}}, "search"),
                            ({"type": "cancel"}, "search")]:
        await comm.send_json_to(message)
        frames.append(await receive_until(comm, lambda f, a=answer: f["type"] == a))
    await sync(_invite)(host, guest.pk)
    invitation = await receive_until(comm, lambda f: f["type"] == "invitation")
    await comm.send_json_to({"type": "invitation", "id": invitation["id"], "accept": False})
    frames += [invitation, await receive_until(comm, lambda f: f["type"] == "invitation_answered")]
    await comm.send_json_to({"type": "page", "path": 5})
    frames.append(await receive_until(comm, lambda f: f["type"] == "error"))
    assert [f["type"] for f in frames] == ["hello", "pong", "online", "search", "search", "invitation",
                                           "invitation_answered", "error"]
    assert _fits(SITE, frames) == []
    await comm.disconnect()


# ---------------------------------------------------------------- malformed messages, from the definitions


def _wrong(hint: Any) -> object:
    """A JSON value that is not of the kind `hint` names."""
    hint, _meta = schema._strip(hint)
    if hint is str or get_origin(hint) is Literal:
        return 5
    if hint is bool:
        return "yes"
    if hint is int:
        return True  # a bool is no integer here
    if hint is dict or get_origin(hint) is dict or is_typeddict(hint):
        return "x"
    if get_origin(hint) is list:
        return {"x": 1}
    args = [a for a in get_args(hint) if a is not type(None)]
    return _wrong(args[0]) if args else 5


def _good(hint: Any) -> object:
    hint, _meta = schema._strip(hint)
    if get_origin(hint) is Literal:
        return get_args(hint)[0]
    if is_typeddict(hint):
        return {n: _good(h) for n, h, required, _m in schema.fields_of(hint) if required}
    if get_origin(hint) is dict or hint is dict:
        return {}
    args = [a for a in get_args(hint) if a is not type(None)]
    if args:
        return _good(args[0])
    return {str: "x", int: 1, bool: True}.get(hint, "x")


def malformed(socket: str) -> list[tuple[str, dict, str, str]]:
    """(case, message, the refusal frame's type, its code) for every field of every incoming message:
    each required field left out, each field given a value of the wrong kind."""
    cases = []
    for spec in schema.specs(socket, IN):
        base = {"type": spec.name, **{f.name: _good(f.hint) for f in spec.fields if f.name != "type"}}
        for f in spec.fields:
            if f.name == "type":
                continue
            cases.append((f"{spec.name}.{f.name}=wrong", {**base, f.name: _wrong(f.hint)}, spec.error_frame,
                          f.refusal))
            if f.required:
                cases.append((f"{spec.name}.{f.name} missing", {k: v for k, v in base.items() if k != f.name},
                              spec.error_frame, f.refusal))
    cases.append(("unknown type", {"type": "no_such_message", "id": "u1"}, "error", "unknown_type"))
    cases.append(("no type", {"hello": 1}, "error", "bad_message" if socket == SITE else "unknown_type"))
    return cases


def _table_facts(game_id: int, table_id: int) -> tuple:
    from chat.models import Message
    from game.models import Game
    from lobby.models import Table

    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Table.objects.get(pk=table_id).version, Message.objects.count()


async def test_every_malformed_message_on_the_table_socket_gets_its_fields_error_and_changes_nothing(
        transactional_db, settings):
    from game import services

    settings.BOT_SCHEDULER = "off"
    player = await sync(make_player)()
    table = await sync(make_table)(humans=[player], bots=["random"], turn_seconds=90)
    game = await sync(services.start_game)(table.pk)
    comm, connected, _ = await open_socket(table.pk, player)
    assert connected
    await receive_until(comm, lambda f: f["type"] == "chat_state")
    before = await sync(_table_facts)(game.pk, table.pk)
    cases = malformed(TABLE)
    assert len(cases) >= 15
    for case, message, frame_type, code in cases:
        await comm.send_json_to(message)
        refusal = await receive_until(comm, lambda f, t=frame_type: f["type"] == t)
        assert (refusal["code"], bool(refusal["message"])) == (code, True), case
        assert _fits(TABLE, [refusal]) == [], case
    assert await sync(_table_facts)(game.pk, table.pk) == before
    await comm.send_json_to({"type": "ping"})
    await receive_until(comm, lambda f: f["type"] == "pong")  # still open
    await close_quietly(comm)


def _social_facts(player_id: int) -> tuple:
    from social.models import Invitation, SearchRequest

    return (SearchRequest.objects.count(), list(Invitation.objects.values_list("pk", "status")))


async def test_every_malformed_message_on_the_site_socket_gets_its_fields_error_and_changes_nothing(
        transactional_db):
    guest = await sync(make_player)()
    host = await sync(make_player)()
    await sync(_invite)(host, guest.pk)
    comm, ok = await socket_for(await sync(signed_in)(guest), "/ws/site/")
    assert ok
    await receive_until(comm, lambda f: f["type"] == "hello")
    before = await sync(_social_facts)(guest.pk)
    cases = malformed(SITE)
    assert len(cases) >= 8
    for case, message, frame_type, code in cases:
        await comm.send_json_to(message)
        refusal = await receive_until(comm, lambda f, t=frame_type: f["type"] == t)
        assert refusal["code"] == code, case
        assert _fits(SITE, [refusal]) == [], case
    assert await sync(_social_facts)(guest.pk) == before
    await comm.send_json_to({"type": "ping"})
    await receive_until(comm, lambda f: f["type"] == "pong")
    await comm.disconnect()


@pytest.mark.parametrize("socket", [TABLE, SITE])
def test_the_malformed_cases_cover_every_incoming_field(socket):
    """Each field of each message a socket takes is tried (the loops above could silently try none)."""
    tried = {case.split("=")[0].split(" ")[0] for case, *_rest in malformed(socket)}
    fields = {f"{s.name}.{f.name}" for s in schema.specs(socket, IN) for f in s.fields if f.name != "type"}
    assert fields and fields <= tried
