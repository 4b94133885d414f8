"""Short pauses of the cyclic garbage collector in a web process holding thousands of sockets.

A full pass of the collector walks every tracked object of the process with the GIL held. With
2,000 idle site sockets beside 50 tables a process holds about 350,000 of them, and each full pass
paused the event loop 240-500 ms, several times a minute (timed with `gc.callbacks`): no socket was
served meanwhile. So every FREEZE_EVERY seconds what is alive is frozen (`gc.freeze`: left out of
every later pass), and a pass walks only what survived since. Frozen objects that die are still
freed by their reference counts; only cycles among them (a closed socket's tasks and tracebacks)
wait: every GC_RECLAIM_EVERY seconds everything is thawed and one full pass frees them, which bounds
the memory they hold at the price of one full-length pause per GC_RECLAIM_EVERY (settings).
"""

from __future__ import annotations

import gc
import threading
import time

from django.conf import settings

_started = threading.Event()


def tick(since_reclaim: float, every: float, reclaim_every: float) -> float:
    """One step, `every` seconds after the last: freeze what is alive, or, once `reclaim_every` has
    passed, thaw, collect everything and freeze again. Returns the seconds since the last reclaim."""
    if since_reclaim >= reclaim_every:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        return 0.0
    gc.collect(1)  # the young generations' garbage is freed, not frozen
    gc.freeze()
    return since_reclaim + every


def _run(every: float, reclaim_every: float) -> None:
    since = 0.0
    while True:
        time.sleep(every)
        since = tick(since, every, reclaim_every)


def start() -> None:
    """Start this process's freezing thread (once; GC_FREEZE_EVERY=0 turns it off)."""
    every = settings.GC_FREEZE_EVERY
    if every <= 0 or _started.is_set():
        return
    _started.set()
    threading.Thread(target=_run, args=(every, settings.GC_RECLAIM_EVERY), name="gc-freezer", daemon=True).start()
