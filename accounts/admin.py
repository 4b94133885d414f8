"""Moderators' admin: find players by nick, see when they were last seen, ban/unban with a reason,
reset a recovery key (shown once to hand over). Staff accounts come from `createsuperuser`."""

from __future__ import annotations

from typing import cast

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from durak_site.errors import ServiceError

from . import keys, services
from .forms import BanForm
from .models import Player

admin.site.site_header = gettext_lazy("Durak Club moderation")
admin.site.site_title = gettext_lazy("Durak Club moderation")
admin.site.index_title = gettext_lazy("Moderation")


def action_form_page(model_admin: admin.ModelAdmin, request: HttpRequest, *, action: str, form: Form,
                     players, selected, title: str, intro: str, submit_label: str) -> TemplateResponse:
    """The page of an action that asks for a form before it acts (a ban's reason, a chat mute's
    period): one template for every admin, so the selection is carried through the same way."""
    opts = model_admin.model._meta
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title, "intro": intro, "submit_label": submit_label, "opts": opts,
        "players": players, "form": form, "selected": selected, "action": action,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "select_across": request.POST.get("select_across", "0"),
        "back_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
    }
    return TemplateResponse(request, "admin/accounts/action_form.html", context)


class BannedFilter(admin.SimpleListFilter):
    title = gettext_lazy("banned")
    parameter_name = "banned"

    def lookups(self, request, model_admin):
        return [("yes", gettext_lazy("banned")), ("no", gettext_lazy("not banned"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(banned_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(banned_at__isnull=True)
        return queryset


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("nick", "date_joined", "last_seen", "is_banned_column", "ban_reason", "is_staff")
    list_filter = (BannedFilter, "is_staff", "is_active")
    search_fields = ("nick",)
    ordering = ("-date_joined",)
    date_hierarchy = "date_joined"
    readonly_fields = ("nick", "date_joined", "last_seen", "last_login", "banned_at", "ban_reason")
    fieldsets = (
        (None, {"fields": ("nick", "date_joined", "last_seen", "last_login")}),
        (gettext_lazy("Ban"), {"fields": ("banned_at", "ban_reason"),
                               "description": gettext_lazy("Use the actions on the player list to ban or unban.")}),
        (gettext_lazy("Staff"), {"fields": ("is_active", "is_staff", "is_superuser", "groups")}),
    )
    actions = ("ban_players", "unban_players", "reset_recovery_keys", "end_sessions")
    show_full_result_count = False

    @admin.display(description=gettext_lazy("banned"), boolean=True, ordering="banned_at")
    def is_banned_column(self, obj: Player) -> bool:
        return obj.is_banned

    # Moderators are staff; what they may do here does not depend on per-model permission rows.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players sign up themselves; staff come from createsuperuser

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:  # only superusers make or unmake staff
            fields += ["is_active", "is_staff", "is_superuser", "groups"]
        return fields

    @admin.action(description=gettext_lazy("Ban selected players (asks for the reason)"))
    def ban_players(self, request: HttpRequest, queryset: QuerySet[Player]):
        form = BanForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            done = 0
            for player in queryset:
                try:
                    services.ban(player, form.cleaned_data["reason"], by=cast(Player, request.user))
                except ServiceError as exc:
                    self.message_user(request, f"{player.nick}: {exc.message}", messages.ERROR)
                else:
                    self.log_change(request, player, _("Banned: %(reason)s") % {"reason": form.cleaned_data["reason"]})
                    done += 1
            if done:
                self.message_user(request, ngettext("Banned %(count)d player.", "Banned %(count)d players.", done)
                                  % {"count": done}, messages.SUCCESS)
            return None
        return action_form_page(
            self, request, action="ban_players", form=form, players=queryset,
            selected=[player.pk for player in queryset], title=_("Ban players"), submit_label=_("Ban"),
            intro=_("These players will be banned. They can still log in and will see the reason, "
                    "but they cannot sit at tables."))

    @admin.action(description=gettext_lazy("Lift the ban of selected players"))
    def unban_players(self, request: HttpRequest, queryset: QuerySet[Player]):
        done = 0
        for player in queryset.filter(banned_at__isnull=False):
            services.unban(player, by=cast(Player, request.user))
            self.log_change(request, player, _("Ban lifted"))
            done += 1
        self.message_user(request, ngettext("Lifted the ban of %(count)d player.", "Lifted the ban of %(count)d players.",
                                    done) % {"count": done}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Reset the recovery key of selected players (shows the new keys once)"))
    def reset_recovery_keys(self, request: HttpRequest, queryset: QuerySet[Player]) -> HttpResponse:
        issued = []
        for player in queryset:
            key = services.reset_key(player, by=cast(Player, request.user))
            self.log_change(request, player, _("Recovery key reset"))
            issued.append((player, keys.display(key)))
        context = {**self.admin_site.each_context(request), "title": _("New recovery keys"),
                   "opts": self.model._meta, "issued": issued}
        response = TemplateResponse(request, "admin/accounts/keys_issued.html", context)
        add_never_cache_headers(response)
        return response

    @admin.action(description=gettext_lazy("End the sessions of selected players (signs them out everywhere)"))
    def end_sessions(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        ended = 0
        for player in queryset:
            ended += services.end_sessions(player, by=cast(Player, request.user))
            self.log_change(request, player, _("Sessions ended"))
        self.message_user(request, ngettext("Ended %(count)d session.", "Ended %(count)d sessions.", ended)
                          % {"count": ended}, messages.SUCCESS)
