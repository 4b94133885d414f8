"""The adapter contract between our engine and a public Durak AI that plays one seat.

A public bot only ever sees what the seat saw: ``Seen.from_view`` reads ``view_for(state, seat)``
and nothing else, and the one full world some bots need (hidden hands, stock order) is dealt from
that view by the expert's sampler, never taken from the real state. The bot's answer is mapped
back to one of ``view["legal"]``; an answer our rules do not allow as one action is replaced by
the nearest legal move and counted (``split`` when it was a multi-card move whose first card is
legal, ``corrected`` otherwise).
"""
from __future__ import annotations

import contextlib
import importlib
import io
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from game.engine.bots.base import Bot
from game.engine.bots.sample import Sampler
from game.engine.card_strings import rank_of, value
from game.engine.cards import CARD_CODE, CARD_STR, bits
from game.engine.types import Action, View


@dataclass(frozen=True)
class Seen:
    """What the seat knows, as plain card strings (``"10H"``), heads-up only.

    ``role``: ``lead`` (empty table), ``attack`` (all beaten: throw in or bito), ``throw`` (the
    opponent took: throw extra cards or stop), ``defend``. ``world`` is one sampled deal of the
    unseen cards: the opponent's hand and the stock in draw order (face-up trump last).
    """

    role: str
    hand: tuple[str, ...]
    trump: str
    trump_card: str
    stock: int
    table: tuple[tuple[str, str | None], ...]
    gone: tuple[str, ...]
    opp_count: int
    opp_known: tuple[str, ...]
    my_known: tuple[str, ...]
    unseen: tuple[str, ...]
    world_opp: tuple[str, ...]
    world_stock: tuple[str, ...]
    rules: dict[str, Any] = field(hash=False, compare=True)

    @classmethod
    def from_view(cls, view: View, rng: random.Random) -> Seen:
        """Everything from the view; ``rng`` deals the one sampled world."""
        if int(view["players"]) != 2:
            raise ValueError("public bots play heads-up only")
        me = int(view["seat"] or 0)
        opp = 3 - me
        table = tuple((p["attack"], p["defense"]) for p in view["table"])
        if me == view["defender"]:
            role = "defend"
        elif not table:
            role = "lead"
        else:
            role = "throw" if view["took"] else "attack"
        known = view["known"]
        opp_known = tuple(known.get(str(opp), []))
        sampler = Sampler(view)
        world = sampler.deal(rng)
        stock = int(view["stock"])
        unseen = tuple(CARD_STR[c] for c in sampler.pool)
        return cls(
            role=role,
            hand=tuple(view["hand"]),
            trump=view["trump"],
            trump_card=view["trump_card"],
            stock=stock,
            table=table,
            gone=tuple(view["gone"]),
            opp_count=int(view["hand_counts"][str(opp)]),
            opp_known=opp_known,
            my_known=tuple(known.get(str(me), [])),
            unseen=unseen,
            world_opp=tuple(CARD_STR[c] for c in bits(world.hands[opp - 1])),
            world_stock=tuple(CARD_STR[c] for c in world.stock),
            rules=dict(view["rules"]),
        )

    @property
    def unbeaten(self) -> tuple[str, ...]:
        return tuple(a for a, d in self.table if d is None)


@dataclass(frozen=True)
class Move:
    """A bot's answer in neutral form: ``kind`` in attack|defend|transfer|take|pass.

    ``cards``: attack/transfer cards (several for a multi-card lead, throw or transfer);
    ``targets``: for defend, the attack card each of ``cards`` beats. ``show``: transfer by showing.
    """

    kind: str
    cards: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    show: bool = False
    fallback: bool = False  # its own search had no answer (its rules say the game is over)


