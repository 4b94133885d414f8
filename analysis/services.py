"""The only writer of analyses: who may ask for one, queueing it, and running it in a worker.

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

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts import services as accounts_services
from durak_site.celery import app as celery_app
from durak_site.errors import ServiceError
from game import engine
from game.engine.analysis import Budget, analyse
from game.models import Game, GameSeat

from . import signals
from .models import Analysis, AnalysisSettings, SeatAnalysis

log = logging.getLogger(__name__)

TASK = "analysis.tasks.analyse_game"  # the Celery task's registered name (analysis/tasks.py)
STALE = timedelta(minutes=30)  # a run older than this died with its worker: it may be queued again


def _setting(name: str, default):
    return getattr(settings, name, default)


def runner() -> str:
    """"celery" (a worker on the analysis queue), "local" (a thread; no Redis) or "off" (tests)."""
    return _setting("ANALYSIS_RUNNER", "") or ("celery" if settings.TIMERS_BACKEND == "celery" else "local")


def _within_limit(key: str, count: int, window: int) -> bool:
    """A fixed-window counter in the cache: False once ``count`` uses of ``key`` fell in ``window`` s."""
    slot = f"analysis:{key}:{int(timezone.now().timestamp()) // window}"
    cache.add(slot, 0, timeout=window * 2)
    return cache.incr(slot) <= count


def allowed_to_poll(client: str) -> bool:
    """The progress endpoint's rate limit (a page polls once a second)."""
    return _within_limit(f"poll:{client}", _setting("ANALYSIS_POLLS_PER_MINUTE", 180), 60)


def is_player(game: Game, player) -> bool:
    return bool(player and player.is_authenticated
                and GameSeat.objects.filter(game=game, player_id=player.pk).exists())


def check_may_request(game: Game, player) -> None:
    """A player of the game may ask for its analysis, and anyone signed in for a finished public game."""
    if not player or not player.is_authenticated:
        raise ServiceError("analysis_login")
    accounts_services.ensure_can_play(player)  # a session that outlived a ban queues nothing
    if game.status != Game.Status.FINISHED:
        raise ServiceError("analysis_not_over")
    if game.table.private and not player.is_staff and not is_player(game, player):
        raise ServiceError("analysis_private")


def request_analysis(game_id, player) -> Analysis:
    """The game's analysis, queued if there was none (or the last one failed or died): asking
    again returns the same one. Refuses with a ServiceError and changes nothing."""
    try:
        game = Game.objects.select_related("table").get(pk=int(game_id))
    except (Game.DoesNotExist, TypeError, ValueError, OverflowError) as e:
        raise ServiceError("game_not_found") from e
    check_may_request(game, player)
    existing = Analysis.objects.filter(game=game).first()
    if existing and not _needs_run(existing):
        return existing
    if not _within_limit(f"player:{player.pk}", _setting("ANALYSIS_PER_HOUR", 10), 3600):
        raise ServiceError("analysis_too_often")
    with transaction.atomic():
        analysis, created = Analysis.objects.select_for_update().get_or_create(
            game=game, defaults={"requested_by": player})
        if not created and not _needs_run(analysis):
            return analysis
        if not created:
            analysis.status, analysis.done, analysis.error = Analysis.Status.QUEUED, 0, ""
            analysis.requested_by, analysis.requested_at = player, timezone.now()
            analysis.save(update_fields=["status", "done", "error", "requested_by", "requested_at"])
        transaction.on_commit(lambda: enqueue(analysis.pk))
    return analysis


def _needs_run(a: Analysis) -> bool:
    """Failed, or lost: running or queued for longer than STALE (its worker died, or none serves the queue)."""
    old = timezone.now() - STALE
    return a.status == Analysis.Status.FAILED or (
        a.status == Analysis.Status.RUNNING and a.started_at is not None and a.started_at < old) or (
        a.status == Analysis.Status.QUEUED and a.requested_at < old)


def enqueue(analysis_id: int) -> None:
    mode = runner()
    if mode == "celery":
        try:
            celery_app.send_task(TASK, args=(analysis_id,), queue="analysis")
        except Exception:
            log.warning("could not queue analysis %s", analysis_id, exc_info=True)
            Analysis.objects.filter(pk=analysis_id).update(status=Analysis.Status.FAILED, error="queue")
    elif mode == "local":
        threading.Thread(target=_run_in_thread, args=(analysis_id,), daemon=True,
                         name=f"analysis-{analysis_id}").start()


def _run_in_thread(analysis_id: int) -> None:
    try:
        run(analysis_id)
    finally:
        connection.close()


def budget() -> Budget:
    return Budget(**_setting("ANALYSIS_BUDGET", {}))


def _claim(analysis_id: int) -> bool:
    """Mark the analysis running; False if another run has it (a duplicate delivery) or it is done."""
    now = timezone.now()
    return bool(Analysis.objects.filter(pk=analysis_id).filter(
        Q(status=Analysis.Status.QUEUED) | Q(status=Analysis.Status.RUNNING, started_at__lt=now - STALE),
    ).update(status=Analysis.Status.RUNNING, started_at=now, done=0))


