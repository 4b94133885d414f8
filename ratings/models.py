"""Ratings and their history. Written only by ratings/services.py."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

START_RATING = 1000


class Rating(models.Model):
    """A player's current standing, kept in indexed columns (never recomputed from history)."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating",
                                  primary_key=True)
    value = models.IntegerField(default=START_RATING, db_index=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player} {self.value}"


class RatingChange(models.Model):
    """One player's change for one game; (game, player) is unique so a game pays exactly once."""

    game = models.ForeignKey("game.Game", on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    delta = models.IntegerField()
    rating_after = models.IntegerField()
    outcome = models.CharField(max_length=5)  # win | loss | draw
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="ratingchange_once")]
        indexes = [models.Index(fields=["player", "created_at"], name="ratingchange_player_time")]

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+d} (game {self.game_id})"
