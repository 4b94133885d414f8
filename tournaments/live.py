"""The event page's live standings as one frame, read once per committed change and sent to every
open page of the event, instead of each page re-reading its standings (one read per tab, 14 ms of a
web process each at 300 players, for every finished game).

The standings travel as one JSON string (`news`), encoded once: the channel layer and every socket
pass the string on as it is, instead of decoding and encoding a tree of 300 ids once per open tab
(about 0.15 ms a tab: `manage.py bench_arena --frames` under cProfile).

A frame carries what every page shows alike (the top of the table, the games in progress) and what
each page needs for its own line: the order of every listed player (his place) and the lines of the
players whose games finished lately (his points and marks change only then, so a page whose own
line is not among them keeps it). `at` (the database's clock when read) orders frames of different
processes: a page drops one older than the newest it has. A page re-reads its fragment only when
the frame says its own part changed (the event's status or round, his own state).
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.db.models import Q

from durak_site.clock import db_now

from . import standings
from .models import Tournament, TournamentGame, TournamentSeat

TOP = 10  # lines at the top of every page; the player's own line is added below
RECENT = timedelta(seconds=10)  # a game that finished this lately sends its players' lines
RECENT_LIMIT = 40
RUNNING_LIMIT = 20


def line(ln: standings.Line) -> dict[str, Any]:
    return {"id": ln.player_id, "nick": ln.nick, "shown": ln.shown, "marks": ln.marks, "state": ln.state,
            "fire": ln.on_fire}


def frame(event_id: int) -> dict[str, Any] | None:
    """The `tournament` frame of the event's standings now (None: no such event)."""
    event = Tournament.objects.filter(pk=event_id).first()
    if event is None:
        return None
    now = db_now()
    lines = standings.lines(event)
    recent = list(TournamentGame.objects.filter(tournament=event, finished_at__gte=now - RECENT)
                  .filter(Q(status=TournamentGame.Status.FINISHED) | Q(status=TournamentGame.Status.VOID))
                  .order_by("-finished_at").values_list("table_id", "player_a_id", "player_b_id")[:RECENT_LIMIT])
    movers = {pid for _t, a, b in recent for pid in (a, b) if pid is not None}
    shown = lines[:TOP] + [ln for ln in lines[TOP:] if ln.player_id in movers]
    return {"type": "tournament", "id": event.pk, "status": event.status, "round": event.current_round,
            "players": len(lines), "order": [ln.player_id for ln in lines], "lines": [line(ln) for ln in shown],
            "recent": [t for t, _a, _b in recent if t is not None],
            "running": running(event), "at": int(now.timestamp() * 1000)}


def running(event: Tournament) -> list[list[Any]]:
    """The games in progress, newest first: `[table_id, nick, …]` with every player in seat order (a
    table of 3 or 4 lists its seats, not only the pairing's first two)."""
    games = list(TournamentGame.objects.filter(tournament=event, status=TournamentGame.Status.PENDING,
                                               table__isnull=False)
                 .order_by("-created_at")
                 .values_list("pk", "table_id", "size", "player_a__nick", "player_b__nick")[:RUNNING_LIMIT])
    seated: dict[int, list[str]] = {}
    pods = [pk for pk, _t, size, _a, _b in games if size > 2]
    if pods:
        for pairing_id, nick in (TournamentSeat.objects.filter(pairing_id__in=pods).order_by("pairing_id", "number")
                                 .values_list("pairing_id", "player__nick")):
            seated.setdefault(pairing_id, []).append(nick)
    return [[table, *(seated.get(pk, []) if size > 2 else [a, b])] for pk, table, size, a, b in games]


def sides(nicks: list[str], pairs: bool) -> list[list[str]]:
    """Who plays against whom at one table, as the page lists them: each player on his own, or for
    pairs the two teams (seats 1 and 3 against 2 and 4). standings.js draws the frames the same way."""
    if pairs and len(nicks) == 4:
        return [[nicks[0], nicks[2]], [nicks[1], nicks[3]]]
    return [[nick] for nick in nicks]


def news(event_id: int, data: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The `tournament` frame as it is sent: the routing fields, and the standings (with `data`,
    e.g. `finished`) as one JSON string."""
    found = frame(event_id)
    if found is None:
        return None
    body = {k: v for k, v in found.items() if k not in ("type", "id")} | (data or {})
    return {"type": "tournament", "id": found["id"], "standings": json.dumps(body, separators=(",", ":"),
                                                                           ensure_ascii=False)}
