"""The search queue: the only writer of SearchRequest. Matching runs on each join and from the
deadline sweep (social/deadlines.py: arrivals, players gone, the periodic re-match).

Exactness under concurrency: a matcher locks the waiting requests it looks at with
``select_for_update(skip_locked=True)``, so two matchers running at once see disjoint sets and
never seat one player twice; a request a matcher skipped is matched by the next join or the next
sweep. A player has at most one live request (a partial unique constraint).

A matched table is made through lobby.services (create, sit, bots); each player's site sockets are
told to go to it. His arrival at the table page (the site socket's `page` message) presses «Готово»
for him, so the lobby's 3-2-1 starts when the last one arrives. Who does not arrive within
ARRIVE_SECONDS is dropped; the others go back to the queue at their old place (its head).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site import ratelimit
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.models import Game
from lobby import services as lobby_services
from lobby.models import Seat, Table
from ratings.models import START_RATING, PlayerGame, Rating

from . import dodges, matching, notify, people, queue_news
from .models import ANY, Dodge, Presence, SearchRequest

log = logging.getLogger(__name__)

ARRIVE_SECONDS = 10
LEAVE_GRACE_SECONDS = 5  # no tab open for this long: he left the queue (a page change reopens at once)
MATCH_LIMIT = 500  # waiting requests one matcher looks at
PAIR_WINDOW = timedelta(days=1)
DEFAULTS = {"mode": matching.DEFAULT_MODE, "variant": "", "players": ANY, "deck": 36, "turn_seconds": matching.DEFAULT_TIMER, "rated": True,
            "bot_fill": 30}
PRESENCE_STALE = 90  # seconds without a beat (every 35 s) from any of his tabs: his count is not believed any more
QUEUE_GROUP = queue_news.QUEUE_GROUP
LIVE = (SearchRequest.Status.WAITING, SearchRequest.Status.MATCHED)


# ---------------------------------------------------------------- choices


def _as_int(value, allowed: tuple, code: str) -> int:
    if value in ("", None, "any"):
        return ANY
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ServiceError(code) from None
    if number != ANY and number not in allowed:
        raise ServiceError(code)
    return number


def clean_choices(raw: dict) -> dict:
    """The search's choices from a form or a message (strings or numbers), or a refusal."""
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise ServiceError("unknown_setting", key=sorted(unknown)[0])
    mode = raw.get("mode", DEFAULTS["mode"])
    if mode not in matching.MODES:
        raise ServiceError("search_bad_mode")
    variant = raw.get("variant", DEFAULTS["variant"])
    if variant in ("any", None):
        variant = ""
    if variant not in ("", *matching.VARIANTS):
        raise ServiceError("search_bad_variant")
    choices = {
        "mode": mode,
        "variant": variant,
        "players": _as_int(raw.get("players", DEFAULTS["players"]), matching.PLAYERS, "bad_seats"),
        "deck": _as_int(raw.get("deck", DEFAULTS["deck"]), matching.DECKS, "search_bad_deck"),
        "turn_seconds": _as_int(raw.get("turn_seconds", DEFAULTS["turn_seconds"]), matching.TIMERS, "bad_timer"),
        "bot_fill": _as_int(raw.get("bot_fill", DEFAULTS["bot_fill"]), matching.BOT_FILLS, "search_bad_bot_fill"),
    }
    rated = raw.get("rated", DEFAULTS["rated"])
    if isinstance(rated, str):
        if rated not in ("0", "1", "true", "false", "on", "off"):
            raise ServiceError("search_bad_rated")
        rated = rated in ("1", "true", "on")
    if not isinstance(rated, bool):
        raise ServiceError("search_bad_rated")
    choices["rated"] = rated
    if mode == matching.PAIRS_MODE:  # two against two: four players, whatever else was left open
        if choices["players"] not in (ANY, matching.PAIRS_SEATS):
            raise ServiceError("pairs_need_four_seats")
        choices["players"] = matching.PAIRS_SEATS
    if choices["players"] and choices["deck"] and choices["players"] > matching.MAX_PLAYERS_FOR_DECK[choices["deck"]]:
        raise ServiceError("deck_too_small")
    return choices


