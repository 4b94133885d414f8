"""What every bot shares: the view-only interface and helpers to read the legal list.

A bot is given exactly what a human at that seat could see (``view_for(state, seat)``) and a
seeded ``random.Random``; it never receives the state, so it cannot peek at hidden cards, and it
keeps no memory between calls, so a bot can take over a seat mid-game (a disconnected player) and
be replayed deterministically from the event log.
"""
from __future__ import annotations

import random

from game.engine.card_strings import beats, rank_of, table_ranks
from game.engine.types import Action, View

PLAY_TYPES = ("attack", "defend", "transfer")


class Bot:
    """Base class: subclasses implement ``choose``; instances hold no per-game state."""

    name = "base"
    # whether the bot's view should carry the table's reads (reads.py ``reading_view``): only a
    # bot that weighs worlds by them; the others are given ``view_for`` and nothing is replayed
    reads_table = False

    def choose(self, view: View, rng: random.Random) -> Action | None:
        """Return one action of ``view["legal"]`` (or None when it is empty / nothing is wanted)."""
        raise NotImplementedError


def is_honest(action: Action, view: View) -> bool:
    """Whether an action would be legal without cheating (cheater mode lists dishonest ones too)."""
    kind = action["type"]
    if kind == "defend":
        return beats(action["target"], action["card"], view.get("trump"))
    table = view.get("table") or []
    if kind == "attack":
        return not table or rank_of(action["card"]) in table_ranks(table)
    if kind == "transfer":
        if any(p.get("defense") for p in table):
            return False
        rank = rank_of(action["card"])
        if any(rank_of(p["attack"]) != rank for p in table):
            return False
        rules = view.get("rules") or {}
        if action["card"][-1] == view.get("trump") and not action.get("show"):
            return bool(rules.get("transfer_with_trump", True))
        return True
    return True


def honest_actions(legal: list[Action], view: View) -> list[Action]:
    """The honest subset of ``legal`` (identical to ``legal`` outside cheater mode)."""
    return [a for a in legal if is_honest(a, view)]


def visible_cheats(view: View) -> set[str]:
    """Cards on the table that are provably dishonest from the table alone.

    A defence that does not beat its attack, or an attack after the first whose rank appears
    nowhere else on the table (cards never leave the table within a round, so its rank was not
    there when it was laid). Anything less certain is not accused: a false «Поймать!» costs a card.
    """
    trump = view.get("trump")
    table = view.get("table") or []
    cheats: set[str] = set()
    rank_counts: dict[str, int] = {}
    for pair in table:
        for c in (pair["attack"], pair.get("defense")):
            if c:
                r = rank_of(c)
                rank_counts[r] = rank_counts.get(r, 0) + 1
    for i, pair in enumerate(table):
        d = pair.get("defense")
        if d and not beats(pair["attack"], d, trump):
            cheats.add(d)
        if i > 0 and rank_counts.get(rank_of(pair["attack"]), 0) <= 1:
            cheats.add(pair["attack"])
    return cheats


def settled_move(view: View) -> tuple[bool, Action | None, list[Action]]:
    """The moves every level makes the same way, before it thinks: catch a cheat it can see, swap the
    face-up trump for the lowest one (менка); nothing but catches and resigning left means pass.
    Returns (settled, the action, the other legal moves to choose among when not settled)."""
    legal = view.get("legal") or []
    if not legal:
        return True, None, []
    catches = [a for a in legal if a["type"] == "catch"]
    if catches:
        cheats = visible_cheats(view)
        for a in catches:
            if a["card"] in cheats:
                return True, a, []
    rest = [a for a in legal if a["type"] not in ("catch", "resign")]
    if not rest:
        return True, None, []
    for a in rest:
        if a["type"] == "swap_trump":
            return True, a, []
    return False, None, rest


def fallback(legal: list[Action]) -> Action | None:
    """A harmless action when a bot has no preference: take, pass, else any play; never a resign,
    a catch (a false accusation costs a card) or a trump swap (optional, and not always good)."""
    for kind in ("take", "pass"):
        for a in legal:
            if a["type"] == kind:
                return a
    for a in legal:
        if a["type"] not in ("resign", "catch", "swap_trump"):
            return a
    return None
