"""The analysis queue: which analysis runs next, claiming it, running it, and repairing what a dead
worker or a Redis restart lost.

The order lives in the rows, not in the broker: every Celery message on the ``analysis`` queue is a
turn (one run), and the worker that gets a turn claims the most urgent queued row (a player's own
game, then a player's automatic analyses, then other people's games; the oldest first within each).
So a player's own game passes a backlog of other people's, and a message lost with Redis loses no
analysis: the sweep sends turns for rows that wait without one.

A run claims its row with ``attempt`` + 1 and its Celery task id, and writes its progress and its
result only while the row still has that attempt: a run declared dead cannot overwrite a later one.
A run whose worker child died (Celery's WorkerLostError, reported in the worker's main process) or
that made no step for RUN_STALE is queued again once; the second loss marks the row failed
("worker_lost"), so a game that kills its worker cannot loop forever.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from functools import partial
from typing import Any, cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from durak_site import health
from durak_site.celery import app as celery_app
from game import engine
from game.engine.analysis import Budget, analyse

from . import signals
from .models import Analysis, SeatAnalysis

log = logging.getLogger(__name__)

QUEUE = "analysis"
TASK = "analysis.tasks.analyse_game"  # one turn of the queue (analysis/tasks.py)
RUN_STALE = timedelta(seconds=120)  # a run without a step for this long died with its worker
QUEUE_GRACE = timedelta(seconds=15)  # a row waits this long before the sweep looks for its turn
MAX_LOST = 2  # runs lost to a dying worker before the analysis is marked failed
TURNS_PER_SWEEP = 200


class Priority:
    OWN, AUTO, OTHERS = 0, 1, 2


def runner() -> str:
    """"celery" (a worker on the analysis queue), "local" (a thread; no Redis) or "off" (tests)."""
    return getattr(settings, "ANALYSIS_RUNNER", "") or ("celery" if settings.TIMERS_BACKEND == "celery" else "local")


def send_turn(hint: int | None = None) -> bool:
    """One more run of the queue. ``hint`` (the row that asked) only labels the message in the logs."""
    mode = runner()
    if mode == "celery":
        try:
            celery_app.send_task(TASK, args=(hint,), queue=QUEUE)
        except Exception:
            log.warning("analysis: could not send a turn (row %s); the sweep sends it again", hint, exc_info=True)
            return False
    elif mode == "local":
        threading.Thread(target=_run_in_thread, daemon=True, name=f"analysis-{hint}").start()
    return True


def _run_in_thread() -> None:
    try:
        run()
    finally:
        connection.close()


def budget() -> Budget:
    return Budget(**getattr(settings, "ANALYSIS_BUDGET", {}))


def claim(analysis_id: int | None = None, task_id: str = "") -> tuple[int, int] | None:
    """Take the most urgent queued row (or that one row): (id, attempt), or None when none waits."""
    now = timezone.now()
    with transaction.atomic():
        rows = Analysis.objects.select_for_update(skip_locked=True).filter(status=Analysis.Status.QUEUED)
        if analysis_id is not None:
            rows = rows.filter(pk=analysis_id)
        row = rows.order_by("priority", "requested_at", "pk").only("pk", "attempt").first()
        if row is None:
            return None
        attempt = row.attempt + 1
        taken = Analysis.objects.filter(pk=row.pk, status=Analysis.Status.QUEUED).update(
            status=Analysis.Status.RUNNING, attempt=attempt, task_id=(task_id or "")[:64], started_at=now,
            heartbeat_at=now, done=0)
    return (row.pk, attempt) if taken else None


def run(analysis_id: int | None = None, task_id: str = "") -> bool:
    """One turn: claim a queued analysis (the most urgent, or ``analysis_id``) and judge every decision
    of its game's human seats. True when this call did the work; a failure is stored, never raised."""
    claimed = claim(analysis_id, task_id)
    if claimed is None:
        return False
    return _execute(*claimed)


