"""Helpers for scenario tests: build explicit decks from the hands a test wants, play actions."""
from __future__ import annotations

from typing import Any

from game.engine import GameState, Rules, apply_action, deck_cards, legal_actions, new_game


def deck_for(
    hands: list[list[str]],
    trump: str,
    stock: list[str] = (),
    deck_size: int = 36,
) -> list[str]:
    """The deck order that deals ``hands`` (6 cards per seat, seat 1 first), then draws ``stock``,
    then every remaining card lowest first, and ends with the face-up ``trump``."""
    n = len(hands)
    assert all(len(h) == 6 for h in hands), hands
    dealt = [hands[k % n][k // n] for k in range(6 * n)]
    used = set(dealt) | set(stock) | {trump}
    assert len(used) == 6 * n + len(stock) + (0 if trump in dealt else 1), "duplicate card"
    if trump in dealt:  # fully dealt deck: the trump is the last card dealt
        assert dealt[-1] == trump and not stock
        return dealt
    rest = [c for c in deck_cards(deck_size) if c not in used]
    return dealt + list(stock) + rest + [trump]


def game(
    hands: list[list[str]],
    trump: str,
    stock: list[str] = (),
    deck_size: int = 36,
    **kw: Any,
) -> GameState:
    """A game dealt with ``hands``; keyword args go to Rules except new_game's own ones."""
    own = {k: kw.pop(k) for k in ("dealer", "first_attacker", "bot_seats", "seed") if k in kw}
    rules = Rules(deck_size=deck_size, **kw)
    return new_game(rules, len(hands), deck=deck_for(hands, trump, stock, deck_size), **own)


def act(s: GameState, seat: int, type_: str, card: str | None = None, **fields: Any) -> GameState:
    """Apply one action and check that legal_actions listed it (the two must agree)."""
    a: dict[str, Any] = {"type": type_}
    if card is not None:
        a["card"] = card
    a.update(fields)
    assert a in legal_actions(s, seat), (a, legal_actions(s, seat))
    return apply_action(s, seat, a)


def hand(s: GameState, seat: int) -> list[str]:
    return s.hand(seat)


def table(s: GameState) -> list[tuple[str, str | None]]:
    from game.engine import view_for

    return [(p["attack"], p["defense"]) for p in view_for(s, None)["table"]]
