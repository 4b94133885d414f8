"""The only writer of analyses (with analysis/queue.py, its run and repair): who may ask for one,
queueing it, and the automatic analyses.

An analysis reads a finished game (its deal, its event log, its seats) through the game app's
models and writes only its own rows. The work runs off the web process: in a Celery worker on the
queue ``analysis`` (settings.CELERY_TASK_ROUTES; live play's tasks stay on the default queue, so a
bot move or a deadline sweep never waits behind an analysis), or, in the embedded default without
Redis, in a background thread.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from accounts import services as accounts_services
from durak_site.celery import app as celery_app
from durak_site.errors import ServiceError
from game.models import Game, GameSeat

from . import queue
from .models import Analysis, AnalysisSettings, SeatAnalysis

log = logging.getLogger(__name__)

TASK = queue.TASK  # a turn of the analysis queue (analysis/queue.py)
STALE = timedelta(minutes=30)  # a row queued or running this long is lost even without beat's sweep
PENDING_PER_REQUESTER = 2  # analyses one player may have queued or running at once


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def _within_limit(key: str, count: int, window: int) -> bool:
    """A fixed-window counter in the cache: False once ``count`` uses of ``key`` fell in ``window`` s."""
    slot = f"analysis:{key}:{int(timezone.now().timestamp()) // window}"
    cache.add(slot, 0, timeout=window * 2)
    return cache.incr(slot) <= count


def allowed_to_poll(client: str) -> bool:
    """The progress endpoint's rate limit (a page polls once a second)."""
    return _within_limit(f"poll:{client}", _setting("ANALYSIS_POLLS_PER_MINUTE", 180), 60)


def is_player(game: Game, player: Any) -> bool:
    return bool(player and player.is_authenticated
                and GameSeat.objects.filter(game=game, player_id=player.pk).exists())


def check_may_request(game: Game, player: Any) -> None:
    """A player of the game may ask for its analysis, and anyone signed in for a finished public game."""
    if not player or not player.is_authenticated:
        raise ServiceError("analysis_login")
    accounts_services.ensure_can_play(player)  # a session that outlived a ban queues nothing
    if game.status != Game.Status.FINISHED:
        raise ServiceError("analysis_not_over")
    if game.table.private and not player.is_staff and not is_player(game, player):
        raise ServiceError("analysis_private")


def request_analysis(game_id: Any, player: Any, address: str | None = None) -> Analysis:
    """The game's analysis, queued if there was none (or the last one failed or was lost): asking
    again returns the same one. A player's own game goes before other people's in the queue. Limits:
    ANALYSIS_PER_HOUR per player and ANALYSIS_PER_HOUR_PER_ADDRESS per address (``address``: the
    request's client address), and PENDING_PER_REQUESTER waiting at once per player. Refuses with a
    ServiceError and changes nothing."""
    try:
        game = Game.objects.select_related("table").get(pk=int(game_id))
    except (Game.DoesNotExist, TypeError, ValueError, OverflowError) as e:
        raise ServiceError("game_not_found") from e
    check_may_request(game, player)
    existing = Analysis.objects.filter(game=game).first()
    if existing and not _needs_run(existing):
        return existing
    pending = Analysis.objects.filter(requested_by=player, status__in=[Analysis.Status.QUEUED, Analysis.Status.RUNNING]
                                      ).exclude(priority=queue.Priority.AUTO)  # his automatic ones wait apart
    if pending.count() >= _setting("ANALYSIS_PENDING_PER_REQUESTER", PENDING_PER_REQUESTER):
        raise ServiceError("analysis_queue_full")
    if not _within_limit(f"player:{player.pk}", _setting("ANALYSIS_PER_HOUR", 10), 3600):
        raise ServiceError("analysis_too_often")
    if address and not _within_limit(f"address:{address}", _setting("ANALYSIS_PER_HOUR_PER_ADDRESS", 10), 3600):
        raise ServiceError("analysis_too_often")
    priority = queue.Priority.OWN if is_player(game, player) else queue.Priority.OTHERS
    with transaction.atomic():
        analysis, created = Analysis.objects.select_for_update().get_or_create(
            game=game, defaults={"requested_by": player, "priority": priority})
        if not created and not _needs_run(analysis):
            return analysis
        if not created:
            analysis.status, analysis.done, analysis.error, analysis.lost = Analysis.Status.QUEUED, 0, "", 0
            analysis.requested_by, analysis.requested_at, analysis.priority = player, timezone.now(), priority
            analysis.task_id, analysis.heartbeat_at = "", None
            analysis.save(update_fields=["status", "done", "error", "lost", "requested_by", "requested_at",
                                         "priority", "task_id", "heartbeat_at"])
        transaction.on_commit(lambda: enqueue(analysis.pk))
    return analysis


def _needs_run(a: Analysis) -> bool:
    """Failed, or lost: queued or running for longer than STALE with no run alive (the sweep, when
    beat runs it, finds a lost run or message within minutes; this covers a deployment without it)."""
    old = timezone.now() - STALE
    return a.status == Analysis.Status.FAILED or (
        a.status == Analysis.Status.RUNNING and (a.heartbeat_at or a.started_at or a.requested_at) < old) or (
        a.status == Analysis.Status.QUEUED and a.requested_at < old)


