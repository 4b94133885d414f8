"""Table chat: settings per table, messages, reports, mutes and the moderators' log.

Written only by chat/services.py. Reactions and quick phrases are not stored: they float for a
few seconds and are gone.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MAX_LENGTH = 200


class ChatSettings(models.Model):
    """A table's chat settings; its row lock orders the table's chat writes and `version` counts them."""

    class Spectators(models.TextChoices):
        WRITE = "write", _("spectators may write")
        READ = "read", _("spectators may only read")
        HIDDEN = "hidden", _("spectators do not see the chat")

    table = models.OneToOneField("lobby.Table", on_delete=models.CASCADE, related_name="chat_settings")
    spectators = models.CharField(_("spectators"), max_length=6, choices=Spectators.choices,
                                  default=Spectators.WRITE)
    profanity_filter = models.BooleanField(_("profanity filter"), default=True)
    version = models.PositiveIntegerField(default=0)  # bumped by every message, deletion, setting change

    class Meta:
        verbose_name = _("chat settings")
        verbose_name_plural = _("chat settings")

    def __str__(self) -> str:
        return f"{self.table_id}"


class Message(models.Model):
    table = models.ForeignKey("lobby.Table", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages",
                               verbose_name=_("author"))
    text = models.CharField(_("text as written"), max_length=MAX_LENGTH)
    shown = models.CharField(_("text as shown"), max_length=MAX_LENGTH)  # masked by the profanity filter
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # his game seat when he wrote it
    created_at = models.DateTimeField(_("written at"), auto_now_add=True, db_index=True)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["table", "-id"]), models.Index(fields=["author", "-created_at"])]

    def __str__(self) -> str:
        return self.shown


class Report(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("reported by"))
    reason = models.CharField(_("reason"), max_length=300)
    status = models.CharField(_("status"), max_length=6, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+", verbose_name=_("closed by"))

    class Meta:
        verbose_name = pgettext_lazy("model name (accusative)", "report")
        verbose_name_plural = _("reports")
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_one_report_per_reporter")]

    def __str__(self) -> str:
        return f"#{self.pk}"


class ChatMute(models.Model):
    """A moderator's chat mute: the player cannot write until `until`; he sees the reason and the end."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes",
                               verbose_name=_("player"))
    until = models.DateTimeField(_("until"), db_index=True)
    reason = models.CharField(_("reason"), max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                           verbose_name=_("by"))
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"{self.player_id} → {self.until:%Y-%m-%d %H:%M}"


class ModerationLog(models.Model):
    class Action(models.TextChoices):
        DELETE = "delete", _("deleted a message")
        MUTE = "mute", _("muted a player")
        BAN = "ban", _("banned a player")
        CLOSE = "close", _("closed a report")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                                  verbose_name=_("moderator"))
    action = models.CharField(_("action"), max_length=6, choices=Action.choices)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("player"))
    message = models.ForeignKey(Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                verbose_name=_("message"))
    detail = models.CharField(_("detail"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.moderator_id} {self.action} {self.player_id}"
