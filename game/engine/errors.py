"""The one exception type ``apply_action`` and friends raise for a refused move."""
from __future__ import annotations


class IllegalAction(Exception):
    """A refused action: ``code`` is stable snake_case (the web layer translates it), ``message``
    is English for logs and developers."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code


# Every code IllegalAction may carry, with a short English meaning (the web layer translates by
# code; a test checks that the engine raises no other code).
ERROR_CODES: dict[str, str] = {
    "bad_state": "not a game state",
    "no_such_seat": "there is no such seat at this table",
    "bad_action": "the action is not a JSON object, or a field has the wrong type",
    "unknown_action": "unknown action type",
    "bad_card": "the card field is missing or is not a card",
    "card_not_in_hand": "you do not hold that card",
    "not_your_turn": "it is not your turn to do that",
    "player_out": "you have already finished this game",
    "game_over": "the game is over",
    "check_phase": "the round is being checked (cheater mode): only catches are allowed",
    "not_check_phase": "no check phase is running",
    "already_passed": "you already passed this round",
    "already_took": "the defender already said «Беру»",
    "nothing_to_take": "every card on the table is beaten",
    "limit_reached": "no more cards may be put on the table this round",
    "rank_not_on_table": "you may only throw in ranks that are on the table",
    "bad_target": "the target is not an unbeaten card on the table",
    "does_not_beat": "that card does not beat the target",
    "transfer_not_allowed": "a transfer is not allowed now",
    "rank_mismatch": "a transfer needs a card of the attack's rank",
    "too_few_cards": "the next player has too few cards to take the transfer",
    "swap_not_allowed": "you may not swap the trump now",
    "not_cheater_mode": "catching is only possible in cheater mode",
    "own_card": "you cannot catch your own or your partner's card",
    "catch_banned": "after a false accusation you cannot catch again this round",
    "internal_error": "an engine error (a bug); the state is unchanged",
}
