"""The matcher: forms every group the waiting queue allows (social/matching.py, the pure rule) and
seats it at a new table, in one transaction per run. Runs on each join (social/queue.py) and from the
deadline sweep (social/deadlines.py: the periodic re-match).

Exactness under concurrency: a matcher locks the waiting requests it looks at with
``select_for_update(skip_locked=True)``, so two matchers running at once see disjoint sets and
never seat one player twice; a request a matcher skipped is matched by the next join or the next
sweep. A party whose other half another matcher holds is not seen whole, so it is left whole
(matching.units); the group's rows become MATCHED in one statement.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.urls import reverse

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site import ratelimit
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby import services as lobby_services
from lobby.models import Seat, Table
from ratings.models import PlayerGame

from . import dodges, matching, notify, people, queue_news, search_rows
from .models import SearchRequest

log = logging.getLogger(__name__)

MATCH_LIMIT = 500  # waiting requests one matcher looks at
PAIR_WINDOW = timedelta(days=1)


def _candidates(rows: list[SearchRequest], now) -> list[matching.Candidate]:
    ids = [r.player_id for r in rows]
    addresses = dict(Player.objects.filter(pk__in=ids)
                     .values_list("pk", "last_address"))
    avoid = people.avoid_map(ids)
    for pid, rested in dodges.resting_pairs(ids).items():  # a dodged pair is not matched again at once
        avoid.setdefault(pid, set()).update(rested)
    limits = pairs_at_limit([r.player_id for r in rows if r.rated])
    return [matching.Candidate(
        id=r.pk, player_id=r.player_id, rating=r.rating, waited=(now - r.queued_at).total_seconds(),
        mode=r.mode, variant=r.variant, players=r.players, deck=r.deck, turn_seconds=r.turn_seconds, rated=r.rated,
        bot_fill=r.bot_fill, address=addresses.get(r.player_id) or "", avoid=avoid.get(r.player_id, set()),
        at_pair_limit=limits.get(r.player_id, set()), party=r.party_id or 0) for r in rows]


def pairs_at_limit(player_ids: list[int]) -> dict[int, set[int]]:
    """Pairs among these players who played their daily share of rated games together (ratings'
    anti-farming rule, RATINGS_PAIR_GAMES_PER_DAY): one query over the day's rated lines."""
    if len(player_ids) < 2:
        return {}
    since = db_now() - PAIR_WINDOW
    lines = (PlayerGame.objects.filter(player_id__in=player_ids, record__rated=True, record__voided_at__isnull=True,
                                       finished_at__gt=since).values_list("record_id", "player_id"))
    by_game: dict[int, list[int]] = {}
    for record_id, pid in lines:
        by_game.setdefault(record_id, []).append(pid)
    together: dict[tuple[int, int], int] = {}
    for pids in by_game.values():
        for a in pids:
            for b in pids:
                if a < b:
                    together[(a, b)] = together.get((a, b), 0) + 1
    out: dict[int, set[int]] = {}
    for (a, b), n in together.items():
        if n >= settings.RATINGS_PAIR_GAMES_PER_DAY:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def _may_open_bot_table(host) -> bool:
    """A bot-filled match opens a new table for its first player: the lobby's limits of new tables
    per player and per address count it (the same windows as «Создать стол»)."""
    return (ratelimit.within("new-table", host.pk, settings.TABLE_LIMIT_PER_ACCOUNT)
            and ratelimit.within("new-table-address", host.last_address or "unknown",
                                 settings.TABLE_LIMIT_PER_ADDRESS))


def match() -> int:
    """Form every group the waiting queue allows now and seat it. Returns how many tables were made."""
    made = 0
    try:
        with transaction.atomic():
            rows = list(SearchRequest.objects.select_for_update(skip_locked=True)
                        .filter(status=SearchRequest.Status.WAITING).order_by("queued_at", "pk")[:MATCH_LIMIT])
            if not rows:
                return 0
            now = db_now()
            by_id = {r.pk: r for r in rows}
            for group, fill in matching.groups(_candidates(rows, now)):
                settings_ = matching.table_settings(group, fill)
                seating = matching.seating(group, settings_["seats_count"], settings_["preset"] == matching.PAIRS_MODE)
                host = seating[0] or group[0]
                if fill and not _may_open_bot_table(by_id[host.id].player):
                    continue  # a bot-filled table is a new table of his: he waits for people instead
                if _seat_group([by_id[c.id] if c else None for c in seating], settings_, now):
                    made += 1
    except DatabaseError:
        log.warning("social: a matcher gave way (lock or deadlock); the next sweep retries", exc_info=True)
    return made


def _seat_group(seating: list[SearchRequest | None], table_settings: dict, now) -> bool:
    """Make the table of one group and seat everyone where `seating` says (None: a bot), the first
    seat's player as its host (a savepoint: a refusal leaves the queue as it was)."""
    requests = [r for r in seating if r is not None]
    players = [r.player for r in requests]
    host = players[0]
    try:
        with transaction.atomic():
            table = lobby_services.create_table(
                host, preset=table_settings["preset"], seats_count=table_settings["seats_count"],
                turn_seconds=table_settings["turn_seconds"], variant=table_settings["variant"],
                deck_size=table_settings["deck_size"], rated=table_settings["rated"])
            for number, r in enumerate(seating[1:], start=2):
                if r is not None:
                    lobby_services.sit(table.pk, r.player, number)
                else:
                    lobby_services.add_bot(table.pk, host, number, lobby_services.QUICK_PLAY_LEVEL)
            lobby_services.lock_as_matched(table.pk)
            SearchRequest.objects.filter(pk__in=[r.pk for r in requests]).update(
                status=SearchRequest.Status.MATCHED, table=table,
                arrive_deadline=now + timedelta(seconds=search_rows.ARRIVE_SECONDS))
    except ServiceError as exc:
        log.info("social: group %s not seated: %s", [r.pk for r in requests], exc.code)
        if exc.code in ("banned", "in_game"):  # this one cannot play now: he leaves the queue
            _drop_unplayable(requests)
        return False
    url = reverse("lobby:table", args=[table.pk])
    notify.tell_many([p.pk for p in players], "match", table_id=table.pk, url=url)
    queue_news.changed()
    return True


def _drop_unplayable(requests: list[SearchRequest]) -> None:
    for r in requests:
        try:
            ensure_can_play(r.player)
            if Seat.objects.filter(player_id=r.player_id, in_game=True, table__status=Table.Status.PLAYING).exists():
                raise ServiceError("in_game", name="")
        except ServiceError:
            n, partners = search_rows.end_waiting(SearchRequest.objects.filter(pk=r.pk))
            if n:
                notify.tell(r.player_id, "search_ended")
            notify.tell_many(partners, "search_ended", reason="partner")
