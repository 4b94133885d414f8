"""Messages between friends: a conversation of two players, its letters (the last HISTORY kept) and
the reports moderators read.

Written only by letters/services/. A conversation's row names its two players in id order (`low`,
`high`), so a pair has one row whoever writes first, and keeps each side's unread count.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MAX_LENGTH = 500  # characters of one letter
HISTORY = 100  # letters a conversation keeps: each new one deletes what falls past this
REASON_LENGTH = 300  # a report's reason


class Conversation(models.Model):
    """Two players' private conversation; its row lock orders their letters."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    low_unread = models.PositiveIntegerField(default=0)  # letters from `high` that `low` has not read
    high_unread = models.PositiveIntegerField(default=0)
    last_at = models.DateTimeField(null=True, blank=True)  # the newest letter's time
    last_author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    last_shown = models.CharField(max_length=80, blank=True)  # the start of the newest letter, as shown

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "conversation")
        verbose_name_plural = _("conversations")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="letters_one_conversation_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="letters_pair_in_id_order"),
        ]
        indexes = [
            models.Index(fields=["low"], condition=Q(low_unread__gt=0), name="letters_low_unread"),
            models.Index(fields=["high"], condition=Q(high_unread__gt=0), name="letters_high_unread"),
            models.Index(fields=["low", "-last_at"], name="letters_low_recent"),
            models.Index(fields=["high", "-last_at"], name="letters_high_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} ↔ {self.high_id}"

    def other(self, player_id: int) -> int:
        return self.high_id if player_id == self.low_id else self.low_id


class Letter(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="letters")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)  # as written (moderators read this)
    shown = models.CharField(max_length=MAX_LENGTH)  # with the profanity mask (the players read this)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["conversation", "-id"], name="letters_conversation_recent"),
                   models.Index(fields=["author", "-created_at"], name="letters_author_recent")]

    def __str__(self) -> str:
        return self.shown


class Report(models.Model):
    """A player reports a letter he received. The conversation around it is copied into the report
    (moderators read only reported conversations, and the letters may be gone by then)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="reports",
                                     verbose_name=_("conversation"))
    letter_id = models.BigIntegerField(_("message number"))  # no key: the letter may be deleted later
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("author"))
    text = models.CharField(_("message"), max_length=MAX_LENGTH)  # as written
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("reported by"))
    reason = models.CharField(_("reason"), max_length=REASON_LENGTH)
    context = models.JSONField(default=list)  # [{"id", "author_id", "nick", "text", "at"}], oldest first
    status = models.CharField(_("status"), max_length=6, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("closed by"))

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "report on a private message")
        verbose_name_plural = _("reports on private messages")
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["letter_id", "reporter"], name="letters_one_report_per_reader")]

    def __str__(self) -> str:
        return f"#{self.pk}"
