"""Moderators' view of tables: status, seats, host; closing a table with a reason players see."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from durak_site.errors import ServiceError

from . import services
from .models import Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "player", "bot_level", "ready", "connected", "inactive_deadline")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class CloseForm(forms.Form):
    reason = forms.CharField(label=_("Reason shown to the players"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 3}))


@admin.action(description=_("Close the selected tables (players are told why)"))
def close_tables(modeladmin, request, queryset):
    form = CloseForm(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        closed = 0
        for table in queryset:
            try:
                services.close_table(table.pk, form.cleaned_data["reason"])
                closed += 1
            except ServiceError as exc:
                modeladmin.message_user(request, f"{table}: {exc}", messages.ERROR)
        modeladmin.message_user(request, ngettext("%(n)d table closed.", "%(n)d tables closed.", closed)
                                % {"n": closed}, messages.SUCCESS)
        return None
    return TemplateResponse(request, "lobby/admin_close.html", {
        **modeladmin.admin_site.each_context(request),
        "title": _("Close tables"),
        "tables": queryset,
        "form": form,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    })


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "status", "seats_summary", "host", "preset", "private", "created_at")
    list_filter = ("status", "private", "preset")
    search_fields = ("name", "host__nick", "seats__player__nick")
    readonly_fields = ("host", "preset", "rules", "seats_count", "turn_seconds", "disconnect_policy",
                       "rules_setter", "start_policy", "series_length", "private", "invite_code", "status",
                       "countdown_deadline", "rematch_deadline", "notice", "closed_reason", "version",
                       "created_at", "updated_at")
    inlines = [SeatInline]
    actions = [close_tables]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("host").prefetch_related("seats__player")

    @admin.display(description=_("seats"))
    def seats_summary(self, table: Table) -> str:
        parts = []
        for s in table.seats.all():
            parts.append(s.player.nick if s.player else (f"bot:{s.bot_level}" if s.bot_level else "—"))
        return ", ".join(parts)

    def has_add_permission(self, request) -> bool:
        return False  # tables are created by players through lobby.services

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # games reference tables; close them instead