@dataclass
class Stats:
    """Per-game counts of the public bot's consulted decisions and how each answer mapped."""

    decisions: int = 0
    exact: int = 0
    split: int = 0
    corrected: int = 0
    fallback: int = 0
    examples: list[str] = field(default_factory=list)  # the first corrected answers

    def add(self, other: Stats) -> None:
        self.decisions += other.decisions
        self.exact += other.exact
        self.split += other.split
        self.corrected += other.corrected
        self.fallback += other.fallback
        self.examples.extend(other.examples[: max(0, 8 - len(self.examples))])


def _first(move: Move) -> Action:
    """The single action of our rules that starts ``move``."""
    if move.kind in ("take", "pass"):
        return {"type": move.kind}
    card = move.cards[0] if move.cards else ""
    if move.kind == "defend":
        return {"type": "defend", "card": card, "target": move.targets[0] if move.targets else ""}
    if move.kind == "transfer" and move.show:
        return {"type": "transfer", "card": card, "show": True}
    return {"type": move.kind, "card": card}


def nearest(move: Move, legal: list[Action], trump: str) -> Action:
    """The legal action closest to ``move``: the same card in another legal form, else the same
    kind with the card nearest in strength, else give up the round (take / pass), else any."""
    plays = [a for a in legal if a["type"] not in ("resign", "catch", "swap_trump")] or legal
    if move.cards:
        same = [a for a in plays if a.get("card") == move.cards[0]]
        if same:
            return same[0]
        kind = [a for a in plays if a["type"] == move.kind and "card" in a]
        if kind and move.cards[0] in CARD_CODE:
            v = value(move.cards[0], trump)
            return min(kind, key=lambda a: (abs(value(a["card"], trump) - v),
                                            rank_of(a["card"]), a["card"]))
    for give_up in ("pass", "take"):
        for a in plays:
            if a["type"] == give_up:
                return a
    return plays[0]


def to_ours(move: Move, legal: list[Action], trump: str) -> tuple[Action, str]:
    """``(action, how)``: how is ``exact``, ``split`` (first card of a legal multi-card move) or
    ``corrected`` (not legal under our rules: the nearest legal action)."""
    first = _first(move)
    for a in legal:
        if all(a.get(k) == v for k, v in first.items()) and bool(a.get("show")) == move.show:
            return a, ("split" if len(move.cards) > 1 else "exact")
    return nearest(move, legal, trump), "corrected"


def load_module(path: str | Path, name: str) -> ModuleType:
    """Import module ``name`` from a checkout directory (put first on ``sys.path``), checking it
    really came from there (not a same-named module elsewhere)."""
    root = Path(path).resolve()
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    mod = importlib.import_module(name)
    origin = Path(getattr(mod, "__file__", "") or "").resolve()
    if root not in origin.parents:
        raise ImportError(f"{name} was imported from {origin}, not from {root}")
    return mod


class PublicBot(Bot):
    """Base adapter: subclasses load the external code (``load``) and answer ``decide(seen)``.

    The global ``random`` module, which public code tends to use, is seeded from the arena's
    ``rng`` before each call, so a seeded match replays exactly. Their printing is swallowed.
    """

    name = "public"
    rules_note = ""
    rules: dict[str, Any] = {}  # the rule settings closest to the bot's own

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.stats = Stats()
        self.load(self.path)

    def load(self, path: Path) -> None:
        raise NotImplementedError

    def decide(self, seen: Seen) -> Move:
        raise NotImplementedError

    def choose(self, view: View, rng: random.Random) -> Action | None:
        legal = [a for a in view["legal"] if a["type"] not in ("resign", "catch")]
        if not legal:
            return None
        if len(legal) == 1:  # forced: nothing to decide
            return legal[0]
        seen = Seen.from_view(view, rng)
        random.seed(rng.getrandbits(64))
        with contextlib.redirect_stdout(io.StringIO()):
            move = self.decide(seen)
        action, how = to_ours(move, legal, view["trump"])
        st = self.stats
        st.decisions += 1
        setattr(st, how, getattr(st, how) + 1)
        st.fallback += move.fallback
        if how == "corrected" and len(st.examples) < 8:
            st.examples.append(f"{how}: {move} -> {action}")
        return action