def last_choices(player) -> dict:
    """What he chose last time (quick play repeats it), or the defaults."""
    last = SearchRequest.objects.filter(player=player).order_by("-created_at", "-pk").first()
    return last.choices() if last is not None else dict(DEFAULTS)


def quick_choices(player, mode) -> dict:
    """Quick play in one mode (the lobby's mode buttons): his last choices in that mode, or a refusal."""
    choices = {**last_choices(player), "mode": mode}
    if mode == matching.PAIRS_MODE:
        choices["players"] = ANY  # pairs seat four, whatever he chose for another mode
    return clean_choices(choices)


# ---------------------------------------------------------------- join / cancel


def live_request(player_id: int) -> SearchRequest | None:
    return SearchRequest.objects.filter(player_id=player_id, status__in=LIVE).first()


def join(player, match_now: bool = True, **raw) -> SearchRequest:
    """Enter the search (idempotent: a live request is returned as it is). Matching runs at once."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)
    choices = clean_choices(raw) if raw else last_choices(player)
    if live_request(player.pk) is None:
        dodges.ensure_may_search(player.pk)  # he left a match: his next search waits
        if choices["rated"]:
            _ensure_address_free(player)
    playing = (Seat.objects.filter(player=player, in_game=True, table__status=Table.Status.PLAYING)
               .select_related("table").first())
    if playing is not None:
        raise ServiceError("in_game", name=str(playing.table))
    rating = Rating.objects.filter(player=player).values_list("value", flat=True).first() or START_RATING
    try:
        with transaction.atomic():
            now = db_now()  # the queue's order and every wait are read on the database's clock
            request = SearchRequest.objects.create(player=player, rating=rating, queued_at=now, created_at=now,
                                                   **choices)
    except IntegrityError:
        found = live_request(player.pk)
        if found is None:  # it ended between the insert and the read: try once more
            found = SearchRequest.objects.create(player=player, rating=rating, **choices)
        return found
    queue_news.changed()
    if match_now:
        match()
        request.refresh_from_db()
    return request


def _ensure_address_free(player) -> None:
    """One rated search per address: two accounts on one address are never matched in a rated
    search, so a second one there could only wait (puppets that fill the queue and the matcher)."""
    address = Player.objects.filter(pk=player.pk).values_list("last_address", flat=True).first()
    if address and (SearchRequest.objects.filter(status__in=LIVE, rated=True, player__last_address=address)
                    .exclude(player_id=player.pk).exists()):
        raise ServiceError("search_address_busy")


def cancel(player) -> bool:
    """«Отмена»: leave the queue. False when he was not searching (nothing changes)."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    with transaction.atomic():
        n = (SearchRequest.objects.filter(player=player, status=SearchRequest.Status.WAITING)
             .update(status=SearchRequest.Status.CANCELLED, finished_at=db_now()))
    if n:
        queue_news.changed()
    return bool(n)


def on_player_banned(sender, player_id: int, **kwargs) -> None:
    """accounts.signals.player_banned: his search ends (the lobby frees his seats)."""
    end_search_of(player_id)


def end_search_of(player_id: int) -> bool:
    """His waiting search ends (a ban); a matched one is dropped by the no-show rule, which
    requeues the others."""
    with transaction.atomic():
        n = (SearchRequest.objects.filter(player_id=player_id, status=SearchRequest.Status.WAITING)
             .update(status=SearchRequest.Status.CANCELLED, finished_at=db_now()))
    if n:
        queue_news.changed()
        notify.tell(player_id, "search_ended")
    return bool(n)


def others_searching(request: SearchRequest) -> int:
    """Others waiting whose choices could meet his (ignoring ratings)."""
    news = queue_news.read()
    return queue_news.others(news["modes"], request.choices(), avoid_of(request.player_id), news["rows"])


def avoid_of(player_id: int) -> set[int]:
    """The players he can never be matched with (a block either way): not counted as searching for him."""
    return people.avoid_map([player_id]).get(player_id, set())


# ---------------------------------------------------------------- matching


