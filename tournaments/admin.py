"""Moderators edit the schedule, watch events, remove a player and void a game (through services)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from durak_site.errors import ServiceError

from . import services
from .models import Entry, ScheduleRow, Tournament, TournamentGame, TournamentSeat


@admin.register(ScheduleRow)
class ScheduleRowAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "variant", "deck_size", "seats", "pairs", "turn_seconds", "every_minutes",
                    "times", "weekdays", "active")
    list_editable = ("active",)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.schedule_changed(obj.pk)  # its next creation worked out again at once


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("player", "score", "games", "streak", "state", "abandons", "place")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "variant", "seats", "starts_at", "status", "private")
    list_filter = ("status", "format", "private")
    readonly_fields = ("status", "current_round", "ends_at", "podium", "version", "invite_code", "password")
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "player", "score", "games", "state", "place")
    list_filter = ("state",)
    search_fields = ("player__nick",)
    readonly_fields = [f.name for f in Entry._meta.fields]
    actions = ["remove_players"]

    @admin.action(description=_("Remove from the tournament (score struck, games stay)"))
    def remove_players(self, request, queryset):
        for entry in queryset:
            services.remove_player(entry.tournament_id, entry.player_id)
        self.message_user(request, _("Removed."), messages.SUCCESS)

    def has_add_permission(self, request):
        return False


class SeatInline(admin.TabularInline):
    """A table arena's table: each player's seat, pair, place and points."""

    model = TournamentSeat
    fields = ("number", "player", "team", "place", "result", "points", "berserk")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "size", "player_a", "player_b", "status", "result_a", "result_b",
                    "finished_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in TournamentGame._meta.fields]
    inlines = [SeatInline]
    actions = ["void_games"]

    @admin.action(description=_("Void (counts for nobody; standings recomputed)"))
    def void_games(self, request, queryset):
        for pairing in queryset:
            try:
                services.void_game(pairing.pk)
            except ServiceError as exc:
                self.message_user(request, str(exc), messages.WARNING)

    def has_add_permission(self, request):
        return False
