"""Server-side pacing of bot moves: after every change, each awaited bot seat gets one move queued
after a human-like pause (settings.BOT_DELAY_RANGE, default 0.5-1.5 s). The move goes through
game.services.apply_bot_action (the same write path as a person's move) and carries the version
it was queued for, so a late or duplicate one does nothing.

Schedulers (settings.BOT_SCHEDULER):
- "loop" (default with the embedded ticker): a timer on the server's asyncio event loop (the
  daphne loop when called from a consumer), or on a private background loop elsewhere.
- "celery": game.tasks.bot_move.apply_async(countdown=...) when the timers engineer's tasks
  module provides it (default when settings.TIMERS_BACKEND == "celery"); falls back to "loop".
- "off": no automatic bot moves (tests that drive bots by hand).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import random
import threading
from typing import TYPE_CHECKING

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings

if TYPE_CHECKING:
    from game.models import Game, GameSeat

log = logging.getLogger(__name__)

_bg_loop: asyncio.AbstractEventLoop | None = None
_bg_lock = threading.Lock()
_pending: set[asyncio.Task] = set()


def delay_range() -> tuple[float, float]:
    """settings.BOT_DELAY_RANGE, else env BOT_DELAY_RANGE="lo,hi" (e.g. for a live-server process), else 0.5-1.5 s."""
    value = getattr(settings, "BOT_DELAY_RANGE", None)
    if value is None and os.environ.get("BOT_DELAY_RANGE"):
        try:
            value = tuple(float(x) for x in os.environ["BOT_DELAY_RANGE"].split(",", 1))
        except ValueError:
            log.warning("ignoring a malformed BOT_DELAY_RANGE=%r", os.environ["BOT_DELAY_RANGE"])
    lo, hi = value if value is not None and len(value) == 2 else (0.5, 1.5)
    return float(lo), float(hi)


def scheduler() -> str:
    chosen = getattr(settings, "BOT_SCHEDULER", None) or os.environ.get("BOT_SCHEDULER")
    if chosen:
        return chosen
    return "celery" if getattr(settings, "TIMERS_BACKEND", "ticker") == "celery" else "loop"


def bot_seats_to_move(state, seats: list[GameSeat]) -> list[int]:
    """Bot-played seats that may act now: the awaited ones (in the cheater check phase every bot
    that can catch)."""
    from game import engine

    bots = {s.number for s in seats if s.bot_level or s.takeover_level}
    if not bots or state.result is not None:
        return []
    if state.phase == "check":
        return [n for n in sorted(bots) if engine.view_for(state, n)["legal"]]
    turn = engine.whose_turn(state) if hasattr(engine, "whose_turn") else engine.view_for(state, None)["turn"]
    return [n for n in turn if n in bots]


def schedule_bot_moves(game: Game, state, seats: list[GameSeat]) -> None:
    mode = scheduler()
    if mode == "off":
        return
    lo, hi = delay_range()
    for seat in bot_seats_to_move(state, seats):
        delay = random.uniform(lo, hi)
        schedule_bot_move(game.pk, seat, game.version, delay, mode)


def schedule_bot_move(game_id: int, seat: int, version: int, delay: float, mode: str | None = None) -> None:
    mode = mode or scheduler()
    if mode == "celery":
        try:
            from game import tasks
        except ImportError:
            tasks = None
        task = getattr(tasks, "bot_move", None) if tasks is not None else None
        if task is not None:
            try:
                task.apply_async((game_id, seat, version), countdown=delay)
                return
            except Exception:
                log.exception("could not queue bot_move for game %s; using the in-process loop", game_id)
    loop = _main_loop() or _background_loop()
    # a fresh context: the caller's (often a sync_to_async thread's) must not leak into the bot's task,
    # or asgiref takes the bot for a nested call of that thread and refuses to run it
    loop.call_soon_threadsafe(_arm, loop, delay, game_id, seat, version, context=contextvars.Context())


def _main_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop: the running one, or the one a sync_to_async thread came from."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running() and not loop.is_closed():
            return loop
    return None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _bg_loop
    with _bg_lock:
        if _bg_loop is None or _bg_loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="bot-moves", daemon=True).start()
            _bg_loop = loop
        return _bg_loop


def _arm(loop: asyncio.AbstractEventLoop, delay: float, game_id: int, seat: int, version: int) -> None:
    loop.call_later(delay, _start, game_id, seat, version, context=contextvars.Context())


def _start(game_id: int, seat: int, version: int) -> None:
    task = asyncio.get_running_loop().create_task(run_bot_move(game_id, seat, version),
                                                  context=contextvars.Context())
    _pending.add(task)
    task.add_done_callback(_pending.discard)


async def run_bot_move(game_id: int, seat: int, version: int) -> None:
    from game import services

    try:
        await database_sync_to_async(services.apply_bot_action, thread_sensitive=False)(game_id, seat, version)
    except Exception:
        log.exception("bot move for game %s seat %s at version %s failed", game_id, seat, version)
