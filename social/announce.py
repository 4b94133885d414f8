"""News for many sockets at once, at most once a second per process, read once when it leaves.

Thousands of site sockets watch two things that change often: the lobby's online list and the
search queue's counts. Each change used to reach every watching socket as a bare "it changed", and
every one of them read the news on a thread of its own: a thousand readers per change saturated a
process. An `Announcer` reads the news once, when the announcement leaves (never more than once
per `every` seconds per process; the announcement after the last change always comes), and sends
it with the event to the whole group.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from durak_site import realtime
from durak_site.db import in_thread

LOST_AFTER = 2.0  # an announcement this overdue was lost with its loop (a test's): send anew


class Announcer:
    def __init__(self, group: str, event_type: str, read: Callable[[], dict], every: float = 1.0) -> None:
        self.group, self.event_type, self.read, self.every = group, event_type, read, every
        self.lock = threading.Lock()
        self.due = 0.0  # when the announcement on its way goes out (0: none)
        self.sent_at = 0.0
        self.task: list = []  # the announcement on its way (a task, or a future on the bridge loop)

    def changed(self) -> None:
        """Something changed (call it after the commit): announce it, now or when the second is up."""
        now = time.monotonic()
        with self.lock:
            if self._on_its_way(now):
                return  # it will read the news as they are then
            wait = max(0.0, self.sent_at + self.every - now)
            self.due = now + wait
            self.task[:] = [realtime.submit(self._announce_after(wait))]

    def _on_its_way(self, now: float) -> bool:
        if not self.due or not self.task or now > self.due + LOST_AFTER:
            return False
        task = self.task[0]
        loop = task.get_loop() if isinstance(task, asyncio.Task) else None
        return not task.done() and not (loop is not None and loop.is_closed())  # a test's loop ends with it

    async def _announce_after(self, wait: float) -> None:
        if wait:
            await asyncio.sleep(wait)
        with self.lock:
            self.due, self.sent_at = 0.0, time.monotonic()
        news = await in_thread(self.read)()
        await realtime.send_now([(self.group, {"type": self.event_type, **news})])
