"""The moderators' chat queue: open reports with the message, the conversation around it and the
table; delete (live for everyone), mute for a period with a reason, ban (the accounts ban), close.
Every action goes through chat.services, which logs who did what and when (ModerationLog)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.admin import action_form_page
from accounts.forms import BanForm
from durak_site.errors import ServiceError

from . import services
from .forms import MuteForm
from .models import ChatMute, Message, ModerationLog, Report


class StaffOnly(admin.ModelAdmin):
    """Moderators are staff; the chat's records change only through the actions (services)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


def _conversation(message: Message) -> str:
    rows = format_html_join(
        "", '<li{}><time>{}</time> <b>{}</b>: {}{}</li>',
        ((' class="chat-reported" style="font-weight:bold;background:#fff3cd"' if m.pk == message.pk else "",
          timezone.localtime(m.created_at).strftime("%H:%M:%S"), m.author.nick, m.text,
          format_html(" <em>({})</em>", _("deleted")) if m.deleted_at else "")
         for m in services.surrounding(message)))
    return format_html('<ol class="chat-conversation" style="margin:0;padding-left:1.2em">{}</ol>', rows)


def _table_link(table_id: int) -> str:
    return format_html('<a href="{}">#{}</a>', reverse("lobby:table", args=[table_id]), table_id)


if TYPE_CHECKING:
    _AdminBase = admin.ModelAdmin[Any]  # a mixin of the ModelAdmins below
else:
    _AdminBase = object


