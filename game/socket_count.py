"""How many table sockets a person has open at one table, kept in the shared cache (Redis when set).

Why: a player with two tabs who closes one must not be shown as disconnected (and must not start
his disconnect clock) while the other tab is still open. Every web process sees the same count.

The count is a hint, never the truth: it expires when no socket of his pings for TTL seconds (a
crashed server cannot leave a person "connected" for ever; the heartbeat sweep judges him then).
"""

from __future__ import annotations

import logging

from django.core.cache import cache

log = logging.getLogger(__name__)

TTL = 25  # seconds; the table page pings every 5 s: a dead process's counts are gone soon


def _key(table_id: int, player_id: int) -> str:
    return f"table-sockets:{table_id}:{player_id}"


def opened(table_id: int, player_id: int) -> int:
    """One more socket of his at this table; returns how many he has open now."""
    key = _key(table_id, player_id)
    try:
        cache.add(key, 0, TTL)
        count = cache.incr(key)
        cache.touch(key, TTL)
        return count
    except Exception:  # the cache is a hint: without it every close counts as the last one
        log.warning("socket count for table %s player %s unavailable", table_id, player_id, exc_info=True)
        return 1


def closed(table_id: int, player_id: int) -> int:
    """One socket of his at this table closed; returns how many are still open (0: he is gone)."""
    key = _key(table_id, player_id)
    try:
        count = cache.decr(key)
    except ValueError:  # expired or never counted
        return 0
    except Exception:
        log.warning("socket count for table %s player %s unavailable", table_id, player_id, exc_info=True)
        return 0
    if count <= 0:
        cache.delete(key)
        return 0
    return count


def alive(table_id: int, player_id: int) -> None:
    """A ping from one of his sockets: keep the count from expiring (re-counting one if it had)."""
    key = _key(table_id, player_id)
    try:
        if not cache.touch(key, TTL):
            cache.add(key, 1, TTL)
    except Exception:
        log.warning("socket count for table %s player %s unavailable", table_id, player_id, exc_info=True)
