"""The pages a new player waits on, timed in this process (no network, the configured database).

    python manage.py bench_pages --repeat 10

Each step as a browser makes it, through Django's test client with the site's real settings (the real
password hashers): signing up (POST of a nick), logging in with the recovery key on another device,
creating a table (POST of the default form), and reloading a running game's page, then its table
socket's first frame (the ASGI application with the configured channel layer). Prints the median
and the slowest of each in milliseconds. It creates players named ``bp…`` and their tables.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.management.base import BaseCommand
from django.test import Client
from django.urls import reverse

from accounts import keys
from accounts.models import Player
from game import services
from lobby.models import Table

TABLE_FORM = {"preset": "classic", "seats_count": "", "turn_seconds": "30", "disconnect_policy": "bot",
              "rules_setter": "host", "start_policy": "all_ready", "series_length": ""}


T = TypeVar("T")


def _timed(step: Callable[[], T]) -> tuple[float, T]:
    started = time.perf_counter()
    result = step()
    return (time.perf_counter() - started) * 1000.0, result


def _nick() -> str:
    return "bp" + secrets.token_hex(4)


def _sign_up(client: Client) -> tuple[Player, str]:
    nick = _nick()
    response = client.post(reverse("accounts:signup"), {"nick": nick})
    assert response.status_code == 302, response.status_code
    key_page = client.get(reverse("accounts:key"))
    key = next(word for word in key_page.content.decode().replace("<", " ").replace(">", " ").split()
               if len(word) == 34 and word.count("-") == 6)
    return Player.objects.get(nick=nick), key


async def _first_frame(table_id: int, cookie: str) -> float:
    from durak_site.asgi import application

    headers = [(b"origin", b"http://testserver"),
               (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    started = time.perf_counter()
    connected, _code = await comm.connect(timeout=10)
    assert connected
    while True:
        frame = await comm.receive_json_from(timeout=10)
        if frame.get("type") == "state":
            break
    elapsed = (time.perf_counter() - started) * 1000.0
    await comm.disconnect()
    return elapsed


class Command(BaseCommand):
    help = "Time sign-up, key login, table creation and a reloaded game page's first frame (ms)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args, repeat: int, **options) -> None:
        if "testserver" not in settings.ALLOWED_HOSTS:
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        figures: dict[str, list[float]] = {"sign-up": [], "key login": [], "table creation": [],
                                           "game page": [], "first frame": []}
        for _ in range(repeat):
            client = Client()
            ms, (player, key) = _timed(partial(_sign_up, client))
            figures["sign-up"].append(ms)
            other = Client()
            ms, response = _timed(partial(other.post, reverse("accounts:restore"), {"nick": player.nick, "key": key}))
            assert response.status_code == 302, response.content[:300]
            figures["key login"].append(ms)
            ms, response = _timed(partial(client.post, reverse("lobby:create"), TABLE_FORM))
            assert response.status_code == 302, response.content[:300]
            figures["table creation"].append(ms)
            table = Table.objects.filter(host=player).latest("pk")
            self._seat_and_start(table, player)
            ms, response = _timed(partial(client.get, reverse("lobby:table", args=[table.pk])))
            assert response.status_code == 200
            figures["game page"].append(ms)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            figures["first frame"].append(asyncio.run(_first_frame(table.pk, cookie)))
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        self.stdout.write(f"{'step':<16}{'median ms':>10}{'max ms':>10}   (n={repeat}; load average {load}; "
                          f"{os.cpu_count()} CPUs; {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]})")
        for step, values in figures.items():
            self.stdout.write(f"{step:<16}{statistics.median(values):>10.1f}{max(values):>10.1f}")

    def _seat_and_start(self, table: Table, host: Player) -> None:
        """The host and a second person at the table, the game dealt (as after «Готово»)."""
        from lobby.models import Seat

        guest = Player.objects.create_user(_nick(), password=keys.generate())
        Seat.objects.filter(table=table).delete()
        Seat.objects.create(table=table, number=1, player=host)
        Seat.objects.create(table=table, number=2, player=guest)
        Table.objects.filter(pk=table.pk).update(seats_count=2, status=Table.Status.PLAYING)
        services.start_game(table.pk)
