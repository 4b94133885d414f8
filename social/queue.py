"""The search queue: joining and leaving it, a party's search, arrival at a matched table and
no-shows. With social/matcher.py (which makes the groups' tables) and social/search_rows.py, the only
writer of SearchRequest. Matching runs on each join and from the deadline sweep
(social/deadlines.py: arrivals, players gone, the periodic re-match). A player has at most one live
request (a partial unique constraint).

A party of two (social/party.py) searches as one: its leader's join queues both rows with one
choice and one place, and whatever ends one half's waiting search ends the other's (cancel, a tab
closed, a ban, a partner who did not come), so half a party never waits alone. The matcher takes
a party whole or not at all.

A matched table is made through lobby.services (create, sit, bots); each player's site sockets are
told to go to it. His arrival at the table page (the site socket's `page` message) presses «Готово»
for him, so the lobby's 3-2-1 starts when the last one arrives. Who does not arrive within
ARRIVE_SECONDS is dropped; the others go back to the queue at their old place (its head).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.models import Game
from lobby import services as lobby_services
from lobby.models import Seat, Table

from . import dodges, matcher, matching, notify, parties, party_search, people, queue_news, search_rows
from .matcher import match  # the matcher runs on each join, and the sweep calls it here
from .models import ANY, Dodge, Presence, SearchRequest
from .search_rows import LIVE, end_waiting, live_request, rating_of

log = logging.getLogger(__name__)

LEAVE_GRACE_SECONDS = 5  # no tab open for this long: he left the queue (a page change reopens at once)
DEFAULTS = {"mode": matching.DEFAULT_MODE, "variant": "", "players": ANY, "deck": 36,
            "turn_seconds": matching.DEFAULT_TIMER, "rated": True, "bot_fill": 30}
PRESENCE_STALE = 90  # seconds without a beat (every 35 s) from any of his tabs: his count is not believed any more
QUEUE_GROUP = queue_news.QUEUE_GROUP
ARRIVE_SECONDS = search_rows.ARRIVE_SECONDS


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


def join(player, match_now: bool = True, **raw) -> SearchRequest:
    """Enter the search (idempotent: a live request is returned as it is). Matching runs at once.
    A party's leader enters it for both of them (one choice, one place); the other is refused."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)
    party = parties.current(player.pk)
    if party is not None and party.leader_id != player.pk:
        raise ServiceError("party_not_leader")
    choices = clean_choices(raw) if raw else last_choices(player)
    partner = None
    if live_request(player.pk) is None:
        dodges.ensure_may_search(player.pk)  # he left a match: his next search waits
        if choices["rated"]:
            _ensure_address_free(player)
        if party is not None:
            partner = _partner_for(party, player, choices)
    playing = (Seat.objects.filter(player=player, in_game=True, table__status=Table.Status.PLAYING)
               .select_related("table").first())
    if playing is not None:
        raise ServiceError("in_game", name=str(playing.table))
    rating = rating_of(player.pk)
    try:
        with transaction.atomic():
            now = db_now()  # the queue's order and every wait are read on the database's clock
            request = SearchRequest.objects.create(player=player, rating=rating, queued_at=now, created_at=now,
                                                   party_id=party.id if party and partner else None, **choices)
            if partner is not None:
                _queue_partner(partner, request)
    except IntegrityError:
        found = live_request(player.pk)
        if found is None:  # it ended between the insert and the read: try once more
            return join(player, match_now, **raw)
        return found
    queue_news.changed()
    if partner is not None:  # his page goes to the search the leader started for both
        notify.tell(partner.pk, "party_search", nick=player.nick, url=reverse("social:search"))
    if match_now:
        match()
        request.refresh_from_db()
    return request


def _partner_for(party: parties.PartyView, leader, choices: dict) -> Player:
    """The partner the leader's search takes along, once the party may search with these choices."""
    party_search.ensure_fits_party(choices)
    partner = Player.objects.get(pk=party.partner_of(leader.pk))
    party_search.ensure_partner_may_search(partner)
    if choices["rated"]:
        party_search.ensure_rated_together(leader.pk, partner, matcher.pairs_at_limit([leader.pk, partner.pk]).get(
            leader.pk, set()))
        try:
            _ensure_address_free(partner)
        except ServiceError:
            raise ServiceError("party_address_busy", nick=partner.nick) from None
    return partner


