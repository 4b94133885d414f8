"""Card codes, masks and precomputed tables.

A card is an int ``rank * 4 + suit`` (rank 0..12 for 2..A, suit 0..3 for S H D C), so the lowest
set bit of a hand bitmask is its lowest card (by rank, then suit S<H<D<C). Hands, the discard and
rank sets are int bitmasks; the string form ("10H") is only used at the JSON edges.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: str = "SHDC"

CARD_STR: tuple[str, ...] = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(52))
CARD_CODE: dict[str, int] = {s: c for c, s in enumerate(CARD_STR)}
CARD_RE = re.compile(r"^(10|[2-9JQKA])([SHDC])$")

BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
BIT_STR: dict[int, str] = {1 << c: CARD_STR[c] for c in range(52)}  # single-bit mask → card
SUIT_MASK: tuple[int, ...] = tuple(sum(1 << (r * 4 + s) for r in range(13)) for s in range(4))
RANK_MASK: tuple[int, ...] = tuple(0xF << (r * 4) for r in range(13))
# RANK_OF[c]: mask of the four cards of c's rank (for table rank sets)
RANK_OF: tuple[int, ...] = tuple(RANK_MASK[c >> 2] for c in range(52))

LOWEST_RANK: dict[int, int] = {24: 7, 36: 4, 52: 0}  # 9, 6, 2
DECK_MASK: dict[int, int] = {
    size: sum(1 << c for c in range(low * 4, 52)) for size, low in LOWEST_RANK.items()
}


def _beaters(trump: int, c: int) -> int:
    """Mask of the cards that beat ``c`` (docs/RULES.md#defence): higher same suit, or any trump on a non-trump."""
    suit, rank = c & 3, c >> 2
    m = 0
    for x in range(52):
        xs, xr = x & 3, x >> 2
        if (xs == suit and xr > rank) or (xs == trump and suit != trump):
            m |= 1 << x
    return m


BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beaters(t, c) for c in range(52)) for t in range(4)
)


def chunk_tables(items: Sequence[T]) -> tuple[tuple[tuple[T, ...], ...], ...]:
    """Four lookup tables, one per 13-bit slice of a card mask (4 slices cover 52 cards): entry v
    of table k is the tuple of ``items[13 * k + b]`` for every set bit b of v, lowest first. A mask
    is then listed with four subscripts and three tuple concatenations instead of a bit loop."""
    tables = []
    for offset in range(0, 52, 13):
        table: list[tuple[T, ...]] = [()]
        for b in range(offset, offset + 13):  # entries with bit b set = those without, + item b
            table += [t + (items[b],) for t in table] if b < 52 else table
        tables.append(tuple(table))
    return tuple(tables)


# card strings of a 13-bit slice of a mask (4 slices cover 52 cards), for fast hand listing
CHUNKS = chunk_tables(CARD_STR)
_C0, _C1, _C2, _C3 = CHUNKS


def card_strs(mask: int) -> tuple[str, ...]:
    """Mask → card strings, lowest first (table lookups instead of a bit loop)."""
    return (
        _C0[mask & 8191] + _C1[(mask >> 13) & 8191] + _C2[(mask >> 26) & 8191] + _C3[mask >> 39]
    )


def bits(mask: int) -> Iterator[int]:
    """Card codes of ``mask`` in ascending order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest(mask: int) -> int:
    """Lowest card code of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def to_strs(mask: int) -> list[str]:
    """Mask → sorted card strings."""
    return list(card_strs(mask))


def from_strs(cards: list[str]) -> int:
    """Card strings → mask (raises KeyError on a bad card)."""
    m = 0
    for s in cards:
        m |= 1 << CARD_CODE[s]
    return m


def parse_card(value: object) -> int | None:
    """Card string → code, or None for anything that is not a card string."""
    if type(value) is not str:
        return None
    return CARD_CODE.get(value)


def card_rank(card: str) -> str:
    """Rank part of a card string ("10H" → "10")."""
    return card[:-1]


def card_suit(card: str) -> str:
    """Suit letter of a card string ("10H" → "H")."""
    return card[-1]


def deck_cards(deck_size: int) -> list[str]:
    """All card strings of a deck, lowest first."""
    return to_strs(DECK_MASK[deck_size])
