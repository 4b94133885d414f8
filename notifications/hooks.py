"""Where the news that may become a push comes from, wired in NotificationsConfig.ready().

- social's personal news (social.notify.on_news): an invitation, a match found, a friend request,
  a tournament he joined starting in a minute (the tournaments app tells it through social), a
  friend's private message (the letters app tells it through social);
- the game's turns (game.turn_news): «Ваш ход» to the awaited people whose tabs do not show the
  table; the turn's thread only puts the news on a queue, a dispatcher thread reads the cache and
  asks for the pushes, so a move never waits on the cache for this;
- the analysis app (analysis.signals.analysis_done);
- the table socket (game.socket_hooks): the page reports whether it is visible.
"""

from __future__ import annotations

import logging
import queue
import threading

from django.db import close_old_connections
from django.utils import timezone

from analysis import signals as analysis_signals
from durak_site.db import in_thread
from game import socket_hooks, turn_news
from social import notify as social_notify

from . import protocol, services, visibility

log = logging.getLogger(__name__)

# social's news kinds (the tournaments app tells its players through social too) → our kinds
SOCIAL_KINDS = {"invitation": "invitation", "match": "match", "friend_request": "friend_request",
                "tournament_soon": "event_start", "letter": "letter"}
VISIBILITY_EVERY = 1.0  # seconds: reports closer together than this from one socket are ignored


def social_news(player_id: int, kind: str, data: dict) -> None:
    if kind in SOCIAL_KINDS:
        services.notify(player_id, SOCIAL_KINDS[kind], dict(data))


def analysis_done(sender, game_id: int, player_id: int, **kwargs) -> None:
    services.notify(player_id, "analysis_done", {"game_id": game_id})


class TurnDispatcher:
    """One daemon thread per process: takes turn news off a queue, drops those whose player has
    the table in view, and queues a push for the rest."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[turn_news.TurnNews] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def hear(self, news: turn_news.TurnNews) -> None:
        if not services.enabled():
            return
        self.queue.put(news)
        if self.thread is None or not self.thread.is_alive():
            with self.lock:
                if self.thread is None or not self.thread.is_alive():
                    self.thread = threading.Thread(target=self._run, name="push-turns", daemon=True)
                    self.thread.start()

    def _run(self) -> None:
        while True:
            news = self.queue.get()
            try:
                self.handle(news)
            except Exception:
                log.exception("turn push for game %s failed", news.game_id)
            finally:
                close_old_connections()

    @staticmethod
    def handle(news: turn_news.TurnNews) -> None:
        pairs = [(pid, news.table_id) for pid in news.player_ids]
        seen = visibility.visible_of(pairs)
        seconds = None
        if news.deadline is not None:
            seconds = max(0, int((news.deadline - timezone.now()).total_seconds()))
        for pid, table_id in pairs:
            if (pid, table_id) in seen:
                continue
            services.queue_now(pid, "your_turn", {"game_id": news.game_id, "table_id": table_id,
                                                   "version": news.version, "seconds": seconds})


dispatcher = TurnDispatcher()


async def visibility_message(consumer, content: dict) -> None:
    """{"type": "visibility", "visible": bool} from a table page: its tab is in view or not."""
    visible = content.get("visible")
    if not isinstance(visible, bool):
        await consumer._error(content.get("id"), "bad_message")
        return
    import time

    now = time.monotonic()
    last = getattr(consumer, "visibility_reported", (0.0, None))
    if last[1] == visible and now - last[0] < VISIBILITY_EVERY:
        return  # a repeat too soon: nothing changes
    consumer.visibility_reported = (now, visible)
    await in_thread(visibility.report)(consumer.user.pk, consumer.table_id, consumer.channel_name, visible)


def register() -> None:
    social_notify.on_news(social_news)
    turn_news.on_turn(dispatcher.hear)
    analysis_signals.analysis_done.connect(analysis_done, dispatch_uid="notifications.analysis_done")
    protocol.register()  # its definition (notifications/protocol.py)
    socket_hooks.register("visibility", visibility_message)
