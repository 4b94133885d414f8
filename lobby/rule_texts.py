"""People-facing names of every rule setting and value (labels, one-line help, sources).

The help says what a setting does; the sources (rule pages 000-004, docs/RULES.md#sources) are shown only on the rules
page's reference table, never in the help a player reads while creating a table.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from lobby.table_settings import TABLE_SETTINGS

# key: (label, one-line explanation, sources)
RULE_LABELS: dict[str, tuple] = {
    "deck_size": (_("Deck"), _("24 (nines to aces), 36 (sixes to aces) or 52 cards (twos to aces)."),
                  "001, 002, 004"),
    "variant": (_("Variant"), _("Podkidnoy: throw in same ranks. Perevodnoy: the defender may also transfer."),
                "000–004"),
    "pairs": (_("Teams"), _("Pairs 2×2 (seats 1&3 against 2&4) needs exactly 4 seats, all taken."), "000, 001, 003"),
    "cheater": (_("Cheater mode"), _("Any card may be laid; others may catch it during a 4 s check."), "000"),
    "transfer_with_trump": (_("Transfer with a trump"),
                            _("Perevodnoy: a trump of the same rank may be laid to transfer."), "002, 004"),
    "transfer_by_showing_trump": (_("Transfer by showing the trump"),
                                  _("“Perevodnoy 2”: show a trump of that rank (kept in hand, once per round)."),
                                  "002"),
    "transfer_in_first_round": (_("Transfer in the first round"),
                                _("Whether transfers are allowed in the very first round."), "004"),
    "throw_in": (_("Who throws in"),
                 _("The round's starter throws in first and the others after the starter passes, or anyone at any time (a new card lets those who passed throw in again)."),
                 "000, 004"),
    "round_limit": (_("Round limit"),
                    _("At most 6 attack cards per round (and never more than the defender held), or no 6-card cap."),
                    "000, 002"),
    "first_round_limit": (_("First round limit"), _("6 cards, or 5 before the first beaten round."), ""),
    "first_move": (_("First move"),
                   _("Who leads the first round: the lowest trump (then the lowest card), the lowest trump or else a random player, the player left of the dealer, always you, or always the computer."),
                   "000, 002, 004"),
    "trump_swap": (_("Trump swap"),
                   _("Who may swap the lowest trump for the face-up trump card (the “menka”)."), "002"),
    "refill": (_("Refill from stock"), _("Draw up to six after each round, or play only the dealt cards."), "004"),
    "auto_bito": (_("Auto-bito"), _("The round closes at once when every card is beaten."), "004"),
    "draw": (_("Last cards together"),
             _("When the last players run out together: a draw, or the last defender loses."), "000, 001"),
    "timeout": (_("On timeout"), _("An automatic move when the turn timer runs out, or a loss."), "000, 001, 004"),
    "memory_aid": (_("Memory aid"),
                   _("The table shows everyone the cards each player is known to hold (picked up with “Take” or shown) and how many cards of each suit have gone to the discard."),
                   ""),
}

VALUE_LABELS: dict[tuple, object] = {
    ("deck_size", 24): _("24 cards"),
    ("deck_size", 36): _("36 cards"),
    ("deck_size", 52): _("52 cards"),
    ("variant", "podkidnoy"): _("podkidnoy"),
    ("variant", "perevodnoy"): _("perevodnoy"),
    ("pairs", False): _("free-for-all"),
    ("pairs", True): _("pairs 2×2"),
    ("cheater", False): _("off"),
    ("cheater", True): _("on"),
    ("throw_in", "starter_first"): _("starter first"),
    ("throw_in", "anyone"): _("anyone"),
    ("round_limit", 6): _("6 cards"),
    ("round_limit", None): _("no 6-card cap"),
    ("first_round_limit", 6): _("6 cards"),
    ("first_round_limit", 5): _("5 cards"),
    ("first_move", "lowest_trump"): _("lowest trump"),
    ("first_move", "lowest_trump_or_random"): _("lowest trump, else random"),
    ("first_move", "left_of_dealer"): _("left of the dealer"),
    ("first_move", "humans_first"): _("always you"),
    ("first_move", "bots_first"): _("always the computer"),
    ("trump_swap", "nobody"): _("nobody"),
    ("trump_swap", "humans"): _("humans"),
    ("trump_swap", "bots"): _("bots"),
    ("trump_swap", "all"): _("everyone"),
    ("draw", True): _("draw"),
    ("draw", False): _("last defender loses"),
    ("timeout", "auto"): _("automatic move"),
    ("timeout", "lose"): _("loss"),
    ("memory_aid", False): _("off"),
    ("memory_aid", True): _("on"),
}

# The bot levels offered to people (game.engine.bots.LEVELS), weakest first, with their names.
BOT_LEVELS: dict[str, object] = {
    "novice": _("novice"),
    "amateur": _("amateur"),
    "master": _("master"),
}
# Saved tables may still name an engine bot: shown as the level that plays like it.
ENGINE_BOT_NAMES: dict[str, object] = {
    "random": _("random"),
    "lowest": BOT_LEVELS["novice"],
    "heuristic": BOT_LEVELS["amateur"],
    "expert": BOT_LEVELS["master"],
}


def bot_level_label(code: str) -> str:
    """The name people read for a bot seat's level."""
    return str(BOT_LEVELS.get(code) or ENGINE_BOT_NAMES.get(code) or code)

TABLE_LABELS: dict[str, tuple] = {key: (s.label, s.help) for key, s in TABLE_SETTINGS.items()}  # lobby/table_settings.py


def value_label(key: str, value) -> str:
    """The people-facing name of one rule value ("yes"/"no" for plain switches)."""
    label = VALUE_LABELS.get((key, value))
    if label is not None:
        return str(label)
    if value is True:
        return str(_("yes"))
    if value is False:
        return str(_("no"))
    return str(value)


def encode(value) -> str:
    """A rule value as a form/POST string."""
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def decode(key: str, raw: str):
    """A form string back to the allowed Python value of rule ``key`` (unknown strings stay strings)."""
    from game.engine.rules import RULE_CHOICES

    for choice in RULE_CHOICES[key]:
        if encode(choice) == raw:
            return choice
    return raw
