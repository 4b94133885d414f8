"""Durak rules engine: a pure, deterministic library (no Django, no I/O, no clock, no global
random). The contract is game/engine/README.md; the rules, docs/RULES.md.

Typical use::

    state = new_game(Rules(variant="perevodnoy"), players=4, seed=7)
    legal_actions(state, seat)              # list of action dicts
    state = apply_action(state, seat, {"type": "attack", "card": "7C"})
    view_for(state, seat)                   # JSON-ready, redacted
    state, reading = read_table(initial, [(seat, action), ...])   # a log replayed, with its reads
    reading_view(state, seat, reading)      # a bot's view: view_for plus the table's reads
"""
# ruff: noqa: E402 (the build check runs before the first compiled module is imported)
from game.engine.native import check_build

check_build()  # before the first compiled module loads: a stale build is refused (state.NATIVE says which)

from game.engine.actions import apply_action, legal_actions
from game.engine.cards import CARD_RE, CARD_STR, card_rank, card_suit, deck_cards, parse_card
from game.engine.cheater import end_check
from game.engine.deal import new_game
from game.engine.errors import ERROR_CODES, IllegalAction
from game.engine.flow import MAX_MOVES, STALL_ROUNDS
from game.engine.reads import Reading, reading_view
from game.engine.reads import replay as read_table
from game.engine.rules import RULE_CHOICES, InvalidRules, Rules
from game.engine.state import GameState
from game.engine.timeouts import resign, set_bot_seats, timeout_action
from game.engine.types import Action, Phase, View
from game.engine.views import view_for, whose_turn

__all__ = [
    "Action",
    "CARD_RE",
    "CARD_STR",
    "ERROR_CODES",
    "MAX_MOVES",
    "Phase",
    "RULE_CHOICES",
    "STALL_ROUNDS",
    "GameState",
    "IllegalAction",
    "InvalidRules",
    "Reading",
    "Rules",
    "View",
    "apply_action",
    "card_rank",
    "card_suit",
    "deck_cards",
    "end_check",
    "legal_actions",
    "new_game",
    "parse_card",
    "read_table",
    "reading_view",
    "resign",
    "set_bot_seats",
    "timeout_action",
    "view_for",
    "whose_turn",
]
