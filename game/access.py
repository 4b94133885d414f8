"""Who may open a table's socket: the socket shows as much as the table page, never more.

A private table's socket is open only to its seated players (at the table or in its running game),
its host, moderators and holders of the invite link (the table page records the link in the session
under lobby.services.INVITES_KEY). Everyone else is told the table does not exist: ids are sequential,
so a refusal that differed from "no such table" would tell a stranger which private tables exist.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.models import Game, GameSeat
from lobby import guards
from lobby.models import Seat, Table
from lobby.services import INVITES_KEY

MAX_TABLE_ID = 2**63 - 1  # a bigint primary key: larger ids are simply not tables


def may_open(table_id: int, player, invited: Iterable[int] = ()) -> bool:
    """Whether `player` may open the socket of table `table_id` (False for a missing table)."""
    if not 0 < table_id <= MAX_TABLE_ID:
        return False
    table = Table.objects.filter(pk=table_id).values("private", "host_id").first()
    if table is None:
        return False
    if not player.is_staff and guards.table_hidden(table_id, player.pk):
        return False  # a blocker sits there: the player he blocked is told there is no such table
    if not table["private"] or player.is_staff or player.pk == table["host_id"]:
        return True
    try:
        if table_id in {int(item) for item in invited}:
            return True
    except (TypeError, ValueError):
        pass  # a malformed session entry grants nothing
    if Seat.objects.filter(table_id=table_id, player=player).exists():
        return True
    return GameSeat.objects.filter(game__table_id=table_id, game__status=Game.Status.PLAYING,
                                   player=player).exists()


def role(table_id: int, player) -> tuple[bool, bool]:
    """(is he the table's host, does he hold a waiting-room seat): what a socket's rights beyond
    its frames (the chat's, for one) depend on, so a socket can tell when they changed."""
    host = Table.objects.filter(pk=table_id, host_id=player.pk).exists()
    return host, Seat.objects.filter(table_id=table_id, player=player).exists()


def invited_tables(request) -> list:
    """The private tables whose invite link this browser's session holds (lobby's table page)."""
    session = getattr(request, "session", None)
    return list(session.get(INVITES_KEY, [])) if session is not None else []


def may_view_table(table_id: int, user, invited: Iterable[int] = ()) -> bool:
    """Whether a page about table `table_id` (its series, its games) may be shown to `user`: those
    who may open its socket, and anyone who played a game at it. False for a missing table."""
    if not 0 < table_id <= MAX_TABLE_ID:
        return False
    if user is not None and user.is_authenticated:
        return may_open(table_id, user, invited) or GameSeat.objects.filter(
            game__table_id=table_id, player=user).exists()
    table = Table.objects.filter(pk=table_id).values("private").first()
    if table is None:
        return False
    try:
        return not table["private"] or table_id in {int(item) for item in invited}
    except (TypeError, ValueError):
        return False


def may_view_game(game: Game, user, invited: Iterable[int] = ()) -> bool:
    """A game's pages: as its table's, and always for a player of that game."""
    if user is not None and user.is_authenticated and GameSeat.objects.filter(game=game, player=user).exists():
        return True
    return may_view_table(game.table_id, user, invited)
