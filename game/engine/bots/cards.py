"""Card helpers for the bots, working on the contract's card strings only.

The bots see nothing but a seat's view (JSON of strings), so they parse cards themselves instead of
reaching into the engine's internal representation.
"""
from __future__ import annotations

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

# Card value used for ordering: any trump is above any non-trump.
TRUMP_BONUS = 13


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


def rank_index(card: str) -> int:
    return RANK_INDEX[card[:-1]]


def value(card: str, trump: str | None) -> int:
    """Strength of a card: rank, plus TRUMP_BONUS for trumps (so a trump 2 beats a plain ace)."""
    v = RANK_INDEX[card[:-1]]
    if card[-1] == trump:
        v += TRUMP_BONUS
    return v


def beats(attack: str, defense: str, trump: str | None) -> bool:
    """Whether ``defense`` honestly beats ``attack`` (docs/RULES.md#defence)."""
    a_suit, d_suit = attack[-1], defense[-1]
    if a_suit == d_suit:
        return RANK_INDEX[defense[:-1]] > RANK_INDEX[attack[:-1]]
    return d_suit == trump


def lowest_rank_in_deck(deck_size: int) -> int:
    """Index of the lowest rank for a 24/36/52-card deck (9, 6, 2)."""
    return {24: RANK_INDEX["9"], 36: RANK_INDEX["6"], 52: RANK_INDEX["2"]}.get(deck_size, 0)
