"""Bot seats in live games: who must move, when, and how the decision is made.

After every committed change each awaited bot seat gets one move queued after a human-like pause
(settings.BOT_DELAY_RANGE, default 0.5–1.5 s). The move carries the version it was queued for, so a
late or duplicate one does nothing (game.services.apply_bot_action re-checks under the lock).

Where the decision runs (settings.BOT_SCHEDULER, default from TIMERS_BACKEND):
- "celery": the Celery task ``game.tasks.bot_move`` in a worker process: a searching level never
  takes CPU from a web process;
- "local": the embedded default (no Redis) and the test live server: a timer on the realtime loop,
  the decision and the write in a worker thread (never on the event loop itself);
- "off": no automatic bot moves (tests that drive bots by hand).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Sequence

from django.conf import settings

from durak_site import metrics, realtime
from durak_site.celery import app as celery_app
from durak_site.db import in_thread
from game import engine
from game.engine.bots import choose_action
from game.frames import SeatRow
from game.models import GameSeat

log = logging.getLogger(__name__)

BOT_MOVE_TASK = "game.tasks.bot_move"  # the Celery task's registered name (game/tasks.py uses it)


def delay_range() -> tuple[float, float]:
    lo, hi = settings.BOT_DELAY_RANGE
    return float(lo), float(hi)


def scheduler() -> str:
    return settings.BOT_SCHEDULER or ("celery" if settings.TIMERS_BACKEND == "celery" else "local")


def seats_to_move(state: engine.GameState, seats: Sequence[GameSeat | SeatRow]) -> list[int]:
    """Bot-played seats that may act now: the awaited ones (in the cheater check phase every bot
    that can catch)."""
    played = {s.number for s in seats if s.bot_controlled}
    if not played or state.result is not None:
        return []
    if state.in_check_phase():
        return [n for n in sorted(played) if engine.view_for(state, n)["legal"]]
    return [n for n in engine.whose_turn(state) if n in played]


def rng_seed(game_seed: str, version: int, seat: int) -> str:
    """A bot's randomness is a function of the game, the version and the seat: replays and tests
    see the same decision."""
    return f"{game_seed}:{version}:{seat}"


def decide(level: str, view: engine.View, seed: str) -> engine.Action | None:
    """The bot's action from the seat's own view only (never the state: a bot sees what a person
    in that seat would)."""
    if not view["legal"]:
        return None
    started = time.perf_counter()
    action = choose_action(level, view, random.Random(seed))
    metrics.bot_decided(level, time.perf_counter() - started)
    return action


_local_runner: Callable[[int, int, int], object] | None = None


def run_locally_with(run: Callable[[int, int, int], object]) -> None:
    """The local mode's move: ``run(game_id, seat, version)`` (game.services.move_bot, handed over in
    ``GameConfig.ready()``, so that the services, which schedule bots, need not be imported here)."""
    global _local_runner
    _local_runner = run


def schedule_moves(game_id: int, version: int, seats: list[int]) -> None:
    """Queue one move per seat (after commit): a Celery task, or (local mode) the registered runner."""
    mode = scheduler()
    if mode == "off":
        return
    run = _local_runner
    lo, hi = delay_range()
    for seat in seats:
        delay = random.uniform(lo, hi)
        if mode == "celery":
            try:
                celery_app.send_task(BOT_MOVE_TASK, args=(game_id, seat, version), countdown=delay)
            except Exception:  # the sweep moves a bot that waited too long (timers.bot_grace)
                log.warning("could not queue the bot move of game %s seat %s", game_id, seat, exc_info=True)
        elif run is not None:
            realtime.submit(_later(delay, run, game_id, seat, version))


async def _later(delay: float, run: Callable[[int, int, int], object], game_id: int, seat: int,
                 version: int) -> None:
    await asyncio.sleep(delay)
    try:
        await in_thread(run)(game_id, seat, version)
    except Exception:
        log.exception("bot move for game %s seat %s at version %s failed", game_id, seat, version)
