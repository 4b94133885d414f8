"""The moderators' queue of reported private messages. Moderators read only reported
conversations: each report carries the letters around the reported one, as written, copied when it
was made (no list of all conversations or letters is registered). Actions, all through
letters.services: delete the letter for both players, mute its writer (the chat's mute, which holds
for letters too), ban him (the accounts ban), close the report."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.admin import action_form_page
from accounts.forms import BanForm
from chat.admin import OpenFilter, StaffOnly
from chat.forms import MuteForm
from durak_site.errors import ServiceError

from . import services
from .models import Report


def _time(value: str) -> str:
    at = parse_datetime(value) if isinstance(value, str) else None
    return timezone.localtime(at).strftime("%d.%m %H:%M:%S") if at is not None else ""


@admin.register(Report)
class ReportAdmin(StaffOnly):
    list_display = ("created_at", "text", "author", "conversation_shown", "reason", "reporter", "status")
    list_filter = (OpenFilter,)
    list_select_related = ("author", "reporter")
    readonly_fields = ("text", "author", "conversation_shown", "reason", "reporter", "created_at", "status",
                       "closed_by", "closed_at")
    fields = readonly_fields
    actions = ("delete_letters", "mute_authors", "ban_authors", "close_reports")
    ordering = ("created_at",)
    search_fields = ("author__nick", "reporter__nick")

    @admin.display(description=gettext_lazy("conversation"))
    def conversation_shown(self, obj: Report) -> str:
        rows = format_html_join(
            "", "<li{}><time>{}</time> <b>{}</b>: {}</li>",
            ((' class="letters-reported" style="font-weight:bold;background:#fff3cd"' if m.get("id") == obj.letter_id
              else "", _time(m.get("at", "")), m.get("nick", ""), m.get("text", "")) for m in obj.context or []))
        return format_html('<ol class="letters-conversation" style="margin:0;padding-left:1.2em">{}</ol>', rows)

    def _each_author(self, request: HttpRequest, queryset: QuerySet[Report], act: Any) -> int:
        """`act(report)` once per writer of the selected reports; a refusal shows beside the rest."""
        done: set[int] = set()
        for found in queryset.select_related("author"):
            if found.author_id in done:
                continue
            try:
                act(found)
            except ServiceError as exc:
                self.message_user(request, f"{found.author.nick}: {exc.message}", messages.ERROR)
            else:
                done.add(found.author_id)
        return len(done)

    def _form_page(self, request: HttpRequest, queryset: QuerySet[Report], form: Any, action: str, title: str,
                   intro: str, submit: str) -> Any:
        found = list(queryset.select_related("author"))
        return action_form_page(self, request, action=action, form=form, title=title, intro=intro,
                                submit_label=submit, players={r.author_id: r.author for r in found}.values(),
                                selected=[r.pk for r in found])

    @admin.action(description=gettext_lazy("Delete the message for both players"))
    def delete_letters(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        deleted = sum(services.delete_letter(found.pk, request.user) for found in queryset)
        self.message_user(request, ngettext("Deleted %(count)d message.", "Deleted %(count)d messages.", deleted)
                          % {"count": deleted}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Mute the writer (asks for the period and reason)"))
    def mute_authors(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        form = MuteForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            period, reason = form.cleaned_data["period"], form.cleaned_data["reason"]
            done = self._each_author(request, queryset,
                                     lambda r: services.mute_author(r.pk, request.user, period, reason))
            if done:
                self.message_user(request, ngettext("Muted %(count)d player.", "Muted %(count)d players.", done)
                                  % {"count": done}, messages.SUCCESS)
            return None
        return self._form_page(request, queryset, form, "mute_authors", _("Mute in the chat"),
                               _("These players will not be able to write private messages or in any table chat "
                                 "until the mute ends. They see the reason and the end."), _("Mute"))

    @admin.action(description=gettext_lazy("Ban the writer (asks for the reason)"))
    def ban_authors(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        form = BanForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            done = self._each_author(request, queryset, lambda r: services.ban_author(r.pk, request.user, reason))
            if done:
                self.message_user(request, ngettext("Banned %(count)d player.", "Banned %(count)d players.", done)
                                  % {"count": done}, messages.SUCCESS)
            return None
        return self._form_page(request, queryset, form, "ban_authors", _("Ban players"),
                               _("These players will be banned. They can still log in and will see the reason, "
                                 "but they cannot play or write."), _("Ban"))

    @admin.action(description=gettext_lazy("Close the report without action"))
    def close_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        for found in queryset:
            services.close_report(found.pk, request.user)
        self.message_user(request, _("Closed."), messages.SUCCESS)
