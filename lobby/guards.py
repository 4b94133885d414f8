"""Rules of apps above the lobby about who may sit where (the social app's blocks and its
«only reliable players», a tournament table's two players). They register here in their ready();
`sit` asks each before seating. Apps above may also hide players from a viewer (a blocker, from
the player he blocked): the table page, its socket (game/access.py) and the lobby's list ask.

A guard answers a refusal code of durak_site/errors.py, or None to let him sit.
"""

from __future__ import annotations

from collections.abc import Callable

from durak_site.errors import ServiceError

SeatGuard = Callable[[int, int], str | None]  # (table_id, player_id) -> refusal code or None
_seat_guards: list[SeatGuard] = []


def register_seat_guard(guard: SeatGuard) -> None:
    if guard not in _seat_guards:
        _seat_guards.append(guard)


def check_seat(table_id: int, player_id: int) -> None:
    """Raise the first guard's refusal (nothing is changed then)."""
    for guard in _seat_guards:
        code = guard(table_id, player_id)
        if code is not None:
            raise ServiceError(code)



# ------------------------------------------------------------------ who a viewer may not see

HiddenPlayers = Callable[[int], set[int]]  # viewer id -> the players hidden from him
_hiders: list[HiddenPlayers] = []


def register_hidden_players(hider: HiddenPlayers) -> None:
    """An app above the lobby hides players from a viewer (the social app: those who blocked him)."""
    if hider not in _hiders:
        _hiders.append(hider)


def hidden_players(viewer_id: int | None) -> set[int]:
    if viewer_id is None:
        return set()
    out: set[int] = set()
    for hider in _hiders:
        out |= hider(viewer_id)
    return out


def table_hidden(table_id: int, viewer_id: int | None) -> bool:
    """A table where someone hidden from the viewer sits (in its waiting room or its running game)
    and the viewer does not: its page and socket answer him as a missing table would."""
    hidden = hidden_players(viewer_id)
    if not hidden:
        return False
    from lobby.models import Seat

    there = set(Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("player_id", flat=True))
    return viewer_id not in there and bool(there & hidden)
