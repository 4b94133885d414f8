"""Reads of games for sockets and pages (no writes, no locks)."""

from __future__ import annotations

from typing import Any

from game import frames
from game.models import Game, GameSeat
from lobby import services as lobby_services


def viewer_seat(game: Game, player: Any) -> int | None:
    """The seat `player` owns in `game` (also while a bot stands in for him), or None; a player who
    left the game sees it as a spectator (his seat's hand is the bot's now)."""
    if player is None or not player.is_authenticated:
        return None
    return (GameSeat.objects.filter(game=game, player=player, left_at__isnull=True)
            .values_list("number", flat=True).first())


def current_game(table_id: int) -> Game | None:
    """The game a table page shows: the running one, else the last one while the rematch offer lasts."""
    game = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).order_by("-pk").first()
    if game is not None:
        return game
    if lobby_services.shows_last_game(table_id):
        return Game.objects.filter(table_id=table_id).order_by("-pk").first()
    return None


def connect_info(table_id: int, player: Any) -> dict[str, Any] | None:
    """What a socket at /ws/tables/<id>/ needs on (re)connect; None if the table does not exist."""
    table_version = lobby_services.table_version(table_id)
    if table_version is None:
        return None
    game = current_game(table_id)
    info: dict[str, Any] = {"table_version": table_version, "game_id": None, "seat": None, "frame": None,
                            "playing": False}
    if game is not None:
        seat = viewer_seat(game, player)
        info.update(game_id=game.pk, seat=seat, frame=frames.view_frame(game, seat),
                    playing=game.status == Game.Status.PLAYING)
    return info


def game_version(game_id: int) -> int | None:
    """The version a game is at (a socket's heartbeat compares it with the last frame it sent)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
