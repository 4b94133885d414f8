"""Who is online: the only writer of Presence. A player is online while any of his tabs has its
site socket open (and one of them pinged within PRESENCE_STALE seconds: a dead process's counts
are not believed for ever).

The lobby's list is computed at most once a second for everyone (the shared cache) and announced
with its frame, and each viewer's socket sends it at most once a second, whatever the churn.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Now
from django.urls import reverse

from accounts import sessions
from durak_site.clock import db_now
from game import protocol
from lobby import guards
from lobby.models import Seat, Table
from ratings.models import START_RATING, Rating

from . import notify, reliability
from .announce import Announcer
from .models import Presence, SearchRequest
from .protocol import SITE
from .queue import PRESENCE_STALE

LIST_LIMIT = 100
SUMMARY_KEY = "social:online-summary"
SUMMARY_SECONDS = 1


def _stale_cutoff():
    return db_now() - timedelta(seconds=PRESENCE_STALE)


def opened(player_id: int) -> int:
    """One more tab of his; a count nobody refreshed for PRESENCE_STALE seconds starts again at one."""
    now = db_now()
    fresh = Case(When(seen_at__lt=_stale_cutoff(), then=Value(1)), default=F("sockets") + 1)
    if not Presence.objects.filter(pk=player_id).update(sockets=fresh, seen_at=now, changed_at=now):
        try:
            with transaction.atomic():
                Presence.objects.create(player_id=player_id, sockets=1, seen_at=now, changed_at=now)
        except IntegrityError:
            Presence.objects.filter(pk=player_id).update(sockets=F("sockets") + 1, seen_at=now, changed_at=now)
    _changed()
    return Presence.objects.filter(pk=player_id).values_list("sockets", flat=True).first() or 0


def closed(player_id: int) -> int:
    """One tab of his closed; returns how many are still open (0: he is offline)."""
    now = db_now()
    Presence.objects.filter(pk=player_id, sockets__gt=0).update(sockets=F("sockets") - 1, changed_at=now)
    left = Presence.objects.filter(pk=player_id).values_list("sockets", flat=True).first() or 0
    if left == 0:
        _changed()
    return left


def beat(player_id: int) -> None:
    """His tabs are still there (one UPDATE on the database's clock)."""
    beat_many([player_id])


def beat_many(player_ids) -> dict[int, int]:
    """The tabs of these players are still there: one UPDATE for all of them (a process's site
    sockets beat together, social/beats.py); returns each one's session generation."""
    ids = list(player_ids)
    Presence.objects.filter(pk__in=ids).update(seen_at=Now())
    return sessions.generations(ids)


def is_online(player_id: int) -> bool:
    return Presence.objects.filter(pk=player_id, sockets__gt=0, seen_at__gte=_stale_cutoff()).exists()


def online_ids() -> set[int]:
    return set(Presence.objects.filter(sockets__gt=0, seen_at__gte=_stale_cutoff()).values_list("player_id", flat=True))


def _changed() -> None:
    """The online list changed: lobby viewers' sockets get it (each at most once a second)."""
    transaction.on_commit(_after_change)


def _after_change() -> None:
    """Forget the list and announce it: read once for every lobby socket, at most once a second per
    process (2,000 tabs opening would otherwise send every lobby socket a message per tab)."""
    cache.delete(SUMMARY_KEY)
    _online.changed()


def _online_news() -> dict:
    return {"text": protocol.encode(SITE, {"type": "online", **summary()})}  # social/protocol.py `Online`


_online = Announcer(notify.ONLINE_GROUP, "site.online", _online_news)


def statuses(player_ids: Iterable[int]) -> dict[int, dict[str, str | None]]:
    """lobby / searching / playing (with a watch link for a public game) for each player. A matched
    player stays "searching" until his game is dealt: who left the search at the moment one was
    matched would name his opponent."""
    ids = list(player_ids)
    out: dict[int, dict[str, str | None]] = {pid: {"status": "lobby"} for pid in ids}
    matching = (Q(status__in=[SearchRequest.Status.WAITING, SearchRequest.Status.MATCHED])
                | Q(status=SearchRequest.Status.SEATED, table__matched=True,
                    table__status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN]))
    for pid in SearchRequest.objects.filter(matching, player_id__in=ids).values_list("player_id", flat=True):
        out[pid] = {"status": "searching"}
    for pid, table_id, private in (Seat.objects.filter(player_id__in=ids, in_game=True,
                                                       table__status=Table.Status.PLAYING)
                                   .values_list("player_id", "table_id", "table__private")):
        out[pid] = {"status": "playing", "watch": None if private else reverse("lobby:table", args=[table_id])}
    return out


PAGE_LIMIT = 200  # the online page's list (`/people/online/`): a nick search narrows a longer one


def online_people(query: str = "") -> tuple[list[dict], int]:
    """The online page's rows (as summary()'s players), nicks containing `query`, and how many
    match in all (the list stops at PAGE_LIMIT)."""
    rows = Presence.objects.filter(sockets__gt=0, seen_at__gte=_stale_cutoff())
    if query:
        rows = rows.filter(player__nick__icontains=query)
    total = rows.count()
    shown = list(rows.select_related("player").order_by("player__nick")[:PAGE_LIMIT])
    ids = [r.player_id for r in shown]
    ratings = dict(Rating.objects.filter(player_id__in=ids).values_list("player_id", "value"))
    states = statuses(ids)
    marks = reliability.marks(ids)
    return [{"id": r.player_id, "nick": r.player.nick, "rating": ratings.get(r.player_id, START_RATING),
             "reliability": marks[r.player_id], **states[r.player_id]} for r in shown], total


def summary_for(viewer) -> dict:
    """The online block as `viewer` may see it: nobody by name to an anonymous visitor (the
    counts only), and nobody who blocked him (lobby.guards.hidden_players)."""
    data = summary()
    if viewer is None or not viewer.is_authenticated:
        return {**data, "players": []}
    hidden = guards.hidden_players(viewer.pk)
    if not hidden:
        return data
    return {**data, "players": [p for p in data["players"] if p["id"] not in hidden]}


def summary() -> dict:
    """The lobby's online block: counts and the list (nick, rating, status, reliability)."""
    cached = cache.get(SUMMARY_KEY)
    if cached is not None:
        return cached
    rows = list(Presence.objects.filter(sockets__gt=0, seen_at__gte=_stale_cutoff())
                .select_related("player").order_by("player__nick")[:LIST_LIMIT])
    ids = [r.player_id for r in rows]
    total = Presence.objects.filter(sockets__gt=0, seen_at__gte=_stale_cutoff()).count()
    ratings = dict(Rating.objects.filter(player_id__in=ids).values_list("player_id", "value"))
    states = statuses(ids)
    marks = reliability.marks(ids)
    players = [{"id": r.player_id, "nick": r.player.nick, "rating": ratings.get(r.player_id, START_RATING),
                "reliability": marks[r.player_id], **states[r.player_id]} for r in rows]
    online = Presence.objects.filter(sockets__gt=0, seen_at__gte=_stale_cutoff()).values("player_id")
    in_games = Seat.objects.filter(in_game=True, table__status=Table.Status.PLAYING, player_id__in=online).count()
    data = {"online": total, "playing": in_games, "players": players}
    cache.set(SUMMARY_KEY, data, SUMMARY_SECONDS)
    return data
