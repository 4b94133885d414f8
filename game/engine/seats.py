"""Seat geometry: who is active, partners, the next opponent clockwise (docs/RULES.md#seats, docs/RULES.md#pairs)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.engine.state import GameState


# SEAT_BIT[i] = 1 << i: ``mask & SEAT_BIT[i]`` is one int operation where ``mask >> i & 1`` is
# two (int bit operations are not specialised by CPython 3.11; a tuple subscript is)
SEAT_BIT: tuple[int, ...] = tuple(1 << i for i in range(6))
# seat indexes of every 6-seat bitmask, and the same as 1-based seat numbers: whose_turn's answer
# for the awaited mask ``state.turn`` (a lookup, no allocation while settling a turn)
_SEATS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(6) if m >> j & 1) for m in range(64)
)
TURN_OF: tuple[tuple[int, ...], ...] = tuple(tuple(j + 1 for j in seats) for seats in _SEATS_OF)


def is_active(s: GameState, i: int) -> bool:
    """Still in the game (not out)."""
    return not (s.out_mask >> i & 1)


def partner(s: GameState, i: int) -> int:
    """Partner seat index in pairs (1&3, 2&4), else -1."""
    return (i + 2) % 4 if s.pairs else -1


def same_team(s: GameState, i: int, j: int) -> bool:
    return i == j or (s.pairs and (i - j) % 2 == 0)


def _next_active(n: int, out: int, i: int) -> int:
    for k in range(1, n):
        j = (i + k) % n
        if not (out >> j & 1):
            return j
    return -1


def _next_opponent(n: int, pairs: bool, out: int, i: int) -> int:
    for k in range(1, n):
        j = (i + k) % n
        if out >> j & 1:
            continue
        if pairs and k % 2 == 0:
            continue
        return j
    return -1


# precomputed seat geometry: [n][out_mask][i] (and [pairs] for opponents)
_NEXT_ACTIVE = {
    n: tuple(tuple(_next_active(n, o, i) for i in range(n)) for o in range(1 << n))
    for n in range(2, 7)
}
_NEXT_OPPONENT = {
    (n, p): tuple(tuple(_next_opponent(n, p, o, i) for i in range(n)) for o in range(1 << n))
    for n in range(2, 7)
    for p in (False, True)
}


def next_active(s: GameState, i: int) -> int:
    """Next active seat clockwise after i (not i itself), or -1."""
    n = s.n
    if 0 <= i < n:
        return _NEXT_ACTIVE[n][s.out_mask][i]
    for k in range(1, n):
        j = (i + k) % n
        if not (s.out_mask >> j & 1):
            return j
    return -1


def next_opponent(s: GameState, i: int) -> int:
    """Next active opponent clockwise after i: pairs skip the partner, finished players are
    skipped (docs/RULES.md#seats); -1 if none."""
    n = s.n
    if 0 <= i < n:
        return _NEXT_OPPONENT[n, s.pairs][s.out_mask][i]
    pairs = s.pairs
    for k in range(1, n):
        j = (i + k) % n
        if s.out_mask >> j & 1:
            continue
        if pairs and k % 2 == 0:
            continue
        return j
    return -1


_OPPONENTS = (0b1010, 0b0101)  # pairs: opponents of an even / odd seat index


def thrower_mask(s: GameState) -> int:
    """Seats that may throw in this round: everyone active but the defender; in pairs only the
    defender's opponents (docs/RULES.md#throw-in-order)."""
    d = s.defender
    m = ((1 << s.n) - 1) & ~s.out_mask & ~(1 << d)
    if s.pairs:
        m &= _OPPONENTS[d & 1]
    return m


def team_of(s: GameState, i: int) -> list[int]:
    """Seat indexes of i's side (himself, plus the partner in pairs)."""
    return [i, (i + 2) % 4] if s.pairs else [i]


def seat_mask(seats: list[int]) -> int:
    """1-based seat list → bitmask of 0-based seats (the inverse of a view's seat lists)."""
    m = 0
    for x in seats:
        m |= 1 << (x - 1)
    return m
