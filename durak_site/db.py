"""Database calls from async code (the table socket) on the thread pool.

Channels' ``database_sync_to_async`` runs ``close_old_connections()`` before and after every call;
with CONN_HEALTH_CHECKS that costs a ``SELECT 1`` round trip on every move and every heartbeat
(4 % of a web process's time under load, py-spy). ``in_thread`` checks a thread's connection at most
once a second instead, and drops it at once when a call fails on it (the next call reconnects).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.db import DatabaseError, close_old_connections, connection, connections
from django.db.backends.postgresql.base import DatabaseWrapper
from psycopg_pool import PoolTimeout

CHECK_EVERY = 1.0  # seconds between connection checks per thread

_checked = threading.local()


def pooled() -> bool:
    """Do this process's connections come from psycopg's pool (Postgres: durak_site/env.py)?"""
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


def _with_fresh_connection(func: Callable, *args: Any, **kwargs: Any) -> Any:
    if pooled():
        return _with_pooled_connection(func, *args, **kwargs)
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


def _with_pooled_connection(func: Callable, *args: Any, **kwargs: Any) -> Any:
    """A pooled connection is held for one call only: an idle pool thread keeping one would hold a
    slot of the process's fixed number while another thread waits for it."""
    try:
        return func(*args, **kwargs)
    finally:
        if not connection.in_atomic_block:
            connection.close()  # back to the pool (the pool drops one that broke)


def server_busy(exc: BaseException | None) -> bool:
    """Was `exc` a request that waited for a database connection longer than the pool allows?"""
    while exc is not None:
        if isinstance(exc, PoolTimeout):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _forget_inherited_pools() -> None:
    """In a child of a fork (Celery's prefork pool, a test's live server): the parent's pool and its
    connections are the parent's. Using them would share sockets with it, closing them would close
    the parent's sessions; the child forgets them (kept referenced, never finalised) and opens its own."""
    pools = getattr(DatabaseWrapper, "_connection_pools", None)  # private: not in the stubs
    if pools:
        _inherited.append(dict(pools))
        pools.clear()
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            _inherited.append(conn.connection)
            conn.connection = None


_inherited: list[Any] = []
os.register_at_fork(after_in_child=_forget_inherited_pools)
