"""The table socket (/ws/tables/<id>/): waiting room and game share it (docs/PROTOCOL.md).

Groups: `table-<id>` (everyone: lobby events, game started), `table-<id>-seat-<n>` (the socket of
the player owning seat n of the current game: his own redacted frames) and `table-<id>-watch`
(everyone else: the spectator frame). Frames are built by game.services, already redacted. Every
socket also joins `player-<id>`: accounts closes it there when its session ends (accounts/sessions.py).
Apps above game add message types, events and groups through game/socket_hooks.py: the chat's, and
social's `site-<id>` (the site's news, so a table page holds this one socket and no site socket).

A socket belongs to a session: it closes when the session ends (logout, a new key, a moderator's
"end sessions") or the player is banned, by that news, and every move and heartbeat re-checks it
(the player's session generation: read by a move's own locking statement, one query for a heartbeat;
the session itself is loaded only when that number moved).

Close codes (the client shows them in words; an error frame with the same meaning comes first where
there is one): 4401 not signed in or the session ended, 4403 banned, 4404 no such table (also a
private table the viewer may not see, and any unknown path), 4429 flooding, 4408 too many
sockets of one account or address (game/socket_limits.py), 4012 service restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from accounts import services as accounts_services
from accounts import sessions
from durak_site import close_codes, metrics, realtime
from durak_site.db import in_thread
from durak_site.errors import ServiceError, message_for
from game import protocol, services, shutdown, socket_count, socket_hooks, socket_limits
from game import socket_calls as calls
from game.flood import TokenBucket, first_republish
from game.protocol.table import Ack, Action, Error, GameStarted, Lobby, Pong

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 2048
# Flood control (game/flood.py): moves and other messages may come in a burst of MOVE_BURST (a queue
# replayed after a reconnect), then MOVE_RATE a second; pings have their own small bucket.
MOVE_RATE, MOVE_BURST = 10.0, 60.0
PING_RATE, PING_BURST = 2.0, 10.0
# Seconds between heartbeats (presence write, session and version check) caused by pings: under the
# client's 5 s ping (static/site/socket.js PING_EVERY_MS), so a ping its timer fires a little early still counts.
HEARTBEAT_EVERY = 4.0
FRAME_GRACE = 1.5  # seconds a frame the heartbeat found missing may still be on its way


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    game_id: int | None = None
    seat: int | None = None
    game_group: str | None = None
    last_version: tuple[int, int] = (0, -1)  # (game_id, version) of the last frame sent
    last_stamp: float = 0.0  # when that frame was built (frames.messages); 0 for one read on demand
    last_beat: float = 0.0
    counted: bool = False  # this socket is in socket_count (closing the last one marks him gone)
    busy: int = 0  # moves being applied (a graceful stop lets them finish)
    session_key: str | None = None
    generation: int = 0  # accounts.sessions.generation when the session was last found valid
    closing: bool = False  # close() was sent or the client went away: nothing more is sent
    repair: asyncio.Task[None] | None = None  # a resend waiting to see whether a missing frame still comes
    role: tuple[Any, ...] | None = None  # (host, seated) at the table: access.role, re-read on every lobby change
    admitted: bool = False  # counted by socket_limits (released on disconnect)

    # ------------------------------------------------------------ dispatch

    async def dispatch(self, message: Any) -> None:
        """Channels' dispatch hops to the one thread-sensitive thread before every message (its
        ``aclose_old_connections``), so every frame to every socket of the process queued behind
        whatever database call held that thread. This consumer touches the database only through
        ``in_thread`` calls, which keep their own connections fresh (durak_site/db.py)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Every frame leaves through the schema's encoder (game/protocol): compact JSON, checked
        against its definition while the tests run."""
        return protocol.encode(protocol.TABLE, content)

    # ------------------------------------------------------------ connection

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user: Any = self.scope.get("user")
        self.lang = calls.language(self.scope)
        self.moves = TokenBucket(MOVE_RATE, MOVE_BURST)
        self.pings = TokenBucket(PING_RATE, PING_BURST)
        self.joined: list[str] = []
        if self.user is None or not self.user.is_authenticated:
            await self._refuse(close_codes.SESSION_ENDED)
            return
        self.address = accounts_services.scope_client_ip(self.scope)
        if not socket_limits.admit(self.user.pk, self.address):
            await self.accept()
            await self._error(None, "too_many_sockets")
            await self.close(code=close_codes.TOO_MANY)
            return
        self.admitted = True
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        # the number first, then the group, then the full check: a session ended at any moment is seen
        self.generation = await calls.generation(self.user.pk)
        await self._join(realtime.player_group(self.user.pk))
        reason, refusal, info = await in_thread(calls.admit)(session, self.session_key, self.user, self.table_id)
        if reason is not None:
            await self._refuse(sessions.close_code(reason), reason)
            return
        if refusal is not None:
            await self._refuse(refusal)
            return
        # in the groups before the handshake completes: news sent once the client is "connected" reaches it
        await self._join(realtime.table_group(self.table_id))
        await self._follow_game(info)
        await self.accept()
        shutdown.track(self)
        self.counted = True
        seated_in_play = self.seat is not None and bool(info.get("playing"))
        info, self.role = await in_thread(calls.arrive)(self.table_id, self.user, self.game_id, seated_in_play,
                                                   self.channel_name)
        if seated_in_play:
            self.last_beat = time.monotonic()
        await self._resync(info)
        await socket_hooks.connected(self)
        await calls.record_address(self.user.pk, self.address)  # ratings: one address

    async def _refuse(self, code: int, reason: str | None = None) -> None:
        """Accept, then close with `code` (after an error frame saying why, for an ended session):
        a refused handshake would reach the client as a bare 1006."""
        await self.accept()
        shutdown.track(self)
        if reason is not None:
            await self._end(reason)
        else:
            await self.close(code=code)

    async def disconnect(self, code: Any) -> None:
        self.closing = True
        try:
            await self._leave(code)
        finally:
            await socket_hooks.disconnected(self)  # (the apps' own groups were left with the others)
            shutdown.forget(self)
            if self.admitted:
                self.admitted = False
                socket_limits.release(self.user.pk, self.address)

    async def _leave(self, code: Any) -> None:
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined = []
        user = getattr(self, "user", None)
        if user is None or not user.is_authenticated or not hasattr(self, "table_id") or not self.counted:
            return
        self.counted = False
        if await sync_to_async(socket_count.closed, thread_sensitive=False)(self.table_id, user.pk,
                                                                            self.channel_name):
            return  # another tab of his is still open at this table: he is still here
        await calls.set_presence(self.table_id, user.pk, False)
        if self.game_id is not None and self.seat is not None:
            try:
                await in_thread(services.set_connected)(self.game_id, user, False)
            except Exception:
                log.exception("set_connected on disconnect failed")

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.append(group)

    # --- for the apps that hook into this socket (game/socket_hooks.py) ---

    async def join_group(self, group: str) -> None:
        """Listen to an app's own channel group (the chat's) until ``leave_group`` or the close."""
        if group not in self.joined:
            await self._join(group)

    async def leave_group(self, group: str) -> None:
        if group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.joined.remove(group)

    async def _follow_game(self, info: dict[str, Any]) -> bool:
        """Join the frame group of the current game's seat (or the spectators'); True if it joined one."""
        self.game_id = info.get("game_id")
        self.seat = info.get("seat")
        if self.game_id is None:
            group = None
        elif self.seat is not None:
            group = realtime.seat_group(self.table_id, self.seat)
        else:
            group = realtime.watch_group(self.table_id)
        if group == self.game_group:
            return False
        if self.game_group is not None:
            await self.channel_layer.group_discard(self.game_group, self.channel_name)
            if self.game_group in self.joined:
                self.joined.remove(self.game_group)
        self.game_group = group
        if group is None:
            return False
        await self._join(group)
        return True

    async def _send_info(self, info: dict[str, Any]) -> None:
        if info.get("frame") is not None:
            await self._send_frame(info["frame"], force=True)
        else:
            lobby: Lobby = {"type": "lobby", "version": info["table_version"]}
            await self.send_json(lobby)

    async def _send_frame(self, frame: dict[str, Any], force: bool = False) -> None:
        if self._fresh(frame["game_id"], frame["version"], force):
            await self.send_json(frame)

    def _fresh(self, game_id: int, version: int, force: bool, stamp: float = 0.0) -> bool:
        """Is the frame (game_id, version) to be sent (an older one overtaken by a newer one, or one of
        another game, is not)? Records it as the last one sent. Frames of one version differ only by
        presence (a seat connected or not); published by two processes (a player's socket moving to
        another during a restart), they can arrive out of order, so among them the one built last
        (`stamp`, its build time under the game's lock) wins."""
        last_game, last_version = self.last_version
        if not force:
            if game_id != self.game_id:
                return False
            if game_id == last_game and (version < last_version
                                         or (version == last_version and stamp < self.last_stamp)):
                return False
        if game_id != last_game or version >= last_version:
            self.last_version = (game_id, version)
            self.last_stamp = stamp
        return True

    async def _resync(self, info: dict[str, Any] | None = None) -> None:
        """Follow the current game and send its frame (or the waiting room's version). `info`, when
        given, was read after the socket joined its groups. A read that made the socket join a new
        group is made again: a frame committed between that read and the join (a bot's first attack
        at a game's start) was published before the socket listened and would never come."""
        while True:
            if info is None:
                info = await in_thread(services.connect_info)(self.table_id, self.user)
            if info is None:
                await self.close(code=close_codes.NOT_FOUND)
                return
            if not await self._follow_game(info):
                break
            info = None
        await self._send_info(info)

    # ------------------------------------------------------------ client -> server

    async def websocket_receive(self, message: Any) -> None:
        """Every frame gets a result or an error frame (or a documented close); whatever goes wrong
        inside is logged and answered with `internal_error`, never allowed to kill the socket (1011)."""
        if self.closing:
            return
        try:
            await self._receive_frame(message.get("text"), message.get("bytes"))
        except Disconnected:
            self.closing = True
        except Exception:
            log.exception("table socket: a message failed (table %s)", getattr(self, "table_id", None))
            await self._error(None, "internal_error")

    async def _receive_frame(self, text: str | None, raw: bytes | None) -> None:
        if not self.user or not self.user.is_authenticated:
            return
        size = len(text.encode("utf-8", "surrogatepass")) if text is not None else len(raw or b"")
        if size > MAX_FRAME_BYTES:
            if await self._allow(self.moves):
                await self._error(None, "too_large")
            return
        content: object = ValueError
        # RecursionError: a frame of a thousand nested "["; UnicodeDecodeError is a ValueError
        with contextlib.suppress(ValueError, RecursionError):
            content = json.loads(text if text is not None else (raw or b"").decode("utf-8"))
        is_ping = isinstance(content, dict) and content.get("type") == "ping"
        if not await self._allow(self.pings if is_ping else self.moves):
            return
        if content is ValueError:
            await self._error(None, "bad_json")
            return
        await self.receive_json(content)

    async def _allow(self, bucket: TokenBucket) -> bool:
        """Take a token; an empty bucket is abuse: an error frame, then close 4429."""
        if bucket.take():
            return True
        await self._error(None, "flooding")
        await self.close(code=close_codes.FLOODING)
        return False

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Decode the message through the schema (game/protocol: a malformed one is refused with the
        code of its first bad field and changes nothing), then dispatch it by type: the socket's own
        (HANDLERS), else the app that registered it (game/socket_hooks.py)."""
        msg_id = content.get("id") if isinstance(content, dict) else None
        if not isinstance(msg_id, str):
            msg_id = None
        kind = content.get("type") if isinstance(content, dict) else None
        if kind is None and isinstance(content, dict) and "action" in content:
            kind = "action"  # the browser's moves carry no type
        try:
            spec, message = protocol.decode(protocol.TABLE, content, kind)
        except protocol.Refused as refused:
            await self._refuse_message(refused, msg_id)
            return
        handler = HANDLERS.get(spec.name)
        if handler is not None:
            await handler(self, message)
        elif socket_hooks.handles(spec.name):
            if await self._session_ok():
                await socket_hooks.message(self, message)
        else:  # declared, but no app that handles it is installed
            await self._error(msg_id, "unknown_type")

    async def _refuse_message(self, refused: protocol.Refused, msg_id: str | None) -> None:
        """A message its definition refuses: an `error` frame (a bad id is never echoed), or the
        frame its app tells its refusals in (the chat's `chat_error`). A malformed move counts as a
        refused one in the metrics, as one the services refuse."""
        if refused.spec is not None and refused.spec.name == "action":
            metrics.move_received()
            metrics.move_refused(refused.code)
        if refused.spec is not None and refused.spec.error_frame != "error":
            with translation.override(self.lang):
                message = message_for(refused.code)
            await self.send_json({"type": refused.spec.error_frame, "code": refused.code, "message": message})
            return
        await self._error(None if refused.code == "bad_id" else msg_id, refused.code)

    async def _on_ping(self, message: Any) -> None:
        await self._ping()

    async def _on_resync(self, message: Any) -> None:
        await self._resync()

    async def _ping(self) -> None:
        """A heartbeat: answered with the last version this socket was sent. At most every few
        seconds it also re-checks the session, writes presence and checks the game's version: a
        frame lost with a dying process (committed, never sent) is resent here."""
        pong: Pong = {"type": "pong", "version": self.last_version[1] if self.game_id else None}
        await self.send_json(pong)
        if time.monotonic() - self.last_beat < HEARTBEAT_EVERY:
            return
        self.last_beat = time.monotonic()
        self.generation, reason, version = await in_thread(calls.checked_beat)(
            self.session_key, self.user, self.generation, self.table_id, self.game_id, self.seat is not None,
            self.channel_name)
        if reason is not None:
            await self._end(reason)
            return
        socket_hooks.heartbeat(self)
        if version is not None and version > self.last_version[1]:
            self._repair_if_still_behind(version)

    def _repair_if_still_behind(self, version: int) -> None:
        """The game is ahead of this socket. Usually its frame is only on the way (queued behind
        other tables' under load), so look again after FRAME_GRACE and resend the current frame only
        if it still has not come: a resend at every heartbeat that overtook a frame in flight cost
        a database read and a full frame each, most of them at the load where they hurt most."""
        if self.repair is not None and not self.repair.done():
            return
        game_id = self.game_id

        async def later() -> None:
            await asyncio.sleep(FRAME_GRACE)
            if not self.closing and self.game_id == game_id and self.last_version < (game_id, version):
                try:
                    await self._resync()
                except Disconnected:
                    self.closing = True
                except Exception:
                    log.exception("table socket: a frame repair failed (table %s)", self.table_id)

        self.repair = asyncio.get_running_loop().create_task(later())

    async def _action(self, move: Action) -> None:
        """A move, its shape decoded (game.services checks the id's length, the version and the move)."""
        msg_id, version = move["id"], move["version"]
        if self.game_id is None:
            await self._error(msg_id, "no_game")
            return
        if shutdown.stopping:  # this process is stopping: the client resends it to the next one
            await self.close(code=close_codes.SERVICE_RESTART)
            return
        metrics.move_received()
        self.busy += 1
        try:
            try:
                self.generation, reason, applied = await in_thread(calls.checked_move)(
                    self.session_key, self.user, self.generation, self.game_id, version, msg_id, move["action"])
            except ServiceError as exc:
                metrics.move_refused(exc.code)
                await self._error(None if exc.code == "bad_id" else msg_id, exc.code)  # never echo a bad id
                if exc.code in ("stale_version", "game_finished", "not_seated", "left_game"):
                    await self._resync()
                return
            if reason is not None:
                await self._end(reason)
                return
            metrics.move_applied(applied.duplicate)
            ack: Ack = {"type": "ack", "id": msg_id, "version": applied.version, "duplicate": applied.duplicate}
            await self.send_json(ack)
            if applied.duplicate:  # a resend after a reconnect: that move's frames may have died with a process
                await self._after_duplicate(applied.version)
        finally:
            self.busy -= 1

    async def _after_duplicate(self, version: int) -> None:
        """Every viewer gets the version's frames once more, the first time it is resent; later
        resends get this socket's own frame, and only if it has not had that version."""
        if await in_thread(first_republish)(self.game_id, version):
            await in_thread(services.republish)(self.game_id)
        elif self.last_version < (self.game_id, version):
            await self._resync()

    async def _error(self, msg_id: str | None, code: str) -> None:
        with translation.override(self.lang):
            message = message_for(code)
        error: Error = {"type": "error", "id": msg_id, "code": code, "message": message}
        await self.send_json(error)

    # ------------------------------------------------------------ the session behind the socket

    async def _session_ok(self) -> bool:
        """Has any session of this player ended since we last looked (one query; the session is
        loaded only then)? An ended one closes the socket."""
        self.generation, reason = await in_thread(calls.session_check)(self.session_key, self.user.pk, self.generation)
        if reason is not None:
            await self._end(reason)
            return False
        return True

    async def _end(self, reason: str) -> None:
        """Tell him why in words, then close with the code for it (4401 session ended, 4403 banned)."""
        if self.closing:
            return
        ban_reason = ""
        if reason == sessions.BANNED:
            ban_reason = await in_thread(sessions.ban_reason)(self.user.pk)
        with translation.override(self.lang):
            message = sessions.end_message(reason, ban_reason)
        error: Error = {"type": "error", "id": None, "code": reason, "message": message}
        await self.send_json(error)
        await self.close(code=sessions.close_code(reason))

    # ------------------------------------------------------------ sending, quietly when closed

    async def send(self, text_data: Any = None, bytes_data: Any = None, close: Any = False) -> None:
        """A frame for a socket the client has just closed is dropped (a closing race, not an error)."""
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
            metrics.socket_message_sent()
        except Disconnected:
            self.closing = True

    async def close(self, code: Any = None, reason: Any = None) -> None:
        if self.closing:
            return
        with contextlib.suppress(Disconnected):
            await super().close(code=code, reason=reason)
        self.closing = True

    # ------------------------------------------------------------ channel-layer events

    async def lobby_changed(self, event: Any) -> None:
        lobby: Lobby = {"type": "lobby", "version": event["version"]}
        await self.send_json(lobby)
        if not self._same_role(event):
            await self._follow_role()

    def _same_role(self, event: Any) -> bool:
        """Whether the change, as the event tells it (lobby.services.notices.bump), left this socket's
        player in the role he had: then nothing this socket may see or do changed, and every socket
        of a table need not read the database at each change of it. A player without a role at a
        private table (an invite holder, a moderator, a player of its running game who stood up)
        is always checked anew: his right to the table rests on what the event does not carry."""
        seated = event.get("seated")
        if seated is None or self.role is None:
            return False
        role = (event.get("host") == self.user.pk, self.user.pk in seated)
        return role == tuple(self.role) and (any(role) or not event.get("private"))

    async def _follow_role(self) -> None:
        """The table changed (someone sat, stood, left, became host): this socket's rights follow
        its player's role at once, not the one it connected with. A stranger to a private table is
        closed as if it did not exist; a new seat or none moves it to that seat's frames; the
        chat re-checks what he may read and write."""
        if self.closing:
            return
        info, role = await in_thread(calls.where_now)(self.scope.get("session"), self.user, self.table_id)
        if info is None:
            await self.close(code=close_codes.NOT_FOUND)
            return
        seat = self.seat
        if info.get("game_id") != self.game_id or info.get("seat") != seat:
            await self._resync(info)
        if role != self.role or info.get("seat") != seat:
            self.role = role
            await socket_hooks.role_changed(self)

    async def game_started(self, event: Any) -> None:
        started: GameStarted = {"type": "game_started", "game_id": event["game_id"]}
        await self.send_json(started)
        await self._follow_seat()

    async def _follow_seat(self) -> None:
        """Follow the current game; if that gave his player another seat in it or none (a new deal, a
        bot took his place), the rights that rest on the seat (the chat's) are checked again."""
        seat = self.seat
        await self._resync()
        if self.seat != seat and not self.closing:
            await socket_hooks.role_changed(self)

    async def socket_hook(self, event: Any) -> None:
        await socket_hooks.event(self, event)

    async def game_frame(self, event: Any) -> None:
        """A committed change's frame for this socket's seat (or the spectators'), already encoded.

        Passed on only if it is the frame of the seat this socket's player holds in the game it
        follows (`frames.seat_viewer`): a seat's group is named by table and number, so a frame
        queued while the socket still listened on a number its player no longer holds (the next
        deal gave it to someone else; he left and a bot plays it) is another player's hand. Such a
        frame means his place changed: the socket follows his place now."""
        seat = event.get("seat")
        if seat is not None and event.get("viewer") != self.user.pk:
            if event["game_id"] == self.game_id and seat == self.seat:
                await self._follow_seat()
            return
        if seat != self.seat:
            return
        if self._fresh(event["game_id"], event["version"], force=False, stamp=event.get("stamp", 0.0)):
            await self.send(text_data=event["text"])

    async def session_ended(self, event: Any) -> None:
        """accounts.sessions.tell_sockets: this player's session (this one, or all) has ended."""
        key = event.get("session_key")
        if key is not None and key != self.session_key:
            return  # another device logged out; this socket's session stands
        await self._end(event.get("reason") or sessions.SESSION_ENDED)


# The socket's own messages by type (game/protocol/table.py declares them); the apps' go through
# game/socket_hooks.py.
HANDLERS: dict[str, Callable[[TableConsumer, Any], Awaitable[None]]] = {
    "ping": TableConsumer._on_ping,
    "resync": TableConsumer._on_resync,
    "hello": TableConsumer._on_resync,
    "action": TableConsumer._action,
}
