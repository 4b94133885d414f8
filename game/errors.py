"""ServiceError for game services and the translated message of every refusal code (engine + server).

The engine raises ``IllegalAction(code, english_message)``; the web layer shows the player a
translated sentence chosen by code, never the engine's English text.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from durak_site.errors import ServiceError as BaseServiceError

MESSAGES = {
    # server-side refusals
    "bad_message": _("The message could not be understood."),
    "bad_json": _("The message is not valid JSON."),
    "too_large": _("The message is too large."),
    "unknown_type": _("Unknown message type."),
    "bad_id": _("The message id must be a string of at most 64 characters."),
    "bad_version": _("The version must be a whole number."),
    "bad_action": _("That is not a valid move."),
    "stale_version": _("The game has moved on; your table has been refreshed."),
    "not_seated": _("You are not playing in this game."),
    "no_game": _("No game is running at this table."),
    "game_not_found": _("This game does not exist."),
    "game_finished": _("This game is over."),
    "left_game": _("You have left this game."),
    "flooding": _("Too many messages; slow down."),
    "not_bot_seat": _("A person plays this seat."),
    "table_not_found": _("This table does not exist."),
    "not_enough_players": _("Not enough players to start."),
    "game_running": _("A game is already running at this table."),
    "auth_required": _("Please sign in first."),
    "bad_rules": _("These rules cannot be played."),
    # engine refusals (game.engine.IllegalAction codes)
    "not_your_turn": _("It is not your turn."),
    "card_not_in_hand": _("You do not have that card."),
    "bad_card": _("That is not a card."),
    "does_not_beat": _("That card does not beat the attack card."),
    "bad_target": _("There is no such unbeaten card on the table."),
    "rank_not_on_table": _("You can only throw in a rank already on the table."),
    "rank_mismatch": _("The card must have the same rank."),
    "limit_reached": _("No more cards can be added this round."),
    "already_passed": _("You have already passed this round."),
    "already_took": _("The defender is already taking the cards."),
    "nothing_to_take": _("There is nothing to take."),
    "transfer_not_allowed": _("Transferring is not allowed now."),
    "swap_not_allowed": _("You cannot swap the trump now."),
    "catch_banned": _("You made a false accusation and cannot catch again this round."),
    "not_cheater_mode": _("Catching is only possible in cheater mode."),
    "not_check_phase": _("There is nothing to catch right now."),
    "check_phase": _("The round is closing; only catches are possible now."),
    "own_card": _("You cannot catch your own card."),
    "player_out": _("You are already out of this game."),
    "game_over": _("This game is over."),
    "no_such_seat": _("There is no such seat."),
    "unknown_action": _("Unknown move."),
    "bad_state": _("The game is in an unexpected state."),
    "internal_error": _("Something went wrong on the server."),
}

GENERIC = _("That move is not allowed.")


def message_for(code: str) -> str:
    """The refusal sentence for ``code`` in the active language."""
    msg = MESSAGES.get(code)
    return str(msg) if msg is not None else gettext("That move is not allowed.")


class ServiceError(BaseServiceError):
    """A refused game request; without an explicit message the sentence comes from the code."""

    def default_message(self) -> str:
        return message_for(self.code)
