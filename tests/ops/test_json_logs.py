"""LOG_FORMAT=json: one JSON object per line with the ids of the request, player, table and game."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Literal, TypedDict

import pytest

from durak_site import logs
from tests.game.helpers import make_player, session_cookie

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
    import durak_site.asgi  # noqa: F401 (its first import configures logging again, dropping added handlers)

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield stream
    logger.removeHandler(handler)


def test_a_request_line_names_its_request_player_and_game_and_no_secret(client, settings, json_lines):
    player = make_player("jsonlog")
    cookie = session_cookie(player)
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    response = client.get("/games/987654/", HTTP_X_REQUEST_ID="req-abcdef12")
    assert response.status_code == 404
    assert response["X-Request-ID"] == "req-abcdef12"
    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]
    assert lines, "django.request logged nothing for the 404"
    line = lines[-1]
    assert line["level"] == "WARNING" and line["logger"] == "django.request"
    assert line["request_id"] == "req-abcdef12"
    assert line["player_id"] == player.pk and line["game_id"] == 987654
    assert cookie not in json_lines.getvalue()


def test_a_forged_request_id_is_replaced(client, json_lines):
    response = client.get("/games/987655/", HTTP_X_REQUEST_ID='x"}\n{"level":"ERROR')
    assert response["X-Request-ID"] != 'x"}\n{"level":"ERROR'
    assert len(response["X-Request-ID"]) == 16


def test_a_line_outside_any_context_has_no_ids():
    record = logging.LogRecord("game.timers", logging.INFO, __file__, 1, "fired %s", ("turn",), None)
    logs.clear()
    line = json.loads(logs.JsonFormatter().format(record))
    assert line["message"] == "fired turn"
    assert set(line) == {"ts", "level", "logger", "message"}


class LogProbe(TypedDict):
    type: Literal["log_probe"]


@pytest.mark.django_db(transaction=True)
async def test_a_socket_line_names_its_socket_player_table_and_game(json_lines, monkeypatch):
    """A line logged while a table socket handles a message carries the socket's ids (read live)."""
    from channels.db import database_sync_to_async

    from game import services, socket_hooks
    from game.protocol import schema
    from tests.game.helpers import close_quietly, make_table, open_socket, receive_until

    async def shout(consumer, content) -> None:
        logging.getLogger("django.request").warning("socket hook ran")

    person = await database_sync_to_async(make_player)("jsonsock")
    table = await database_sync_to_async(make_table)(humans=[person], bots=["random"], turn_seconds=90)
    game = await database_sync_to_async(services.start_game)(table.pk)
    monkeypatch.setattr(schema, "_specs", dict(schema._specs))  # declared as an app declares its own
    schema.register_in(LogProbe)
    socket_hooks.register("log_probe", shout)
    try:
        comm, connected, _code = await open_socket(table.pk, person)
        assert connected
        await receive_until(comm, lambda f: f["type"] == "state")
        await comm.send_json_to({"type": "log_probe"})
        for _ in range(50):
            if "socket hook ran" in json_lines.getvalue():
                break
            await asyncio.sleep(0.05)
        await close_quietly(comm)
    finally:
        socket_hooks._messages.pop("log_probe", None)
    line = next(json.loads(x) for x in json_lines.getvalue().splitlines() if "socket hook ran" in x)
    assert len(line["socket_id"]) == 16
    assert (line["player_id"], line["table_id"], line["game_id"]) == (person.pk, table.pk, game.pk)
