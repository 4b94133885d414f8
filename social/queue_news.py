"""The search queue's counts, read once for every waiting page.

A waiting page shows how many others search for a game his could meet. Every join, cancel and match
changes that for everyone waiting; the news (who waits, and how many wait in each mode) is read once
per announcement (social/announce.py) and each socket works out its own count from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from typing import Any

from django.db import transaction

from .announce import Announcer
from .models import ANY, SearchRequest

QUEUE_GROUP = "site-queue"  # the waiting pages (and the sockets of players who search)

Mode = tuple[str, int, int, bool, str]  # variant ("" any), players (ANY), deck (ANY), rated, mode


def read() -> dict:
    """{"modes": [[variant, players, deck, rated, mode, how many], ...], "waiting": [player ids],
    "rows": [[player id, variant, players, deck, rated, mode], ...]}: one query."""
    rows = list(SearchRequest.objects.filter(status=SearchRequest.Status.WAITING).values_list(
        "player_id", "variant", "players", "deck", "rated", "mode"))
    modes = Counter(row[1:] for row in rows)
    return {"modes": [[*mode, n] for mode, n in modes.items()], "waiting": [row[0] for row in rows],
            "rows": [list(row) for row in rows]}


def _meets(variant: str, players: int, deck: int, rated: bool, mode: str, choices: dict[str, Any]) -> bool:
    if rated != choices["rated"] or mode != choices.get("mode", mode):
        return False
    if choices["variant"] and variant not in ("", choices["variant"]):
        return False
    if choices["players"] and players not in (ANY, choices["players"]):
        return False
    return not (choices["deck"] and deck not in (ANY, choices["deck"]))


def others(modes: list[tuple[str, int, int, bool, str, int]], choices: dict[str, Any], avoid: Collection[int] = (),
           rows: Iterable[tuple[int, str, int, int, bool, str]] = ()) -> int:
    """How many others wait with choices that could meet `choices` (ignoring ratings); `modes` as
    `read` gives them, himself among them. Players he can never be matched with (`avoid`: a block
    either way) are not counted: their `rows` (as `read` gives them) say which modes they are in."""
    total = sum(n for variant, players, deck, rated, mode, n in modes
                if _meets(variant, players, deck, rated, mode, choices))
    if avoid:
        total -= sum(1 for pid, variant, players, deck, rated, mode in rows
                     if pid in avoid and _meets(variant, players, deck, rated, mode, choices))
    return max(0, total - 1)


_news = Announcer(QUEUE_GROUP, "site.queue", read)


def changed() -> None:
    """The queue changed: the waiting pages hear it after the commit (at most once a second)."""
    transaction.on_commit(_news.changed)
