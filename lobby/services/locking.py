"""The preamble of every change of a table: one transaction, the Table row locked
(``select_for_update``: two players racing for a seat are serialised, the second finds it taken)
and the checks of who may do what."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from django.db import transaction

from accounts.services import ensure_can_play
from durak_site.errors import ServiceError
from lobby.models import Seat, Table
from lobby.services.selectors import can_manage, seat_of, seats_of


def lock(table_id: Any) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ServiceError("table_not_found") from None


def require_open(table: Table) -> None:
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed")
    if table.status == Table.Status.PLAYING:
        raise ServiceError("game_running")


def require_seated(seats: list[Seat], player: Any) -> Seat:
    seat = seat_of(seats, getattr(player, "pk", None))
    if seat is None:
        raise ServiceError("not_seated")
    return seat


def ensure_player_can_play(player: Any) -> None:
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    ensure_can_play(player)  # raises ServiceError("banned") with the reason


def require_manager(table: Table, seats: list[Seat], player: Any, what: str) -> None:
    if table.matched:  # the search made it: its settings, bots and start are the search's
        raise ServiceError("matched_table_locked")
    if not can_manage(table, player, seats):
        if what == "rules":
            raise ServiceError("not_rules_setter")
        raise ServiceError("not_host")


@dataclass
class LockedTable:
    """A table locked for a change: its row, its seats (read when first asked for) and the acting
    player's seat (when he must have one)."""

    table: Table
    seat: Seat | None = None
    _seats: list[Seat] | None = field(default=None, repr=False)

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = seats_of(self.table)
        return self._seats


@overload
def locked_table(table_id: Any, by: Any = None, *, open_only: bool = False, seated: bool = False,
                 manage: str = "", missing_ok: Literal[False] = False) -> AbstractContextManager[LockedTable]: ...


@overload
def locked_table(table_id: Any, by: Any = None, *, open_only: bool = False, seated: bool = False,
                 manage: str = "", missing_ok: bool) -> AbstractContextManager[LockedTable | None]: ...


def locked_table(table_id: Any, by: Any = None, *, open_only: bool = False, seated: bool = False,
                 manage: str = "", missing_ok: bool = False) -> AbstractContextManager[LockedTable | None]:
    return _locked_table(table_id, by, open_only=open_only, seated=seated, manage=manage,
                         missing_ok=missing_ok)


@contextmanager
def _locked_table(table_id: Any, by: Any, *, open_only: bool, seated: bool, manage: str,
                  missing_ok: bool) -> Iterator[LockedTable | None]:
    """One change of a table: a transaction with its row locked, and its preamble of checks, in this
    order: refused if there is no such table (None with `missing_ok`: a late timer or socket), if the
    waiting room is not open (`open_only`), if `by` has no seat at it (`seated`), if he may not
    manage `manage` ("rules", "bots", "cancel")."""
    with transaction.atomic():
        if missing_ok:
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None:
                yield None
                return
        else:
            table = lock(table_id)
        if open_only:
            require_open(table)
        locked = LockedTable(table)
        if seated:
            locked.seat = require_seated(locked.seats, by)
        if manage:
            require_manager(table, locked.seats, by, manage)
        yield locked
