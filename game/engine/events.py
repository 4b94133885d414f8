"""The last public event of a game (for animations and "X caught Y" in the UI).

``state.last`` is always one shape, a 6-tuple ``(seat, type, card, target, closed, extra)``:
seat 1-based, card/target strings or None, ``closed`` how the round closed after it ("bito",
"take", "caught") or None, ``extra`` a dict of the rarer fields (to, show, took, cheater,
caught, penalty, reason) or None. The hot moves build it as a plain tuple (flow.finish_round
sets ``closed``); last_event gives the
public dict (its key order is the view's JSON: seat, type, card, target, extra..., closed).
"""
from __future__ import annotations

from typing import Any

Event = tuple["int | None", "str | None", "str | None", "str | None", "str | None", "dict[str, Any] | None"]

_CORE = ("seat", "type", "card", "target", "closed")


def event(seat: int, kind: str, card: str | None, **extra: Any) -> Event:
    """An event with rarer fields (transfer, swap, catch, resign: not on the hot path)."""
    return (seat, kind, card, None, None, extra or None)


def last_event(last: Event | None) -> dict[str, Any] | None:
    """The public form of ``state.last``."""
    if last is None:
        return None
    seat, kind, card, target, how, extra = last
    d: dict[str, Any] = {} if seat is None and kind is None else {"seat": seat, "type": kind}
    if card is not None:
        d["card"] = card
    if target is not None:
        d["target"] = target
    if extra:
        d.update(extra)
    if how is not None:
        d["closed"] = how
    return d


def from_public(d: dict[str, Any] | None) -> Event | None:
    """The inverse of last_event (GameState.from_json)."""
    if d is None:
        return None
    extra = {k: v for k, v in d.items() if k not in _CORE}
    return (d.get("seat"), d.get("type"), d.get("card"), d.get("target"), d.get("closed"),
            extra or None)