def _execute(analysis_id: int, attempt: int) -> bool:
    mine = Analysis.objects.filter(pk=analysis_id, attempt=attempt, status=Analysis.Status.RUNNING)
    try:
        a = Analysis.objects.select_related("game").get(pk=analysis_id)
        game = a.game
        seats = list(game.seats.order_by("number"))
        humans = [s.number for s in seats if s.player_id and not s.bot_level]
        events = [(e.seat, e.action) for e in game.events.order_by("seq").only("seat", "action")]

        def progress(done: int, total: int) -> None:
            mine.update(done=done, total=total, heartbeat_at=timezone.now())
            health.note_worker(QUEUE)

        result = analyse(engine.GameState.from_json(game.initial_state), events, seats=humans,
                         seed=f"game-{game.pk}", budget=budget(), progress=progress)
        with transaction.atomic():
            if not mine.update(status=Analysis.Status.DONE, result=result, finished_at=timezone.now(), error=""):
                log.info("analysis %s: attempt %s was superseded; its result is dropped", analysis_id, attempt)
                return False
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
        mine.update(status=Analysis.Status.FAILED, error=repr(e)[:200])
        return False


def run_lost(rows: Q) -> int:
    """The runs matched by ``rows`` died with their worker: each is queued again (a turn is sent), or
    marked failed after MAX_LOST losses. Returns how many were handled."""
    handled = 0
    for pk in Analysis.objects.filter(rows, status=Analysis.Status.RUNNING).values_list("pk", flat=True):
        with transaction.atomic():
            row = Analysis.objects.select_for_update().filter(pk=pk, status=Analysis.Status.RUNNING).first()
            if row is None or not Analysis.objects.filter(rows, pk=pk).exists():
                continue
            if row.lost + 1 >= MAX_LOST:
                Analysis.objects.filter(pk=pk).update(status=Analysis.Status.FAILED, error="worker_lost",
                                                      lost=F("lost") + 1, task_id="")
                log.warning("analysis %s: its worker died again; marked failed", pk)
            else:
                Analysis.objects.filter(pk=pk).update(status=Analysis.Status.QUEUED, lost=F("lost") + 1,
                                                      done=0, task_id="", heartbeat_at=None)
                log.warning("analysis %s: its worker died; queued again", pk)
                transaction.on_commit(partial(send_turn, pk))
        handled += 1
    return handled


def worker_lost(task_id: str) -> int:
    """Celery's main process saw the child running ``task_id`` die (WorkerLostError)."""
    return run_lost(Q(task_id=task_id)) if task_id else 0


def _turns_waiting() -> int | None:
    """Turns waiting in the broker's analysis queue; None when the broker cannot be read."""
    try:
        with celery_app.connection_for_read() as conn:
            return int(cast(Any, conn.default_channel).client.llen(QUEUE))  # kombu's Redis channel
    except Exception:
        log.warning("analysis: the broker's queue cannot be read", exc_info=True)
        return None


def sweep() -> dict[str, int]:
    """Beat's periodic repair (settings.CELERY_BEAT_SCHEDULE "analysis-sweep"): runs that stopped
    stepping are lost; rows that wait without a turn in the broker (Redis restarted and forgot its
    lists, or a send failed) get their turns again. An extra turn finds nothing and costs a query."""
    now = timezone.now()
    lost = run_lost(Q(heartbeat_at__lt=now - RUN_STALE) | Q(heartbeat_at__isnull=True, started_at__lt=now - RUN_STALE))
    sent = 0
    waiting = Analysis.objects.filter(status=Analysis.Status.QUEUED, requested_at__lt=now - QUEUE_GRACE).count()
    if waiting and runner() == "celery":
        turns = _turns_waiting()
        # turns a worker took but has not claimed with yet are not in the list: the extra turns sent
        # for them find nothing to do, and the list then outnumbers the rows until they are gone
        missing = 0 if turns is None else min(waiting - turns, TURNS_PER_SWEEP)
        for _ in range(max(0, missing)):
            sent += send_turn()
        if sent:
            log.warning("analysis: %s queued analyses had no turn in the broker; sent again", sent)
    return {"lost": lost, "turns_sent": sent}
