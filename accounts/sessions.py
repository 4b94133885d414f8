"""A socket is only as good as its session: ending sessions reaches the open sockets at once.

Two paths, so a lost message cannot keep a socket alive:

* news: `tell_sockets` sends a channel-layer event to the player's group (every socket of his joins
  `realtime.player_group(id)`) after the commit; the socket closes at once;
* a re-check: every session end bumps a number on the player's row (`Player.session_generation`,
  in the same transaction; accounts.services does the write). A socket compares the number it saw
  at connect with the row on every move (read by the move's own locking statement, no extra round
  trip) and heartbeat; only when it changed does it load its session (`socket_end_reason`).

Close codes the sockets use (the client shows them in words): 4401 the session ended (logged out,
a new key issued elsewhere, a moderator ended his sessions), 4403 the player is banned.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from durak_site import close_codes, realtime

from .models import Player

SESSION_ENDED = "session_ended"
BANNED = "banned"

def generation(player_id: int) -> int:
    """The player's session generation (0 until a session of his first ends)."""
    return Player.objects.filter(pk=player_id).values_list("session_generation", flat=True).first() or 0


def generations(player_ids) -> dict[int, int]:
    """`generation` of many players in one query (a process's heartbeats, batched)."""
    return dict(Player.objects.filter(pk__in=list(player_ids)).values_list("pk", "session_generation"))


def tell_sockets(player_id: int, reason: str, session_key: str | None = None) -> None:
    """Close the player's sockets: those of one session (`session_key`), or all of them (None). The
    event leaves after the commit of the change that ended the session (and bumped his generation)."""
    realtime.send_on_commit([(realtime.player_group(player_id),
                              {"type": "session.ended", "reason": reason, "session_key": session_key})])


def socket_end_reason(session_key: str | None, player_id: int) -> str | None:
    """Why a socket opened with this session must close now (SESSION_ENDED, BANNED), or None.

    The same test Django's `get_user` makes on every request: the session still exists, names this
    player, and carries the hash of his current key; plus the ban.
    """
    player = Player.objects.filter(pk=player_id).only("password", "is_active", "banned_at").first()
    if player is None or not player.is_active:
        return SESSION_ENDED
    if player.banned_at is not None:
        return BANNED
    if not session_key:
        return SESSION_ENDED
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    data = store.load()
    if str(data.get(SESSION_KEY)) != str(player_id) or BACKEND_SESSION_KEY not in data:
        return SESSION_ENDED
    if not constant_time_compare(data.get(HASH_SESSION_KEY) or "", player.get_session_auth_hash()):
        return SESSION_ENDED
    return None


def close_code(reason: str) -> int:
    return close_codes.BANNED if reason == BANNED else close_codes.SESSION_ENDED


def end_message(reason: str, ban_reason: str = "") -> str:
    """The words a closed socket's last error frame carries (translated in the active language)."""
    if reason == BANNED:
        if ban_reason:
            return _("Your account is banned: %(reason)s") % {"reason": ban_reason}
        return _("Your account is banned.")
    return _("Your session has ended (you logged out or a new key was issued). Sign in again to play.")


def ban_reason(player_id: int) -> str:
    return Player.objects.filter(pk=player_id).values_list("ban_reason", flat=True).first() or ""
