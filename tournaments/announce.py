"""Tournament news over the site socket: the event page's tabs join `tournament-<id>` (through
social's page hook) and get the standings (tournaments/live.py) after every committed change, read
once per change however many tabs are open; a player hears his own news (paired, a minute to the
start) in his `site-<id>` group.

Changes of one event that commit while its frame is being read, or within SPACING of the last
frame this process sent, are sent together by one more read: however many games end at once, an
event's pages get at most one frame a second from each process. The page re-reads
its fragment only when its own part changed (tournaments/static/tournaments/standings.js), never on
a timer.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.db import transaction

from durak_site import realtime
from durak_site.db import in_thread
from social import notify

from . import live

log = logging.getLogger(__name__)

# A frame costs the web process about 0.2 ms a tab to hand out (60 ms for 300 open pages: `manage.py
# bench_arena --frames`), so an event sends at most one a SPACING from a process: the games that end
# meanwhile share the next one.
SPACING = 1.0  # seconds

# on the process's bridge loop only (durak_site.realtime), so no lock: an event whose frame is being read
# or held, and what changes committed meanwhile add to its next frame
_reading: dict[int, dict[str, Any]] = {}
_again: set[int] = set()  # events changed again while their frame was being read or held


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int, **data: Any) -> None:
    """Every open page of the event gets the new standings once this transaction commits (read on
    the thread pool: the committing thread's own frames, a game's last move, never wait for it)."""
    transaction.on_commit(lambda: realtime.submit(publish(tournament_id, data)))


async def publish(tournament_id: int, data: dict[str, Any]) -> None:
    """Read the event's frame and send it to its group, or leave the change to the next frame when
    one is being read or was sent less than SPACING ago."""
    if tournament_id in _reading:
        _reading[tournament_id].update(data)
        _again.add(tournament_id)
        return
    _reading[tournament_id] = {}
    await _send(tournament_id, data)


async def _send(tournament_id: int, data: dict[str, Any]) -> None:
    """One frame, then the event is held for the rest of SPACING by a timer, not by this coroutine:
    whoever waits for the sends in flight (a worker's task at its end: realtime.drain) waits for the
    frame, not for the hold."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    try:
        payload = await in_thread(live.news)(tournament_id, data)
        if payload is not None:
            await realtime.send_now([(group(tournament_id), notify.news_event(payload))])
    except Exception:  # the change is committed: the next frame (or a page's reload) repairs a lost one
        log.exception("tournaments: the standings of event %s were not sent", tournament_id)
    loop.call_later(max(0.0, started + SPACING - loop.time()), _release, tournament_id)


def _release(tournament_id: int) -> None:
    """The hold is over: the changes that came meanwhile go in one frame now, else the event is free."""
    if tournament_id in _again:
        _again.discard(tournament_id)
        data, _reading[tournament_id] = _reading.get(tournament_id, {}), {}
        realtime.submit(_send(tournament_id, data))
    else:
        _reading.pop(tournament_id, None)


def tell(player_ids, kind: str, **data) -> None:
    notify.tell_many(list(player_ids), kind, **data)