def _candidates(rows: list[SearchRequest], now) -> list[matching.Candidate]:
    ids = [r.player_id for r in rows]
    addresses = dict(Player.objects.filter(pk__in=ids)
                     .values_list("pk", "last_address"))
    avoid = people.avoid_map(ids)
    for pid, rested in dodges.resting_pairs(ids).items():  # a dodged pair is not matched again at once
        avoid.setdefault(pid, set()).update(rested)
    limits = _pairs_at_limit([r.player_id for r in rows if r.rated])
    return [matching.Candidate(
        id=r.pk, player_id=r.player_id, rating=r.rating, waited=(now - r.queued_at).total_seconds(),
        mode=r.mode, variant=r.variant, players=r.players, deck=r.deck, turn_seconds=r.turn_seconds, rated=r.rated,
        bot_fill=r.bot_fill, address=addresses.get(r.player_id) or "", avoid=avoid.get(r.player_id, set()),
        at_pair_limit=limits.get(r.player_id, set())) for r in rows]


def _pairs_at_limit(player_ids: list[int]) -> dict[int, set[int]]:
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
                if fill and not _may_open_bot_table(by_id[group[0].id].player):
                    continue  # a bot-filled table is a new table of his: he waits for people instead
                if _seat_group([by_id[c.id] for c in group], matching.table_settings(group, fill), fill, now):
                    made += 1
    except DatabaseError:
        log.warning("social: a matcher gave way (lock or deadlock); the next sweep retries", exc_info=True)
    return made


def _seat_group(requests: list[SearchRequest], table_settings: dict, fill: bool, now) -> bool:
    """Make the table of one group and seat everyone (a savepoint: a refusal leaves the queue as it was)."""
    players = [r.player for r in requests]
    try:
        with transaction.atomic():
            table = lobby_services.create_table(
                players[0], preset=table_settings["preset"], seats_count=table_settings["seats_count"],
                turn_seconds=table_settings["turn_seconds"], variant=table_settings["variant"],
                deck_size=table_settings["deck_size"], rated=table_settings["rated"])
            for number, player in enumerate(players[1:], start=2):
                lobby_services.sit(table.pk, player, number)
            if fill:
                for number in range(len(players) + 1, table_settings["seats_count"] + 1):
                    lobby_services.add_bot(table.pk, players[0], number, lobby_services.QUICK_PLAY_LEVEL)
            lobby_services.lock_as_matched(table.pk)
            SearchRequest.objects.filter(pk__in=[r.pk for r in requests]).update(
                status=SearchRequest.Status.MATCHED, table=table, arrive_deadline=now + timedelta(seconds=ARRIVE_SECONDS))
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
            SearchRequest.objects.filter(pk=r.pk).update(status=SearchRequest.Status.CANCELLED, finished_at=db_now())
            notify.tell(r.player_id, "search_ended")


# ---------------------------------------------------------------- arrival and no-shows


def arrived(player_id: int, table_id: int) -> bool:
    """He opened the matched table's page: «Готово» is pressed for him (the 3-2-1 starts when the
    last one arrives). False when he has no match at that table (nothing changes)."""
    with transaction.atomic():
        request = (SearchRequest.objects.select_for_update()
                   .filter(player_id=player_id, table_id=table_id, status=SearchRequest.Status.MATCHED).first())
        if request is None:
            return False
        SearchRequest.objects.filter(pk=request.pk).update(status=SearchRequest.Status.SEATED, finished_at=db_now())
        try:
            lobby_services.set_ready(table_id, request.player, True)
        except ServiceError as exc:
            log.info("social: arrival at table %s not marked ready: %s", table_id, exc.code)
    return True


def fire_no_shows(table_id: int) -> int:
    """The arrival time of a match ran out (the "arrival" deadline, social/deadlines.py, with the
    table row locked): drop who did not come, requeue the others at their old place. Returns how
    many were dropped (0: everyone came in time, or another firing did it)."""
    now = db_now()
    with transaction.atomic():
        absent = list(SearchRequest.objects.select_for_update(skip_locked=True).select_related("player")
                      .filter(table_id=table_id, status=SearchRequest.Status.MATCHED, arrive_deadline__lte=now))
        if not absent:
            return 0
        present = list(SearchRequest.objects.select_for_update().select_related("player")
                       .filter(table_id=table_id, status=SearchRequest.Status.SEATED))
        everyone = {r.player_id for r in [*absent, *present]}
        for r in absent:
            dodges.record(r.player_id, Dodge.Kind.NO_SHOW, everyone - {r.player_id})
        _requeue_and_stand(table_id, dropped=absent, requeued=present, now=now)
    queue_news.changed()
    return len(absent)


