"""The heartbeats of one process's site sockets, written together.

Thousands of idle tabs each beat every BEAT_EVERY seconds (social/consumers.py); one thread hop and
two statements per beat cost live play as much as its moves did. A beat here waits at most
BATCH_EVERY seconds and shares one thread hop, one UPDATE of Presence and one read of the session
generations with every other beat of that moment; each socket then loads its session only if its
generation moved (accounts/sessions.py).
"""

from __future__ import annotations

import asyncio
import logging

from durak_site.db import in_thread

from . import presence

log = logging.getLogger(__name__)

BATCH_EVERY = 1.0  # seconds a beat may wait for others to share its write

_batches: dict[asyncio.AbstractEventLoop, _Batch] = {}


class _Batch:
    def __init__(self) -> None:
        self.waiting: dict[int, list[asyncio.Future]] = {}
        self.flush: asyncio.Task | None = None

    async def beat(self, player_id: int) -> int:
        future = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(player_id, []).append(future)
        if self.flush is None or self.flush.done():
            self.flush = asyncio.ensure_future(self._flush_later())
        return await future

    async def _flush_later(self) -> None:
        await asyncio.sleep(BATCH_EVERY)
        waiting, self.waiting = self.waiting, {}
        try:
            found = await in_thread(presence.beat_many)(list(waiting))
        except Exception as exc:
            log.exception("site sockets: a batch of heartbeats failed")
            for futures in waiting.values():
                for future in futures:
                    if not future.done():
                        future.set_exception(exc)
            return
        for player_id, futures in waiting.items():
            for future in futures:
                if not future.done():  # (its socket may have gone meanwhile)
                    future.set_result(found.get(player_id, 0))


async def beat(player_id: int) -> int:
    """His tab is still there: written with this second's other beats; returns his session
    generation as the database has it now."""
    loop = asyncio.get_running_loop()
    batch = _batches.get(loop)
    if batch is None:
        for old in [other for other in _batches if other.is_closed()]:
            del _batches[old]  # a test's finished loop (a server has one loop)
        batch = _batches[loop] = _Batch()
    return await batch.beat(player_id)
