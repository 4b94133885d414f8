"""One bounded Redis connection pool per process for the cache.

Django keeps a cache object per async context, and its Redis client makes a connection pool per
object: every table socket's calls (its socket record, flood marks) opened connections of their
own, and 300 sockets left 299 idle connections behind until they were collected. This pool class
hands every cache object of a process the same pool, which holds at most MAX_CONNECTIONS
connections; a caller waits up to TIMEOUT seconds for a free one.
"""

from __future__ import annotations

import os
import threading

from redis import BlockingConnectionPool

MAX_CONNECTIONS = 50
TIMEOUT = 5

_pools: dict[tuple[int, str], BlockingConnectionPool] = {}
_lock = threading.Lock()


class SharedBlockingPool(BlockingConnectionPool):
    @classmethod
    def from_url(cls, url: str, **kwargs):
        key = (os.getpid(), url)  # a forked child makes its own
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                kwargs.setdefault("max_connections", MAX_CONNECTIONS)
                kwargs.setdefault("timeout", TIMEOUT)
                pool = _pools[key] = super().from_url(url, **kwargs)
            return pool
