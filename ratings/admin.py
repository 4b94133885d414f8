"""Moderator views of ratings: read-only lists, and the "void game rating" action with a reason."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from durak_site.errors import ServiceError
from ratings import known_pairs, services
from ratings.models import ClubStanding, GameRecord, KnownPair, Rating, RatingChange, RatingVariant, Series


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows are written only by ratings.services: moderators look, they do not edit."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300, widget=forms.Textarea(attrs={"rows": 3}))


def _void(modeladmin, request, game_ids: list[int]):
    """Ask for a reason, then void every chosen game through ratings.services.void_game."""
    if not request.user.is_staff:
        modeladmin.message_user(request, gettext("Only moderators can void a game's rating."), messages.ERROR)
        return None
    form = VoidForm(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for game_id in game_ids:
            try:
                services.void_game(game_id, request.user, form.cleaned_data["reason"])
            except ServiceError as e:
                modeladmin.message_user(request, gettext("Game %(id)s: %(msg)s") % {"id": game_id, "msg": e.message},
                                        messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(request, gettext("Rating changes voided for %(n)d game(s).") % {"n": done},
                                    messages.SUCCESS)
        return None
    return TemplateResponse(request, "admin/ratings/void_confirm.html", {
        **modeladmin.admin_site.each_context(request),
        "title": gettext("Void game rating"), "form": form, "game_ids": game_ids,
        "queryset_pks": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
        "action": request.POST.get("action"), "opts": modeladmin.model._meta,
    })


@admin.register(GameRecord)
class GameRecordAdmin(ReadOnlyAdmin):
    list_display = ("game", "table", "variant", "pairs", "rated", "unrated_reason", "draw", "shared_address",
                    "finished_at", "voided_at", "void_reason")
    list_filter = ("rated", "unrated_reason", "shared_address", "variant", "pairs",
                   ("voided_at", admin.EmptyFieldListFilter))
    search_fields = ("game__id", "lines__player__nick")
    actions = ["void_rating"]

    @admin.action(description=_("Void game rating (reverse its rating changes)"))
    def void_rating(self, request, queryset):
        return _void(self, request, list(queryset.values_list("game_id", flat=True)))

    def get_urls(self):
        own = [path("suspicious-pairs/", self.admin_site.admin_view(self.suspicious_pairs_view),
                    name="ratings_gamerecord_suspicious")]
        return own + super().get_urls()

    def suspicious_pairs_view(self, request):
        """Pairs of accounts that may farm rating (docs/RULES.md#ratings), and "void" for each of their games."""
        if not request.user.is_staff:
            raise PermissionDenied
        form = VoidForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            raw = request.POST.get("game_id", "")
            try:
                services.void_game(int(raw) if raw.isdigit() else 0, request.user, form.cleaned_data["reason"])
            except ServiceError as e:
                self.message_user(request, e.message, messages.ERROR)
            else:
                self.message_user(request, gettext("Rating changes voided for %(n)d game(s).") % {"n": 1},
                                  messages.SUCCESS)
            return redirect(request.get_full_path())
        try:
            days = max(1, min(90, int(request.GET.get("days", "7"))))
        except ValueError:
            days = 7
        return TemplateResponse(request, "admin/ratings/suspicious_pairs.html", {
            **self.admin_site.each_context(request), "title": gettext("Suspicious pairs"), "days": days,
            "pairs": services.suspicious_pairs(days), "form": VoidForm(), "opts": self.model._meta,
        })


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("game", "player", "delta", "rating_after", "outcome", "voided", "created_at")
    list_filter = ("outcome", "voided")
    search_fields = ("player__nick", "game__id")
    list_select_related = ("player", "game")
    actions = ["void_rating"]

    @admin.action(description=_("Void game rating (reverse its rating changes)"))
    def void_rating(self, request, queryset):
        return _void(self, request, sorted(set(queryset.values_list("game_id", flat=True))))


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "value", "games", "wins", "losses", "draws", "last_played")
    search_fields = ("player__nick",)
    list_select_related = ("player",)
    ordering = ("-value",)


@admin.register(RatingVariant)
class RatingVariantAdmin(ReadOnlyAdmin):
    list_display = ("player", "variant", "value", "games", "wins", "losses", "draws", "last_played")
    list_filter = ("variant",)
    search_fields = ("player__nick",)
    list_select_related = ("player",)


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ("pk", "table", "length", "games_played", "finished", "broken", "started_at")
    list_filter = ("finished", "broken")


@admin.register(ClubStanding)
class ClubStandingAdmin(ReadOnlyAdmin):
    list_display = ("player", "in_club", "club_place", "club_newcomer", "club_since", "full_series", "full_average",
                    "games", "average", "excluded", "excluded_at")
    list_filter = ("in_club", "club_newcomer", "excluded")
    search_fields = ("player__nick",)


class KnownPairForm(forms.ModelForm):
    """Two players by nick, and why the moderator knows they are two people."""

    first = forms.ModelChoiceField(Player.objects.all(), to_field_name="nick", widget=forms.TextInput,
                                   label=_("First player (nick)"))
    second = forms.ModelChoiceField(Player.objects.all(), to_field_name="nick", widget=forms.TextInput,
                                    label=_("Second player (nick)"))

    class Meta:
        model = KnownPair
        fields = ("note",)

    def clean(self):
        data = super().clean() or {}
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


@admin.register(KnownPair)
class KnownPairAdmin(admin.ModelAdmin):
    """Friends on one network a moderator vouches for: their games together are rated although
    they share an address (ratings.known_pairs). Added and removed, never edited."""

    list_display = ("low", "high", "note", "marked_by", "created_at")
    search_fields = ("low__nick", "high__nick")
    list_select_related = ("low", "high", "marked_by")
    form = KnownPairForm

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        pair = known_pairs.mark(form.cleaned_data["first"].pk, form.cleaned_data["second"].pk, request.user,
                                form.cleaned_data.get("note", ""))
        obj.pk, obj.low_id, obj.high_id = pair.pk, pair.low_id, pair.high_id

    def delete_model(self, request, obj) -> None:
        known_pairs.unmark(obj.pk)

    def delete_queryset(self, request, queryset) -> None:
        for pk in list(queryset.values_list("pk", flat=True)):
            known_pairs.unmark(pk)
