"""Moderators see blocks (private to everyone else), friendships, the queue, dodges, invitations and
parties."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Block, Dodge, Friendship, Invitation, Party, SearchRequest


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__nick", "blocked__nick")
    raw_id_fields = ("blocker", "blocked")


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ("from_player", "to_player", "accepted", "created_at")
    search_fields = ("from_player__nick", "to_player__nick")
    raw_id_fields = ("from_player", "to_player")


@admin.register(SearchRequest)
class SearchRequestAdmin(admin.ModelAdmin):
    list_display = ("player", "status", "variant", "players", "deck", "rated", "queued_at", "table")
    list_filter = ("status",)
    search_fields = ("player__nick",)
    raw_id_fields = ("player", "table")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("host", "guest", "table", "status", "created_at")
    list_filter = ("status",)
    raw_id_fields = ("host", "guest", "table")


@admin.register(Dodge)
class DodgeAdmin(admin.ModelAdmin):
    """Read only: social.dodges is the only writer."""

    list_display = ("player", "kind", "against", "created_at")
    list_filter = ("kind",)
    search_fields = ("player__nick",)
    raw_id_fields = ("player",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Party)
class PartyAdmin(admin.ModelAdmin):
    """Read only: social.party is the only writer (a deleted row would strand its PartyMember places)."""

    list_display = ("leader", "partner", "status", "created_at", "ended_at")
    list_filter = ("status",)
    search_fields = ("leader__nick", "member__nick")
    list_select_related = ("leader", "member")

    @admin.display(description=_("partner"), ordering="member__nick")
    def partner(self, obj: Party) -> object:
        return obj.member

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
