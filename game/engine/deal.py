"""new_game: shuffle (own seeded RNG), deal one at a time from seat 1, pick the first attacker."""
from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from game.engine.cards import BIT, CARD_CODE, DECK_MASK, SUIT_MASK, lowest
from game.engine.flow import start_round
from game.engine.rules import InvalidRules, Rules
from game.engine.state import GameState

# card codes of each deck, lowest first (the order new_game shuffles)
_DECK_CODES: dict[int, tuple[int, ...]] = {
    size: tuple(c for c in range(52) if full >> c & 1) for size, full in DECK_MASK.items()
}


def shuffled(items: tuple[int, ...], seed: int | str) -> list[int]:
    """``random.Random(seed).shuffle(list(items))``, inlined: the same getrandbits draws and swaps
    as CPython's shuffle (with ``_randbelow_with_getrandbits``), without a Python call per card.
    tests/engine/test_rules_deal.py checks it against random.shuffle, so a Python whose shuffle
    differs is noticed."""
    x = list(items)
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1  # j uniform in [0, n): draw n.bit_length() bits until below n
        k = _BIT_LENGTH[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
    return x


_BIT_LENGTH = tuple(n.bit_length() for n in range(53))


def rng_for(s: GameState) -> random.Random:
    """The state's RNG for its next random decision (deterministic from seed and draw count);
    the caller's state copy advances ``rng_n`` so the next call gets a fresh stream."""
    r = random.Random(f"{s.seed}:{s.rng_n}")
    s.rng_n += 1
    return r


def _seat_mask(seats: Iterable[Any], n: int, what: str) -> int:
    m = 0
    try:
        seq = list(seats)
    except TypeError:
        raise InvalidRules(f"{what} must be a list of seats") from None
    for x in seq:
        if type(x) is not int or not 1 <= x <= n:
            raise InvalidRules(f"{what}: no seat {x!r} at a {n}-seat table")
        m |= 1 << (x - 1)
    return m


def new_game(
    rules: Rules | dict[str, Any] | None,
    players: int | Any,  # checked by Rules.check_players (Any: compiled, a str must reach it)
    seed: int | str | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
    first_attacker: int | None = None,
    bot_seats: Iterable[int] = (),
) -> GameState:
    """Deal a new game. ``deck`` (tests) is the order cards leave the pack: 6 per player dealt one
    at a time round-robin from seat 1, then the stock in draw order, its last card the face-up
    trump (docs/RULES.md#deck). With a fully dealt deck the trump is the last card dealt (seat N holds it)."""
    if rules is None:
        rules = Rules()
    elif isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    elif not isinstance(rules, Rules):
        raise InvalidRules("rules must be a Rules instance or a dict")
    rules.check_players(players)
    n = players
    if seed is None:
        seed = secrets.randbits(53)
    elif type(seed) not in (int, str):
        raise InvalidRules("seed must be an int or a str")
    full = DECK_MASK[rules.deck_size]
    if deck is None:
        codes = shuffled(_DECK_CODES[rules.deck_size], seed)
    else:
        if not isinstance(deck, (list, tuple)) or not all(
            type(c) is str and c in CARD_CODE for c in deck
        ):
            raise InvalidRules("deck must be a list of card strings like '10H'")
        codes = [CARD_CODE[c] for c in deck]
        m = 0
        for c in codes:
            m |= BIT[c]
        if len(codes) != rules.deck_size or m != full:
            raise InvalidRules(
                f"deck must hold each of the {rules.deck_size} cards of the deck exactly once"
            )
    if dealer is None:
        dealer = n
    if type(dealer) is not int or not 1 <= dealer <= n:
        raise InvalidRules(f"dealer: no seat {dealer!r}")
    if first_attacker is not None and (
        type(first_attacker) is not int or not 1 <= first_attacker <= n
    ):
        raise InvalidRules(f"first_attacker: no seat {first_attacker!r}")

    s = GameState()
    s.rules = rules
    s.n = n
    s.pairs = rules.pairs
    # one card at a time round-robin from seat 1: seat j gets codes[j], codes[j + n], ...
    bit = BIT.__getitem__
    s.hands = [sum(map(bit, codes[j : 6 * n : n])) for j in range(n)]
    s.stock = tuple(codes[6 * n:])
    s.trump_card = codes[-1]
    s.trump = codes[-1] & 3
    s.discard = 0
    s.gone = 0
    s.known = 0
    s.atk = ()
    s.dfn = ()
    s.atk_by = ()
    s.cheats = 0
    s.rmask = 0
    s.round = 1
    s.out = []
    s.out_mask = 0
    s.result = None
    s.swap_used = False
    s.bots = _seat_mask(bot_seats, n, "bot_seats")
    s.seed = seed
    s.rng_n = 0
    s.moves = 0
    s.last = None
    s.stall = 0
    s.best = 0
    s.dealer = dealer - 1
    lead = first_attacker - 1 if first_attacker is not None else _first_move(s)
    start_round(s, lead)
    return s


def _first_move(s: GameState) -> int:
    """docs/RULES.md#first-move: lowest trump, else lowest card, ties → lowest seat; or lowest trump, else
    random; or left of the dealer, or «всегда вы» / «всегда компьютер» (humans_first / bots_first: the
    lowest trump, else lowest card, among the human / bot seats; everyone if there are none)."""
    how = s.rules.first_move
    if how == "left_of_dealer":
        return (s.dealer + 1) % s.n
    seats: Sequence[int] = range(s.n)
    if how == "humans_first" or how == "bots_first":
        group = [i for i in seats if bool(s.bots >> i & 1) == (how == "bots_first")]
        seats = group or seats
    tm = SUIT_MASK[s.trump]
    best, who = 99, -1
    for i in seats:
        h = s.hands[i]
        if h & tm:
            c = lowest(h & tm)
            if c < best:
                best, who = c, i
    if who >= 0:
        return who
    if how == "lowest_trump_or_random":
        return rng_for(s).randrange(s.n)
    best_rank = 99
    for i in seats:
        r = lowest(s.hands[i]) >> 2
        if r < best_rank:
            best_rank, who = r, i
    return who
