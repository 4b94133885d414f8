"""Property-based fuzzing of the table socket against the live stack.

A real daphne process (its whole output kept in a file), Postgres, the channel layer; the
`websockets` client sends random JSON, deep nesting, odd unicode (lone surrogates as JSON escapes),
binary and oversized frames. Every frame must be answered (an error frame or a result) and the socket
must stay open: no 1011, no traceback in the server's output, the game unchanged, and a socket at
another table unaffected.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from functools import partial

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tests.conftest import _live_server_setup, daphne_server
from tests.game.helpers import session_cookie

pytestmark = [pytest.mark.timeout(600)]

MAX_FRAME = 2048
BUDGET_SECONDS = 55.0


def _setup_logging_to(path: str, set_database_connection, django_db_blocker) -> None:
    """In the daphne child: the usual live-server setup, then everything it prints goes to `path`."""
    _live_server_setup(set_database_connection, django_db_blocker)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    handler = logging.StreamHandler(open(path, "a", buffering=1))  # noqa: SIM115 (lives with the process)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)


@pytest.fixture(scope="module")
def logged_live_server(django_db_setup, django_db_blocker, tmp_path_factory):
    log_path = str(tmp_path_factory.mktemp("daphne") / "server.log")
    with daphne_server(django_db_blocker, partial(_setup_logging_to, log_path)) as host:
        yield host, log_path


def _game(nick: str):
    """A person and a bot, 90 s a turn (the fuzzing stops well before). If the bot leads, it has led
    before the test looks (the person's defence is awaited), so nothing but the fuzz can move it."""
    from game import services
    from tests.game.helpers import make_player, make_table

    person = make_player(nick)
    table = make_table(humans=[person], bots=["random"], turn_seconds=90)
    return person, table, services.start_game(table.pk)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
odd_text = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(["\x00", "\ud800", "\udfff", "\u202e"]),
                   max_size=40)
messages = st.fixed_dictionaries({
    "type": st.sampled_from(["action", "ping", "resync", "hello", "", "ACTION"]) | odd_text,
}, optional={
    "id": odd_text | json_values,
    "version": st.integers(min_value=-2**70, max_value=2**70).filter(lambda v: v not in range(0, 200)) | json_values,
    "action": st.fixed_dictionaries({"type": st.sampled_from(["attack", "defend", "take", "pass", "transfer"])},
                                    optional={"card": odd_text, "target": odd_text, "show": json_values})
    | json_values,
})
frames = st.one_of(
    messages.map(lambda m: ("text", json.dumps(m))),  # lone surrogates leave as \\ud800 escapes
    json_values.map(lambda v: ("text", json.dumps(v))),
    st.integers(min_value=1, max_value=3000).map(lambda n: ("text", "[" * n)),
    st.integers(min_value=1, max_value=800).map(lambda n: ("text", '{"a":' * n + "1" + "}" * n)),
    odd_text.map(lambda t: ("text", t or "x")),
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
    st.integers(min_value=MAX_FRAME - 2, max_value=MAX_FRAME * 4).map(lambda n: ("text", "x" * n)),
    st.integers(min_value=MAX_FRAME - 2, max_value=MAX_FRAME * 4).map(lambda n: ("bytes", b"\x01" * n)),
)


async def _open(host: str, table_id: int, cookie: str):
    import websockets
    from django.conf import settings

    return await websockets.connect(f"ws://{host}/ws/tables/{table_id}/", origin=f"http://{host}",
                                    additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
                                    max_size=2**22, open_timeout=10)


async def _answers_until(ws, marker: str) -> list[dict]:
    """Frames until the error answering the `marker` message; a close raises (with its code)."""
    got = []
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        if frame["type"] in ("lobby", "state"):
            continue
        got.append(frame)
        if frame.get("id") == marker:
            return got


def _marker(n: int) -> tuple[str, str]:
    """A message answered with a known error (bad_version) carrying its own id: the batch's end."""
    marker = f"end-{n}"
    return marker, json.dumps({"type": "action", "id": marker, "version": "x", "action": {"type": "take"}})


def test_random_frames_never_crash_the_socket(transactional_db, logged_live_server):
    from game.models import Game

    host, log_path = logged_live_server
    a, table, game = _game("fuzzA")
    c, other_table, other_game = _game("fuzzC")
    cookie_a, cookie_c = session_cookie(a), session_cookie(c)
    loop = asyncio.new_event_loop()
    state = {}

    async def open_both():
        state["ws"] = await _open(host, table.pk, cookie_a)
        state["other"] = await _open(host, other_table.pk, cookie_c)

    loop.run_until_complete(open_both())
    loop.run_until_complete(asyncio.sleep(2.0))  # the connects' news and a leading bot have settled
    versions = [Game.objects.get(pk=game.pk).version, Game.objects.get(pk=other_game.pk).version]
    started = loop.time()

    async def send_batch(batch):
        ws = state["ws"]
        state["n"] = state.get("n", 0) + 1
        marker, end = _marker(state["n"])
        if loop.time() - state.get("beat", 0) > 4:  # keep both seats present (the heartbeat timeout)
            state["beat"] = loop.time()
            for sock in (ws, state["other"]):
                await sock.send(json.dumps({"type": "ping"}))
        for _kind, data in batch:
            await ws.send(data)
        await ws.send(end)
        try:
            answers = await _answers_until(ws, marker)
        except Exception as exc:
            raise AssertionError(f"socket closed or silent (code {ws.close_code}) after {batch!r}") from exc
        assert all(f["type"] in ("error", "pong", "ack", "game_started") or f["type"].startswith("chat")
               for f in answers), answers
        assert not [f for f in answers if f["type"] == "ack"], "a fuzzed move was applied"
        assert not [f for f in answers if f.get("code") in ("internal_error", "flooding")], answers

    @hsettings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "80")), deadline=None,
               suppress_health_check=list(HealthCheck))
    @given(st.lists(frames, min_size=1, max_size=4))
    def run(batch):
        if loop.time() - started > BUDGET_SECONDS:
            return  # the turn clock (90 s) must not move the game under the fuzzer
        # stay under the moves' refill rate (consumers.MOVE_RATE): a fuzzer is not a flood
        loop.run_until_complete(asyncio.sleep(0.1 * (len(batch) + 1)))
        loop.run_until_complete(send_batch(batch))

    try:
        run()
        # the other table's socket noticed nothing and still answers
        async def other_alive():
            marker, end = _marker(0)
            await state["other"].send(end)
            return await _answers_until(state["other"], marker)

        assert loop.run_until_complete(other_alive())[-1]["code"] == "bad_version"
        # (before the sockets close: a seated player's disconnect is news, a new version)
        assert Game.objects.get(pk=game.pk).version == versions[0]
        assert Game.objects.get(pk=other_game.pk).version == versions[1]
    finally:
        loop.run_until_complete(state["ws"].close())
        loop.run_until_complete(state["other"].close())
        loop.close()
    with open(log_path) as log:
        server_log = log.read()
    assert "Traceback" not in server_log and " 1011" not in server_log, server_log[-4000:]
    assert "ERROR" not in server_log, server_log[-4000:]
