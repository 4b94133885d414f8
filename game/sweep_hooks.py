"""Periodic work of apps above the game that the in-process ticker runs after each full sweep
(the embedded default has no Celery beat). They register in their ready(); under Celery their own
beat entries do the same work, so the ticker is the only caller.

A hook never stops the ticker: its failure is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger("game.timers")

_hooks: dict[str, Callable[[], object]] = {}


def register(name: str, func: Callable[[], object]) -> None:
    _hooks[name] = func


def run() -> None:
    for name, func in list(_hooks.items()):
        try:
            func()
        except Exception:
            log.exception("timers: sweep hook %s failed", name)
