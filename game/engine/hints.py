"""Why each card in a seat's hand cannot be played now, from that seat's own view only.

The table client shows these codes (translated by the web layer's error catalogue) when a player
taps a card that has no legal use, instead of keeping its own copy of the rules. Computing them
from ``view_for(state, seat)`` alone means a hint can never reveal another hand or the stock.

Each code is the one ``apply_action`` raises for the card's natural move (``refused_move``):
the defender's move is a defence of the first unbeaten card, anyone else's is a lead or a throw-in.
One case the view cannot settle: under «starter first» a thrower holding no card of a table rank
is told ``rank_not_on_table`` (true whatever the starter does) even when the engine would first
say ``not_your_turn`` because the starter, whose hand is secret, may still throw in.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.engine.card_strings import beats, rank_of, table_ranks

_CARD_MOVES = ("attack", "defend", "transfer")


def why_not(view: Mapping[str, Any]) -> dict[str, str]:
    """{card: IllegalAction code} for every card of the viewer's hand with no legal use now."""
    return {card: code for card, (code, _move) in explain(view).items()}


def refused_move(view: Mapping[str, Any], card: str) -> dict[str, Any]:
    """The move a tap on ``card`` stands for: a defence for the defender, else a lead/throw-in."""
    open_ = _open_attacks(view)
    if view.get("seat") == view.get("defender") and open_:
        return {"type": "defend", "card": card, "target": open_[0]}
    return {"type": "attack", "card": card}


def explain(view: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """{card: (code, the refused move)}; empty for a spectator or when every card is playable."""
    if view.get("seat") is None:
        return {}
    usable = {a.get("card") for a in view.get("legal") or () if a.get("type") in _CARD_MOVES}
    blocked = [c for c in view.get("hand") or () if c not in usable]
    if not blocked:
        return {}
    general = _seat_code(view)
    open_ = _open_attacks(view)
    ranks = table_ranks(view.get("table") or ())
    defending = view.get("seat") == view.get("defender") and bool(open_)
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for card in blocked:
        code = general or _card_code(view, card, open_, ranks)
        move = ({"type": "defend", "card": card, "target": open_[0]} if defending
                else {"type": "attack", "card": card})  # refused_move(view, card), hoisted
        out[card] = (code, move)
    return out


def _open_attacks(view: Mapping[str, Any]) -> list[str]:
    return [p["attack"] for p in view.get("table") or () if not p.get("defense")]


def _seat_code(view: Mapping[str, Any]) -> str | None:
    """A reason that holds for every card of the hand, or None when it depends on the card."""
    seat = view["seat"]
    if view.get("phase") == "over":
        return "game_over"
    if view.get("phase") == "check":
        return "check_phase"
    if seat in (view.get("out") or ()):
        return "player_out"
    table = view.get("table") or ()
    if not table:
        return None if seat == view.get("attacker") else "not_your_turn"
    if seat == view.get("defender"):
        if not _open_attacks(view):
            return "not_your_turn"  # everything is beaten: a defender never throws in
        return "already_took" if view.get("took") else None
    return _thrower_code(view)


def _thrower_code(view: Mapping[str, Any]) -> str | None:
    """The reasons apply_action checks for a throw-in before it looks at the card."""
    seat = view["seat"]
    if view.get("pairs") and view.get("partner") == view.get("defender"):
        return "not_your_turn"
    rules = view.get("rules") or {}
    if rules.get("throw_in", "starter_first") == "starter_first":
        if seat in (view.get("passed") or ()):
            return "already_passed"
        if seat != view.get("attacker") and _room(view) and _starter_first(view):
            return "not_your_turn"
    if not _room(view):
        return "limit_reached"
    return None


def _room(view: Mapping[str, Any]) -> bool:
    table = view.get("table") or ()
    unbeaten = len(_open_attacks(view))
    defender_cards = (view.get("hand_counts") or {}).get(str(view.get("defender")), 0)
    return len(table) < (view.get("limit") or 0) and unbeaten < defender_cards


def _starter_first(view: Mapping[str, Any]) -> bool:
    """Does the starter still hold the first right to throw in (docs/RULES.md#throw-in-order)? Known for sure when he
    is awaited, or when this seat holds a card of a table rank it may not throw."""
    starter = view.get("attacker")
    if starter in (view.get("turn") or ()):
        return True
    ranks = table_ranks(view.get("table") or ())
    usable = {a.get("card") for a in view.get("legal") or () if a.get("type") == "attack"}
    return any(rank_of(c) in ranks and c not in usable for c in view.get("hand") or ())


def _card_code(view: Mapping[str, Any], card: str, open_: list[str], ranks: set[str]) -> str:
    """The reason that depends on the card itself."""
    seat = view["seat"]
    if not view.get("table"):
        return "not_your_turn"  # the starter may lead any card: not reached in practice
    if seat == view.get("defender"):
        trump = view.get("trump")
        if not any(beats(a, card, trump) for a in open_):
            return "does_not_beat"
        return "bad_target"  # beats another unbeaten card, not the first one
    if rank_of(card) not in ranks:
        return "rank_not_on_table"
    return "not_your_turn"
