"""The one bridge between synchronous code and the live sockets.

Everything that tells browsers about a change goes through here:

* the channel-group names of a table (`table_group`, `seat_group`, `watch_group`);
* `send_on_commit(messages)`: the frames of a committed change leave after the commit (Zulip's
  ``send_event_on_commit``), never for a change that rolled back;
* `run(coro)` / `submit(coro)`: the single way sync code hands work to an event loop.

Which loop: in a server process (daphne) the loop the ASGI application runs on, recorded by
`LoopBinder` on the first scope it serves, so the in-memory channel layer (embedded default) and
the Redis layer's per-loop connection pools are shared with the consumers; anywhere else (Celery
workers, management commands, tests) one private loop thread per process, re-made after a fork.

A send is fire-and-forget from the caller's view (a broken layer never undoes a committed move),
but it is tracked: `drain()` waits for the sends in flight, so a stopping process delivers what it
committed (daphne's shutdown and the Celery task both drain). A frame that is lost anyway (kill -9
between commit and send) is repaired by the consumer: it resends the current frame on a duplicate
message and checks the game's version on its heartbeat (game/consumers.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import transaction
from redis import asyncio as aioredis

from durak_site import logs, metrics

log = logging.getLogger(__name__)

Message = tuple[str, dict]  # (group name, channel-layer event)


# ---------------------------------------------------------------- group names


def table_group(table_id: int) -> str:
    """Everyone on the table page (players and spectators): waiting-room news, game started."""
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    """The sockets of the player who owns game seat `seat`: his own redacted frames."""
    return f"table-{table_id}-seat-{seat}"


def watch_group(table_id: int) -> str:
    """Everyone at the table who has no seat in the running game: the spectator frame."""
    return f"table-{table_id}-watch"


def player_group(player_id: int) -> str:
    """Every socket of one player, at any table: accounts closes them when his session ends."""
    return f"player-{player_id}"


# ---------------------------------------------------------------- loops


_server_loop: asyncio.AbstractEventLoop | None = None
_private: dict[str, Any] = {"pid": None, "loop": None}
_private_lock = threading.Lock()
_in_flight: set[concurrent.futures.Future] = set()
_in_flight_lock = threading.Lock()


_serving_hooks: list[Callable[[], object]] = []
_serving: bool | None = None  # None: no request yet; True: this process serves the site; False: it never will


def when_serving(hook: Callable[[], object]) -> None:
    """Run ``hook`` once, when this process's ASGI application gets its first request or socket: the
    process serves the site (daphne, runserver's serving child), whatever its command line. Apps
    register in their ``ready()`` (the embedded default's deadline ticker); migrate, a shell or a
    Celery worker never call the application, so they never run it."""
    _serving_hooks.append(hook)


def never_serving() -> None:
    """This process only calls the application itself (a test runner's communicators): no serving
    hooks, no signal handlers of a server."""
    global _serving
    _serving = False


def is_serving() -> bool:
    """Whether this process's application has been called as a server's (see ``when_serving``)."""
    return bool(_serving)


class LoopBinder:
    """ASGI middleware: remembers the loop the server runs the application on (daphne has one), and on
    the first call runs the serving hooks."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        global _server_loop, _serving
        _server_loop = asyncio.get_running_loop()  # daphne has one loop; a test runner one per test
        logs.bind_scope(scope)  # this connection's task: its socket id in structured logs
        if _serving is None:
            _serving = True
            for hook in _serving_hooks:
                hook()
        return await self.app(scope, receive, send)


def _loop() -> asyncio.AbstractEventLoop:
    loop = _server_loop
    if loop is not None and loop.is_running():
        return loop
    with _private_lock:
        loop = _private["loop"]
        if _private["pid"] != os.getpid() or loop is None or loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="realtime-loop", daemon=True).start()
            _private.update(pid=os.getpid(), loop=loop)
        return loop


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def submit(coro: Coroutine) -> concurrent.futures.Future | asyncio.Task:
    """Start `coro` on the bridge loop and return at once (tracked until done, see `drain`)."""
    loop = _loop()
    if _on_loop_thread(loop):  # already on it (a consumer): just schedule the task
        task = loop.create_task(coro)
        future: Any = task
    else:
        future = asyncio.run_coroutine_threadsafe(coro, loop)
    with _in_flight_lock:
        _in_flight.add(future)
    future.add_done_callback(_done)
    return future


def run(coro: Coroutine, timeout: float = 30.0):
    """Run `coro` on the bridge loop and wait for its result (never call this on that loop)."""
    loop = _loop()
    if _on_loop_thread(loop):
        raise RuntimeError("realtime.run() called on the bridge loop itself: await the coroutine instead")
    return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout=timeout)


def _done(future) -> None:
    with _in_flight_lock:
        _in_flight.discard(future)
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("realtime send failed", exc_info=exc)


def drain(timeout: float = 5.0) -> int:
    """Wait (from a thread that is not the bridge loop) until the sends in flight are done; returns
    how many were still unfinished at the timeout."""
    end = time.monotonic() + timeout
    while True:
        with _in_flight_lock:
            pending = [f for f in _in_flight if isinstance(f, concurrent.futures.Future)]
        if not pending or time.monotonic() >= end:
            return len(pending)
        concurrent.futures.wait(pending, timeout=max(0.0, end - time.monotonic()))


async def drain_async(timeout: float = 5.0) -> int:
    """`drain` for code running on the bridge loop (daphne's shutdown)."""
    end = time.monotonic() + timeout
    while True:
        with _in_flight_lock:
            pending = list(_in_flight)
        if not pending or time.monotonic() >= end:
            return len(pending)
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- sending


class _Publisher:
    """Group messages to Redis pub/sub, many per round trip, on one loop.

    channels-redis publishes one message per round trip under one lock per process (the lock its
    subscribes share), so under load a move's three frames waited for each other and for every other
    table's, a loop turn per PUBLISH. Here a writer task takes whatever is queued and PUBLISHes it in
    one pipeline on a connection of its own; the order of one process's messages is kept.
    """

    def __init__(self, layer) -> None:
        self.layer = layer
        config: Any = settings.CHANNEL_LAYERS["default"]["CONFIG"]
        self.prefix = config["prefix"]
        self.client = aioredis.Redis.from_url(str(settings.REDIS_URL))  # set: this layer is Redis's
        self.queue: asyncio.Queue[tuple[str, bytes, asyncio.Future]] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def channel(self, group: str) -> str:
        """channels-redis' pub/sub name of a group (tests/site/test_realtime.py pins it)."""
        return f"{self.prefix}__group__{group}"

    async def publish(self, messages: list[Message]) -> None:
        loop = asyncio.get_running_loop()
        futures = []
        for group, message in messages:
            future = loop.create_future()
            self.queue.put_nowait((self.channel(group), self.layer.serialize(message), future))
            futures.append(future)
        await asyncio.gather(*futures)

    async def _write(self) -> None:
        """Until cancelled. redis-py's pipeline now and then swallows a cancel that comes while it
        executes and finishes normally; the task still counts the request (``cancelling()``), so the
        writer stops then instead of waiting at its queue, where the loop's end would wait for it for ever."""
        task = asyncio.current_task()  # always a task: __init__ starts it
        assert task is not None
        while not task.cancelling():
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, data, _future in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception as exc:  # noqa: BLE001 (each sender hears of it; the writer goes on)
                for _channel, _data, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for _channel, _data, future in batch:
                if not future.done():
                    future.set_result(None)
        raise asyncio.CancelledError


_publishers: dict[asyncio.AbstractEventLoop, _Publisher] = {}  # one per loop; closed loops are dropped


async def send_now(messages: Iterable[Message]) -> None:
    """Send the messages to their groups at once (each viewer's frame is independent of the others')."""
    messages = list(messages)
    layer = get_channel_layer()
    if isinstance(layer, RedisPubSubChannelLayer):
        loop = asyncio.get_running_loop()
        publisher = _publishers.get(loop)
        if publisher is None or publisher.writer.done():
            for old in [other for other in _publishers if other.is_closed()]:
                del _publishers[old]  # a test's finished loop (a server has one loop)
            publisher = _publishers[loop] = _Publisher(layer)
        await publisher.publish(messages)
        return
    assert layer is not None  # the settings always name one
    await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))


def _hold_seconds() -> float:
    """Tests open the window between a commit and its frames on purpose (a process killed there)."""
    return float(settings.REALTIME_HOLD_AFTER_COMMIT)


async def _send_held(messages: list[Message], move_started: float | None = None) -> None:
    hold = _hold_seconds()
    if hold:
        await asyncio.sleep(hold)
    await send_now(messages)
    metrics.published(messages)
    metrics.move_published(move_started)


def send(messages: Iterable[Message], move_started: float | None = None) -> None:
    """Send now, from sync code, without waiting for the layer (logged if it fails)."""
    messages = list(messages)
    if messages:
        submit(_send_held(messages, move_started))


def send_on_commit(messages: Iterable[Message]) -> None:
    """Send `messages` once the current transaction commits (at once outside a transaction). The
    frames of a player's move carry its clock (durak_site.metrics: received to published)."""
    messages = list(messages)
    if messages:
        started = metrics.move_clock() if any(m.get("type") == "game.frame" for _g, m in messages) else None
        transaction.on_commit(lambda: send(messages, started))
