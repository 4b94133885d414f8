"""Which tables a player has in view: his table pages report it on their table socket.

Kept in the shared cache, per player and table, as {socket: until}: a socket's report holds for
REPORT_HOLDS seconds (the page repeats it every 20 s while visible, and says "hidden" at once when
it goes to the background or closes), so a tab that died without a word stops counting soon.
A «Ваш ход» push goes only when no tab of his has that table visible.
"""

from __future__ import annotations

import time

from django.core.cache import cache

REPORT_HOLDS = 45  # seconds


def _key(player_id: int, table_id: int) -> str:
    return f"push:visible:{player_id}:{table_id}"


def report(player_id: int, table_id: int, socket: str, visible: bool) -> None:
    key = _key(player_id, table_id)
    now = time.time()
    tabs = {s: until for s, until in (cache.get(key) or {}).items() if until > now}
    if visible:
        tabs[socket] = now + REPORT_HOLDS
    else:
        tabs.pop(socket, None)
    if tabs:
        cache.set(key, tabs, REPORT_HOLDS)
    else:
        cache.delete(key)


def table_visible(player_id: int, table_id: int) -> bool:
    now = time.time()
    return any(until > now for until in (cache.get(_key(player_id, table_id)) or {}).values())


def visible_of(pairs: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Of (player, table) pairs, those that some tab shows: one cache round trip for all."""
    now = time.time()
    found = cache.get_many([_key(p, t) for p, t in pairs])
    return {(p, t) for p, t in pairs if any(until > now for until in (found.get(_key(p, t)) or {}).values())}
