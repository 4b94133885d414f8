"""Moderators see games, their seats and the full event log (read-only); they may abort a running game."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game import services
from game.models import Game, GameEvent, GameSeat


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    can_delete = False
    fields = ("number", "player", "bot_level", "takeover_level", "connected", "disconnected_at",
              "disconnect_deadline", "left_at", "last_heartbeat")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class GameEventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    can_delete = False
    fields = ("seq", "seat", "action", "source", "client_msg_id", "created_at")
    readonly_fields = fields
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "number", "status", "version", "deadline_kind", "deadline", "started_at",
                    "finished_at", "rated")
    list_filter = ("status", "rated")
    search_fields = ("=id", "=table__id", "table__name", "seats__player__nick")
    date_hierarchy = "started_at"
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [GameSeatInline, GameEventInline]
    actions = ["abort_games"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def save_model(self, request, obj, form, change) -> None:
        """Read-only: games change only through game.services."""

    @admin.action(description=_("Abort the selected running games"))
    def abort_games(self, request, queryset) -> None:
        done = 0
        for game_id in queryset.filter(status=Game.Status.PLAYING).values_list("pk", flat=True):
            if services.abort_game(game_id, reason=f"moderator {request.user.get_username()}") is not None:
                done += 1
        self.message_user(request, ngettext("%(n)d game aborted.", "%(n)d games aborted.", done) % {"n": done},
                          messages.SUCCESS)
