"""A graceful stop of a web process (a deploy, a scale-down): SIGTERM or SIGINT.

daphne's own stop cancels every consumer: clients see 1006, ``disconnect()`` never runs (seats stay
"connected", socket counts stay up) and frames of a move committed a moment earlier can die with the
process. Instead, on the first signal:

1. every table socket is closed with 4012 ("service restart": the client reconnects at once, to
   another process behind the balancer) and runs its ``disconnect()``;
2. moves already being applied finish (new ones are refused with the same close);
3. the frames in flight are delivered (durak_site.realtime.drain_async);
4. then the server stops, within STOP_SECONDS whatever happens.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
import weakref
from typing import Protocol

from durak_site import close_codes, metrics, realtime

log = logging.getLogger(__name__)

STOP_SECONDS = 5.0


class Closable(Protocol):
    busy: int

    async def close(self, code: int | None = None) -> None: ...


_sockets: weakref.WeakSet = weakref.WeakSet()
_installed = False
stopping = False


def track(socket: Closable) -> None:
    """A socket opened on this process; on the first call, install the signal handlers (in daphne's
    process, on its loop: the handlers run there). Never raises: a socket must open whatever the
    process allows."""
    global _installed
    if socket not in _sockets:
        _sockets.add(socket)
        metrics.socket_opened()
    if not _installed:
        _installed = True
        if realtime.is_serving():  # a test runner or a shell: its signals are its own
            _install(asyncio.get_running_loop())


def _install(loop: asyncio.AbstractEventLoop) -> None:
    """Only the main thread may set signal handlers: `manage.py runserver` serves from another one (its
    autoreloader keeps the main thread), and there the development server's own Ctrl+C stops it."""
    if threading.current_thread() is not threading.main_thread():
        log.info("graceful stop not installed: the server does not run on the main thread")
        return
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda signum, frame: loop.call_soon_threadsafe(_begin, loop))
    except (ValueError, OSError, RuntimeError):
        log.warning("graceful stop not installed", exc_info=True)


def forget(socket: Closable) -> None:
    """The socket's disconnect() ran."""
    if socket in _sockets:
        _sockets.discard(socket)
        metrics.socket_closed()


def _begin(loop: asyncio.AbstractEventLoop) -> None:
    global stopping
    if stopping:
        return
    stopping = True
    log.info("graceful stop: closing %d sockets", len(_sockets))
    loop.create_task(_stop())


async def _stop() -> None:
    try:
        await asyncio.wait_for(_close_all(), timeout=STOP_SECONDS)
    except Exception:
        log.warning("graceful stop did not finish in %.0f s", STOP_SECONDS, exc_info=True)
    finally:
        _stop_server()


async def _close_all() -> None:
    sockets = list(_sockets)
    while any(s.busy for s in sockets):  # moves being applied finish first
        await asyncio.sleep(0.01)
    await asyncio.gather(*(s.close(code=close_codes.SERVICE_RESTART) for s in sockets), return_exceptions=True)
    await realtime.drain_async(timeout=STOP_SECONDS)
    for _ in range(100):  # the disconnect() handlers of the closed sockets run
        if not _sockets:
            break
        await asyncio.sleep(0.01)
    await realtime.drain_async(timeout=STOP_SECONDS)


def _stop_server() -> None:
    from twisted.internet import reactor  # daphne runs on twisted's asyncio reactor


    if reactor.running:
        reactor.stop()  # type: ignore[misc]  # twisted declares the reactor as a zope interface
