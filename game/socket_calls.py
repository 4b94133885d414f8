"""The table socket's calls into the services, one thread hop each (durak_site.db.in_thread): the
consumer (game/consumers.py) awaits them and never touches the database itself.

Each does all the database work one socket event needs in one hop: the admission before the
handshake, the arrival after it, a move with its session check, a heartbeat, a re-read of the
player's role after a waiting-room change.
"""

from __future__ import annotations

import logging

from django.conf import settings

from accounts import services as accounts_services
from accounts import sessions
from durak_site import close_codes
from durak_site.db import in_thread
from game import access, services, socket_count
from lobby import services as lobby_services

log = logging.getLogger(__name__)


def language(scope) -> str:
    """The viewer's language: the language cookie, else Accept-Language, else the site default."""
    available = {code for code, _name in settings.LANGUAGES}
    headers = dict(scope.get("headers") or [])
    cookie_header = headers.get(b"cookie", b"").decode("latin-1")
    for part in cookie_header.split(";"):
        name, _sep, value = part.strip().partition("=")
        if name == settings.LANGUAGE_COOKIE_NAME and value[:2] in available:
            return value[:2]
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for item in accept.split(","):
        code = item.split(";")[0].strip().lower()[:2]
        if code in available:
            return code
    return settings.LANGUAGE_CODE


def logged(func):
    """A presence write from a socket event: logged, never allowed to kill the socket."""

    def call(*args):
        try:
            return func(*args)
        except Exception:
            log.exception("%s%r failed", func.__name__, args)
            return None

    return call


def quietly(func):
    """`logged(func)` as a coroutine function on the thread pool."""
    return in_thread(logged(func))


def session_check(session_key: str | None, player_id: int, known: int) -> tuple[int, str | None]:
    """(the player's session generation now, why this socket must end or None): one query; the
    session itself is loaded only when the number moved since `known`."""
    now = sessions.generation(player_id)
    if now == known:
        return now, None
    return now, sessions.socket_end_reason(session_key, player_id)


def checked_move(session_key, user, known: int, game_id: int, version: int, msg_id, action):
    """One thread hop per move. The move's locking statement compares the player's session generation
    with the one this socket knows (no round trip of its own); only when it moved is the session
    loaded: an ended one refuses the move unapplied, a standing one lets it go through."""
    try:
        return known, None, services.apply_player_action(game_id, user, version, msg_id, action,
                                                         session_generation=known)
    except services.SessionMoved:
        generation, reason = session_check(session_key, user.pk, known)
    if reason is not None:
        return generation, reason, None
    return generation, None, services.apply_player_action(game_id, user, version, msg_id, action)


def checked_beat(session_key, user, known: int, table_id: int, game_id: int | None, seated: bool,
                  socket_id: str):
    """One thread hop per heartbeat: the session check, the socket count, presence, and the game's
    version (a frame lost with a dying process is noticed by it). A seated player's presence write
    checks the session generation itself; only when it moved is the session loaded."""
    if seated and game_id is not None:
        try:
            version = services.heartbeat(game_id, user, session_generation=known)
        except services.SessionMoved:
            known, reason = session_check(session_key, user.pk, known)
            if reason is not None:
                return known, reason, None
            version = services.heartbeat(game_id, user)
        socket_count.alive(table_id, user.pk, socket_id)
        return known, None, version
    generation, reason = session_check(session_key, user.pk, known)
    if reason is not None:
        return generation, reason, None
    socket_count.alive(table_id, user.pk, socket_id)
    logged(lobby_services.touch_presence)(table_id, user.pk)
    return generation, None, services.game_version(game_id) if game_id is not None else None


def admit(session, session_key: str | None, user, table_id: int) -> tuple[str | None, int | None, dict | None]:
    """One thread hop before the handshake: (why the session ended, or a close code for a table he
    may not open, or what the socket needs: ``services.connect_info``)."""
    reason = sessions.socket_end_reason(session_key, user.pk)
    if reason is not None:
        return reason, None, None
    invited = session.get(lobby_services.INVITES_KEY, []) if session is not None else []
    if not access.may_open(table_id, user, invited):
        return None, close_codes.NOT_FOUND, None
    info = services.connect_info(table_id, user)
    if info is None:
        return None, close_codes.NOT_FOUND, None
    return None, None, info


def where_now(session, user, table_id: int) -> tuple[dict | None, tuple | None]:
    """(what the socket shows now, his role at the table), or (None, None) when he may no longer
    open the table: a private table's host or player who stood up is a stranger to it now."""
    invited = session.get(lobby_services.INVITES_KEY, []) if session is not None else []
    if not access.may_open(table_id, user, invited):
        return None, None
    info = services.connect_info(table_id, user)
    return info, access.role(table_id, user)


def arrive(table_id: int, user, game_id: int | None, seated_in_play: bool, socket_id: str) -> tuple:
    """One thread hop after the handshake: count the socket, mark him present in the waiting room,
    and at a running game his seat connected again; then read what the socket shows. This read comes
    after the socket joined its groups, so no change committed before it listened is missed (the
    read in `admit` came before), and after `set_connected`, which changes the frame."""
    socket_count.opened(table_id, user.pk, socket_id)
    logged(lobby_services.set_presence)(table_id, user.pk, True)
    if seated_in_play and game_id is not None:
        services.set_connected(game_id, user, True)
    return services.connect_info(table_id, user), access.role(table_id, user)


set_presence = quietly(lobby_services.set_presence)
record_address = quietly(accounts_services.record_address)
generation = in_thread(sessions.generation)
