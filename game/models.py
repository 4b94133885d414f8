"""Games, their seats and their append-only event log. Written only by game/services/."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from lobby import table_settings


class Game(models.Model):
    # not a column: the locking statement's time, set on the rows game.services.locking returns
    db_now: datetime.datetime

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    DisconnectPolicy = table_settings.DisconnectPolicy  # the table's setting, frozen at the start

    class DeadlineKind(models.TextChoices):
        TURN = "turn", _("turn")
        CHECK = "check", _("cheater check window")

    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)  # index within the table's series
    rules = models.JSONField()  # engine Rules.to_dict(), frozen at the start
    seed = models.CharField(max_length=40)  # from secrets; with the event log it replays the game exactly
    initial_state = models.JSONField()  # GameState.to_json() right after new_game()
    state = models.JSONField()  # GameState.to_json(); never leaves the server
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_kind = models.CharField(max_length=10, choices=DeadlineKind.choices, blank=True)
    deadline_seats = models.JSONField(default=list, blank=True)  # seats the deadline runs for
    result = models.JSONField(null=True, blank=True)  # engine result + server facts (who left/timed out)
    turn_seconds = models.PositiveSmallIntegerField(default=table_settings.TURN_SECONDS.default)  # frozen at the start
    disconnect_policy = models.CharField(max_length=10, choices=DisconnectPolicy.choices,
                                         default=DisconnectPolicy.LOSE)  # the table's, frozen at the start
    rating_on = models.BooleanField(default=True)  # the table's «На рейтинг», frozen at the start (off: unrated)
    # seats whose player halved his own turn clock (a tournament's berserk, game.services.halve_turn_clock)
    halved_seats = models.JSONField(default=list, blank=True)
    rated = models.BooleanField(default=False)
    unrated_reason = models.CharField(max_length=100, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = pgettext_lazy("model name (accusative)", "game")
        verbose_name_plural = _("games")
        indexes = [models.Index(fields=["status", "deadline"], name="game_status_deadline")]

    def __str__(self) -> str:
        return f"game {self.pk} (table {self.table_id})"


class GameSeat(models.Model):
    """Who sits in an engine seat for this game; a human seat may be played by a bot after takeover."""

    # not columns: set by the pages that show a finished game's seats (ratings' replay)
    outcome: str | None
    reason_label: str
    change: Any

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="game_seats")
    bot_level = models.CharField(max_length=20, blank=True)  # a bot seat from the start
    takeover_level = models.CharField(max_length=20, blank=True)  # a bot playing a human's seat (docs/RULES.md#disconnect)
    left_at = models.DateTimeField(null=True, blank=True)  # pressed «Выйти» / gone for good
    connected = models.BooleanField(default=False)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    disconnect_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    last_heartbeat = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="gameseat_unique_number")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.number}"

    @property
    def bot_controlled(self) -> bool:
        return bool(self.bot_level or self.takeover_level)


class GameEvent(models.Model):
    """Append-only: every applied action, in order; replaying them on initial_state gives state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()  # the game's version after this event
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None = the server (e.g. end_check)
    action = models.JSONField()
    client_msg_id = models.CharField(max_length=64, blank=True)
    source = models.CharField(max_length=10, default="player")  # player | bot | timeout | server
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="gameevent_unique_seq"),
            models.UniqueConstraint(fields=["game", "seat", "client_msg_id"],
                                    condition=~models.Q(client_msg_id=""), name="gameevent_unique_msg"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"
