"""Moderators see analyses (status, progress, errors) read-only: only analysis.services writes them."""

from __future__ import annotations

from django.contrib import admin

from .models import Analysis, SeatAnalysis


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyAdmin):
    list_display = ("game", "status", "done", "total", "requested_by", "requested_at", "finished_at", "error")
    list_filter = ("status",)
    exclude = ("result",)


@admin.register(SeatAnalysis)
class SeatAnalysisAdmin(ReadOnlyAdmin):
    list_display = ("analysis", "seat", "player", "judged", "accuracy", "blunders", "mistakes", "inaccuracies")
