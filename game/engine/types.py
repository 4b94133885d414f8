"""The engine's public shapes: the action JSON a seat sends, the view it gets, the phases.

``TypedDict``s, so callers (the server, the bots, the analysis) and mypy agree on the keys; at run
time they are plain dicts, which is what crosses the socket.
"""
from __future__ import annotations

from typing import Any, Literal, NotRequired, Required, TypedDict

Phase = Literal["play", "check", "over"]
"""``play``: seats act; ``check``: the cheater-mode window after a round, only catches; ``over``."""

RoundEnd = Literal["bito", "take"]
"""How a round in the check phase will close (``GameState.pending``)."""


class Action(TypedDict, total=False):
    """One move in the action JSON form (``legal_actions`` lists them, ``apply_action`` takes one).

    ``type`` is always there; the other keys depend on it: attack / defend / transfer / swap_trump
    / catch carry ``card`` (defend and catch a ``target`` too), a transfer may be ``show``n, a
    resign gives its ``reason``.
    """

    type: Required[str]
    card: str
    target: str
    show: bool
    reason: str


class TableSlot(TypedDict):
    attack: str
    defense: str | None


class CheaterView(TypedDict):
    enabled: bool
    check: bool
    pending: RoundEnd | None
    banned: list[int]
    can_catch: bool


class View(TypedDict):
    """What one seat (or a spectator: ``seat`` None, empty ``hand`` and ``legal``) may see."""

    seat: int | None
    players: int
    pairs: bool
    partner: int | None
    variant: str
    rules: dict[str, Any]
    phase: Phase
    round: int
    hand: list[str]
    table: list[TableSlot]
    trump: str
    trump_card: str
    stock: int
    discard: int
    gone: list[str]
    hand_counts: dict[str, int]
    leader: int | None
    attacker: int | None
    defender: int | None
    turn: list[int]
    legal: list[Action]
    took: bool
    passed: list[int]
    limit: int
    out: list[int]
    result: dict[str, Any] | None
    last: dict[str, Any] | None
    swap_used: bool
    shown: list[int]
    bots: list[int]
    cheater: CheaterView
    moves: int
    known: dict[str, list[str]]
    # only in a bot's view (reads.py ``reading_view``): the table's reads, [seat, kind, card mask,
    # drawn], and the cards each seat drew from the stock; view_for never sets them
    reads: NotRequired[list[list[Any]]]
    drawn: NotRequired[list[int]]
