"""The engine's one module for cards as the contract's strings ("10H"): what a view carries.

Code that reads views (the bots, the hints, the self-play checker) works on these strings only, never
on the engine's int codes (cards.py), so it can see no more than the seat could.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from game.engine.cards import LOWEST_RANK, RANKS

__all__ = ["RANKS", "RANK_INDEX", "SUITS", "TRUMP_BONUS", "beats", "lowest_rank_in_deck", "rank_index", "rank_of",
           "suit_of", "table_ranks", "value"]

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
    return LOWEST_RANK.get(deck_size, 0)


def table_ranks(table: Iterable[Mapping[str, Any]]) -> set[str]:
    """Ranks on a view's table, attacks and defences (docs/RULES.md#throw-in-ranks: throw-ins may match either)."""
    ranks = set()
    for pair in table:
        ranks.add(rank_of(pair["attack"]))
        defense = pair.get("defense")
        if defense:
            ranks.add(rank_of(defense))
    return ranks
