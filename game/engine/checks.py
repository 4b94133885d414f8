"""Shared validation helpers: parsing action fields and the transfer preconditions."""
from __future__ import annotations

from typing import Any

from game.engine.cards import BIT, CARD_CODE, RANK_MASK, RANK_OF, SUIT_MASK
from game.engine.errors import IllegalAction
from game.engine.flow import round_cap
from game.engine.seats import next_opponent
from game.engine.state import GameState


def card_field(a: dict[str, Any], key: str = "card", code: str = "bad_card") -> int:
    """The card code in action field ``key`` or IllegalAction(code)."""
    v: Any = a.get(key)
    if type(v) is not str:
        raise IllegalAction(code, f"field '{key}' must be a card string like '10H'")
    c = CARD_CODE.get(v)
    if c is None:
        shown = v if len(v) <= 10 else v[:10] + "…"
        raise IllegalAction(code, f"{shown!r} is not a card (use rank 2-10/J/Q/K/A + suit S/H/D/C)")
    return c


def own_card(s: GameState, i: int, a: dict[str, Any]) -> int:
    """A card field that must be in seat i's hand."""
    c = card_field(a)
    if not s.hands[i] & BIT[c]:
        raise IllegalAction("card_not_in_hand", "you do not hold that card")
    return c


# rank (0..12) of a rank set holding exactly one rank (rmask unions whole RANK_MASK entries)
_SINGLE_RANK: dict[int, int] = {m: r for r, m in enumerate(RANK_MASK)}


def table_rank(s: GameState) -> int:
    """The single rank of the table (0..12), or -1 if ranks are mixed/empty."""
    return _SINGLE_RANK.get(s.rmask, -1)


def transfer_problem(s: GameState, i: int, add: int) -> tuple[str, str] | tuple[None, int]:
    """Why seat i may not transfer now (adding ``add`` cards to the table), or (None, new
    defender). docs/RULES.md#transfer: perevodnoy, defender, nothing beaten, no «Беру», round-1 setting,
    total ≤ round cap, the next opponent holds at least the whole table."""
    r = s.rules
    if r.variant != "perevodnoy":
        return ("transfer_not_allowed", "transfers are only allowed in perevodnoy")
    if i != s.defender or not s.atk or s.phase != "play":
        return ("not_your_turn", "only the defender can transfer an attack")
    if s.took:
        return ("transfer_not_allowed", "no transfer after «Беру»")
    if s.dfn.count(-1) != len(s.dfn):
        return ("transfer_not_allowed", "no transfer once a card is beaten")
    if s.round == 1 and not r.transfer_in_first_round:
        return ("transfer_not_allowed", "no transfer in the first round at this table")
    nd = next_opponent(s, i)
    if nd < 0:
        return ("transfer_not_allowed", "there is nobody to transfer to")
    total = len(s.atk) + add
    cap = round_cap(s)
    if total > cap:
        return ("limit_reached", f"a transfer may not put more than {cap} cards on the table")
    if s.hands[nd].bit_count() < total:
        return ("too_few_cards", f"seat {nd + 1} has too few cards to take over {total} cards")
    return (None, nd)


def honest_transfer_cards(s: GameState, i: int) -> int:
    """Cards of seat i that transfer honestly (same rank as all attack cards; trump setting)."""
    r = _SINGLE_RANK.get(s.rmask, -1)  # table_rank(s), inlined: every perevodnoy defence lists it
    if r < 0:
        return 0
    m = s.hands[i] & RANK_MASK[r]
    if not s.rules.transfer_with_trump:
        m &= ~SUIT_MASK[s.trump]
    return m


def show_cards(s: GameState, i: int) -> int:
    """«Переводной 2» (docs/RULES.md#transfer-by-showing-trump): the trump of the table rank that seat i may show, as a mask."""
    if not s.rules.transfer_by_showing_trump or s.shown >> i & 1:
        return 0
    r = table_rank(s)
    if r < 0:
        return 0
    return s.hands[i] & RANK_MASK[r] & SUIT_MASK[s.trump]


def same_rank(s: GameState, c: int) -> bool:
    return s.rmask == RANK_OF[c]
