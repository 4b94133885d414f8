"""The sweep's memory of rows that keep failing, and the connection reset after a failure."""

from __future__ import annotations

import contextlib
import logging
import threading
import time

from django.db import connection

logger = logging.getLogger("durak_site.deadlines")


class Backoff:
    """Per process: a row that keeps failing, or that its service leaves due, is retried less and less often.

    A correct service moves the column or the version when it fires, so the next sweep sees a new key.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def allowed(self, key: tuple) -> bool:
        with self._lock:
            entry = self._seen.get(key)
        if entry is None:
            return True
        count, last = entry
        return time.monotonic() - last >= min(0.5 * 2.0 ** (count - 1), 60.0)

    def mark(self, key: tuple) -> None:
        with self._lock:
            count, _ = self._seen.get(key, (0, 0.0))
            self._seen[key] = (count + 1, time.monotonic())
        if count + 1 in (2, 10):
            logger.warning("deadlines: %s is still due after %s firings; its service does not clear it", key,
                           count + 1)

    def prune(self) -> None:
        cutoff = time.monotonic() - 300
        with self._lock:
            for key in [k for k, (_, last) in self._seen.items() if last < cutoff]:
                del self._seen[key]


backoff = Backoff()


def reset_connection() -> None:
    with contextlib.suppress(Exception):
        connection.close()
