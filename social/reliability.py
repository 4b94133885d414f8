"""The reliability mark: how often a player leaves his games (stated on the rules page).

Over his last RECENT recorded games (rated or not) and dodges (a match he did not come to or left
before the deal, social.dodges), newest first, the share he left («Выйти»), lost by not returning
(game.outcomes LEFT, DID_NOT_RETURN) or dodged: at most HIGH_AT is high, at most MEDIUM_AT medium,
more is low. Fewer than NEW_UNDER games and dodges: new (not "reliable": nothing is known yet).
"""

from __future__ import annotations

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext_lazy as _

from game import outcomes
from ratings.models import PlayerGame

from .models import Dodge

RECENT = 50
NEW_UNDER = 5
HIGH_AT = 0.05
MEDIUM_AT = 0.15
HIGH, MEDIUM, LOW, NEW = "high", "medium", "low", "new"
LABELS = {HIGH: _("reliable"), MEDIUM: _("sometimes leaves"), LOW: _("often leaves"), NEW: _("new player")}
DODGED = "dodged"
LEAVING = (outcomes.LEFT, outcomes.DID_NOT_RETURN, DODGED)


def mark_from(reasons: list[str]) -> str:
    if len(reasons) < NEW_UNDER:
        return NEW
    share = sum(1 for r in reasons if r in LEAVING) / len(reasons)
    if share <= HIGH_AT:
        return HIGH
    return MEDIUM if share <= MEDIUM_AT else LOW


def _with_dodges(games: list[tuple], dodged: list) -> list[str]:
    """The reasons of the newest RECENT of his games [(when, reason)] and dodges [when], merged."""
    merged = sorted([*games, *((when, DODGED) for when in dodged)], key=lambda pair: pair[0], reverse=True)
    return [reason for _when, reason in merged[:RECENT]]


def mark(player_id: int) -> str:
    games = list(PlayerGame.objects.filter(player_id=player_id).order_by("-finished_at")
                 .values_list("finished_at", "reason")[:RECENT])
    dodged = list(Dodge.objects.filter(player_id=player_id).order_by("-created_at")
                  .values_list("created_at", flat=True)[:RECENT])
    return mark_from(_with_dodges(games, dodged))


def marks(player_ids) -> dict[int, str]:
    """The marks of many players in two queries: each one's last RECENT games and dodges (a window
    over the player's rows, newest first; the lobby's list asks for a hundred at once)."""
    ids = set(player_ids)
    if not ids:
        return {}
    recent = (PlayerGame.objects.filter(player_id__in=ids)
              .annotate(nth=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("finished_at").desc()))
              .filter(nth__lte=RECENT).values_list("player_id", "finished_at", "reason"))
    games: dict[int, list[tuple]] = {pid: [] for pid in ids}
    for pid, when, reason in recent:
        games[pid].append((when, reason))
    dodged: dict[int, list] = {pid: [] for pid in ids}
    for pid, when in (Dodge.objects.filter(player_id__in=ids)
                      .annotate(nth=Window(RowNumber(), partition_by=[F("player_id")],
                                           order_by=F("created_at").desc()))
                      .filter(nth__lte=RECENT).values_list("player_id", "created_at")):
        dodged[pid].append(when)
    return {pid: mark_from(_with_dodges(games[pid], dodged[pid])) for pid in ids}


def label(code: str) -> str:
    return str(LABELS.get(code, ""))
