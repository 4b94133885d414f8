"""Pairing waves: the pool lives in Postgres (Entry rows in state "waiting"), so a worker killed
mid-wave loses nobody: its transaction rolls back and the rows are still waiting.

Exactness: a wave locks the waiting entries it reads with ``select_for_update(skip_locked=True)``,
so two pairers running at once see disjoint pools and never seat a player twice, and it moves each
paired entry to "playing" in the same transaction (a player is in at most one game of an event).
A game that ends while a wave runs touches only "playing" rows, which the wave never locks: its
players are back in the pool for the next wave.

A pairing makes a two-seat table through lobby.services (the event's rules, no bots, a leaver
loses; locked as a matched table, so nobody changes them in the waiting room), seats both players and tells their tabs to go there (the site socket's `match`, as the
quick-play search does); arriving on the table page presses «Готово». Who has not arrived within
ARRIVE_SECONDS: in an arena he is paused and it counts as an abandon; in a Swiss he loses the round.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from accounts import services as accounts_services
from accounts.models import Player
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby import services as lobby_services
from lobby.models import Seat, Table

from .. import announce, pairing, scoring, standings
from ..models import Entry, Tournament, TournamentGame

log = logging.getLogger(__name__)

ARRIVE_SECONDS = 30
NO_PAIRING_BEFORE_END = timedelta(minutes=1)  # an arena pairs nobody in its last minute
WAVE_LIMIT = 2000  # waiting entries one wave looks at


def _avoid(player_ids: list[int], now: Any) -> dict[int, set[int]]:
    """Accounts the club knows as one network (a shared address lately): never paired in an event."""
    since = now - timedelta(days=settings.RATINGS_SHARED_ADDRESS_DAYS)
    out: dict[int, set[int]] = {}
    for a, b in accounts_services.shared_address_pairs(player_ids, since) if len(player_ids) > 1 else ():
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def table_settings(event: Tournament) -> dict[str, Any]:
    return {"preset": "classic", "seats_count": 2, "turn_seconds": event.turn_seconds, "variant": event.variant,
            "deck_size": event.deck_size, "cheater": event.cheater,
            "disconnect_policy": Table.DisconnectPolicy.LOSE, "name": event.name[:60]}


def seat_pair(event: Tournament, a: Any, b: Any, round_number: int, now: Any) -> TournamentGame | None:
    """The table of one pairing, both seated (a savepoint: a refusal changes nothing and says who
    cannot play now, as ServiceError.params["player_id"])."""
    try:
        with transaction.atomic():
            table = lobby_services.create_table(a, **table_settings(event))
            lobby_services.sit(table.pk, b, 2)
            lobby_services.lock_as_matched(table.pk)  # its rules, bots and start are the event's
            return TournamentGame.objects.create(
                tournament=event, round=round_number, table=table, player_a=a, player_b=b,
                arrive_deadline=now + timedelta(seconds=ARRIVE_SECONDS), created_at=now)
    except ServiceError as exc:
        log.info("tournaments: %s–%s not seated: %s", a.pk, b.pk, exc.code)
        barred = [p.pk for p in (a, b) if _barred(p)]
        Entry.objects.filter(tournament=event, player_id__in=barred).update(state=Entry.State.PAUSED)
        return None


def _barred(player: Any) -> bool:
    """He may not play at all now (a ban): paused until he comes back. A seat still in a game is no
    reason: it is freed within moments (the wave leaves him waiting, see _busy_seat)."""
    try:
        accounts_services.ensure_can_play(player)
    except ServiceError:
        return True
    return False


def _busy_seat() -> Exists:
    """His seat at a running game's table still reads "in game". A game's end puts its players back
    in the pool in its own transaction, but their table frees the seats in a hop after that commit
    (lobby's rematch window): a wave in between would fail to seat them. Until then he waits."""
    return Exists(Seat.objects.filter(player_id=OuterRef("player_id"), in_game=True,
                                      table__status=Table.Status.PLAYING))


def _send_to_tables(games: list[TournamentGame]) -> None:
    _send_to_tables_of(games)


def _send_to_tables_of(games: list[TournamentGame], only: list[int] | None = None) -> None:
    for g in games:
        url = reverse("lobby:table", args=[g.table_id])
        players = [p for p in (g.player_a_id, g.player_b_id) if only is None or p in only]
        announce.tell(players, "match", table_id=g.table_id, url=url, tournament=g.tournament_id)


def arena_wave(event_id: int) -> int:
    """Pair the arena's pool now; returns the games made."""
    made: list[TournamentGame] = []
    try:
        with transaction.atomic():
            event = Tournament.objects.filter(pk=event_id, status=Tournament.Status.RUNNING).first()
            now = db_now()
            if event is None or not event.is_arena or (event.ends_at and event.ends_at - now < NO_PAIRING_BEFORE_END):
                return 0
            rows = list(Entry.objects.select_for_update(skip_locked=True, of=("self",)).select_related("player")
                        .filter(tournament=event, state=Entry.State.WAITING, eligible_at__lte=now)
                        .exclude(_busy_seat()).order_by("eligible_at", "pk")[:WAVE_LIMIT])
            if len(rows) < 2:
                return 0
            ranks = standings.ranks(event)
            avoid = _avoid([r.player_id for r in rows], now)
            pool = [pairing.Waiting(r.player_id, ranks.get(r.player_id, len(ranks) + 1), r.rating,
                                    r.last_opponent_id, (now - r.eligible_at).total_seconds(),
                                    frozenset(avoid.get(r.player_id, ()))) for r in rows]
            by_player = {r.player_id: r for r in rows}
            for a, b in pairing.arena(pool):
                game = seat_pair(event, by_player[a].player, by_player[b].player, 0, now)
                if game is not None:
                    made.append(game)
            playing = [pid for g in made for pid in g.player_ids()]
            Entry.objects.filter(tournament=event, player_id__in=playing).update(state=Entry.State.PLAYING)
            if made:
                _send_to_tables(made)
                announce.changed(event.pk)
    except DatabaseError:
        log.warning("tournaments: a wave gave way (lock or deadlock); the next sweep retries", exc_info=True)
        return 0
    return len(made)


def swiss_round(event_id: int) -> int:
    """Start the Swiss' next round: pair everyone still in (by score, no rematch, a bye for the odd
    one); returns the games made. Called by the round's deadline; the event row is locked."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id, status=Tournament.Status.RUNNING).first()
        if event is None or not event.is_swiss:
            return 0
        if event.current_round >= event.rounds:
            return 0
        now = db_now()
        round_number = event.current_round + 1
        rows = list(Entry.objects.select_for_update().select_related("player").filter(tournament=event)
                    .exclude(state__in=(Entry.State.WITHDRAWN, Entry.State.REMOVED)))
        met: dict[int, set[int]] = {}
        for a, b in TournamentGame.objects.filter(tournament=event, player_b__isnull=False).values_list(
                "player_a_id", "player_b_id"):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        avoid = _avoid([r.player_id for r in rows], now)
        players = [pairing.SwissPlayer(r.player_id, r.score, r.rating, frozenset(met.get(r.player_id, ())),
                                       r.byes > 0, frozenset(avoid.get(r.player_id, ()))) for r in rows]
        pairs, byes = pairing.swiss(players)
        by_player = {r.player_id: r for r in rows}
        made = []
        for a, b in pairs:
            game = seat_pair(event, by_player[a].player, by_player[b].player, round_number, now)
            if game is None:  # one of them cannot play now: both lose nothing, the round goes on
                continue
            made.append(game)
        for pid in byes:
            TournamentGame.objects.create(tournament=event, round=round_number, player_a_id=pid,
                                          status=TournamentGame.Status.BYE, result_a=scoring.BYE,
                                          points_a=scoring.swiss(scoring.BYE), finished_at=now)
            entry = by_player[pid]
            entry.score += scoring.swiss(scoring.BYE)
            entry.byes += 1
            entry.marks += scoring.BYE
            entry.save(update_fields=["score", "byes", "marks"])
        playing = [pid for g in made for pid in g.player_ids()]
        Entry.objects.filter(tournament=event, player_id__in=playing).update(state=Entry.State.PLAYING)
        event.current_round = round_number
        event.round_deadline = None
        event.save(update_fields=["current_round", "round_deadline"])
        _send_to_tables(made)
        announce.changed(event.pk)
    return len(made)


def remind_table(player_id: int, current_table_id: int | None) -> bool:
    """His tab opened a page while a pairing's table waits for him (he has not arrived): `match` again."""
    pending = (TournamentGame.objects.filter(Q(player_a_id=player_id) | Q(player_b_id=player_id),
                                             status=TournamentGame.Status.PENDING, table__isnull=False,
                                             table__status__in=(Table.Status.WAITING, Table.Status.COUNTDOWN)))
    if current_table_id is not None:
        pending = pending.exclude(table_id=current_table_id)
    waiting = pending.first()
    if waiting is None or Seat.objects.filter(table_id=cast(int, waiting.table_id), player_id=player_id, ready=True).exists():
        return False
    _send_to_tables_of([waiting], [player_id])
    return True


REMIND_EVERY = 5  # seconds: a paired player who has not come is told `match` again this often


def remind_unarrived(now: Any) -> int:
    """Pairings waiting for a player who has not come: his tabs are told again (a `match` sent while
    a tab was between two sockets, or two pages, is otherwise lost until he opens another page)."""
    told = 0
    due = (TournamentGame.objects.filter(status=TournamentGame.Status.PENDING, arrive_deadline__gt=now,
                                         created_at__lte=now - timedelta(seconds=REMIND_EVERY - 1),
                                         table__status__in=(Table.Status.WAITING, Table.Status.COUNTDOWN)))
    for g in due:
        if int((now - g.created_at).total_seconds()) % REMIND_EVERY:
            continue
        ready = set(Seat.objects.filter(table_id=cast(int, g.table_id), ready=True).values_list("player_id", flat=True))
        absent = [p for p in g.player_ids() if p not in ready]
        if absent:
            log.info("tournaments: table %s still waits for %s: told again", g.table_id, absent)
            _send_to_tables_of([g], absent)
            told += len(absent)
    return told


def arrived(player_id: int, table_id: int) -> bool:
    """He opened his tournament table: «Готово» is pressed for him (the 3-2-1 starts when both have)."""
    found = TournamentGame.objects.filter(table_id=table_id, status=TournamentGame.Status.PENDING).first()
    if found is None or player_id not in (found.player_a_id, found.player_b_id):
        return False
    player = Player.objects.filter(pk=player_id).first()
    try:
        lobby_services.set_ready(table_id, player, True)
    except ServiceError as exc:
        log.info("tournaments: arrival at table %s not marked ready: %s", table_id, exc.code)
        return False
    return True
