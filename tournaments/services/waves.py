"""Arena pairing waves: the pool lives in Postgres (Entry rows in state "waiting"), so a worker killed
mid-wave loses nobody: its transaction rolls back and the rows are still waiting.

Exactness: a wave holds its event's row locked (``skip_locked``: a second pairer of the same event
pairs nothing) and the waiting entries it reads, and moves each paired entry to "playing" in the
same transaction (a player is in at most one game of an event). A game's end locks the same event
row to score its pairing: it waits for a running wave, and its players are in the next one.

A pairing makes a two-seat table through lobby.services (the event's rules, no bots, a leaver
loses; locked as a matched table, so nobody changes them in the waiting room), seats both players
and tells their tabs to go there (the site socket's `match`, as the quick-play search does);
arriving on the table page presses «Готово». Who has not arrived within ARRIVE_SECONDS: in an
arena he is paused and it counts as an abandon; in a Swiss he loses the round. (A Swiss round's
pairings are made in rounds.py, seated here.)

When: an arena's next wave is a deadline column, Tournament.next_wave_at (tournaments/deadlines.py).
Whatever puts a player in the pool asks for one (``request_wave``: a game's end a few seconds ahead,
so games ending together are paired together; a late join, a return, the start at once); each wave
sets the next from what it left: a returner's wait running out, a seat about to be freed, more than
one wave can take. Players left waiting only because the rules keep them apart ask for nothing:
the next player back in the pool does. A pairing's reminder is a column too (remind_at).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import DateTimeField, Exists, Min, OuterRef, Value
from django.db.models.functions import Coalesce, Least
from django.urls import reverse

from accounts import services as accounts_services
from accounts.models import Player
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby import services as lobby_services
from lobby.models import Seat, Table

from .. import announce, pairing, standings
from ..models import Entry, Tournament, TournamentGame, TournamentSeat

log = logging.getLogger(__name__)

ARRIVE_SECONDS = 30
NO_PAIRING_BEFORE_END = timedelta(minutes=1)  # an arena pairs nobody in its last minute
WAVE_LIMIT = 2000  # waiting entries one wave looks at
WAVE_GATHER = timedelta(seconds=2)  # games that end within this of each other are paired in one wave
WAVE_RETRY = timedelta(seconds=1)  # a seat about to be freed, a seating refused: the wave is tried again
REMIND_EVERY = timedelta(seconds=5)  # a paired player who has not come is told `match` again this often


def one_network(player_ids: list[int], now: Any) -> dict[int, set[int]]:
    """Accounts the club knows as one network (a shared address lately): never paired in an event."""
    since = now - timedelta(days=settings.RATINGS_SHARED_ADDRESS_DAYS)
    out: dict[int, set[int]] = {}
    for a, b in accounts_services.shared_address_pairs(player_ids, since) if len(player_ids) > 1 else ():
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def table_settings(event: Tournament) -> dict[str, Any]:
    return {"preset": "classic", "seats_count": event.seats, "turn_seconds": event.turn_seconds,
            "variant": event.variant, "deck_size": event.deck_size, "cheater": event.cheater, "pairs": event.pairs,
            "disconnect_policy": Table.DisconnectPolicy.LOSE, "name": event.name[:60]}


def seat_pair(event: Tournament, a: Any, b: Any, round_number: int, now: Any) -> TournamentGame | None:
    """The table of one heads-up pairing (seat_table)."""
    return seat_table(event, [a, b], round_number, now)


def seat_table(event: Tournament, players: list[Any], round_number: int, now: Any) -> TournamentGame | None:
    """The table of one pairing, everyone seated in the order given (seats 1, 2, ...; at a pairs
    table 1 and 3 against 2 and 4). A savepoint: a refusal changes nothing; a player who may not
    play at all is paused."""
    try:
        with transaction.atomic():
            table = lobby_services.create_table(players[0], **table_settings(event))
            for number, player in enumerate(players[1:], start=2):
                lobby_services.sit(table.pk, player, number)
            lobby_services.lock_as_matched(table.pk)  # its rules, bots and start are the event's
            pairing = TournamentGame.objects.create(
                tournament=event, round=round_number, table=table, size=len(players), player_a=players[0],
                player_b=players[1], arrive_deadline=now + timedelta(seconds=ARRIVE_SECONDS),
                remind_at=now + REMIND_EVERY, created_at=now)
            if len(players) > 2:
                TournamentSeat.objects.bulk_create([
                    TournamentSeat(pairing=pairing, player=p, number=n, team=(2 - n % 2) if event.pairs else 0)
                    for n, p in enumerate(players, start=1)])
            return pairing
    except ServiceError as exc:
        log.info("tournaments: %s not seated: %s", "–".join(str(p.pk) for p in players), exc.code)
        barred = [p.pk for p in players if _barred(p)]
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


def send_to_tables(games: list[TournamentGame]) -> None:
    _send_to_tables_of(games)


def _send_to_tables_of(games: list[TournamentGame], only: list[int] | None = None) -> None:
    for g in games:
        url = reverse("lobby:table", args=[g.table_id])
        players = [p for p in g.player_ids() if only is None or p in only]
        announce.tell(players, "match", table_id=g.table_id, url=url, tournament=g.tournament_id)


def request_wave(event_id: int, at: datetime) -> None:
    """A running arena's next wave is due by `at` (or earlier, if asked already). In the caller's
    transaction; the UPDATE waits for a wave running now (it holds the event's row), so a request
    made meanwhile lands after that wave's own bookkeeping and is never lost."""
    when = Value(at, output_field=DateTimeField())
    Tournament.objects.filter(pk=event_id, status=Tournament.Status.RUNNING, format="arena").update(
        next_wave_at=Least(Coalesce("next_wave_at", when), when))


def fire_wave(event_id: int) -> None:
    """The registry's firing of Tournament.next_wave_at (the event's row locked): one wave."""
    arena_wave(event_id)


def arena_wave(event_id: int) -> int:
    """Pair the arena's pool now and set its next wave; returns the games made. The event's row is
    locked (skipped if another pairer holds it: that one pairs), so waves of one event never overlap."""
    made: list[TournamentGame] = []
    try:
        with transaction.atomic():
            event = (Tournament.objects.select_for_update(skip_locked=True)
                     .filter(pk=event_id, status=Tournament.Status.RUNNING).first())
            if event is None or not event.is_arena:
                return 0
            now = db_now()
            if event.ends_at and event.ends_at - now < NO_PAIRING_BEFORE_END:
                Tournament.objects.filter(pk=event.pk).update(next_wave_at=None)
                return 0
            rows = list(Entry.objects.select_for_update(skip_locked=True, of=("self",)).select_related("player")
                        .filter(tournament=event, state=Entry.State.WAITING, eligible_at__lte=now)
                        .exclude(_busy_seat()).order_by("eligible_at", "pk")[:WAVE_LIMIT])
            refused = False
            if len(rows) >= event.seats:
                ranks = standings.ranks(event)
                avoid = one_network([r.player_id for r in rows], now)
                pool = [pairing.Waiting(r.player_id, ranks.get(r.player_id, len(ranks) + 1), r.rating,
                                        r.last_opponent_id, (now - r.eligible_at).total_seconds(),
                                        frozenset(avoid.get(r.player_id, ())), frozenset(r.last_table))
                        for r in rows]
                by_player = {r.player_id: r.player for r in rows}
                for table in _tables(event, pool):
                    game = seat_table(event, [by_player[p] for p in table], 0, now)
                    if game is not None:
                        made.append(game)
                    refused = refused or game is None
                playing = [pid for g in made for pid in g.player_ids()]
                Entry.objects.filter(tournament=event, player_id__in=playing).update(state=Entry.State.PLAYING)
            Tournament.objects.filter(pk=event.pk).update(
                next_wave_at=_next_wave(event, now, again=refused or len(rows) >= WAVE_LIMIT))
            if made:
                send_to_tables(made)
                announce.changed(event.pk)
    except DatabaseError:
        log.warning("tournaments: a wave gave way (lock or deadlock); its deadline stays due", exc_info=True)
        return 0
    return len(made)


def _tables(event: Tournament, pool: list[pairing.Waiting]) -> list[tuple[int, ...]]:
    """The wave's tables, each in seat order: heads-up pairs, pods, or two pairs (pairing.py)."""
    if not event.is_table_arena:
        return list(pairing.arena(pool))
    pods = pairing.pods(pool, event.seats)
    return [pairing.pairs_seating(pod) if event.pairs else pod for pod in pods]


def _next_wave(event: Tournament, now: datetime, again: bool) -> datetime | None:
    """What the pool left asks for: a returner's wait running out, a seat about to be freed (or a
    seating refused, a pool bigger than one wave) soon; at a table arena, the moment a table left
    over may sit again (pairing.REPEAT_AFTER); nothing if only the rules keep people apart."""
    waiting = Entry.objects.filter(tournament=event, state=Entry.State.WAITING)
    ready = waiting.filter(eligible_at__lte=now)
    busy = ready.filter(_busy_seat()).exists()
    moments = [now + WAVE_RETRY] if again or busy else []
    later = waiting.filter(eligible_at__gt=now).aggregate(first=Min("eligible_at"))["first"]
    if later is not None:
        moments.append(later)
    if event.is_table_arena and ready.count() >= event.seats:
        repeat = timedelta(seconds=pairing.REPEAT_AFTER)
        latest = ready.order_by("-eligible_at").values_list("eligible_at", flat=True).first()
        if latest is not None and latest + repeat > now:
            moments.append(latest + repeat)
    return min(moments, default=None)


def remind_table(player_id: int, current_table_id: int | None) -> bool:
    """His tab opened a page while a pairing's table waits for him (he has not arrived): `match` again."""
    pending = (TournamentGame.objects.filter(TournamentGame.seating(player_id), status=TournamentGame.Status.PENDING,
                                             table__isnull=False,
                                             table__status__in=(Table.Status.WAITING, Table.Status.COUNTDOWN)))
    if current_table_id is not None:
        pending = pending.exclude(table_id=current_table_id)
    waiting = pending.first()
    if waiting is None or Seat.objects.filter(table_id=cast(int, waiting.table_id), player_id=player_id, ready=True).exists():
        return False
    _send_to_tables_of([waiting], [player_id])
    return True


def fire_reminder(pairing_id: int) -> None:
    """The registry's firing of TournamentGame.remind_at (the pairing's row locked): whoever of its
    players has not come is told `match` again (a `match` sent while his tab was between two pages
    or two sockets is otherwise lost until he opens another page); the next reminder while the
    table still waits for someone, none after."""
    now = db_now()
    found = (TournamentGame.objects.filter(pk=pairing_id, status=TournamentGame.Status.PENDING)
             .select_related("table").first())
    following = None
    if (found is not None and found.table is not None
            and found.table.status in (Table.Status.WAITING, Table.Status.COUNTDOWN)
            and (found.arrive_deadline is None or found.arrive_deadline > now)):
        ready = set(Seat.objects.filter(table_id=found.table.pk, ready=True).values_list("player_id", flat=True))
        absent = [p for p in found.player_ids() if p not in ready]
        if absent:
            log.info("tournaments: table %s still waits for %s: told again", found.table.pk, absent)
            _send_to_tables_of([found], absent)
            following = now + REMIND_EVERY
    TournamentGame.objects.filter(pk=pairing_id).update(remind_at=following)


def arrived(player_id: int, table_id: int) -> bool:
    """He opened his tournament table: «Готово» is pressed for him (the 3-2-1 starts when all have)."""
    found = TournamentGame.objects.filter(table_id=table_id, status=TournamentGame.Status.PENDING).first()
    if found is None or player_id not in found.player_ids():
        return False
    player = Player.objects.filter(pk=player_id).first()
    try:
        lobby_services.set_ready(table_id, player, True)
    except ServiceError as exc:
        log.info("tournaments: arrival at table %s not marked ready: %s", table_id, exc.code)
        return False
    return True