def _queue_partner(partner, leader_row: SearchRequest) -> SearchRequest:
    """The partner's search: the leader's choices and place (a savepoint: a live search of his own,
    which the unique constraint catches, refuses the party's)."""
    try:
        with transaction.atomic():
            return SearchRequest.objects.create(
                player=partner, rating=rating_of(partner.pk), queued_at=leader_row.queued_at,
                created_at=leader_row.created_at, party_id=leader_row.party_id, **leader_row.choices())
    except IntegrityError:
        raise ServiceError("party_partner_busy", nick=partner.nick) from None


def take_into_search(leader_id: int, partner, party_id: int) -> bool:
    """A party formed (social/party.py, inside its transaction): the partner's own waiting search
    ends, and if the leader is waiting the partner joins his search at its place. The leader's row is
    locked (a matcher holding it is waited for, then it is read again). False when the leader was not
    waiting (the party searches next time); a refusal when the party cannot search with his choices."""
    SearchRequest.objects.filter(player=partner, status=SearchRequest.Status.WAITING).update(
        status=SearchRequest.Status.CANCELLED, finished_at=db_now())
    if SearchRequest.objects.filter(player=partner, status=SearchRequest.Status.MATCHED).exists():
        raise ServiceError("party_matched")
    row = (SearchRequest.objects.select_for_update()
           .filter(player_id=leader_id, status=SearchRequest.Status.WAITING).first())
    if row is None:
        queue_news.changed()
        return False
    _partner_for(parties.PartyView(party_id, leader_id, partner.pk), row.player, row.choices())
    SearchRequest.objects.filter(pk=row.pk).update(party_id=party_id)
    row.party_id = party_id
    _queue_partner(partner, row)
    queue_news.changed()
    return True


def split_party(party_id: int, leaver_id: int) -> None:
    """A party ended (inside its transaction): its live searches belong to no party any more; the
    leaver's waiting one ends, the other one waits on alone at the same place."""
    rows = list(SearchRequest.objects.select_for_update().filter(party_id=party_id, status__in=LIVE))
    SearchRequest.objects.filter(pk__in=[r.pk for r in rows]).update(party=None)
    SearchRequest.objects.filter(pk__in=[r.pk for r in rows if r.player_id == leaver_id],
                                 status=SearchRequest.Status.WAITING).update(
        status=SearchRequest.Status.CANCELLED, finished_at=db_now())
    if rows:
        queue_news.changed()


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
        n, partners = end_waiting(SearchRequest.objects.filter(player=player))
        notify.tell_many(partners, "search_ended", reason="partner")
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
        n, partners = end_waiting(SearchRequest.objects.filter(player_id=player_id))
        notify.tell_many(partners, "search_ended", reason="partner")
    if n:
        queue_news.changed()
        notify.tell(player_id, "search_ended")
    return bool(n)


def others_searching(request: SearchRequest) -> int:
    """Others waiting whose choices could meet his (ignoring ratings)."""
    news = queue_news.read()
    return queue_news.others(news["modes"], request.choices(), avoid_of(request.player_id), news["rows"])


def avoid_of(player_id: int) -> set[int]:
    """The players not counted as searching for him: those he can never be matched with (a block
    either way), and his party's partner, who searches with him."""
    avoid = people.avoid_map([player_id]).get(player_id, set())
    partner = parties.partner_of(player_id)
    return avoid | {partner} if partner else avoid


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
    The partner of a dropped player's party is not requeued alone: his search ends too (no dodge of
    his). The rows change first, so the lobby's news of each stand finds no match left to judge."""
    broken = {r.party_id for r in dropped if r.party_id}
    orphans = [r for r in requeued if r.party_id in broken]
    requeued = [r for r in requeued if r.party_id not in broken]
    SearchRequest.objects.filter(pk__in=[r.pk for r in dropped]).update(
        status=SearchRequest.Status.DROPPED, finished_at=now)
    SearchRequest.objects.filter(pk__in=[r.pk for r in orphans]).update(
        status=SearchRequest.Status.CANCELLED, finished_at=now)
    SearchRequest.objects.filter(pk__in=[r.pk for r in requeued]).update(
        status=SearchRequest.Status.WAITING, table=None, arrive_deadline=None, finished_at=None)
    for r in [*dropped, *orphans, *requeued]:
        with contextlib.suppress(ServiceError):  # already up, or the table closed
            lobby_services.stand(table_id, r.player)
    notify.tell_many([r.player_id for r in dropped], "search_ended", reason="no_show")
    notify.tell_many([r.player_id for r in orphans], "search_ended", reason="partner")
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
    """His search ends if he is still gone (a repeated firing changes nothing), and his party's with it."""
    with transaction.atomic():
        n, partners = end_waiting(gone_searches().filter(pk=request_id))
        notify.tell_many(partners, "search_ended", reason="partner")
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
