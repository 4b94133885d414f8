"""Reads of tables and seats: who sits where, who may manage a table, whether it may start; no writes."""

from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from game.engine.rules import InvalidRules, Rules
from lobby.models import Seat, Table

OPEN_STATUSES = (Table.Status.WAITING, Table.Status.COUNTDOWN, Table.Status.REMATCH)
# the session key under which the table page keeps the private tables whose invite link was opened
INVITES_KEY = "lobby_invites"


def seats_of(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("player").order_by("number"))


def occupied(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.is_free]


def humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.player_id is not None]


def seat_of(seats: list[Seat], player_id: int | None) -> Seat | None:
    for s in seats:
        if s.player_id is not None and s.player_id == player_id:
            return s
    return None


def in_running_game(table: Table, player: Any) -> bool:
    return Seat.objects.filter(table=table, player=player, in_game=True).exists()


def rules_of(table: Table) -> Rules:
    return Rules.from_dict(table.rules or {})


def rules_setter_id(table: Table, seats: list[Seat] | None = None) -> int | None:
    """The player id who may change the rules now (host, or lowest-seat human), or None."""
    if table.rules_setter == Table.RulesSetter.LOWEST_SEAT:
        people = humans(seats if seats is not None else seats_of(table))
        return people[0].player_id if people else None
    return table.host_id


def names_hidden(table: Table, seats: list[Seat]) -> bool:
    """At a table the search made, nobody learns who the others are before everyone has arrived
    (each arrival presses «Готово»): a player who does not like his opponent cannot dodge him."""
    return bool(table.matched and table.status == Table.Status.WAITING
                and any(s.player_id and not s.ready for s in seats))


def can_manage(table: Table, player: Any, seats: list[Seat] | None = None) -> bool:
    """Host or rules setter: may change rules, add/remove bots, cancel the countdown."""
    pid: int | None = getattr(player, "pk", None)
    if pid is None:
        return False
    return pid == table.host_id or pid == rules_setter_id(table, seats)


def start_blocker(table: Table, seats: list[Seat]) -> str | None:
    """Why the countdown cannot start now (translated), or None when it may start."""
    taken = occupied(seats)
    if len(taken) < 2:
        return _("At least two players must be seated.")
    try:
        rules_of(table).check_players(len(taken))
    except InvalidRules:
        if rules_of(table).pairs:
            return _("Pairs 2×2 needs all four seats taken.")
        return _("The deck is too small for this many players.")
    if table.start_policy == Table.StartPolicy.FULL_CONNECTED:
        if len(taken) < len(seats):
            return _("The game starts when all seats are filled.")
        if any(s.player_id is not None and not s.connected for s in taken):
            return _("Waiting for every player to be connected.")
        return None
    if any(not s.ready for s in taken):
        return _("Waiting for everyone to press “Ready”.")
    return None


def shows_last_game(table_id: int) -> bool:
    """Whether the table page still shows its last game (the game runs, or the rematch offer lasts)."""
    return Table.objects.filter(pk=table_id, status__in=(Table.Status.REMATCH, Table.Status.PLAYING)).exists()


def table_version(table_id: int) -> int | None:
    """The table's version (None: no such table): what a socket's waiting room is at."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def invite_code_ok(table: Table, code: str | None) -> bool:
    return code is not None and bool(code) and secrets.compare_digest(table.invite_code or "", code)
