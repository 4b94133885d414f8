"""Dodging: a matched player who does not come to the table (no_show) or stands up before the deal
(countdown_exit) is recorded (stated on the rules page):

- his next search waits WAIT_FIRST seconds, doubled for each further dodge within MEMORY (at most
  WAIT_MAX), so refusing opponents one after another until a weak one comes costs ever more time;
- the pair rests: he is not matched with the players he left waiting for PAIR_REST;
- his reliability mark counts each dodge like a game left (social.reliability).

This module is the only writer of Dodge.
"""

from __future__ import annotations

import math
from datetime import timedelta

from durak_site.clock import db_now
from durak_site.errors import ServiceError

from .models import Dodge

WAIT_FIRST = 30  # seconds before the next search after a first dodge
WAIT_MAX = 30 * 60
MEMORY = timedelta(hours=24)  # dodges that make the wait grow
PAIR_REST = timedelta(hours=1)  # a dodged pair is not matched again for this long
PAIR_SCAN = 5000  # recent dodges one matcher reads (a bound on its work)


def record(player_id: int, kind: str, against) -> Dodge:
    return Dodge.objects.create(player_id=player_id, kind=kind, against=sorted({int(p) for p in against}),
                                created_at=db_now())


def wait_left(player_id: int) -> int:
    """Seconds before he may search again (0: now)."""
    now = db_now()
    recent = list(Dodge.objects.filter(player_id=player_id, created_at__gt=now - MEMORY)
                  .order_by("-created_at").values_list("created_at", flat=True)[:16])
    if not recent:
        return 0
    wait = min(WAIT_FIRST * 2 ** (len(recent) - 1), WAIT_MAX)
    left = (recent[0] + timedelta(seconds=wait) - now).total_seconds()
    return max(0, math.ceil(left))


def ensure_may_search(player_id: int) -> None:
    seconds = wait_left(player_id)
    if seconds:
        raise ServiceError("search_wait", seconds=seconds)


def resting_pairs(player_ids) -> dict[int, set[int]]:
    """For each of these players, the players he dodged or who dodged him within PAIR_REST."""
    ids = set(player_ids)
    out: dict[int, set[int]] = {}
    rows = (Dodge.objects.filter(created_at__gt=db_now() - PAIR_REST).order_by("-created_at")
            .values_list("player_id", "against")[:PAIR_SCAN])
    for dodger, against in rows:
        for victim in against or ():
            if dodger in ids or victim in ids:
                out.setdefault(dodger, set()).add(victim)
                out.setdefault(victim, set()).add(dodger)
    return out
