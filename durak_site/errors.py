"""The one refusal type of every app's services, and the one catalogue of what a refusal says.

A refusal is a stable code (tests, error frames, logs) plus a sentence for people, looked up here
by code and translated once (top-level locale/). The socket's error frames, the pages' form errors
and the table's own messages all read this catalogue; tests/site/test_error_catalogue.py checks that
every code any layer raises (the engine's, the services', the socket's) has a sentence.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext_lazy as _

log = logging.getLogger(__name__)

CATALOGUE = {
    # the table socket
    "bad_message": _("The message could not be understood."),
    "bad_json": _("The message is not valid JSON."),
    "too_large": _("The message is too large."),
    "unknown_type": _("Unknown message type."),
    "bad_id": _("The message id must be a string of at most 64 characters."),
    "bad_version": _("The version must be a whole number."),
    "flooding": _("Too many messages; slow down."),
    "too_many_sockets": _("Too many open tables from your account or address; close some tabs."),
    "no_game": _("No game is running at this table."),
    # moves (game.services)
    "bad_action": _("That is not a valid move."),
    "unknown_action": _("Unknown move."),
    "stale_version": _("The game has moved on; your table has been refreshed."),
    "not_seated": _("You are not playing in this game."),
    "game_not_found": _("This game does not exist."),
    "game_finished": _("This game is over."),
    "left_game": _("You have left this game."),
    "not_enough_players": _("Not enough players to start."),
    "game_running": _("A game is running at this table; seats are closed until it ends."),
    "bad_rules": _("These rules cannot be played."),
    "pairs_need_four_seats": _("Pairs 2×2 need a table of exactly 4 seats."),
    "deck_too_small": _("The deck is too small for this many players."),
    # the engine (game.engine.IllegalAction codes)
    "not_your_turn": _("It is not your turn."),
    "card_not_in_hand": _("You do not have that card."),
    "bad_card": _("That is not a card."),
    "does_not_beat": _("That card does not beat the attack card."),
    "bad_target": _("There is no such unbeaten card on the table."),
    "rank_not_on_table": _("You can only throw in a rank already on the table."),
    "rank_mismatch": _("The card must have the same rank."),
    "too_few_cards": _("The next player has too few cards to take the transfer."),
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
    "no_such_seat": _("There is no seat %(n)s at this table."),
    "bad_state": _("The game is in an unexpected state."),
    "internal_error": _("Something went wrong on the server."),
    # tables (lobby.services)
    "login_required": _("Sign in to play."),
    "table_not_found": _("There is no such table."),
    "table_closed": _("This table is closed."),
    "table_full": _("The table is full."),
    "not_rules_setter": _("Only the host or the rules setter may change the rules."),
    "not_host": _("Only the host may do this."),
    "bad_seats": _("A table has 2 to 6 seats."),
    "bad_timer": _("The turn timer is 30, 60 or 90 seconds."),
    "bad_disconnect_policy": _("Unknown disconnect policy."),
    "bad_rules_setter": _("Unknown rules setter."),
    "bad_start_policy": _("Unknown start policy."),
    "bad_series_length": _("A series has 1, 3, 5, 10 or 30 games."),
    "bad_private": _("Private is yes or no."),
    "bad_table_name": _("A table name has at most 60 characters."),
    "bad_preset": _("Unknown preset."),
    "unknown_setting": _("Unknown setting: %(key)s"),
    "in_game": _("You are playing at table %(name)s; finish or leave that game first."),
    "leave_at_the_table": _("A game is running: use “Leave” at the game table (it counts as a loss)."),
    "seat_taken": _("Seat %(n)s is taken."),
    "bad_bot_level": _("Unknown bot level: %(level)s"),
    "too_many_bots": _("At most %(n)s bots: at least one seat is for a human."),
    "not_a_bot": _("There is no bot in seat %(n)s."),
    "pairs_need_four": _("Pairs 2×2 can be chosen only when all four seats are taken."),
    "seat_in_use": _("Seats above %(n)s are taken; they cannot be removed."),
    "no_countdown": _("There is no countdown to cancel."),
    "too_many_tables": _("Too many new tables from you or your network: try again in a few minutes."),
    # accounts (accounts.services, accounts.nicks)
    "nick_required": _("Choose a nick."),
    "nick_length": _("A nick is %(min)d to %(max)d characters long; this one has %(n)d."),
    "nick_chars": _("Use only Russian or Latin letters, digits, “_” and “-” (no spaces)."),
    "nick_letters": _("A nick needs at least one letter."),
    "nick_reserved": _("“%(nick)s” is reserved or looks like a staff or system name; please choose another nick."),
    "nick_taken": _("The nick “%(nick)s” is already taken."),
    "nick_lookalike": _("“%(nick)s” looks too much like a nick that is already taken; please choose another one."),
    "throttled": _("Too many failed attempts from your network. Please wait %(minutes)d minutes and try again."),
    "bad_credentials": _("This nick and key do not match. Check both and try again."),
    "ban_reason_required": _("Give the reason for the ban; the player will see it."),
    "ban_reason_length": _("Keep the reason under 300 characters."),
    "ban_self": _("You cannot ban yourself."),
    "too_many_signups": _("Too many new accounts from your network: try again in an hour."),
    "banned": _("Your account is banned: %(reason)s"),
    # ratings (ratings.services): series and results
    "no_series": _("No series is running at this table."),
    "series_game_started": _("The next game has already started."),
    "no_winners": _("The last game was a draw: the lowest trump leads the next one."),
    "not_winner": _("Only the winners of the last game choose who leads the next one."),
    "bad_seat": _("The next game can only be led by one of the winners."),
    "not_finished": _("This game has not finished yet."),
    "not_moderator": _("Only moderators can void a game's rating."),
    "reason_required": _("Give a reason for voiding the game's rating."),
    "not_recorded": _("This game has no recorded result, so there is nothing to void."),
    "already_voided": _("This game's rating was already voided on %(when)s: %(reason)s"),
    "unrated": _("This game was not rated (%(why)s), so there is nothing to void."),
    "same_player": _("Choose two different players."),
    # table chat (chat.services)
    "chat_hidden": _("The chat of this table is not shown to spectators."),
    "chat_read_only": _("Spectators may only read the chat at this table."),
    "chat_empty": _("Write something first."),
    "chat_too_long": _("A message may be at most 200 characters long."),
    "chat_bad_text": _("A message must be plain text."),
    "chat_too_often": _("Too often: wait a few seconds before writing again."),
    "chat_table_busy": _("Too often: this table is chatting too fast, wait a few seconds."),
    "chat_muted": _("You cannot write in the chat until %(until)s: %(reason)s"),
    "chat_banned": _("Your account is banned: %(reason)s"),
    "chat_bad_reaction": _("There is no such reaction."),
    "chat_no_message": _("That message does not exist any more."),
    "chat_bad_reason": _("Give a reason of at most 300 characters."),
    "chat_report_too_often": _("You have sent many reports: the moderators are reading them; try again later."),
    "chat_own_message": _("You cannot report your own message."),
    "chat_not_host": _("Only the table's host may change the chat settings."),
    "chat_bad_setting": _("That chat setting is not understood."),
    "chat_bad_period": _("Choose how long the mute lasts."),
    # messages between friends (letters.services)
    "letter_empty": _("Write something first."),
    "letter_too_long": _("A message may be at most %(max)s characters long."),
    "letter_bad_text": _("A message must be plain text."),
    "letter_not_friend": _("You can write only to your friends."),
    "letter_too_often": _("Too often: wait a few seconds before writing again."),
    "letter_too_many": _("You have written many messages this hour: try again later."),
    "letter_not_found": _("That message does not exist any more."),
    "letter_own": _("You cannot report your own message."),
    "letter_bad_reason": _("Give a reason of at most %(max)s characters."),
    "letter_report_too_often": _("You have sent many reports: the moderators are reading them; try again later."),
    # game analysis (analysis.services)
    "analysis_login": _("Sign in to ask for an analysis."),
    "analysis_not_over": _("Only a finished game can be analysed."),
    "analysis_private": _("Only the players of this private game may ask for its analysis."),
    "analysis_too_often": _("Too many analyses asked for: try again in an hour."),
    "analysis_queue_full": _("Your analyses already waiting are enough: ask for the next one when one of "
                             "them is ready."),
    "analysis_bad_setting": _("That setting is not understood."),
    "analysis_too_often_settings": _("Too often: wait a minute before changing this setting again."),
    # matchmaking, friends, invitations (social)
    "search_bad_variant": _("The variant is podkidnoy, perevodnoy or any."),
    "search_bad_deck": _("The deck has 24, 36 or 52 cards, or any."),
    "search_bad_bot_fill": _("Bots fill after 15, 30 or 60 seconds, or never."),
    "search_bad_rated": _("Rated is yes or no."),
    "search_bad_mode": _("The mode is classic, cheater or pairs 2×2."),
    "player_not_found": _("There is no such player."),
    "social_self": _("That is you."),
    "social_too_many": _("Too many requests; try again in a minute."),
    "friend_request_not_found": _("There is no such friend request."),
    "friend_unavailable": _("This player cannot be added as a friend now."),
    "invite_no_table": _("Sit at a waiting table first, then invite."),
    "invite_already_seated": _("This player is already at your table."),
    "invite_unavailable": _("This player cannot be invited now."),
    "invitation_not_found": _("There is no such invitation."),
    "invitation_expired": _("This invitation has expired."),
    "invitation_not_yours": _("Only the player who sent this invitation can withdraw it."),
    "seat_unavailable": _("You cannot sit at this table."),
    "seat_reliable_only": _("The host accepts only reliable players at this table."),
    # a party of two (social/party.py, social/party_search.py)
    "party_not_friend": _("You can play in a party only with a friend."),
    "party_unavailable": _("This player cannot play in a party now."),
    "party_busy": _("You are already in a party: leave it first."),
    "party_other_busy": _("%(nick)s is already in a party."),
    "party_none": _("You are not in a party."),
    "party_not_leader": _("Your party's leader starts its search: wait, or leave the party to search on your own."),
    "party_rated_pairs_only": _("A party plays rated games only in pairs 2×2: choose pairs, or untick “Rated”."),
    "party_two_players": _("A party plays with others: choose 3 to 6 players, any number, or pairs 2×2."),
    "party_same_address": _("You two play from one network, so a rated game cannot seat you together: untick “Rated”."),
    "party_pair_limit": _("You two have played today's share of rated games together: search unrated."),
    "party_partner_playing": _("%(nick)s is playing a game now."),
    "party_partner_waits": _("%(nick)s may search again in %(seconds)s s (a matched table was left)."),
    "party_partner_busy": _("%(nick)s has a search or a matched table of their own right now."),
    "party_matched": _("A table was found for you: play that game first."),
    "party_address_busy": _("Someone on the network of %(nick)s is already searching for a rated game: "
                            "search unrated."),
    # notifications (notifications.services)
    "push_off": _("Notifications are not set up on this server."),
    "push_subscription_invalid": _("This browser's notification subscription cannot be used."),
    "push_too_often": _("Too many notification changes; try again in a minute."),
    # tournaments
    "tournament_not_found": _("There is no such tournament."),
    "tournament_over": _("This tournament is over."),
    "tournament_join_closed": _("Joining is closed: the tournament is about to end or its rounds have begun."),
    "tournament_private": _("This is a private tournament: join through the link its creator shares."),
    "tournament_password": _("Wrong password for this tournament."),
    "tournament_not_joined": _("You are not in this tournament."),
    "tournament_withdrawn": _("You are out of this tournament."),
    "tournament_already_paused": _("You are already on a pause."),
    "tournament_not_paused": _("You are not on a pause."),
    "tournament_no_pause": _("A Swiss tournament has no pauses: a missed round is lost."),
    "berserk_not_playing": _("Berserk is for a running tournament game of yours."),
    "berserk_after_move": _("Berserk is possible only before your first move."),
    "berserk_twice": _("You have already chosen berserk in this game."),
    "tournament_bad_name": _("The name is 3 to 60 characters."),
    "tournament_bad_format": _("The format is arena or Swiss."),
    "tournament_bad_start": _("The start is between 2 minutes and 30 days from now."),
    "tournament_bad_length": _("An arena lasts 20, 30, 45, 60 or 90 minutes."),
    "tournament_bad_rounds": _("A Swiss has 3, 4, 5, 6, 7 or 9 rounds."),
    "tournament_bad_seats": _("A tournament table seats 2, 3 or 4 players."),
    "tournament_swiss_heads_up": _("A Swiss is played heads-up: tables of 3 or 4 are for arenas."),
    "tournament_bad_round_minutes": _("A Swiss round starts every 10, 15, 20 or 30 minutes, or when the round "
                                      "before ends."),
    "tournament_bad_pairs": _("Pairs 2×2: tick the box or leave it empty."),
    "tournament_bad_cheater": _("Cheater mode: tick the box or leave it empty."),
    "tournament_bad_password": _("The password is at most 40 characters."),
    "tournament_too_many": _("You already have three upcoming tournaments of your own."),
    "tournament_game_not_found": _("There is no such tournament game."),
    # the search
    "search_wait": _("You did not come to a matched table or left it before the deal: you may search again in "
                     "%(seconds)s s."),
    "search_address_busy": _("Someone on your network is already searching for a rated game: search "
                             "unrated, or wait until that search ends."),
    "matched_table_locked": _("This table's settings were set by the search or the tournament and cannot be changed."),
    "tournament_table_locked": _("This is a tournament table: its rules and players are set by the tournament."),
}

GENERIC = _("That is not allowed.")


def message_for(code: str, /, **params: Any) -> str:
    """The sentence for `code` in the active language, with its parameters filled in."""
    template = CATALOGUE.get(code)
    if template is None:
        log.error("refusal code %r has no sentence in durak_site.errors.CATALOGUE", code)
        return str(GENERIC)
    text = str(template)
    if not params:
        return text
    try:
        return text % params
    except (KeyError, TypeError, ValueError):
        log.error("refusal %r: its sentence does not take %r", code, sorted(params))
        return text


class ServiceError(Exception):
    """A refused request; nothing was changed. `code` is stable and `message` (for people) comes
    from the catalogue, filled with `params` in the language active when it is read."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return message_for(self.code, **self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
