"""Scale-out and crashes as an operator meets them: real daphne processes on one Postgres and Redis.

A table split across two web processes, a process killed (kill -9) with a move committed but its
frames not yet sent, a SIGTERM with a move in flight, and a crash in a game's first seconds. The
window between a commit and its frames is opened on purpose with REALTIME_HOLD_AFTER_COMMIT.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from contextlib import suppress
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts.backends import PLAYER_BACKEND
from durak_site import deadlines
from game import engine, services
from game.models import Game, GameSeat
from tests.game.helpers import make_player, make_table

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = str(Path(sys.executable).with_name("daphne"))
LOGS = ROOT / "test-artifacts" / "processes"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs Postgres and Redis: several processes share them"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Web:
    """One daphne process serving the test database."""

    def __init__(self, name: str, hold: float = 0.0) -> None:
        self.name, self.port = name, _free_port()
        db = settings.DATABASES["default"]
        env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
               "REDIS_URL": settings.REDIS_URL, "DJANGO_SETTINGS_MODULE": "durak_site.settings",
               "REALTIME_HOLD_AFTER_COMMIT": str(hold)}
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log_path = LOGS / f"{name}-{self.port}.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen([DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "durak_site.asgi:application"],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return
            assert self.proc.poll() is None, self.log_path.read_text()
            time.sleep(0.1)
        raise RuntimeError(f"daphne {name} did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.log.close()


@pytest.fixture
def webs():
    started: list[Web] = []

    def start(name: str, hold: float = 0.0) -> Web:
        web = Web(name, hold)
        started.append(web)
        return web

    yield start
    for web in started:
        web.stop()


def _cookie(player) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["_auth_user_id"] = str(player.pk)
    store["_auth_user_backend"] = PLAYER_BACKEND
    store["_auth_user_hash"] = player.get_session_auth_hash()
    store.create()
    return store.session_key


class Sock:
    """A player's (or spectator's) socket, read by a thread: every frame kept, pings on request."""

    def __init__(self, web: Web, table_id: int, player, ping_every: float | None = None) -> None:
        # entered as a context manager: websockets 17 deprecates a bare connect(); close() below ends it
        self.ws = connect(f"ws://127.0.0.1:{web.port}/ws/tables/{table_id}/",
                          additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={_cookie(player)}"},
                          origin=f"http://127.0.0.1:{web.port}", open_timeout=10).__enter__()
        self.frames: list[dict] = []
        self.acks: list[dict] = []
        self.close_code: int | None = None
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        if ping_every:
            threading.Thread(target=self._ping, args=(ping_every,), daemon=True).start()

    def _read(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.recv())
                with self.lock:
                    if msg.get("type") == "state":
                        self.frames.append(msg)
                    elif msg.get("type") == "ack":
                        self.acks.append(msg)
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd else 1006
        if self.close_code is None:
            self.close_code = self.ws.close_code or 1006

    def _ping(self, every: float) -> None:
        with suppress(ConnectionClosed):
            while self.close_code is None:
                self.ws.send('{"type": "ping"}')
                time.sleep(every)

    def versions(self) -> set[int]:
        with self.lock:
            return {f["version"] for f in self.frames}

    def last(self) -> dict:
        with self.lock:
            return max(self.frames, key=lambda f: f["version"])

    def wait(self, predicate, timeout: float = 10.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = predicate()
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"timed out after {timeout} s")

    def send_move(self, action: dict, version: int, msg_id: str | None = None) -> str:
        msg_id = msg_id or uuid.uuid4().hex
        self.ws.send(json.dumps({"id": msg_id, "version": version, "action": action}))
        return msg_id

    def close(self) -> None:
        with suppress(Exception):
            self.ws.close()


def _two_player_game():
    a, b, watcher = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    game = services.start_game(table.pk)
    return table, game, a, b, watcher


def _mover(game_id: int):
    """(seat, version, a legal move) awaited now, read from the database as the truth."""
    game = Game.objects.get(pk=game_id)
    state = engine.GameState.from_json(game.state)
    seat = engine.whose_turn(state)[0]
    legal = engine.legal_actions(state, seat)
    attack = [x for x in legal if x["type"] in ("attack", "defend")]
    return seat, game.version, (attack or legal)[0]


def test_a_table_split_across_two_processes_shows_every_version_to_every_socket(webs):
    one, two = webs("one"), webs("two")
    table, game, a, b, watcher = _two_player_game()
    socks = {1: Sock(one, table.pk, a), 2: Sock(two, table.pk, b), "watch": Sock(one, table.pk, watcher)}
    for s in socks.values():
        s.wait(lambda s=s: s.frames)
    moves = 0
    while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING and moves < 40:
        seat, version, action = _mover(game.pk)
        socks[seat].send_move(action, version)
        for s in socks.values():
            s.wait(lambda s=s, v=version: v + 1 in s.versions())
        moves += 1
    final = Game.objects.get(pk=game.pk).version
    assert moves >= 10
    for name, s in socks.items():
        assert set(range(0, final + 1)) <= s.versions() | {0}, name
    for s in socks.values():
        s.close()


def test_a_move_committed_as_its_process_is_killed_reaches_the_other_seat(webs):
    """kill -9 after the commit, before the frames left: the mover resends on another process and
    everyone gets the version at once; the other seat is never left waiting for it."""
    doomed, survivor = webs("doomed", hold=3.0), webs("survivor")
    table, game, a, b, _ = _two_player_game()
    seat, version, action = _mover(game.pk)
    mover, other = (a, b) if seat == 1 else (b, a)
    m, o = Sock(doomed, table.pk, mover), Sock(survivor, table.pk, other)
    m.wait(lambda: m.frames)
    o.wait(lambda: o.frames)
    msg_id = m.send_move(action, version)
    o.wait(lambda: Game.objects.get(pk=game.pk).version == version + 1, timeout=5)  # committed
    doomed.proc.send_signal(signal.SIGKILL)
    doomed.proc.wait(5)
    time.sleep(0.3)
    assert version + 1 not in o.versions()  # its frames died with the process
    again = Sock(survivor, table.pk, mover)
    again.wait(lambda: again.frames)
    again.send_move(action, version, msg_id)  # the client resends what it had not seen acked
    ack = again.wait(lambda: again.acks and again.acks[-1])
    assert ack["duplicate"] is True and ack["version"] == version + 1
    o.wait(lambda: version + 1 in o.versions(), timeout=3)
    assert Game.objects.get(pk=game.pk).version == version + 1  # applied once
    for s in (o, again):
        s.close()


def test_a_lost_frame_reaches_a_pinging_socket_even_if_the_mover_never_returns(webs):
    doomed, survivor = webs("doomed", hold=3.0), webs("survivor")
    table, game, a, b, _ = _two_player_game()
    seat, version, action = _mover(game.pk)
    mover, other = (a, b) if seat == 1 else (b, a)
    m, o = Sock(doomed, table.pk, mover), Sock(survivor, table.pk, other, ping_every=1.0)
    m.wait(lambda: m.frames)
    o.wait(lambda: o.frames)
    m.send_move(action, version)
    o.wait(lambda: Game.objects.get(pk=game.pk).version == version + 1, timeout=5)
    doomed.proc.send_signal(signal.SIGKILL)
    o.wait(lambda: version + 1 in o.versions(), timeout=12)  # his heartbeat found the game ahead
    o.close()


def test_sigterm_closes_sockets_with_4012_delivers_the_move_in_flight_and_exits(webs):
    stopping, staying = webs("stopping", hold=1.0), webs("staying")
    table, game, a, b, _ = _two_player_game()
    seat, version, action = _mover(game.pk)
    mover, other = (a, b) if seat == 1 else (b, a)
    m, o = Sock(stopping, table.pk, mover), Sock(staying, table.pk, other)
    m.wait(lambda: m.frames)
    o.wait(lambda: o.frames)
    m.send_move(action, version)
    time.sleep(0.2)  # the move is being applied (its frames are held for 1 s)
    t0 = time.monotonic()
    stopping.proc.send_signal(signal.SIGTERM)
    stopping.proc.wait(8)
    assert time.monotonic() - t0 < 7
    m.wait(lambda: m.close_code is not None, timeout=3)
    assert m.close_code == 4012  # "service restart": the client reconnects at once
    o.wait(lambda: version + 1 in o.versions(), timeout=3)
    assert "Traceback" not in stopping.log_path.read_text()
    o.close()


def test_a_crash_in_the_first_seconds_of_a_game_is_noticed_within_the_15_s_notice(webs):
    doomed, survivor = webs("doomed"), webs("survivor")
    table, game, a, b, _ = _two_player_game()
    m, o = Sock(doomed, table.pk, a), Sock(survivor, table.pk, b, ping_every=1.0)
    m.wait(lambda: m.frames)
    o.wait(lambda: o.frames)
    time.sleep(3)
    killed = time.monotonic()
    doomed.proc.send_signal(signal.SIGKILL)
    while time.monotonic() - killed < 15:
        deadlines.sweep()
        seat = GameSeat.objects.get(game=game, number=1)
        if not seat.connected:
            break
        time.sleep(0.5)
    assert not seat.connected, "the dead process's seat still counts as connected after 15 s"
    assert seat.disconnect_deadline is not None  # his absence clock runs, from his last sign of life
    assert GameSeat.objects.get(game=game, number=2).connected  # the live one is untouched
    o.close()