def run(analysis_id: int) -> bool:
    """Judge every decision of the game's human seats, telling the row the progress as it goes;
    True when this call did the work. Any failure is stored on the row, never raised."""
    if not _claim(analysis_id):
        return False
    try:
        a = Analysis.objects.select_related("game").get(pk=analysis_id)
        game = a.game
        seats = list(game.seats.order_by("number"))
        humans = [s.number for s in seats if s.player_id and not s.bot_level]
        events = [(e.seat, e.action) for e in game.events.order_by("seq").only("seat", "action")]

        def progress(done: int, total: int) -> None:
            Analysis.objects.filter(pk=analysis_id).update(done=done, total=total)

        result = analyse(engine.GameState.from_json(game.initial_state), events, seats=humans,
                         seed=f"game-{game.pk}", budget=budget(), progress=progress)
        with transaction.atomic():
            Analysis.objects.filter(pk=analysis_id).update(
                status=Analysis.Status.DONE, result=result, finished_at=timezone.now(), error="")
            SeatAnalysis.objects.filter(analysis_id=analysis_id).delete()
            by_number = {s.number: s for s in seats}
            SeatAnalysis.objects.bulk_create([
                SeatAnalysis(analysis_id=analysis_id, seat=int(n), player_id=by_number[int(n)].player_id,
                             judged=f["judged"], accuracy=f["accuracy"], blunders=f["marks"]["??"],
                             mistakes=f["marks"]["?"], inaccuracies=f["marks"]["?!"], turning_step=f["turning"],
                             patterns=f["patterns"])
                for n, f in result["seats"].items()])
        if a.requested_by_id:  # committed: tell whoever listens (notifications pushes it to him)
            signals.analysis_done.send(sender=Analysis, game_id=game.pk, player_id=a.requested_by_id)
        return True
    except Exception as e:
        log.exception("analysis %s failed", analysis_id)
        Analysis.objects.filter(pk=analysis_id).update(status=Analysis.Status.FAILED, error=repr(e)[:200])
        return False


def analysis_for(game: Game) -> Analysis | None:
    return Analysis.objects.filter(game=game).first()


# --- automatic analyses and the profile ------------------------------------------------------

AUTO_TASK = "analysis.tasks.auto_analyse_game"
RECENT = 20  # the profile's average covers this many analysed games


def set_auto(player, on) -> AnalysisSettings:
    """Turn "analyse my rated games automatically" on or off (``on`` must be a bool)."""
    if not player or not player.is_authenticated:
        raise ServiceError("analysis_login")
    if not isinstance(on, bool):
        raise ServiceError("analysis_bad_setting")
    if not _within_limit(f"settings:{player.pk}", 20, 60):
        raise ServiceError("analysis_too_often_settings")
    row, _created = AnalysisSettings.objects.update_or_create(player=player, defaults={"auto": on})
    return row


def auto_enabled(player) -> bool:
    return bool(player and player.is_authenticated
                and AnalysisSettings.objects.filter(player_id=player.pk, auto=True).exists())


def on_game_finished(sender, game, seats=None, **kwargs) -> None:
    """game.signals.game_finished (inside the finishing transaction): no statement here; after the
    commit the analysis queue decides whether anyone at the table wants the game analysed."""
    if game.status != Game.Status.FINISHED or not any(getattr(s, "player_id", None) for s in seats or ()):
        return
    game_id = game.pk
    transaction.on_commit(lambda: _send_auto(game_id))


def _send_auto(game_id: int) -> None:
    mode = runner()
    if mode == "celery":
        try:
            celery_app.send_task(AUTO_TASK, args=(game_id,), queue="analysis")
        except Exception:
            log.warning("could not queue the automatic analysis of game %s", game_id, exc_info=True)
    elif mode == "local":
        threading.Thread(target=_auto_in_thread, args=(game_id,), daemon=True).start()


def _auto_in_thread(game_id: int) -> None:
    try:
        auto_analyse(game_id)
    finally:
        connection.close()


def auto_analyse(game_id: int) -> bool:
    """In the worker: a rated finished game one of whose players asked for automatic analyses is
    analysed (once; no rate limit: it is the player's standing choice). True when it ran here."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED, rated=True).first()
    if game is None:
        return False
    wanting = AnalysisSettings.objects.filter(
        auto=True, player_id__in=GameSeat.objects.filter(game=game).values("player_id")).values_list("player_id", flat=True)
    who = next(iter(wanting), None)
    if who is None:
        return False
    analysis, created = Analysis.objects.get_or_create(game=game, defaults={"requested_by_id": who})
    return created and run(analysis.pk)


def profile_summary(player) -> dict | None:
    """The player's accuracy over his last RECENT analysed games (judged seats of his), its trend
    (the newer half against the older) and his most frequent mistake pattern if one stands out."""
    rows = list(SeatAnalysis.objects.filter(player_id=player.pk, accuracy__isnull=False)
                .order_by("-created_at", "-pk").values_list("accuracy", "patterns")[:RECENT])
    if not rows:
        return None
    values = [a for a, _p in rows]
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
