"""Tables and their seats. Written only by lobby/services/."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from lobby import table_settings as ts


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        COUNTDOWN = "countdown", _("starting")
        PLAYING = "playing", _("playing")
        REMATCH = "rematch", _("rematch offer")
        CLOSED = "closed", _("closed")

    # the settings' choices, defaults and words: lobby/table_settings.py
    RulesSetter = ts.RulesSetter
    StartPolicy = ts.StartPolicy
    DisconnectPolicy = ts.DisconnectPolicy

    name = models.CharField(max_length=60, blank=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="hosted_tables")
    preset = models.CharField(max_length=30, blank=True)
    rules = models.JSONField(default=dict)  # engine Rules keyword names (game.engine.Rules.to_dict())
    seats_count = models.PositiveSmallIntegerField(default=ts.SEATS.default)
    turn_seconds = models.PositiveSmallIntegerField(default=ts.TURN_SECONDS.default)
    disconnect_policy = models.CharField(max_length=10, choices=DisconnectPolicy.choices,
                                         default=ts.DISCONNECT.default)  # the club rule: docs/RULES.md#disconnect
    rules_setter = models.CharField(max_length=12, choices=RulesSetter.choices, default=ts.RULES_SETTER.default)
    start_policy = models.CharField(max_length=16, choices=StartPolicy.choices, default=ts.START.default)
    series_length = models.PositiveSmallIntegerField(default=ts.SERIES.default)  # Quartet: 30 (docs/RULES.md#series)
    private = models.BooleanField(default=ts.PRIVATE.default)
    rated = models.BooleanField(default=True)  # off: its games are unrated (a search's «На рейтинг» unticked)
    matched = models.BooleanField(default=False)  # made by the search: its settings are the search's, locked
    invite_code = models.CharField(max_length=32, blank=True, db_index=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True)
    countdown_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    rematch_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    notice = models.CharField(max_length=200, blank=True)  # last "everyone sees why" message (site language)
    notice_texts = models.JSONField(default=dict, blank=True)  # the same in every language: {"ru": …, "en": …}
    closed_reason = models.CharField(max_length=300, blank=True)
    version = models.PositiveIntegerField(default=0)  # bumped on every waiting-room change
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(condition=Q(seats_count__gte=min(ts.SEATS.values),
                                               seats_count__lte=max(ts.SEATS.values)), name="table_seats_2_6"),
            models.CheckConstraint(condition=Q(turn_seconds__in=list(ts.TURN_SECONDS.values)),
                                   name="table_turn_seconds"),
        ]

    def __str__(self) -> str:
        return self.name or f"#{self.pk}"

    def notice_text(self) -> str:
        """The last notice in the reader's (active) language."""
        return self.notice_texts.get((get_language() or "")[:2]) or self.notice


class Seat(models.Model):
    """One chair. Either a human, a bot, or empty; never both (a DB constraint, not just views)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()  # 1..seats_count, clockwise
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="seats")
    bot_level = models.CharField(max_length=20, blank=True)  # "", "random", "lowest", "heuristic"
    ready = models.BooleanField(default=False)
    connected = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    inactive_deadline = models.DateTimeField(null=True, blank=True, db_index=True)  # docs/RULES.md#inactive-seat
    in_game = models.BooleanField(default=False)  # plays the running game and has not left it

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["table", "player"], condition=Q(player__isnull=False),
                                    name="seat_one_per_player"),
            models.CheckConstraint(condition=~(Q(player__isnull=False) & ~Q(bot_level="")),
                                   name="seat_human_or_bot"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.number}"

    @property
    def is_free(self) -> bool:
        return self.player_id is None and not self.bot_level
