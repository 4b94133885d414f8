"""Creating an event (a player's private one, or the schedule's), joining it and leaving it.

Bad input is refused with a catalogue code and changes nothing.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.db.models import F

from accounts.services import ensure_can_play
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby.table_settings import TURN_SECONDS as TURN_SECONDS_SETTING
from ratings.models import START_RATING, Rating

from .. import announce
from ..models import (
    ARENA_MINUTES,
    DECKS,
    ROUND_MINUTES,
    SEATS,
    SWISS_ROUNDS,
    TURN_SECONDS,
    Entry,
    Format,
    Tournament,
    Variant,
    check_tables,
)
from .entries import lock_event
from .waves import request_wave

LATE_JOIN_CLOSES = timedelta(minutes=2)  # an arena takes no one in its last two minutes
MIN_LEAD, MAX_LEAD = timedelta(minutes=2), timedelta(days=30)
OWN_UPCOMING_LIMIT = 3  # private events a player may have waiting to start
WARN_BEFORE = timedelta(minutes=1)  # his pages tell a joined player this long before the start


def _choice(value: Any, allowed: Any, code: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ServiceError(code) from None
    if number not in allowed:
        raise ServiceError(code)
    return number


TICKED, UNTICKED = (True, "1", "on", "true"), (None, False, "", "0", "off", "false")


def _ticked(value: Any, code: str) -> bool:
    """A checkbox: ticked, or absent (or plainly "no"); any other value is refused rather than read as
    "no", which is not what whoever sent it meant."""
    if value in TICKED:
        return True
    if value in UNTICKED:
        return False
    raise ServiceError(code)


def clean(raw: dict[str, Any], now: Any) -> dict[str, Any]:
    """An event's settings from a form (strings) or the schedule, or a refusal."""
    name = str(raw.get("name") or "").strip()
    if not 3 <= len(name) <= 60:
        raise ServiceError("tournament_bad_name")
    fmt = raw.get("format") or Format.ARENA
    if fmt not in Format.values:
        raise ServiceError("tournament_bad_format")
    variant = raw.get("variant") or Variant.PODKIDNOY
    if variant not in Variant.values:
        raise ServiceError("search_bad_variant")
    deck_size = _choice(raw.get("deck_size", 36), [d for d, _ in DECKS], "search_bad_deck")
    seats = _choice(raw.get("seats") or 2, [n for n, _ in SEATS], "tournament_bad_seats")
    pairs = _ticked(raw.get("pairs"), "tournament_bad_pairs")
    check_tables(str(fmt), seats, pairs, str(variant), deck_size)
    out = {
        "name": name, "format": fmt, "variant": variant, "deck_size": deck_size, "seats": seats, "pairs": pairs,
        "turn_seconds": _choice(raw.get("turn_seconds", TURN_SECONDS_SETTING.default), [t for t, _ in TURN_SECONDS], "bad_timer"),
        "cheater": _ticked(raw.get("cheater"), "tournament_bad_cheater"),
    }
    if fmt == Format.ARENA:
        out["minutes"] = _choice(raw.get("minutes", 30), ARENA_MINUTES, "tournament_bad_length")
    else:
        out["rounds"] = _choice(raw.get("rounds", 5), SWISS_ROUNDS, "tournament_bad_rounds")
        out["round_minutes"] = _choice(raw.get("round_minutes") or 0, [m for m, _ in ROUND_MINUTES],
                                       "tournament_bad_round_minutes")
    starts_at = raw.get("starts_at")
    if starts_at is None or not MIN_LEAD <= starts_at - now <= MAX_LEAD:
        raise ServiceError("tournament_bad_start")
    out["starts_at"] = starts_at
    return out


def _deadlines(starts_at: Any) -> dict[str, Any]:
    return {"start_deadline": starts_at, "warn_deadline": starts_at - WARN_BEFORE}


