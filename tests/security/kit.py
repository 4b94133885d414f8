"""Helpers for the security tests: a signed-in browser-like client and a socket on its session."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client


def signed_in(player) -> Client:
    client = Client()
    client.force_login(player)
    return client


async def socket_for(client: Client, path: str) -> tuple[WebsocketCommunicator, bool]:
    """A socket opened with `client`'s session cookie (so ending that session must reach it)."""
    from durak_site.asgi import application

    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [(b"origin", b"http://testserver"),
               (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=5)
    return comm, connected


async def first_frame(comm: WebsocketCommunicator) -> dict:
    return await comm.receive_json_from(timeout=5)


async def closed_with(comm: WebsocketCommunicator, timeout: float = 5.0) -> tuple[list[dict], int | None]:
    """The frames before the close and its code (None if it did not close in time: the app is stopped)."""
    import json

    frames = []
    while True:
        try:
            out = await comm.receive_output(timeout=timeout)
        except TimeoutError:
            return frames, None
        if out["type"] == "websocket.close":
            return frames, out.get("code")
        frames.append(json.loads(out["text"]))


sync = database_sync_to_async
