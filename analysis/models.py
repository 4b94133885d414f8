"""One analysis per finished game (its progress and its results), and a summary row per judged seat
(the profile reads accuracy over a player's games without opening the results)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Analysis(models.Model):
    """One game's analysis. The queue's order is in the rows (analysis/queue.py): a worker takes the
    most urgent queued row (``priority``, then ``requested_at``); a run is known by ``attempt`` and the
    Celery ``task_id`` that claimed it, and shows it is alive by ``heartbeat_at``."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.OneToOneField("game.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    done = models.PositiveIntegerField(default=0)  # decisions judged so far
    total = models.PositiveIntegerField(default=0)  # decisions to judge (known once it runs)
    result = models.JSONField(null=True, blank=True)  # game.engine.analysis.analyse()'s output
    error = models.CharField(max_length=200, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    # 0: a player asked about his own game; 1: a player's automatic analyses; 2: someone else's game
    priority = models.PositiveSmallIntegerField(default=0)
    attempt = models.PositiveIntegerField(default=0)  # runs claimed so far: a run writes only while it is the last
    lost = models.PositiveSmallIntegerField(default=0)  # runs whose worker died (a game that kills one fails after two)
    task_id = models.CharField(max_length=64, blank=True)  # the Celery task that claimed the current run
    heartbeat_at = models.DateTimeField(null=True, blank=True)  # the current run's last step
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "priority", "requested_at"], name="analysis_queue_order")]
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0


class SeatAnalysis(models.Model):
    """One human seat's figures from an analysis."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="seat_analyses")
    judged = models.PositiveIntegerField(default=0)
    accuracy = models.FloatField(null=True, blank=True)  # 0..1: average share of the best move's chance kept
    blunders = models.PositiveIntegerField(default=0)  # «??»
    mistakes = models.PositiveIntegerField(default=0)  # «?»
    inaccuracies = models.PositiveIntegerField(default=0)  # «?!»
    turning_step = models.PositiveIntegerField(null=True, blank=True)
    patterns = models.JSONField(default=dict, blank=True)  # mistake pattern code -> count (engine patterns.py)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["analysis", "seat"], name="seatanalysis_unique_seat")]
        indexes = [models.Index(fields=["player", "-created_at"], name="seatanalysis_player_recent")]
        verbose_name = _("player's analysis")
        verbose_name_plural = _("players' analyses")

    def __str__(self) -> str:
        return f"{self.analysis_id}:{self.seat}"


class AnalysisSettings(models.Model):
    """A player's choice: analyse his rated games automatically when they end."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="analysis_settings")
    auto = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.player_id}: auto={self.auto}"
