"""Database calls from async code (the table socket) on the thread pool.

Channels' ``database_sync_to_async`` runs ``close_old_connections()`` before and after every call;
with CONN_HEALTH_CHECKS that costs a ``SELECT 1`` round trip on every move and every heartbeat
(4 % of a web process's time under load, py-spy). ``in_thread`` checks a thread's connection at most
once a second instead, and drops it at once when a call fails on it (the next call reconnects).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.db import DatabaseError, close_old_connections, connection

CHECK_EVERY = 1.0  # seconds between connection checks per thread

_checked = threading.local()


def _with_fresh_connection(func: Callable, *args: Any, **kwargs: Any) -> Any:
    now = time.monotonic()
    if now - getattr(_checked, "at", 0.0) >= CHECK_EVERY:
        close_old_connections()
        _checked.at = now
    try:
        return func(*args, **kwargs)
    except DatabaseError:
        if connection.in_atomic_block is False and not connection.is_usable():
            connection.close()
        raise


def in_thread(func: Callable) -> Callable:
    """`func` as a coroutine function run on the thread pool (not the one thread-sensitive thread:
    database work of different tables never queues behind one thread)."""
    return sync_to_async(functools.partial(_with_fresh_connection, func), thread_sensitive=False)
