"""Chat refusals: a stable code and the sentence the writer reads."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from durak_site.errors import ServiceError as BaseServiceError

MESSAGES = {
    "chat_hidden": _("The chat of this table is not shown to spectators."),
    "chat_read_only": _("Spectators may only read the chat at this table."),
    "chat_empty": _("Write something first."),
    "chat_too_long": _("A message may be at most 200 characters long."),
    "chat_bad_text": _("A message must be plain text."),
    "chat_too_often": _("Too often: wait a few seconds before writing again."),
    "chat_table_busy": _("Too often: this table is chatting too fast, wait a few seconds."),
    "chat_muted": _("You cannot write in the chat until %(until)s: %(reason)s"),
    "chat_banned": _("Your account is banned."),
    "chat_bad_reaction": _("There is no such reaction."),
    "chat_no_message": _("That message does not exist any more."),
    "chat_bad_reason": _("Give a reason of at most 300 characters."),
    "chat_own_message": _("You cannot report your own message."),
    "chat_not_host": _("Only the table's host may change the chat settings."),
    "chat_bad_setting": _("That chat setting is not understood."),
    "chat_bad_period": _("Choose how long the mute lasts."),
}


class ServiceError(BaseServiceError):
    def default_message(self) -> str:
        return str(MESSAGES.get(self.code, self.code))
