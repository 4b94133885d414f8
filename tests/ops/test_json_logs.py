"""LOG_FORMAT=json: one JSON object per line with the ids of the request, player, table and game."""

from __future__ import annotations

import io
import json
import logging

import pytest

from durak_site import logs
from tests.game.helpers import make_player, session_cookie

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
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
