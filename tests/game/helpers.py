"""Helpers for the live-play tests: players, tables with humans and bots, authenticated sockets, and
games played out through the game server (by people moving like the heuristic bot, or by bots)."""

from __future__ import annotations

import asyncio
import itertools
import random
import threading

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


def heuristic_action(state, seat: int, rng: random.Random) -> dict:
    """What a person in `seat` plays here: the heuristic bot's choice, else the timeout's move."""
    from game import engine
    from game.engine.bots import choose_action

    return choose_action("heuristic", engine.view_for(state, seat), rng) or engine.timeout_action(state, seat)


def play_out(game_id: int, seed: int = 1, max_moves: int = 3000):
    """Every awaited person moves like the heuristic bot, through the game server, until the game
    ends (a real game, quickly); the callbacks on commit run as in production (in a test inside a
    transaction too). The finished Game."""
    from django.test import TestCase

    from game import engine
    from game import services as game_services
    from game.models import Game, GameSeat

    rng = random.Random(seed)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for k in range(max_moves):
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.PLAYING:
                return game
            state = engine.GameState.from_json(game.state)
            seat = engine.whose_turn(state)[0]
            gs = GameSeat.objects.select_related("player").get(game=game, number=seat)
            game_services.apply_player_action(game_id, gs.player, game.version, f"m{k}",
                                              heuristic_action(state, seat, rng))
    raise AssertionError("the game did not finish")


def play_with_seat_one_taken_over(people, seed: int, moves: int | None = None) -> tuple:
    """A two-person table under the `bot` disconnect policy; a bot takes seat 1 over at once and plays
    it for its player while seat 2's player plays: to the end, or for `moves` moves. Run in a thread
    of its own (a browser test's loop runs in the caller's). (table, game)."""
    from django.db import connections

    from durak_site.errors import ServiceError
    from game import engine
    from game import services as game_services
    from game.models import Game
    from lobby.models import Seat, Table

    done: dict = {}

    def run() -> None:
        try:
            table = Table.objects.create(name="ui", seats_count=2, turn_seconds=90, disconnect_policy="bot",
                                         status=Table.Status.PLAYING)
            for number, p in enumerate(people, start=1):
                Seat.objects.create(table=table, number=number, player=p)
            game = game_services.start_game(table.pk)
            game_services.takeover(game.pk, 1)
            rng = random.Random(seed)
            made = 0
            for k in range(3000):
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.PLAYING or (moves is not None and made >= moves):
                    break
                state = engine.GameState.from_json(game.state)
                turn = engine.whose_turn(state)
                try:
                    if 2 in turn:
                        game_services.apply_player_action(game.pk, people[1], game.version, f"m{k}",
                                                          heuristic_action(state, 2, rng))
                    elif turn:
                        game_services.apply_bot_action(game.pk, turn[0], game.version)
                    made += 1
                except ServiceError:
                    pass  # the server's own bot moved first: read the game again
            done["table"], done["game"] = table, Game.objects.get(pk=game.pk)
        finally:
            connections.close_all()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    return done["table"], done["game"]


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
