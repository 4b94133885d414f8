"""The table socket (/ws/tables/<id>/): waiting room and game share it (DESIGN.md wire protocol).

Groups: `table-<id>` (everyone: lobby events, game started), `table-<id>-seat-<n>` (the socket of
the player owning seat n of the current game: his own redacted frames) and `table-<id>-watch`
(everyone else: the spectator frame). Frames are built by game.services, already redacted.

Close codes: 4401 not signed in, 4404 no such table, 4429 flooding.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from accounts import services as accounts_services
from durak_site import realtime
from durak_site.db import in_thread
from game import services, shutdown, socket_count, socket_hooks
from game.errors import ServiceError, message_for
from lobby import services as lobby_services

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 2048
FLOOD_WINDOW = 1.0  # seconds
FLOOD_LIMIT = 20  # messages per window
HEARTBEAT_EVERY = 5.0  # seconds between presence writes caused by pings


def _parallel(func):
    """Game writes lock their own game row, so they need not queue behind every other socket's
    database work on the one thread-sensitive thread: run them on the thread pool."""
    return in_thread(func)


def _language(scope) -> str:
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


def _quietly(func):
    """A presence write from a socket event: logged, never allowed to kill the socket."""

    def call(*args):
        try:
            return func(*args)
        except Exception:
            log.exception("%s%r failed", func.__name__, args)
            return None

    return database_sync_to_async(call)


_set_presence = _quietly(lobby_services.set_presence)
_touch_presence = _quietly(lobby_services.touch_presence)
_record_address = _quietly(accounts_services.record_address)


class TableConsumer(AsyncJsonWebsocketConsumer):
    table_id: int
    game_id: int | None = None
    seat: int | None = None
    game_group: str | None = None
    last_version: tuple[int, int] = (0, -1)  # (game_id, version) of the last frame sent
    last_beat: float = 0.0
    counted: bool = False  # this socket is in socket_count (closing the last one marks him gone)
    busy: int = 0  # moves being applied (a graceful stop lets them finish)

    # ------------------------------------------------------------ connection

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.lang = _language(self.scope)
        self.stamps: deque[float] = deque()
        self.joined: list[str] = []
        await self.accept()
        shutdown.track(self)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        info = await database_sync_to_async(services.connect_info)(self.table_id, self.user)
        if info is None:
            await self.close(code=4404)
            return
        await self._join(realtime.table_group(self.table_id))
        await self._follow_game(info)
        await sync_to_async(socket_count.opened, thread_sensitive=False)(self.table_id, self.user.pk)
        self.counted = True
        await _set_presence(self.table_id, self.user.pk, True)
        if self.seat is not None and info.get("playing"):
            await database_sync_to_async(services.set_connected)(self.game_id, self.user, True)
            self.last_beat = time.monotonic()
            info = await database_sync_to_async(services.connect_info)(self.table_id, self.user)
        await self._send_info(info)
        await socket_hooks.connected(self)
        await _record_address(self.user.pk, accounts_services.scope_client_ip(self.scope))  # ratings: one address

    async def disconnect(self, code) -> None:
        try:
            await self._leave(code)
        finally:
            shutdown.forget(self)

    async def _leave(self, code) -> None:
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined = []
        user = getattr(self, "user", None)
        if user is None or not user.is_authenticated or not hasattr(self, "table_id") or not self.counted:
            return
        self.counted = False
        if await sync_to_async(socket_count.closed, thread_sensitive=False)(self.table_id, user.pk):
            return  # another tab of his is still open at this table: he is still here
        await _set_presence(self.table_id, user.pk, False)
        if self.game_id is not None and self.seat is not None:
            try:
                await database_sync_to_async(services.set_connected)(self.game_id, user, False)
            except Exception:
                log.exception("set_connected on disconnect failed")

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.append(group)

    async def _follow_game(self, info: dict) -> None:
        """Join the frame group of the current game's seat (or the spectators')."""
        self.game_id = info.get("game_id")
        self.seat = info.get("seat")
        if self.game_id is None:
            group = None
        elif self.seat is not None:
            group = realtime.seat_group(self.table_id, self.seat)
        else:
            group = realtime.watch_group(self.table_id)
        if group == self.game_group:
            return
        if self.game_group is not None:
            await self.channel_layer.group_discard(self.game_group, self.channel_name)
            if self.game_group in self.joined:
                self.joined.remove(self.game_group)
        self.game_group = group
        if group is not None:
            await self._join(group)

    async def _send_info(self, info: dict) -> None:
        if info.get("frame") is not None:
            await self._send_frame(info["frame"], force=True)
        else:
            await self.send_json({"type": "lobby", "version": info["table_version"]})

    async def _send_frame(self, frame: dict, force: bool = False) -> None:
        key = (frame["game_id"], frame["version"])
        if not force and key[0] == self.last_version[0] and key[1] < self.last_version[1]:
            return  # an older frame overtaken by a newer one
        if frame["game_id"] != self.game_id and not force:
            return
        if key[0] != self.last_version[0] or key[1] >= self.last_version[1]:
            self.last_version = key
        await self.send_json(frame)

    async def _resync(self) -> None:
        info = await database_sync_to_async(services.connect_info)(self.table_id, self.user)
        if info is None:
            await self.close(code=4404)
            return
        await self._follow_game(info)
        await self._send_info(info)

    # ------------------------------------------------------------ client -> server

    async def websocket_receive(self, message) -> None:
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                await self._error(None, "bad_json")
                return
        await self.receive(text_data=text)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if not self.user or not self.user.is_authenticated:
            return
        now = time.monotonic()
        self.stamps.append(now)
        while self.stamps and now - self.stamps[0] > FLOOD_WINDOW:
            self.stamps.popleft()
        if len(self.stamps) > FLOOD_LIMIT:
            await self._error(None, "flooding")
            await self.close(code=4429)
            return
        if text_data is None:
            text_data = (bytes_data or b"").decode("utf-8", "replace")
        if len(text_data.encode("utf-8")) > MAX_FRAME_BYTES:
            await self._error(None, "too_large")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self._error(None, "bad_json")
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict):
            await self._error(None, "bad_message")
            return
        msg_id = content.get("id")
        if not (msg_id is None or isinstance(msg_id, str)):
            msg_id = None
        kind = content.get("type")
        if kind is not None:
            if kind == "ping":
                await self._ping()
            elif kind in ("resync", "hello"):
                await self._resync()
            elif kind == "action" and "action" in content:
                await self._action(content, msg_id)
            elif socket_hooks.handles(kind):
                await socket_hooks.message(self, content)
            else:
                await self._error(msg_id, "unknown_type")
            return
        if "action" not in content:
            await self._error(msg_id, "unknown_type")
            return
        await self._action(content, msg_id)

    async def _ping(self) -> None:
        """A heartbeat: answered with the last version this socket was sent. At most every few
        seconds it also writes presence and checks the game's version: a frame lost with a dying
        process (committed, never sent) is resent here."""
        await self.send_json({"type": "pong", "version": self.last_version[1] if self.game_id else None})
        if time.monotonic() - self.last_beat < HEARTBEAT_EVERY:
            return
        self.last_beat = time.monotonic()
        await sync_to_async(socket_count.alive, thread_sensitive=False)(self.table_id, self.user.pk)
        if self.seat is not None and self.game_id is not None:
            version = await _parallel(services.heartbeat)(self.game_id, self.user)
        else:
            await _touch_presence(self.table_id, self.user.pk)
            version = await _parallel(services.game_version)(self.game_id) if self.game_id is not None else None
        if version is not None and version > self.last_version[1]:
            await self._resync()

    async def _action(self, content: dict, msg_id) -> None:
        try:
            msg_id = services.validate_msg_id(msg_id)
        except ServiceError:
            await self._error(None, "bad_id")
            return
        version = content.get("version")
        if type(version) is not int:
            await self._error(msg_id, "bad_version")
            return
        if not isinstance(content.get("action"), dict):
            await self._error(msg_id, "bad_action")
            return
        if self.game_id is None:
            await self._error(msg_id, "no_game")
            return
        if shutdown.stopping:  # this process is stopping: the client resends it to the next one
            await self.close(code=shutdown.SERVICE_RESTART)
            return
        self.busy += 1
        try:
            try:
                applied = await _parallel(services.apply_player_action)(
                    self.game_id, self.user, version, msg_id, content["action"])
            except ServiceError as exc:
                await self._error(msg_id, exc.code)
                if exc.code in ("stale_version", "game_finished", "not_seated", "left_game"):
                    await self._resync()
                return
            await self.send_json({"type": "ack", "id": msg_id, "version": applied.version,
                                  "duplicate": applied.duplicate})
            if applied.duplicate:  # a resend after a reconnect: that move's frames may have died with a process
                await _parallel(services.republish)(self.game_id)
        finally:
            self.busy -= 1

    async def _error(self, msg_id, code: str) -> None:
        with translation.override(self.lang):
            message = message_for(code)
        await self.send_json({"type": "error", "id": msg_id, "code": code, "message": message})

    # ------------------------------------------------------------ channel-layer events

    async def lobby_changed(self, event) -> None:
        await self.send_json({"type": "lobby", "version": event.get("version")})

    async def game_started(self, event) -> None:
        await self.send_json({"type": "game_started", "game_id": event["game_id"]})
        await self._resync()

    async def socket_hook(self, event) -> None:
        await socket_hooks.event(self, event)

    async def game_frame(self, event) -> None:
        if event.get("game_id") != self.game_id:
            return
        await self._send_frame(event["frame"])