def create_private(player: Any, password: str = "", **raw: Any) -> Tournament:
    """A player's event for friends: joined through its link (and the password, if he set one)."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)
    password = (password or "").strip()
    if len(password) > 40:
        raise ServiceError("tournament_bad_password")
    now = db_now()
    values = clean(raw, now)
    with transaction.atomic():
        upcoming = (Tournament.objects.select_for_update().filter(created_by=player, status=Tournament.Status.SCHEDULED)
                    .count())
        if upcoming >= OWN_UPCOMING_LIMIT:
            raise ServiceError("tournament_too_many")
        event = Tournament.objects.create(
            **values, **_deadlines(values["starts_at"]), private=True, created_by=player,
            invite_code=secrets.token_urlsafe(12), password=make_password(password) if password else "")
    return event


def create_scheduled(row: Any, starts_at: Any) -> Tournament | None:
    """The schedule's event at `starts_at` (once: a second call finds it and returns None)."""
    values = {"name": row.name, "format": row.format, "variant": row.variant, "deck_size": row.deck_size,
              "turn_seconds": row.turn_seconds, "minutes": row.minutes, "rounds": row.rounds,
              "round_minutes": row.round_minutes, "seats": row.seats, "pairs": row.pairs}
    try:
        with transaction.atomic():
            return Tournament.objects.create(**values, starts_at=starts_at, schedule=row, **_deadlines(starts_at))
    except IntegrityError:
        return None


def may_see(event: Tournament, player: Any, code: str = "") -> bool:
    """A private event shows itself to its creator, its entrants and whoever has its link."""
    if not event.private:
        return True
    if code and secrets.compare_digest(code, event.invite_code):
        return True
    if player is not None and player.is_authenticated:
        return event.created_by_id == player.pk or Entry.objects.filter(tournament=event, player=player).exists()
    return False


def join(event_id: int, player: Any, code: str = "", password: str = "") -> Entry:
    """«Участвовать»: enter the event (idempotent; a player who paused himself comes back). Late joins
    are taken until the arena's last minutes; a Swiss takes players until its first round starts."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            raise ServiceError("tournament_not_found")
        if event.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise ServiceError("tournament_over")
        existing = Entry.objects.filter(tournament=event, player=player).first()
        if existing is not None:
            if existing.state in (Entry.State.WITHDRAWN, Entry.State.REMOVED):
                raise ServiceError("tournament_withdrawn")
            return existing
        if event.private and event.created_by_id != player.pk:
            if not code or not secrets.compare_digest(str(code), event.invite_code):
                raise ServiceError("tournament_private")
            if event.password and not check_password(str(password or ""), event.password):
                raise ServiceError("tournament_password")
        now = db_now()
        if event.status == Tournament.Status.RUNNING and (
                event.is_swiss or (event.ends_at and event.ends_at - now < LATE_JOIN_CLOSES)):
            raise ServiceError("tournament_join_closed")
        rating = Rating.objects.filter(player=player).values_list("value", flat=True).first() or START_RATING
        entry = Entry.objects.create(tournament=event, player=player, rating=rating, eligible_at=now, joined_at=now)
        Tournament.objects.filter(pk=event.pk).update(version=F("version") + 1)
        request_wave(event.pk, now)  # a late join to a running arena: paired at once
        announce.changed(event.pk)
    return entry


def withdraw(event_id: int, player: Any) -> Entry:
    """He leaves the event for good (a game he is playing goes on and counts)."""
    with transaction.atomic():
        lock_event(event_id)  # the event's row before his entry: a Swiss round takes them in that order
        entry = (Entry.objects.select_for_update(of=("self",)).filter(tournament_id=event_id, player=player)
                 .exclude(state__in=(Entry.State.WITHDRAWN, Entry.State.REMOVED)).first())
        if entry is None:
            raise ServiceError("tournament_not_joined")
        Entry.objects.filter(pk=entry.pk).update(state=Entry.State.WITHDRAWN)
        announce.changed(event_id)
        entry.state = Entry.State.WITHDRAWN
    return entry
