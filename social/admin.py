"""Moderators see blocks (private to everyone else), friendships, the queue, dodges and invitations."""

from django.contrib import admin

from .models import Block, Dodge, Friendship, Invitation, SearchRequest


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
