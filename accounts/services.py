"""The only writer of accounts models: sign-up, recovery keys, restore with throttling, bans, last seen.

Every write runs inside a transaction; bad input raises ServiceError(code, translated message) and
changes nothing. Keys are returned to the caller exactly once and never stored, logged or cached in
clear: the Player's password is the Django hash of the normalised key.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate, logout
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from durak_site import ratelimit
from durak_site.errors import ServiceError

from . import keys, nicks, sessions
from .models import AddressUse, Player
from .signals import player_banned

__all__ = [
    "ServiceError", "sign_up", "restore", "new_key", "reset_key", "ban", "unban", "ensure_can_play",
    "touch_last_seen", "client_ip", "scope_client_ip", "record_address", "purge_old_addresses",
    "shared_address_pairs", "log_out", "end_sessions",
]

log = logging.getLogger(__name__)

LAST_SEEN_EVERY = timedelta(minutes=5)


# --- sign-up -------------------------------------------------------------------------------------------

def find_nick(nick: str) -> str | None:
    """The stored spelling of a nick typed in any letter case (Unicode-aware on every database)."""
    nick = nicks.normalize(nick)
    if not nick:
        return None
    folded = nick.casefold()
    for stored in Player.objects.filter(nick_skeleton=nicks.skeleton(nick)).values_list("nick", flat=True):
        if stored.casefold() == folded:
            return stored
    return None


def check_nick_available(nick: str) -> str:
    """The normalised nick if it can be taken now, else ServiceError (format, reserved, taken, look-alike)."""
    nick = nicks.check_format(nick)
    if find_nick(nick) is not None or Player.objects.filter(nick__iexact=nick).exists():
        raise ServiceError("nick_taken", nick=nick)
    if Player.objects.filter(nick_skeleton=nicks.skeleton(nick)).exists():
        raise ServiceError("nick_lookalike", nick=nick)
    return nick


def sign_up(nick: str, address: str | None = None) -> tuple[Player, str]:
    """A new player and his recovery key (normalised; show it with keys.display, once). At most
    SIGNUP_LIMIT_PER_ADDRESS new accounts from one client `address` (a flood fills the lobby)."""
    key = keys.generate()
    check_nick_available(nick)  # a mistyped nick costs no sign-up from the address's allowance
    if address and not ratelimit.within("signup", address, settings.SIGNUP_LIMIT_PER_ADDRESS):
        raise ServiceError("too_many_signups")
    try:
        with transaction.atomic():
            nick = check_nick_available(nick)
            player = Player.objects.create_user(nick, password=key)
    except IntegrityError:  # a concurrent sign-up took the nick between the check and the insert
        raise ServiceError("nick_taken", nick=nicks.normalize(nick)) from None
    log.info("accounts: player %s signed up", player.pk)
    return player, key


# --- recovery keys ---------------------------------------------------------------------------------------

def _set_new_key(player: Player) -> str:
    key = keys.generate()
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        locked.set_password(key)
        locked.save(update_fields=["password"])
    player.password = locked.password  # the caller's object stays in step (session auth hash)
    return key


def new_key(player: Player) -> str:
    """The player replaces his own key: the old one stops working at once, and so do the sessions
    and open sockets that signed in with it (his own tabs reconnect with the renewed session)."""
    key = _set_new_key(player)
    _end_sockets(player.pk, sessions.SESSION_ENDED)
    log.info("accounts: player %s issued a new recovery key", player.pk)
    return key


def reset_key(player: Player, by: Player) -> str:
    """A moderator issues a new key to hand over to the player (the old one stops working)."""
    key = _set_new_key(player)
    _end_sockets(player.pk, sessions.SESSION_ENDED)
    log.info("accounts: moderator %s reset the recovery key of player %s", by.pk, player.pk)
    return key


# --- restore on another device, throttled ----------------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    per_address_nick: int
    per_address: int
    window: int  # seconds


def _limits() -> Limits:
    return Limits(per_address_nick=settings.RESTORE_FAILURES_PER_ADDRESS_NICK,
                  per_address=settings.RESTORE_FAILURES_PER_ADDRESS,
                  window=settings.RESTORE_FAILURE_WINDOW)


def _counter_keys(nick: str, ip: str) -> tuple[str, str]:
    """(per address and nick, per address). No counter is per nick alone: failures typed elsewhere
    must never refuse the owner his correct key (anyone could lock him out)."""
    prefix = getattr(settings, "RESTORE_THROTTLE_PREFIX", "accounts:restore")
    return f"{prefix}:ipnick:{ip}:{nicks.skeleton(nick)[:40]}", f"{prefix}:ip:{ip}"


def _failures(key: str) -> int:
    return int(cache.get(key) or 0)


def _count_failure(key: str, window: int) -> None:
    if not cache.add(key, 1, timeout=window):  # the window starts at the first failure
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=window)


def throttled(nick: str, ip: str) -> bool:
    limits = _limits()
    pair_key, ip_key = _counter_keys(nick, ip)
    return _failures(pair_key) >= limits.per_address_nick or _failures(ip_key) >= limits.per_address


def restore(request: HttpRequest, nick: str, typed_key: str) -> Player:
    """The player whose nick and key match (not yet logged in), or ServiceError.

    Every wrong pair gets one generic message, whether the nick exists or not. Failures count per
    client address and per (address, nick); past either limit that address is refused until the
    window ends. An address that has not been failing is never refused: keys have 140 random bits,
    so guessing needs no per-nick limit, and one would let anyone lock the owner out.
    """
    limits = _limits()
    ip = client_ip(request)
    pair_key, ip_key = _counter_keys(nick, ip)
    if _failures(pair_key) >= limits.per_address_nick or _failures(ip_key) >= limits.per_address:
        log.warning("accounts: restore throttled (ip %s)", ip)
        raise ServiceError("throttled", minutes=max(1, limits.window // 60))
    key = keys.normalize(typed_key)
    player = None
    if nicks.normalize(nick) and keys.is_well_formed(key):
        # an unknown nick still goes through the hasher, so timing does not tell which nicks exist
        player = authenticate(request, nick=find_nick(nick) or nicks.normalize(nick), password=key)
    if player is None:
        _count_failure(pair_key, limits.window)
        _count_failure(ip_key, limits.window)
        log.info("accounts: restore failed (ip %s)", ip)
        raise ServiceError("bad_credentials")
    cache.delete(pair_key)
    log.info("accounts: player %s restored access", player.pk)
    return player


def client_ip(request: HttpRequest) -> str:
    """The client address; behind N trusted proxies (TRUSTED_PROXY_HOPS) the Nth X-Forwarded-For from the right."""
    hops: int = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops:
        header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [part.strip() for part in header.split(",") if part.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def scope_client_ip(scope: Mapping[str, Any]) -> str:
    """client_ip for a socket: the same trusted-proxy rule over the ASGI scope's headers."""
    hops: int = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops:
        headers = dict(scope.get("headers") or [])
        raw: str = headers.get(b"x-forwarded-for", b"").decode("latin-1")
        forwarded = [part.strip() for part in raw.split(",") if part.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops][:64]
    client = scope.get("client") or ("unknown",)
    return str(client[0] or "unknown")[:64]


