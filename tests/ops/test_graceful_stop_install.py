"""The graceful stop (game/shutdown.py) installs its signal handlers where it can and never raises in
a consumer: `make run` serves sockets from a thread that is not the main one, where signal.signal
raises ValueError."""

from __future__ import annotations

import asyncio
import signal
import threading

import pytest

from durak_site import realtime
from game import shutdown


class Socket:
    busy = 0

    async def close(self, code=None) -> None:
        return None


@pytest.fixture
def fresh(monkeypatch):
    """A server process that has not installed its handlers yet; the test's own handlers come back."""
    monkeypatch.setattr(shutdown, "_installed", False)
    monkeypatch.setattr(realtime, "_serving", True)  # as after a server's first request
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    yield
    for sig, handler in before.items():
        signal.signal(sig, handler)


def test_a_socket_on_a_thread_that_is_not_the_main_one_is_tracked_without_raising(fresh):
    socket, errors = Socket(), []

    def serve() -> None:  # what runserver does: the server's loop on a thread of its own
        try:
            asyncio.run(_track(socket))
        except BaseException as exc:  # noqa: BLE001 (the assertion reports it)
            errors.append(exc)

    thread = threading.Thread(target=serve)
    thread.start()
    thread.join(10)
    assert errors == []
    assert socket in shutdown._sockets
    shutdown.forget(socket)


def test_on_the_main_thread_the_handlers_are_installed(fresh):
    before = signal.getsignal(signal.SIGTERM)
    socket = Socket()
    asyncio.run(_track(socket))
    assert signal.getsignal(signal.SIGTERM) is not before
    shutdown.forget(socket)


async def _track(socket) -> None:
    shutdown.track(socket)