def enqueue(analysis_id: int) -> None:
    """A queued row's turn, sent after its commit. A failed send is repaired by the sweep."""
    queue.send_turn(analysis_id)


def run(analysis_id: int | None = None, task_id: str = "") -> bool:
    return queue.run(analysis_id, task_id)


def analysis_for(game: Game) -> Analysis | None:
    return Analysis.objects.filter(game=game).first()


# --- automatic analyses and the profile ------------------------------------------------------

AUTO_TASK = "analysis.tasks.auto_analyse_game"
RECENT = 20  # the profile's average covers this many analysed games


def set_auto(player: Any, on: Any) -> AnalysisSettings:
    """Turn "analyse my rated games automatically" on or off (``on`` must be a bool)."""
    if not player or not player.is_authenticated:
        raise ServiceError("analysis_login")
    if not isinstance(on, bool):
        raise ServiceError("analysis_bad_setting")
    if on:
        accounts_services.ensure_can_play(player)  # banned: he may turn it off, never on
    if not _within_limit(f"settings:{player.pk}", 20, 60):
        raise ServiceError("analysis_too_often_settings")
    row, _created = AnalysisSettings.objects.update_or_create(player=player, defaults={"auto": on})
    return row


def on_player_banned(sender: Any, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.player_banned: his automatic analyses stop (games of his that end later are
    not analysed for him; a lifted ban leaves the switch off for him to turn on again)."""
    AnalysisSettings.objects.filter(player_id=player_id, auto=True).update(auto=False)


def auto_enabled(player: Any) -> bool:
    return bool(player and player.is_authenticated
                and AnalysisSettings.objects.filter(player_id=player.pk, auto=True).exists())


def on_game_finished(sender: Any, game: Any, seats: Any = None, **kwargs: Any) -> None:
    """game.signals.game_finished (inside the finishing transaction): no statement here; after the
    commit the analysis queue decides whether anyone at the table wants the game analysed."""
    if game.status != Game.Status.FINISHED or not any(getattr(s, "player_id", None) for s in seats or ()):
        return
    game_id = game.pk
    transaction.on_commit(lambda: _send_auto(game_id))


def _send_auto(game_id: int) -> None:
    mode = queue.runner()
    if mode == "celery":
        try:
            celery_app.send_task(AUTO_TASK, args=(game_id,), queue=queue.QUEUE)
        except Exception:
            log.warning("could not queue the automatic analysis of game %s", game_id, exc_info=True)
    elif mode == "local":
        threading.Thread(target=_auto_in_thread, args=(game_id,), daemon=True).start()


def _auto_in_thread(game_id: int) -> None:
    try:
        auto_analyse(game_id)
    finally:
        connection.close()


def auto_analyse(game_id: int, task_id: str = "") -> bool:
    """In the worker: a rated finished game one of whose players asked for automatic analyses is
    queued behind players' own requests (no rate limit: it is the player's standing choice), and this
    task takes a turn of the queue. True when it ran an analysis here."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED, rated=True).first()
    if game is None:
        return False
    wanting = AnalysisSettings.objects.filter(
        auto=True, player__banned_at__isnull=True,  # a ban between the game's end and this turn
        player_id__in=GameSeat.objects.filter(game=game).values("player_id")).values_list("player_id", flat=True)
    who = next(iter(wanting), None)
    if who is None:
        return False
    _analysis, created = Analysis.objects.get_or_create(
        game=game, defaults={"requested_by_id": who, "priority": queue.Priority.AUTO})
    return created and queue.run(task_id=task_id)


def profile_summary(player: Any) -> dict[str, Any] | None:
    """The player's accuracy over his last RECENT analysed games (judged seats of his), its trend
    (the newer half against the older) and his most frequent mistake pattern if one stands out."""
    rows = list(SeatAnalysis.objects.filter(player_id=player.pk, accuracy__isnull=False)
                .order_by("-created_at", "-pk").values_list("accuracy", "patterns")[:RECENT])
    if not rows:
        return None
    values = [float(a) for a, _p in rows if a is not None]  # accuracy__isnull=False above
    half = len(values) // 2
    newer, older = values[:half], values[half:]
    trend = "flat"
    if half >= 2:
        delta = sum(newer) / len(newer) - sum(older) / len(older)
        trend = "up" if delta > 0.02 else "down" if delta < -0.02 else "flat"
    counts: dict[str, int] = {}
    for _a, patterns in rows:
        for code, n in (patterns or {}).items():
            counts[code] = counts.get(code, 0) + int(n)
    total = sum(counts.values())
    common = max(counts, key=lambda c: (counts[c], c)) if counts else ""
    stands_out = bool(common) and counts[common] >= 3 and counts[common] * 3 >= total
    return {"games": len(values), "accuracy": round(100 * sum(values) / len(values)), "trend": trend,
            "pattern": common if stands_out else ""}
