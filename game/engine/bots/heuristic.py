"""The reference heuristic bot: the playing habits of rule page 002 (docs/RULES.md#sources) as code.

Saves trumps for defence (never throws one in while the stock lasts), leads its cheapest plain card
(preferring ranks it holds twice), throws in plain cards cheapest first, covers with the cheapest
full cover (preferring ranks already on the table), transfers with a plain card (heads-up only
when covering would cost a trump: there a transfer hands the attack straight back), takes a small
table early rather than burn high trumps while the stock is deep, swaps the trump (менка) when
allowed, plays honestly in cheater mode and catches what is provably dishonest on the table.

It counts the discard: the view's ``gone`` (every card publicly sent to the discard) with its own
hand, the table and the face-up trump gives the unseen cards; with an empty stock it leads and
throws in cards that nobody left can beat (or transfer back). Heads-up that set is exactly the
opponent's hand.

It is stateless: everything comes from the view, so it can take over any seat at any moment and
replay deterministically. Tunables were chosen by seeded self-play against ``lowest``; most
defaults barely matter there (within ±2% loss rate), the ones that did are noted.
"""
from __future__ import annotations

import random
from typing import Any

from game.engine.bots.base import (
    Bot,
    fallback,
    honest_actions,
    settled_move,
)
from game.engine.card_strings import (
    RANK_INDEX,
    RANKS,
    SUITS,
    TRUMP_BONUS,
    beats,
    lowest_rank_in_deck,
    rank_of,
    value,
)
from game.engine.types import Action, TableSlot, View

# Tunables (chosen by seeded self-play against ``lowest``, see ``python -m game.engine.tools.bench``).
HIGH_TRUMP = RANK_INDEX["Q"]  # trumps from here up are worth taking a cheap table to keep
# plain cards up to here are thrown in while the stock lasts with 3+ players: throwing every plain
# card (A) beat "only up to 10" clearly (4 players: durak 23.5% vs 28.3% of 600 games)
CHEAP_RANK = RANK_INDEX["A"]
DEEP_STOCK = 6  # stock size above which taking a small table is cheap
PAIR_BONUS = 3  # a lead card is worth this much cheaper per other card of its rank in hand
# a beater of a rank not yet on the table costs this much more (it opens new throw-ins); 3 beat 0
# in 4-player games by ~1.2 points of durak rate (800 games each, podkidnoy and perevodnoy)
NEW_RANK_PENALTY = 3


def _cost(card: str, trump: str | None) -> int:
    """How much a card is worth keeping: trumps far more than any plain card."""
    v = RANK_INDEX[card[:-1]]
    if card[-1] == trump:
        return 2 * TRUMP_BONUS + 2 * v
    return v