class ModerationActions(_AdminBase):
    """The actions shared by the report queue and the message list (`_messages_of` picks the messages)."""

    def _messages_of(self, queryset) -> list[Message]:
        raise NotImplementedError

    def _moderate_form(self, request, queryset, form, action: str, title: str, intro: str, submit: str):
        found = self._messages_of(queryset)
        return action_form_page(self, request, action=action, form=form, title=title, intro=intro,
                                submit_label=submit, players={m.author_id: m.author for m in found}.values(),
                                selected=[obj.pk for obj in queryset])

    def _each_author(self, request: HttpRequest, queryset: QuerySet, act) -> int:
        """`act(message)` once per author of the selected messages (with his first selected message);
        a refusal is shown beside the others' success. Returns how many authors it was done to."""
        done: set[int] = set()
        for message in self._messages_of(queryset):
            if message.author_id in done:
                continue
            try:
                act(message)
            except ServiceError as exc:
                self.message_user(request, f"{message.author.nick}: {exc.message}", messages.ERROR)
            else:
                done.add(message.author_id)
        return len(done)

    @admin.action(description=gettext_lazy("Delete the message for everyone"))
    def delete_messages(self, request: HttpRequest, queryset: QuerySet):
        found = self._messages_of(queryset)
        for message in found:
            services.delete_message(message.pk, request.user)
        self.message_user(request, ngettext("Deleted %(count)d message.", "Deleted %(count)d messages.", len(found))
                          % {"count": len(found)}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Mute the author in the chat (asks for the period and reason)"))
    def mute_authors(self, request: HttpRequest, queryset: QuerySet):
        form = MuteForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            period, reason = form.cleaned_data["period"], form.cleaned_data["reason"]
            done = self._each_author(request, queryset,
                                     lambda m: services.mute(m.author_id, request.user, period, reason, m))
            if done:
                self.message_user(request, ngettext("Muted %(count)d player.", "Muted %(count)d players.", done)
                                  % {"count": done}, messages.SUCCESS)
            return None
        return self._moderate_form(request, queryset, form, "mute_authors", _("Mute in the chat"),
                                   _("These players will not be able to write in any chat until the mute ends. "
                                     "They see the reason and the end."), _("Mute"))

    @admin.action(description=gettext_lazy("Ban the author (asks for the reason)"))
    def ban_authors(self, request: HttpRequest, queryset: QuerySet):
        form = BanForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            done = self._each_author(request, queryset, lambda m: services.ban(m.author_id, request.user, reason, m))
            if done:
                self.message_user(request, ngettext("Banned %(count)d player.", "Banned %(count)d players.", done)
                                  % {"count": done}, messages.SUCCESS)
            return None
        return self._moderate_form(request, queryset, form, "ban_authors", _("Ban players"),
                                   _("These players will be banned. They can still log in and will see the reason, "
                                     "but they cannot sit at tables or write in the chat."), _("Ban"))


class OpenFilter(admin.SimpleListFilter):
    """The queue shows the open reports unless asked otherwise."""

    title = gettext_lazy("status")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", gettext_lazy("open")), ("closed", gettext_lazy("closed")), ("all", gettext_lazy("all"))]

    def choices(self, changelist):
        value = self.value() or "open"
        for lookup, title in self.lookup_choices:
            yield {"selected": value == lookup, "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                   "display": title}

    def queryset(self, request, queryset):
        value = self.value() or "open"
        return queryset if value == "all" else queryset.filter(status=value)


@admin.register(Report)
class ReportAdmin(ModerationActions, StaffOnly):
    list_display = ("created_at", "message_text", "author", "table", "conversation", "reason", "reporter", "status")
    list_filter = (OpenFilter,)
    list_select_related = ("message__author", "reporter")
    readonly_fields = ("message_text", "author", "table", "conversation", "reason", "reporter", "created_at",
                       "status", "closed_by", "closed_at")
    fields = readonly_fields
    actions = ("delete_messages", "mute_authors", "ban_authors", "close_reports")
    ordering = ("created_at",)

    def _messages_of(self, queryset) -> list[Message]:
        return list(Message.objects.filter(reports__in=queryset).select_related("author").distinct())

    @admin.display(description=gettext_lazy("message"))
    def message_text(self, obj: Report) -> str:
        return obj.message.text

    @admin.display(description=gettext_lazy("author"))
    def author(self, obj: Report) -> str:
        return obj.message.author.nick

    @admin.display(description=gettext_lazy("table"))
    def table(self, obj: Report) -> str:
        return _table_link(obj.message.table_id)

    @admin.display(description=gettext_lazy("conversation"))
    def conversation(self, obj: Report) -> str:
        return _conversation(obj.message)

    @admin.action(description=gettext_lazy("Close the report without action"))
    def close_reports(self, request: HttpRequest, queryset: QuerySet[Report]):
        for found in queryset:
            services.close_report(found.pk, request.user)
        self.message_user(request, _("Closed."), messages.SUCCESS)


@admin.register(Message)
class MessageAdmin(ModerationActions, StaffOnly):
    list_display = ("created_at", "author", "table_link", "text", "shown", "deleted_at")
    list_filter = ("deleted_at",)
    search_fields = ("author__nick", "text")
    list_select_related = ("author",)
    readonly_fields = ("created_at", "author", "table_link", "text", "shown", "deleted_at", "deleted_by", "conversation")
    fields = readonly_fields
    actions = ("delete_messages", "mute_authors", "ban_authors")
    show_full_result_count = False

    def _messages_of(self, queryset) -> list[Message]:
        return list(queryset.select_related("author"))

    @admin.display(description=gettext_lazy("table"))
    def table_link(self, obj: Message) -> str:
        return _table_link(obj.table_id)

    @admin.display(description=gettext_lazy("conversation"))
    def conversation(self, obj: Message) -> str:
        return _conversation(obj)


@admin.register(ChatMute)
class ChatMuteAdmin(StaffOnly):
    list_display = ("player", "until", "reason", "by", "created_at")
    search_fields = ("player__nick",)


@admin.register(ModerationLog)
class ModerationLogAdmin(StaffOnly):
    list_display = ("created_at", "moderator", "action", "player", "message", "detail")
    list_filter = ("action",)
    search_fields = ("moderator__nick", "player__nick")
