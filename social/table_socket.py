"""The site's news on the table socket (game/socket_hooks.py), so a table's pages hold one socket.

A table socket of a signed-in player joins his `site-<id>` group (invitations, a match found, a
friend request: social/notify.py), counts as one of his open tabs for presence as a site socket
does, and refreshes it at its heartbeats; arriving at a matched table presses «Готово» for him,
and the page hooks of the apps above (social/site_hooks.py) hear that he shows the table's page (a
tournament's pairing marks him ready), as a site socket's `page` message does elsewhere; the
groups they answer are joined (their events must be `notify.news_event`s). The socket passes the news on as it is, and
answers `invitation` as the site socket does. No `hello`: a table page shows no search (a match
found while the socket was down is told by the next page's site socket, within the arrival time).
"""

from __future__ import annotations

import asyncio
import logging
import time

from django.utils import translation

from durak_site.db import in_thread
from durak_site.errors import ServiceError
from game import socket_hooks
from game.protocol.table import Error

from . import beats, notify, people, presence, queue, site_hooks

log = logging.getLogger(__name__)

BEAT_EVERY = 35.0  # seconds between presence refreshes of one socket, as the site socket's


def _arrive(player_id: int, table_id: int) -> list[str]:
    """One thread hop: his arrival at a table he was matched to, the page hooks told, his tab
    counted; returns the groups the page hooks answered."""
    queue.arrived(player_id, table_id)
    groups = site_hooks.page_groups(player_id, table_path(table_id))
    presence.opened(player_id)
    return groups


def table_path(table_id: int) -> str:
    return f"/tables/{table_id}/"


async def joined(consumer) -> None:
    player_id = consumer.user.pk
    await consumer.join_group(notify.site_group(player_id))
    groups = await in_thread(_arrive)(player_id, consumer.table_id)
    consumer.site_counted = True
    consumer.site_beat_at = time.monotonic()
    for group in groups:
        await consumer.join_group(group)


async def left(consumer) -> None:
    if getattr(consumer, "site_counted", False):
        consumer.site_counted = False
        await in_thread(presence.closed)(consumer.user.pk)
    task = getattr(consumer, "site_beat", None)
    if task is not None:
        task.cancel()


def beat(consumer) -> None:
    """Still here: presence refreshed every BEAT_EVERY seconds, batched with the process's other
    beats (social/beats.py) on a task of its own, so the socket's ping never waits for it. The
    table socket checks its session itself."""
    if not getattr(consumer, "site_counted", False) or time.monotonic() - consumer.site_beat_at < BEAT_EVERY:
        return
    consumer.site_beat_at = time.monotonic()
    consumer.site_beat = asyncio.ensure_future(_beat(consumer.user.pk))


async def _beat(player_id: int) -> None:
    try:
        await beats.beat(player_id)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table socket: presence heartbeat failed")


async def news(consumer, event: dict) -> None:
    await consumer.send_json(event["payload"])


async def answer_invitation(consumer, content: dict) -> None:
    """`invitation`, its shape decoded by the socket (social/protocol.py `Answer`)."""
    accept = content["accept"]
    try:
        row = await in_thread(people.answer)(consumer.user, content["id"], accept)
    except ServiceError as exc:
        with translation.override(consumer.lang):
            message = exc.message
        error: Error = {"type": "error", "id": None, "code": exc.code, "message": message}
        await consumer.send_json(error)
        return
    await consumer.send_json(notify.invitation_answered(row.table_id, row.pk, accept))


def register() -> None:
    socket_hooks.on_connect(joined)
    socket_hooks.on_disconnect(left)
    socket_hooks.on_heartbeat(beat)
    socket_hooks.register_event(notify.HOOK, news)
    socket_hooks.register("invitation", answer_invitation)
