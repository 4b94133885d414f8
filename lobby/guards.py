"""Rules of apps above the lobby about who may sit where (the social app's blocks and its
«only reliable players», a tournament table's two players). They register here in their ready();
`sit` asks each before seating.

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

