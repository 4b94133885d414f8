"""A scrape of /metrics during a live game: a real daphne process, a real socket, a real move."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import _live_server_setup, daphne_server
from tests.game.helpers import make_player, make_table, session_cookie

TOKEN = "live-scrape-token-0123456789abcdef"


def _setup_with_token(set_database_connection, django_db_blocker) -> None:
    _live_server_setup(set_database_connection, django_db_blocker)
    from django.conf import settings

    settings.METRICS_TOKEN = TOKEN


@pytest.fixture(scope="module")
def live(django_db_setup, django_db_blocker):
    with daphne_server(django_db_blocker, _setup_with_token) as host:
        yield host


def scrape(host: str) -> dict[tuple[str, tuple], float]:
    request = urllib.request.Request(f"http://{host}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(got: dict, name: str, **labels) -> float:
    return got.get((name, tuple(sorted(labels.items()))), 0.0)


async def _play_one_move(host: str, table_id: int, cookie: str) -> tuple[dict, dict]:
    """Waits for the person's turn, sends a stale move (refused) and then a legal one (applied)."""
    import websockets
    from django.conf import settings

    async with websockets.connect(f"ws://{host}/ws/tables/{table_id}/", origin=f"http://{host}",
                                  additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
                                  max_size=2**22, open_timeout=10) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
            if frame.get("type") == "state" and frame["view"]["legal"]:
                break
        await ws.send(json.dumps({"type": "action", "id": "stale-1", "version": frame["version"] - 1,
                                  "action": frame["view"]["legal"][0]}))
        await ws.send(json.dumps({"type": "action", "id": "move-1", "version": frame["version"],
                                  "action": frame["view"]["legal"][0]}))
        answers = {}
        while len(answers) < 2:
            reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
            if reply.get("id") in ("stale-1", "move-1"):
                answers[reply["id"]] = reply
        return answers["stale-1"], answers["move-1"]


def test_a_live_move_moves_the_counter_and_the_latency_histogram(transactional_db, live, settings):
    from game import services

    settings.BOT_SCHEDULER = "off"  # this process only: the live server moves the bot

    person = make_player("metricsA")
    table = make_table(humans=[person], bots=["random"], turn_seconds=90)
    services.start_game(table.pk)
    before = scrape(live)
    refused, applied = asyncio.run(_play_one_move(live, table.pk, session_cookie(person)))
    assert refused["type"] == "error" and refused["code"] == "stale_version"
    assert applied["type"] == "ack" and applied["duplicate"] is False
    after = scrape(live)
    assert value(after, "durak_moves_applied_total", duplicate="false") \
        == value(before, "durak_moves_applied_total", duplicate="false") + 1
    assert value(after, "durak_moves_refused_total", code="stale_version") \
        == value(before, "durak_moves_refused_total", code="stale_version") + 1
    assert value(after, "durak_move_latency_seconds_count") == value(before, "durak_move_latency_seconds_count") + 1
    assert value(after, "durak_move_latency_seconds_sum") > value(before, "durak_move_latency_seconds_sum")
    assert value(after, "durak_frames_published_total") >= value(before, "durak_frames_published_total") + 3
    assert value(after, "durak_games", state="playing") >= 1
    assert value(after, "durak_timers_last_sweep_age_seconds") < 5  # the live server's ticker sweeps
    # the bot answers on the server; the closed socket's disconnect() runs there (the gauge is compared
    # with its value before: the forked server starts from whatever the test process had counted)
    bot_moved = value(before, "durak_bot_decision_seconds_count", level="random") + 1
    sockets_before = value(before, "durak_table_sockets_open")
    eventually(live, lambda got: value(got, "durak_bot_decision_seconds_count", level="random") >= bot_moved
               and value(got, "durak_table_sockets_open") == sockets_before,
               lambda got: f"bot decisions {value(got, 'durak_bot_decision_seconds_count', level='random')} "
                           f"(want {bot_moved}), sockets open {value(got, 'durak_table_sockets_open')} "
                           f"(want {sockets_before})")


def eventually(host: str, ready, describe=repr, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while not ready(got := scrape(host)):
        assert time.monotonic() < deadline, describe(got)
        time.sleep(0.2)
    return got