class HeuristicBot(Bot):
    """Rule-of-thumb player; see the module docstring."""

    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        """Tunables default to the module constants; ``params`` overrides them (self-play tuning)."""
        self.high_trump: int = params.pop("high_trump", HIGH_TRUMP)
        self.cheap_rank: int = params.pop("cheap_rank", CHEAP_RANK)
        self.deep_stock: int = params.pop("deep_stock", DEEP_STOCK)
        self.pair_bonus: int = params.pop("pair_bonus", PAIR_BONUS)
        self.take_cheaply: bool = params.pop("take_cheaply", True)
        self.trump_transfer: bool = params.pop("trump_transfer", True)
        self.plain_transfer: bool = params.pop("plain_transfer", True)
        self.throw_trumps: bool = params.pop("throw_trumps", False)
        self.endgame_bonus: int = params.pop("endgame_bonus", 40)
        self.new_rank_penalty: int = params.pop("new_rank_penalty", NEW_RANK_PENALTY)
        self.transfer_mode: str = params.pop("transfer_mode", "auto")
        self.took_cheap_rank: int = params.pop("took_cheap_rank", self.cheap_rank)
        if params:
            raise TypeError(f"unknown HeuristicBot params {sorted(params)}")

    def choose(self, view: View, rng: random.Random) -> Action | None:
        settled, action, rest = settled_move(view)
        if settled:
            return action
        honest = honest_actions(rest, view) or rest
        kinds = {a["type"] for a in honest}
        if kinds & {"defend", "transfer", "take"}:
            choice = self._defend(view, honest)
        else:
            choice = self._attack(view, honest)
        return choice or fallback(rest)

    # -- defence ---------------------------------------------------------------------------

    def _defend(self, view: View, legal: list[Action]) -> Action | None:
        trump = view.get("trump")
        stock = int(view.get("stock") or 0)
        table = view.get("table") or []
        defends: dict[str, list[str]] = {}
        transfers: list[Action] = []
        take: Action | None = None
        for a in legal:
            t = a["type"]
            if t == "defend":
                defends.setdefault(a["target"], []).append(a["card"])
            elif t == "transfer":
                transfers.append(a)
            elif t == "take":
                take = a
        uncovered = [p["attack"] for p in table if not p.get("defense")]
        plan = self._cover_plan(uncovered, defends, trump, table)
        plan_cost = sum(_cost(c, trump) for _, c in plan) if plan is not None else None

        if transfers:
            shows = [a for a in transfers if a.get("show")]
            if shows:  # «переводной 2»: transferring by showing a trump costs nothing
                return shows[0]
            best = min(transfers, key=lambda a: _cost(a["card"], trump))
            tcost = _cost(best["card"], trump)
            is_trump = best["card"][-1] == trump
            if is_trump and self.trump_transfer and (plan_cost is None or tcost <= plan_cost):
                return best
            if not is_trump and self.plain_transfer:
                mode = self.transfer_mode
                if mode == "auto":  # heads-up a transfer just hands the attack back: only if needed
                    active = int(view.get("players") or 2) - len(view.get("out") or [])
                    mode = "needed" if active <= 2 else "always"
                if mode == "always" or plan is None:
                    return best
                if any(c[-1] == trump for _, c in plan):
                    return best

        if plan is None:
            return take
        if (
            self.take_cheaply
            and take is not None
            and stock > self.deep_stock
            and self._take_cheaply(plan, table, trump)
        ):
            return take
        target, card = plan[0]
        return {"type": "defend", "card": card, "target": target}

    def _cover_plan(
        self,
        uncovered: list[str],
        defends: dict[str, list[str]],
        trump: str | None,
        table: list[TableSlot],
    ) -> list[tuple[str, str]] | None:
        """Cheapest full cover: hardest attack first takes its cheapest beater; a beater of a rank
        already on the table is preferred (a new rank opens new throw-ins). If that greedy pass
        gets stuck, a small exhaustive search looks for any cover."""
        if not uncovered:
            return None
        on_table = {rank_of(p["attack"]) for p in table} | {
            rank_of(d) for p in table if (d := p["defense"])
        }
        pen = self.new_rank_penalty

        def cost(c: str) -> int:
            return _cost(c, trump) + (0 if rank_of(c) in on_table else pen)

        order = sorted(uncovered, key=lambda c: -value(c, trump))
        used: set[str] = set()
        plan: list[tuple[str, str]] = []
        for att in order:
            options = [c for c in defends.get(att, ()) if c not in used]
            if not options:
                return self._search_cover(order, defends, cost)
            card = min(options, key=cost)
            used.add(card)
            plan.append((att, card))
        return plan

    @staticmethod
    def _search_cover(
        order: list[str], defends: dict[str, list[str]], cost: Any
    ) -> list[tuple[str, str]] | None:
        """Cheapest cover by depth-first search (few attacks, few beaters each); None if none."""
        best: list[Any] = [None, 10**9]
        steps = [0]

        def go(k: int, used: set[str], acc: list[tuple[str, str]], total: int) -> None:
            steps[0] += 1
            if total >= best[1] or steps[0] > 2000:
                return
            if k == len(order):
                best[0], best[1] = list(acc), total
                return
            att = order[k]
            for c in sorted(defends.get(att, ()), key=cost):
                if c in used:
                    continue
                used.add(c)
                acc.append((att, c))
                go(k + 1, used, acc, total + cost(c))
                acc.pop()
                used.discard(c)

        go(0, set(), [], 0)
        found: list[tuple[str, str]] | None = best[0]
        return found

    def _take_cheaply(self, plan: list[tuple[str, str]], table: list[TableSlot], trump: str | None) -> bool:
        """Take instead of covering when the cover burns a high trump (or two trumps) on a small,
        low table while the stock is deep: page 002 «Взять шесть карт в начале ... дешевле»."""
        trumps = [c for _, c in plan if c[-1] == trump]
        if not trumps:
            return False
        on_table = len(table) + sum(1 for p in table if p.get("defense"))
        if on_table > 3:
            return False
        if any(p["attack"][-1] == trump for p in table):
            return False  # a trump lead is worth covering: it costs the attacker a trump too
        high = any(RANK_INDEX[c[:-1]] >= self.high_trump for c in trumps)
        return high or len(trumps) >= 2

    # -- attack / throw-in -----------------------------------------------------------------

    def _attack(self, view: View, legal: list[Action]) -> Action | None:
        trump = view.get("trump")
        stock = int(view.get("stock") or 0)
        table = view.get("table") or []
        hand = view.get("hand") or []
        attacks = [a for a in legal if a["type"] == "attack"]
        passes = [a for a in legal if a["type"] == "pass"]
        if not attacks:
            return passes[0] if passes else None
        endgame = stock == 0
        unknown = unknown_cards(view) if endgame else set()
        transfers = view.get("variant") == "perevodnoy"
        if not table:
            counts: dict[str, int] = {}
            for c in hand:
                if c[-1] != trump:
                    counts[rank_of(c)] = counts.get(rank_of(c), 0) + 1

            def lead_score(a: Action) -> tuple[int, str]:
                c = a["card"]
                s = _cost(c, trump)
                if c[-1] != trump:
                    s -= self.pair_bonus * (counts.get(rank_of(c), 1) - 1)
                if endgame and not _beatable(c, unknown, trump, transfers):
                    s -= self.endgame_bonus  # nobody left can beat it: the defender must take
                return (s, c)

            return min(attacks, key=lead_score)
        # throw-in: dump plain cards (heads-up: any; more players: cheap ones) while the stock
        # lasts; in the endgame every card that leaves the hand is a step towards going out, and a
        # card nobody can beat forces a take.
        active = int(view.get("players") or 2) - len(view.get("out") or [])
        took = bool(view.get("took"))
        worth = []
        for a in attacks:
            c = a["card"]
            if c[-1] == trump:
                if self.throw_trumps or (endgame and (
                    len(hand) == 1 or (not took and not _beatable(c, unknown, trump))
                )):
                    worth.append(a)
                continue
            limit = self.took_cheap_rank if took else self.cheap_rank
            if endgame or active <= 2 or RANK_INDEX[c[:-1]] <= limit:
                worth.append(a)
        if worth:
            return min(worth, key=lambda a: (_cost(a["card"], trump), a["card"]))
        return passes[0] if passes else min(attacks, key=lambda a: (_cost(a["card"], trump), a["card"]))


