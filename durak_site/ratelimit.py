"""Fixed-window rate limits counted in the shared cache (Redis when set, so every process counts
together). add + incr are atomic, so parallel requests cannot pass a limit together; a burst at a
window's edge may reach twice the count over two windows, which these limits tolerate."""

from __future__ import annotations

import time

from django.core.cache import cache


def within(kind: str, key: object, limit: tuple[int, int]) -> bool:
    """Count one more `kind` for `key` in its current window; whether that is still within
    `limit` = (count, window in seconds). A refused attempt counts too: hammering does not help."""
    count, window = limit
    slot = f"{kind}:{key}:{int(time.time()) // window}"
    cache.add(slot, 0, timeout=window * 2)
    try:
        return cache.incr(slot) <= count
    except ValueError:  # the slot expired between add and incr
        cache.add(slot, 1, timeout=window * 2)
        return True
