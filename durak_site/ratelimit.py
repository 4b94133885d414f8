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


def within_sliding(kind: str, key: object, limit: tuple[int, int]) -> bool:
    """As `within`, without the doubled burst at a window's edge: the previous window's count
    weighs by how much of it still lies in the last `window` seconds (a sliding window, estimated).
    So `count` at once, then about count / window a second, like a token bucket shared by every
    process. A refused attempt counts too."""
    count, window = limit
    now = time.time()
    current = int(now // window)
    slot = f"{kind}:{key}:{current}"
    cache.add(slot, 0, timeout=window * 2)
    try:
        mine = cache.incr(slot)
    except ValueError:  # the slot expired between add and incr
        cache.add(slot, 1, timeout=window * 2)
        mine = 1
    previous = cache.get(f"{kind}:{key}:{current - 1}", 0)
    return previous * (current + 1 - now / window) + mine <= count
