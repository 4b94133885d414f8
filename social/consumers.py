"""The site socket (/ws/site/): the one socket of every page but a table's. Presence, and personal news
(a match was found: go to the table; an invitation; a friend request), and the lobby's online list.
A table's pages hold the table socket only, which carries the same news (social/table_socket.py).

Messages from the browser (JSON objects with "type"): `ping`; `page` {"path"} (the page this tab
shows: arriving at a matched table presses «Готово» for him; the lobby subscribes to the online
list); `search` {choices}; `cancel`; `invitation` {"id", "accept"}. Anything else gets an error
frame and changes nothing.

Close codes: 4401 not signed in or the session ended, 4403 banned, 4408 too many sockets of one
account or address (game/socket_limits.py, counted with the table sockets), 4429 flooding (the
conventions of accounts/sessions.py and game/flood.py that the table socket also follows). The
page's client (static/site/socket.js) reconnects only after 4429, after its usual pause.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from accounts import services as accounts_services
from accounts import sessions
from durak_site import close_codes, realtime
from durak_site.db import in_thread
from durak_site.errors import ServiceError, message_for
from game import protocol, socket_limits
from game.flood import TokenBucket
from game.socket_calls import language as _language  # the table socket's reading of the language cookie
from game.socket_calls import session_check
from lobby import guards

from . import beats, notify, people, presence, queue, queue_news, site_hooks
from .protocol import SITE, Answer, Error, Hello, Page, Pong, Search, SearchNews, SearchState

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 1024
RATE, BURST = 2.0, 20.0  # messages a second on average, and at once
PUSH_EVERY = 1.0  # seconds: the online list and queue counts reach one socket at most this often
BEAT_EVERY = 35.0  # seconds: every other ping of a tab (20 s) checks the session and refreshes presence
BAD_FRAME_CODES = ("bad_message", "unknown_setting", "unknown_type", "bad_json", "too_large")
TABLE_PATH = re.compile(r"^/tables/(\d{1,12})/$")
LOBBY_PATH = "/tables/"


class SiteConsumer(AsyncJsonWebsocketConsumer):
    counted = False
    closing = False
    session_key: str | None = None
    watching_online = False
    watching_queue = False
    hidden: frozenset[int] | set[int] = frozenset()  # players hidden from him (they blocked him)
    online_frame: str | None = None  # the newest online list announced, not yet sent (throttled)
    search: dict[str, Any] | None = None  # his search as this socket last showed it (queue.status_for)
    queue_news: dict[str, Any] | None = None  # the newest queue news announced, not yet used (throttled)
    avoid: set[int] | None = None  # the players a block keeps from him (queue.avoid_of), read when needed
    admitted = False  # counted by game.socket_limits with the table sockets (released on disconnect)
    generation = 0  # accounts.sessions.generation when the session was last found valid

    async def dispatch(self, message: Any) -> None:
        """As the table socket: no hop to the one thread-sensitive thread per message (the
        database is reached only through `in_thread`)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Every frame leaves through the schema's encoder (game/protocol, social/protocol.py)."""
        return protocol.encode(SITE, content)

    async def connect(self) -> None:
        self.user: Any = self.scope.get("user")
        self.lang = _language(self.scope)
        self.bucket = TokenBucket(RATE, BURST)
        self.joined: list[str] = []
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.last_push: dict[str, float] = {}
        self.last_beat = time.monotonic()
        if self.user is None or not self.user.is_authenticated:
            await self.accept()
            await self.close(code=close_codes.SESSION_ENDED)
            return
        self.address = accounts_services.scope_client_ip(self.scope)
        if not await in_thread(socket_limits.connect_allowed)(self.user.pk):
            log.warning("site socket: player %s opens sockets too fast; refused", self.user.pk)
            await self._refuse("flooding", close_codes.FLOODING)
            return
        if not socket_limits.admit(self.user.pk, self.address):
            await self._refuse("too_many_sockets", close_codes.TOO_MANY)
            return
        self.admitted = True
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        # in the groups before the handshake completes: news sent once the page sees the socket open
        # reaches it (the hello comes later), as on a table's socket
        for group in (realtime.player_group(self.user.pk), notify.site_group(self.user.pk)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)
        await self.accept()
        reason, self.generation, self.search = await in_thread(_arrive)(self.session_key, self.user.pk)
        if reason is not None:
            await self._end(reason)
            return
        self.counted = True
        hello: Hello = {"type": "hello", "search": cast("SearchState", self.search)}  # queue.status_for
        await self.send_json(hello)

    async def _refuse(self, code: str, close_code: int) -> None:
        """Accept, say why in an error frame, close: a refused handshake would reach the client as a
        bare 1006."""
        await self.accept()
        await self._error(code)
        self.closing = True
        await self.close(code=close_code)

    async def disconnect(self, code: Any) -> None:
        self.closing = True
        if self.admitted:
            self.admitted = False
            socket_limits.release(self.user.pk, self.address)
        for task in self.pending.values():
            task.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.joined = []
        if self.counted:
            self.counted = False
            try:
                await in_thread(presence.closed)(self.user.pk)
            except Exception:
                log.exception("site socket: presence on close failed")

    # ------------------------------------------------------------ browser -> server

    async def receive(self, text_data: Any = None, bytes_data: Any = None, **kwargs: Any) -> None:
        if not self.counted:
            return
        if not self.bucket.take():
            await self._error("flooding")
            await self.close(code=close_codes.FLOODING)
            return
        if text_data is None or len(text_data.encode("utf-8", "replace")) > MAX_FRAME_BYTES:
            await self._error("too_large" if text_data else "bad_message")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self._error("bad_json")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self._error("bad_message")
            return
        try:
            spec, message = protocol.decode(SITE, content)  # social/protocol.py: the shapes
            await HANDLERS[spec.name](self, message)
        except (ServiceError, protocol.Refused) as exc:
            if exc.code in BAD_FRAME_CODES:  # one line, no traceback: a bad frame is the sender's fault
                log.warning("site socket: player %s sent a bad %r frame: %s", self.user.pk, content.get("type"),
                            exc.code)
            await self._error(exc.code, exc if isinstance(exc, ServiceError) else None)
        except Exception:
            log.exception("site socket: message %r failed", content.get("type"))
            await self._error("bad_message")

    async def _on_ping(self, message: Any) -> None:
        pong: Pong = {"type": "pong"}
        await self.send_json(pong)
        if time.monotonic() - self.last_beat >= BEAT_EVERY:
            self.last_beat = time.monotonic()
            # off this socket's queue: its news (a match found) never waits for the batch
            self.pending["beat"] = asyncio.ensure_future(self._beat())

    async def _on_page(self, message: Page) -> None:
        await self._page(message["path"])

    async def _on_search(self, message: Search) -> None:
        choices = message.get("choices") or {}
        # checked before the call: the keys become keyword arguments (an unknown one is refused)
        cleaned = queue.clean_choices(choices) if choices else {}
        await in_thread(queue.join)(self.user, **cleaned)
        await self._watch_queue(True)
        await self._send_search()

    async def _on_cancel(self, message: Any) -> None:
        await in_thread(queue.cancel)(self.user)
        await self._send_search()

    async def _on_invitation(self, message: Answer) -> None:
        row = await in_thread(people.answer)(self.user, message["id"], message["accept"])
        await self.send_json(notify.invitation_answered(row.table_id, row.pk, message["accept"]))

    async def _beat(self) -> None:
        """He is still here (presence, batched with the process's other beats), and his session
        still stands: it is loaded only when his session generation moved, as the table socket does."""
        try:
            if await beats.beat(self.user.pk) == self.generation:
                return
            self.generation, reason = await in_thread(session_check)(self.session_key, self.user.pk,
                                                                     self.generation)
            if reason is not None:
                await self._end(reason)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("site socket: heartbeat failed")

    async def _page(self, path: str) -> None:
        if len(path) > 200:
            raise ServiceError("bad_message")
        found = TABLE_PATH.match(path)
        if found:
            await in_thread(queue.arrived)(self.user.pk, int(found.group(1)))
        if path == LOBBY_PATH and not self.watching_online:
            self.watching_online = True
            self.hidden = await in_thread(guards.hidden_players)(self.user.pk)  # who blocked him
            await self.channel_layer.group_add(notify.ONLINE_GROUP, self.channel_name)
            self.joined.append(notify.ONLINE_GROUP)
            await self._push_online()
        if path.startswith("/play/"):
            await self._watch_queue(True)
        for group in await in_thread(site_hooks.page_groups)(self.user.pk, path):
            if group not in self.joined:
                await self.channel_layer.group_add(group, self.channel_name)
                self.joined.append(group)

    async def _watch_queue(self, on: bool) -> None:
        if on and not self.watching_queue:
            self.watching_queue = True
            await self.channel_layer.group_add(queue.QUEUE_GROUP, self.channel_name)
            self.joined.append(queue.QUEUE_GROUP)

    async def _send_search(self) -> None:
        self.search = await in_thread(queue.status_for)(self.user.pk)
        self.avoid = None  # read again with the next news: a block may have come meanwhile
        news: SearchNews = {"type": "search", "search": cast("SearchState", self.search)}
        await self.send_json(news)

    async def _send_queue_news(self) -> None:
        """The queue changed: a socket whose player still waits works his count out of the news
        (queue_news); any other (his search ended, or he searches from another tab) reads his status."""
        news, self.queue_news = self.queue_news, None
        search = self.search
        if (news is None or "modes" not in news or search is None or search.get("state") != "searching"
                or self.user.pk not in news["waiting"]):
            await self._send_search()
            return
        if self.avoid is None:  # whom a block keeps from him (never sent: a block is silent)
            self.avoid = await in_thread(queue.avoid_of)(self.user.pk)
        self.search = {**search, "others": queue_news.others(news["modes"], search["choices"], self.avoid,
                                                             news.get("rows", ()))}
        frame: SearchNews = {"type": "search", "search": cast("SearchState", self.search)}
        await self.send_json(frame)

    async def _push_online(self) -> None:
        self.last_push["online"] = time.monotonic()  # before the read: news meanwhile waits its second
        await self.send_json({"type": "online", **await in_thread(presence.summary_for)(self.user)})

    # ------------------------------------------------------------ server -> browser

    def _throttled(self, name: str, send: Any) -> None:
        """Run `send` now, or once when PUSH_EVERY has passed since the last one (never more often)."""
        if name in self.pending and not self.pending[name].done():
            return
        wait = max(0.0, PUSH_EVERY - (time.monotonic() - self.last_push.get(name, 0.0)))

        async def later() -> None:
            await asyncio.sleep(wait)
            if not self.closing:
                try:
                    await send()
                except Exception:
                    log.exception("site socket: %s push failed", name)
            self.last_push[name] = time.monotonic()  # from the frame's leaving: a slow read never bunches two

        self.pending[name] = asyncio.ensure_future(later())

    async def socket_hook(self, event: Any) -> None:
        """The personal news (social/notify.py), sent as the table socket's hook event."""
        if event.get("hook") == notify.HOOK and not self.closing:
            await self.send_json(event["payload"])

    async def site_notify(self, event: Any) -> None:
        """News sent to a page hook's group as ``site.notify`` (social/site_hooks.py): the site socket
        only; a group a table socket may join sends ``notify.news_event`` instead."""
        if not self.closing:
            await self.send_json(event["payload"])

    async def site_online(self, event: Any) -> None:
        """The online list changed: its frame comes with the news (presence.summary read once for
        every viewer); the newest one goes out when this socket's second is up."""
        self.online_frame = event.get("text")
        self._throttled("online", self._send_online_frame)

    async def _send_online_frame(self) -> None:
        if self.online_frame is None:
            await self._push_online()
            return
        frame, self.online_frame = self.online_frame, None
        if self.hidden:  # someone blocked him: the shared frame, without them (rare: parsed only then)
            data = json.loads(frame)
            data["players"] = [p for p in data.get("players", []) if p.get("id") not in self.hidden]
            await self.send_json(data)
            return
        await self.send(text_data=frame)

    async def site_queue(self, event: Any) -> None:
        self.queue_news = event
        self._throttled("queue", self._send_queue_news)

    async def session_ended(self, event: Any) -> None:
        key = event.get("session_key")
        if key is not None and key != self.session_key:
            return
        await self._end(event.get("reason") or sessions.SESSION_ENDED)

    async def _end(self, reason: str) -> None:
        if self.closing:
            return
        with translation.override(self.lang):
            message = sessions.end_message(reason)
        error: Error = {"type": "error", "code": reason, "message": message}
        await self.send_json(error)
        self.closing = True
        await self.close(code=sessions.close_code(reason))

    async def _error(self, code: str, exc: ServiceError | None = None) -> None:
        with translation.override(self.lang):
            message = str(exc) if exc is not None else message_for(code)
        error: Error = {"type": "error", "code": code, "message": message}
        await self.send_json(error)

    async def send(self, text_data: Any = None, bytes_data: Any = None, close: Any = False) -> None:
        try:
            await super().send(text_data, bytes_data, close)
        except Exception:
            self.closing = True


def _arrive(session_key: str | None, player_id: int) -> tuple[str | None, int, dict[str, Any] | None]:
    """One thread hop after the handshake: (why the session ended or None, the session generation it
    was found valid at, what his search shows); a valid one counts the tab as open. The generation is
    read before the check: a session that ends in between moves it, and the next beat looks again."""
    generation = sessions.generation(player_id)
    reason = sessions.socket_end_reason(session_key, player_id)
    if reason is not None:
        return reason, generation, None
    presence.opened(player_id)
    return None, generation, queue.status_for(player_id)




# The site socket's messages by type (social/protocol.py declares them).
HANDLERS: dict[str, Callable[[SiteConsumer, Any], Awaitable[None]]] = {
    "ping": SiteConsumer._on_ping,
    "page": SiteConsumer._on_page,
    "search": SiteConsumer._on_search,
    "cancel": SiteConsumer._on_cancel,
    "invitation": SiteConsumer._on_invitation,
}
