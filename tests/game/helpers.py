"""Helpers for the live-play tests: players, tables with humans and bots, authenticated sockets."""

from __future__ import annotations

import asyncio
import itertools

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as dj_settings
from django.test import Client

_nick = itertools.count(1)


def make_player(nick: str | None = None):
    from accounts.models import Player

    return Player.objects.create_user(nick or f"gs{next(_nick)}x{Player.objects.count()}")


def make_table(humans=(), bots=(), rules=None, turn_seconds=30, disconnect_policy="lose"):
    """A table whose seats 1..N hold the given humans first, then bots (levels)."""
    from lobby.models import Seat, Table

    seats = [("h", p) for p in humans] + [("b", level) for level in bots]
    table = Table.objects.create(name="t", rules=rules or {}, seats_count=len(seats), turn_seconds=turn_seconds,
                                 disconnect_policy=disconnect_policy, status=Table.Status.PLAYING)
    for number, (kind, who) in enumerate(seats, start=1):
        if kind == "h":
            Seat.objects.create(table=table, number=number, player=who)
        else:
            Seat.objects.create(table=table, number=number, bot_level=who)
    return table


def session_cookie(player) -> str:
    client = Client()
    client.force_login(player)
    return client.cookies[dj_settings.SESSION_COOKIE_NAME].value


async def open_socket(table_id: int, player=None, *, origin: bytes = b"http://testserver",
                      lang: str | None = None) -> tuple[WebsocketCommunicator, bool, int | None]:
    from durak_site.asgi import application

    headers = [(b"origin", origin)]
    if player is not None:
        cookie = await database_sync_to_async(session_cookie)(player)
        headers.append((b"cookie", f"{dj_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    if lang:
        headers.append((b"accept-language", lang.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


async def receive_until(comm: WebsocketCommunicator, pred, timeout: float = 5.0) -> dict:
    """Frames until one satisfies pred (returned); fails after timeout."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        left = end - loop.time()
        if left <= 0:
            raise AssertionError("no matching frame in time")
        frame = await comm.receive_json_from(timeout=left)
        if pred(frame):
            return frame


async def drain(comm: WebsocketCommunicator, quiet: float = 0.1) -> list[dict]:
    """Every frame that arrives until the socket is quiet for `quiet` seconds (the app keeps running)."""
    frames = []
    while not await comm.receive_nothing(timeout=quiet):
        frames.append(await comm.receive_json_from(timeout=5))
    return frames


def play_out_with_bots(game_id: int, max_steps: int = 5000):
    """Drive a game whose every awaited seat is a bot to its end through the services (the test is the clock)."""
    from game import services
    from game.models import Game

    for _ in range(max_steps):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return game
        if game.deadline_kind == Game.DeadlineKind.CHECK:
            moved = False
            for seat in range(1, len(game.state["hands"]) + 1):
                if services.apply_bot_action(game_id, seat, game.version) is not None:
                    moved = True
                    break
            if not moved:
                services.fire_check_deadline(game_id, game.version)
            continue
        for seat in game.deadline_seats:
            if services.apply_bot_action(game_id, seat, game.version) is not None:
                break
        else:
            services.fire_turn_deadline(game_id, game.version)
    raise AssertionError("the game did not end")


def cards_in(obj) -> set[str]:
    """Every card string anywhere in a JSON value."""
    from game.engine import CARD_RE

    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD_RE.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


async def close_quietly(comm: WebsocketCommunicator) -> None:
    """Disconnect; a channels-redis read cancelled mid-flight may surface as redis' TimeoutError
    when the consumer stops (seen with redis-py 8 under load) - that is the end of the app, not a failure."""
    try:
        await comm.disconnect(timeout=10)
    except TimeoutError:
        pass
    except Exception as exc:
        if type(exc).__name__ != "TimeoutError":
            raise