def record_address(player_id: int, address: str) -> None:
    """The address a player's table socket (or page) came from: his last one, and one row per address
    with when he used it (ratings: accounts that used one address around a game play it unrated)."""
    address = address[:64]
    Player.objects.filter(pk=player_id).exclude(last_address=address).update(last_address=address)
    _use_address(player_id, address, timezone.now())


def _use_address(player_id: int, address: str, now: Any) -> None:
    """One statement (INSERT ... ON CONFLICT DO UPDATE), safe against a parallel first use."""
    AddressUse.objects.bulk_create([AddressUse(player_id=player_id, address=address, first_at=now, last_at=now)],
                                   update_conflicts=True, unique_fields=["player", "address"],
                                   update_fields=["last_at"])


def purge_old_addresses(days: int | None = None) -> int:
    """Forget the addresses nobody used for ADDRESS_RETENTION_DAYS (never less than the ratings'
    shared-address window, which reads them). Returns how many rows went."""
    days = settings.ADDRESS_RETENTION_DAYS if days is None else days
    days = max(days, settings.RATINGS_SHARED_ADDRESS_DAYS + 1)
    deleted, _by_model = AddressUse.objects.filter(last_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted


def shared_address_pairs(player_ids: list[int], since: Any) -> set[tuple[int, int]]:
    """The pairs (low id, high id) of these players who used a common address since `since`."""
    users: dict[str, set[int]] = {}
    for player_id, address in (AddressUse.objects.filter(player_id__in=player_ids, last_at__gte=since)
                               .values_list("player_id", "address")):
        users.setdefault(address, set()).add(player_id)
    return {(a, b) for ids in users.values() for a in ids for b in ids if a < b}


def client_address(request: HttpRequest) -> str | None:
    """client_ip for django-axes (AXES_CLIENT_IP_CALLABLE), None when the server was not told it."""
    ip = client_ip(request)
    return None if ip == "unknown" else ip


# --- bans ------------------------------------------------------------------------------------------------

def ban(player: Player, reason: str, by: Player) -> Player:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("ban_reason_required")
    if len(reason) > 300:
        raise ServiceError("ban_reason_length")
    if player.pk == by.pk:
        raise ServiceError("ban_self")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        locked.banned_at = timezone.now()
        locked.ban_reason = reason
        locked.save(update_fields=["banned_at", "ban_reason"])
        _end_sockets(locked.pk, sessions.BANNED)
    log.info("accounts: moderator %s banned player %s", by.pk, player.pk)
    # the apps above free his seats (a running game's seat goes to a bot, as for a leaver)
    for receiver, result in player_banned.send_robust(sender=Player, player_id=locked.pk):
        if isinstance(result, Exception):
            log.error("accounts: %r failed after banning player %s", receiver, locked.pk, exc_info=result)
    return locked


def unban(player: Player, by: Player) -> Player:
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        locked.banned_at = None
        locked.ban_reason = ""
        locked.save(update_fields=["banned_at", "ban_reason"])
    log.info("accounts: moderator %s lifted the ban of player %s", by.pk, player.pk)
    return locked


def ban_reason_of(player: Player) -> str:
    """The reason a banned player is told (the catalogue's "banned" sentences take it)."""
    return player.ban_reason or _("no reason given")


def ban_message(player: Player) -> str:
    if player.ban_reason:
        return _("Your account is banned: %(reason)s") % {"reason": player.ban_reason}
    return _("Your account is banned.")


def ensure_can_play(player: Any) -> None:
    """Called by the lobby before a player sits, readies or starts a table: banned players cannot play."""
    if player is None or not getattr(player, "is_authenticated", False):
        raise ServiceError("login_required")
    banned_at, reason = Player.objects.filter(pk=player.pk).values_list("banned_at", "ban_reason").get()
    if banned_at is not None:
        player.banned_at, player.ban_reason = banned_at, reason
        raise ServiceError("banned", reason=ban_reason_of(player))


# --- sessions -------------------------------------------------------------------------------------------

def _end_sockets(player_id: int, reason: str, session_key: str | None = None) -> None:
    """A session of his ended: his generation moves (a socket re-checks on its next move or
    heartbeat, so a lost message cannot keep it open) and his sockets are told after the commit."""
    Player.objects.filter(pk=player_id).update(session_generation=F("session_generation") + 1)
    sessions.tell_sockets(player_id, reason, session_key)


def log_out(request: HttpRequest) -> None:
    """Log this device out; the sockets opened with this session close at once."""
    player_id, session_key = request.user.pk, request.session.session_key
    logout(request)
    if player_id is not None:
        _end_sockets(player_id, sessions.SESSION_ENDED, session_key)
        log.info("accounts: player %s logged out", player_id)


def end_sessions(player: Player, by: Player) -> int:
    """A moderator signs the player out everywhere: his sessions are deleted, his sockets close.
    Returns how many sessions ended (the session table is scanned: a moderator's rare action)."""
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    ended = 0
    if hasattr(store_class, "get_model_class"):  # database-backed sessions can be found
        model = store_class.get_model_class()
        for session in model.objects.filter(expire_date__gt=timezone.now()).iterator():
            if str(session.get_decoded().get(SESSION_KEY)) == str(player.pk):
                store_class(session.session_key).delete()
                ended += 1
    _end_sockets(player.pk, sessions.SESSION_ENDED)
    log.info("accounts: moderator %s ended %d sessions of player %s", by.pk, ended, player.pk)
    return ended


# --- presence --------------------------------------------------------------------------------------------

def touch_last_seen(player: Player, address: str | None = None) -> None:
    """Last seen now (at most one write per LAST_SEEN_EVERY), and the address his pages came from."""
    now = timezone.now()
    if player.last_seen is None or now - player.last_seen > LAST_SEEN_EVERY:
        address = address or ""
        known = bool(address) and address != "unknown"
        # one UPDATE for both columns, then the address's row: a page costs two statements for it
        Player.objects.filter(pk=player.pk).update(last_seen=now, **({"last_address": address[:64]} if known else {}))
        player.last_seen = now
        if known:
            _use_address(player.pk, address[:64], now)
