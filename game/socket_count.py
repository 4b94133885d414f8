"""Which table sockets a person has open at one table, kept in the shared cache (Redis when set).

Why: a player with two tabs who closes one must not be shown as disconnected (and must not start
his disconnect clock) while the other tab is still open. Every web process sees the same record.

The record is a hint, never the truth. Each socket is an entry stamped by its own pings: a socket
whose process died (kill -9) stops pinging, so once it has been silent for STALE seconds it no
longer counts, and closing his one live tab marks him gone at once. A socket of this process that
is not open here any more never counts. The whole record expires TTL seconds after the last ping
(a crashed server cannot leave a person "connected" for ever; the heartbeat sweep judges him then).
"""

from __future__ import annotations

import logging
import time
import uuid

from django.core.cache import cache

log = logging.getLogger(__name__)

TTL = 25  # seconds; the table page pings every 5 s: a dead process's record is gone soon
STALE = 12  # seconds without a ping after which another process's socket no longer counts
PROCESS = uuid.uuid4().hex[:12]  # this process, in the entries of its sockets

_open_here: set[str] = set()  # this process's open sockets


def _key(table_id: int, player_id: int) -> str:
    return f"table-sockets:{table_id}:{player_id}"


def _live(entries: dict, now: float) -> dict:
    """The entries that still count: this process's open sockets, others' that pinged lately."""
    return {sid: (proc, seen) for sid, (proc, seen) in entries.items()
            if (sid in _open_here if proc == PROCESS else now - seen < STALE)}


def _update(table_id: int, player_id: int, socket_id: str, present: bool, now: float | None) -> int:
    """Stamp (or drop) one socket's entry; returns how many of his sockets count now."""
    now = time.time() if now is None else now
    key = _key(table_id, player_id)
    try:
        entries = _live(cache.get(key) or {}, now)
        if present:
            entries[socket_id] = (PROCESS, now)
        else:
            entries.pop(socket_id, None)
        if entries:
            cache.set(key, entries, TTL)
        else:
            cache.delete(key)
        return len(entries)
    except Exception:  # the cache is a hint: without it every close counts as the last one
        log.warning("socket record for table %s player %s unavailable", table_id, player_id, exc_info=True)
        return 1 if present else 0


def opened(table_id: int, player_id: int, socket_id: str, now: float | None = None) -> int:
    """One more socket of his at this table; returns how many he has open now."""
    _open_here.add(socket_id)
    return _update(table_id, player_id, socket_id, True, now)


def closed(table_id: int, player_id: int, socket_id: str, now: float | None = None) -> int:
    """One socket of his at this table closed; returns how many still count (0: he is gone)."""
    _open_here.discard(socket_id)
    return _update(table_id, player_id, socket_id, False, now)


def alive(table_id: int, player_id: int, socket_id: str, now: float | None = None) -> None:
    """A ping from one of his sockets: its entry is fresh again (re-made if the record had expired)."""
    if socket_id in _open_here:
        _update(table_id, player_id, socket_id, True, now)