def _requeue_and_stand(table_id: int, dropped: list[SearchRequest], requeued: list[SearchRequest], now) -> None:
    """A match failed: the dropped searches end, the others go back to the queue at their old place
    (queued_at kept: the head), and everyone stands up from the table (which closes: no game began).
    The rows change first, so the lobby's news of each stand finds no match left to judge."""
    SearchRequest.objects.filter(pk__in=[r.pk for r in dropped]).update(
        status=SearchRequest.Status.DROPPED, finished_at=now)
    SearchRequest.objects.filter(pk__in=[r.pk for r in requeued]).update(
        status=SearchRequest.Status.WAITING, table=None, arrive_deadline=None, finished_at=None)
    for r in [*dropped, *requeued]:
        with contextlib.suppress(ServiceError):  # already up, or the table closed
            lobby_services.stand(table_id, r.player)
    notify.tell_many([r.player_id for r in dropped], "search_ended", reason="no_show")
    notify.tell_many([r.player_id for r in requeued], "requeued", url=reverse("social:search"))


def on_matched_seat_left(sender, table_id: int, player_id: int, **kwargs) -> None:
    """lobby.signals.matched_seat_left: a matched player stood up before the deal (during 3-2-1, or
    before he came): a dodge; the others go back to the head of the queue."""
    with transaction.atomic():
        mine = (SearchRequest.objects.select_for_update()
                .filter(table_id=table_id, player_id=player_id,
                        status__in=(SearchRequest.Status.MATCHED, SearchRequest.Status.SEATED)).first())
        if mine is None or Game.objects.filter(table_id=table_id).exists():
            return
        others = list(SearchRequest.objects.select_for_update().select_related("player")
                      .filter(table_id=table_id, status__in=(SearchRequest.Status.MATCHED, SearchRequest.Status.SEATED))
                      .exclude(pk=mine.pk))
        kind = Dodge.Kind.NO_SHOW if mine.status == SearchRequest.Status.MATCHED else Dodge.Kind.COUNTDOWN_EXIT
        dodges.record(player_id, kind, {r.player_id for r in others})
        _requeue_and_stand(table_id, dropped=[mine], requeued=others, now=db_now())
    queue_news.changed()


def gone_searches():
    """Waiting searches of players with no tab open for LEAVE_GRACE_SECONDS (closing the tab leaves
    the queue): the "search_gone" deadline lists them."""
    cutoff = db_now() - timedelta(seconds=LEAVE_GRACE_SECONDS)
    gone_present = Presence.objects.filter(Q(sockets__lte=0, changed_at__lt=cutoff)
                                           | Q(seen_at__lt=db_now() - timedelta(seconds=PRESENCE_STALE)))
    return (SearchRequest.objects.filter(status=SearchRequest.Status.WAITING, queued_at__lt=cutoff)
            .filter(Q(player__presence__isnull=True) | Q(player__presence__in=gone_present)))


def leave_if_gone(request_id: int) -> bool:
    """His search ends if he is still gone (a repeated firing changes nothing)."""
    n = gone_searches().filter(pk=request_id).update(status=SearchRequest.Status.CANCELLED, finished_at=db_now())
    if n:
        queue_news.changed()
    return bool(n)


def status_for(player_id: int) -> dict:
    """What his waiting page shows: searching (with counts and since when), matched (go there), or not."""
    request = live_request(player_id)
    if request is None:
        return {"state": "idle"}
    if request.status == SearchRequest.Status.MATCHED and request.table_id:
        return {"state": "matched", "url": reverse("lobby:table", args=[request.table_id])}
    return {"state": "searching", "since": request.queued_at.isoformat(), "others": others_searching(request),
            "choices": request.choices()}
