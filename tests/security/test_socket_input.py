"""No input crashes the table socket, unknown paths close cleanly, and flood control tells a burst
of legal moves from abuse."""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator

from durak_site import close_codes
from game import consumers, services
from tests.game.helpers import make_player, make_table
from tests.security.kit import closed_with, first_frame, signed_in, socket_for, sync

pytestmark = pytest.mark.django_db(transaction=True)


def _waiting_table():
    player = make_player()
    table = make_table(humans=[player], bots=["random"])
    table.status = "waiting"
    table.save()
    return player, table


async def _open(settings, game: bool = False):
    settings.BOT_SCHEDULER = "off"

    def setup():
        if game:
            a, b = make_player(), make_player()
            table = make_table(humans=[a, b])
            return a, table, services.start_game(table.pk)
        player, table = _waiting_table()
        return player, table, None

    player, table, game_row = await sync(setup)()
    client = await sync(signed_in)(player)
    comm, ok = await socket_for(client, f"/ws/tables/{table.pk}/")
    assert ok
    await first_frame(comm)
    return comm, table, game_row


async def _answer(comm: WebsocketCommunicator) -> dict:
    """The next answer: not lobby news, a state frame (presence changes resend those) nor the chat's."""
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] not in ("lobby", "state") and not frame["type"].startswith("chat"):
            return frame


async def _still_alive(comm: WebsocketCommunicator) -> None:
    await comm.send_json_to({"type": "ping"})
    assert (await _answer(comm))["type"] == "pong"


async def test_a_thousand_nested_brackets_get_an_error_not_a_crash(settings):
    comm, _table, _game = await _open(settings)
    await comm.send_to(text_data="[" * 1020)
    assert (await _answer(comm))["code"] == "bad_json"
    await comm.send_to(text_data='{"a":' * 600 + "1" + "}" * 600)
    frame = await _answer(comm)
    assert frame["type"] == "error" and frame["code"] in ("bad_json", "too_large")
    await _still_alive(comm)
    await comm.disconnect(timeout=10)


@pytest.mark.parametrize("msg_id", ["a\x00b", "\ud800", "x" * 65, 7, ["id"]])
async def test_odd_message_ids_get_bad_id_and_change_nothing(settings, msg_id):
    comm, _table, game = await _open(settings, game=True)
    text = json.dumps({"type": "action", "id": msg_id, "version": game.version,
                       "action": {"type": "attack", "card": game.state["hands"][0][0]}})
    await comm.send_to(text_data=text)
    frame = await _answer(comm)
    assert frame["type"] == "error" and frame["code"] == "bad_id"
    assert await sync(services.game_version)(game.pk) == game.version
    await _still_alive(comm)
    await comm.disconnect(timeout=10)


async def test_binary_frames_get_an_error_or_a_result(settings):
    comm, _table, _game = await _open(settings)
    await comm.send_to(bytes_data=b"\xff\xfe\x00")
    assert (await _answer(comm))["code"] == "bad_json"
    await comm.send_to(bytes_data=b"x" * (consumers.MAX_FRAME_BYTES + 1))
    assert (await _answer(comm))["code"] == "too_large"
    await comm.send_to(bytes_data=json.dumps({"type": "ping"}).encode())
    assert (await _answer(comm))["type"] == "pong"
    await comm.disconnect(timeout=10)


@pytest.mark.parametrize("path", ["/ws/tables/abc/", "/ws/tables/-1/", "/ws/tables/1%00/", "/ws/nothing/",
                                  "/ws/tables/99999999999999999999999/"])
async def test_unknown_paths_close_with_4404(settings, path):
    from durak_site.asgi import application

    player = await sync(make_player)()
    client = await sync(signed_in)(player)
    comm, ok = await socket_for(client, path)
    assert ok
    _frames, code = await closed_with(comm)
    assert code == 4404
    # without a session too (a table-shaped path asks for a sign-in first: 4401)
    anon = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
    ok, _ = await anon.connect(timeout=5)
    assert ok
    expected = 4401 if path.startswith("/ws/tables/9") else 4404
    assert (await anon.receive_output(timeout=5)) == {"type": "websocket.close", "code": expected}


async def test_a_burst_of_moves_after_a_reconnect_is_answered_not_closed(settings):
    """A client replaying 40 queued messages at once is not flooding."""
    comm, _table, _game = await _open(settings)
    for n in range(40):
        await comm.send_json_to({"type": "action", "id": f"q{n}", "version": 0, "action": {"type": "pass"}})
    answers = [await _answer(comm) for _ in range(40)]
    assert {a["code"] for a in answers} == {"no_game"}  # each got its answer; none was "flooding"
    await _still_alive(comm)
    await comm.disconnect(timeout=10)


async def test_pings_do_not_eat_into_the_moves_allowance(settings):
    comm, _table, _game = await _open(settings)
    for _ in range(int(consumers.PING_BURST)):
        await comm.send_json_to({"type": "ping"})
    for n in range(int(consumers.MOVE_BURST)):
        await comm.send_json_to({"type": "action", "id": f"p{n}", "version": 0, "action": {"type": "pass"}})
    frames = [await _answer(comm) for _ in range(int(consumers.PING_BURST + consumers.MOVE_BURST))]
    assert not [f for f in frames if f.get("code") == "flooding"]
    await comm.disconnect(timeout=10)


async def test_a_stream_of_messages_is_closed_with_4429(settings):
    comm, _table, _game = await _open(settings)
    for n in range(int(consumers.MOVE_BURST) + 40):
        await comm.send_json_to({"type": "action", "id": f"f{n}", "version": 0, "action": {"type": "pass"}})
    frames, code = await closed_with(comm)
    assert code == close_codes.FLOODING
    assert frames[-1]["code"] == "flooding"


async def test_a_stream_of_pings_is_closed_with_4429(settings):
    comm, _table, _game = await _open(settings)
    for _ in range(int(consumers.PING_BURST) + 20):
        await comm.send_json_to({"type": "ping"})
    _frames, code = await closed_with(comm)
    assert code == close_codes.FLOODING