def _beatable(card: str, unknown: set[str], trump: str | None, transfers: bool = False) -> bool:
    """Could any card we have not seen beat ``card`` (or, in perevodnoy, transfer it back)?"""
    if transfers:
        r = rank_of(card)
        if any(rank_of(u) == r for u in unknown):
            return True
    return any(beats(card, u, trump) for u in unknown)


def unknown_cards(view: View) -> set[str]:
    """Cards in other hands or the stock: the deck less our hand, the table, the discard (the
    view's public memory ``gone``) and the face-up trump while it is still under the stock.
    Heads-up with an empty stock this is exactly the opponent's hand."""
    rules = view.get("rules") or {}
    size = rules.get("deck_size")
    if size not in (24, 36, 52):
        table_n = sum(1 + bool(p.get("defense")) for p in view.get("table") or [])
        size = (
            sum((view.get("hand_counts") or {}).values())
            + int(view.get("stock") or 0)
            + int(view.get("discard") or 0)
            + table_n
        )
    low = lowest_rank_in_deck(size)
    known = set(view.get("hand") or ()) | set(view.get("gone") or ())
    for p in view.get("table") or ():
        known.add(p["attack"])
        d = p["defense"]
        if d:
            known.add(d)
    if view.get("stock") and view.get("trump_card"):
        known.add(view["trump_card"])
    return {r + s for r in RANKS[low:] for s in SUITS if r + s not in known}
