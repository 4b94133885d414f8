"""The expert's playout policy: the heuristic bot's habits (bots/heuristic.py) on a full (sampled)
GameState, and a playout to the end.

Fast rather than clever, but not random: a random playout tells a search little about Durak, where
keeping trumps and shedding small plain cards decides most games. The habits are the heuristic
level's, read off the state's masks instead of a view: lead the cheapest plain card (a rank held
twice counts cheaper; with the stock gone, a card nobody can beat first), throw in plain cards and
trumps only at the end, cover the hardest attack first with the cheapest beater (a rank already on
the table preferred), take a small table rather than burn high trumps while the stock is deep,
transfer with a trump when that is cheaper than covering and heads-up with a plain card only when
covering would cost a trump. Playouts that play as a sound player would made the expert's search
stronger than more playouts of simpler habits (`game/engine/README.md`, the expert paragraph).
"""
from __future__ import annotations

import random
from typing import Any

from game.engine.actions import apply_action, legal_actions
from game.engine.cards import BEATERS, CARD_CODE, CARD_STR, RANK_MASK, RANK_OF, SUIT_MASK
from game.engine.cheater import end_check
from game.engine.seats import TURN_OF
from game.engine.state import GameState
from game.engine.types import Action

# COST[trump][card string]: what keeping the card is worth (any trump above any plain card)
COST: tuple[dict[str, int], ...] = tuple(
    {CARD_STR[c]: (c >> 2) + (20 if c & 3 == t else 0) for c in range(52)} for t in range(4)
)
HIGH_TRUMP = 10     # a queen of trumps or higher is worth taking a small table to keep
DEEP_STOCK = 6      # stock size above which taking a small table is cheap
PAIR_BONUS = 3      # a lead is this much cheaper per other plain card of its rank in hand
NEW_RANK = 3        # a beater of a rank not on the table costs this much more (new throw-ins)
SURE_LEAD = 40      # with the stock gone, a lead nobody can beat is this much cheaper


def _keep(c: int, trump: int) -> int:
    """How much card code ``c`` is worth keeping (the heuristic's ``_cost``)."""
    r = c >> 2
    return 26 + 2 * r if c & 3 == trump else r


def _unseen(s: GameState, i: int) -> int:
    """Every card in the other hands and the stock (with the stock gone: what could answer)."""
    u = 0
    for j, h in enumerate(s.hands):
        if j != i:
            u |= h
    for c in s.stock:
        u |= 1 << c
    return u


def policy(s: GameState, seat: int, acts: list[Action]) -> Action:
    """One of ``acts`` (the legal list of ``seat``, which is awaited) by the habits above."""
    i = seat - 1
    if not s.atk:
        return _lead(s, i, acts)
    if i == s.defender:
        return _defend(s, i, acts)
    return _throw(s, i, acts)


def _lead(s: GameState, i: int, acts: list[Action]) -> Action:
    t = s.trump
    endgame = not s.stock
    unseen = _unseen(s, i) if endgame else 0
    transfers = s.rules.variant == "perevodnoy"
    plain = s.hands[i] & ~SUIT_MASK[t]
    best, key = acts[0], (999, "")
    for a in acts:
        if a["type"] != "attack":
            continue
        card = a["card"]
        c = CARD_CODE[card]
        k = _keep(c, t)
        if c & 3 != t:
            k -= PAIR_BONUS * ((plain & RANK_MASK[c >> 2]).bit_count() - 1)
        if endgame and not (BEATERS[t][c] & unseen or transfers and RANK_OF[c] & unseen):
            k -= SURE_LEAD
        if (k, card) < key:
            best, key = a, (k, card)
    return best


def _throw(s: GameState, i: int, acts: list[Action]) -> Action:
    t = s.trump
    endgame = not s.stock
    unseen = _unseen(s, i) if endgame else 0
    last = s.hands[i].bit_count() == 1
    best = cheapest = pas = None
    key = low = (999, "")
    for a in acts:
        kind = a["type"]
        if kind == "pass":
            pas = a
            continue
        if kind != "attack":
            continue
        card = a["card"]
        c = CARD_CODE[card]
        k = (_keep(c, t), card)
        if k < low:
            cheapest, low = a, k
        if c & 3 == t and not (endgame and (last or not s.took and not BEATERS[t][c] & unseen)):
            continue  # a trump is thrown in only at the end: the last card, or one nobody beats
        if k < key:
            best, key = a, k
    return best or pas or cheapest or acts[0]


def _cover(s: GameState, i: int) -> list[tuple[int, int]] | None:
    """The cheapest full cover, greedily: the hardest attack first takes its cheapest beater;
    None when that gets stuck."""
    t = s.trump
    hand = s.hands[i]
    ranks = s.rmask
    open_ = [c for c, d in zip(s.atk, s.dfn, strict=True) if d < 0]
    if not open_:
        return None
    open_.sort(key=lambda c: -((c >> 2) + (13 if c & 3 == t else 0)))
    used = 0
    plan = []
    for att in open_:
        options = BEATERS[t][att] & hand & ~used
        if not options:
            return None
        pick, best = -1, 999
        while options:
            low = options & -options
            options ^= low
            c = low.bit_length() - 1
            k = _keep(c, t) + (0 if RANK_OF[c] & ranks else NEW_RANK)
            if k < best:
                pick, best = c, k
        used |= 1 << pick
        plan.append((att, pick))
    return plan


def _defend(s: GameState, i: int, acts: list[Action]) -> Action:
    t = s.trump
    take = None
    transfers = []
    for a in acts:
        if a["type"] == "take":
            take = a
        elif a["type"] == "transfer":
            transfers.append(a)
    plan = _cover(s, i)
    if transfers:
        for a in transfers:
            if a.get("show"):
                return a  # «переводной 2»: showing a trump costs nothing
        move = min(transfers, key=lambda a: _keep(CARD_CODE[a["card"]], t))
        c = CARD_CODE[move["card"]]
        if c & 3 == t:
            if plan is None or _keep(c, t) <= sum(_keep(d, t) for _, d in plan):
                return move
        elif (s.n - s.out_mask.bit_count() > 2 or plan is None
              or any(d & 3 == t for _, d in plan)):
            return move  # heads-up a transfer hands the attack back: only to save a trump
    if plan is None:
        return take or acts[0]
    if take is not None and len(s.stock) > DEEP_STOCK and _cheap_take(s, plan):
        return take
    att, card = CARD_STR[plan[0][0]], CARD_STR[plan[0][1]]
    for a in acts:
        if a["type"] == "defend" and a["card"] == card and a["target"] == att:
            return a
    return take or acts[0]


def _cheap_take(s: GameState, plan: list[tuple[int, int]]) -> bool:
    """Take rather than cover with a high trump (or two trumps) a small, plain table."""
    t = s.trump
    trumps = [d for _, d in plan if d & 3 == t]
    if not trumps:
        return False
    if len(s.atk) + sum(1 for d in s.dfn if d >= 0) > 3 or any(c & 3 == t for c in s.atk):
        return False
    return len(trumps) >= 2 or any(d >> 2 >= HIGH_TRUMP for d in trumps)


def playout(s: GameState, rng: random.Random, limit: int = 600) -> dict[str, Any] | None:
    """Play ``s`` to the end by ``policy`` (several awaited seats: one at random); the result,
    or None if ``limit`` actions did not finish it."""
    rnd = rng.random
    for _ in range(limit):
        phase = s.phase
        if phase != "play":
            if phase == "over":
                return s.result
            s = end_check(s)
            continue
        turn = TURN_OF[s.turn]
        seat = turn[0] if len(turn) == 1 else turn[int(rnd() * len(turn))]
        s = apply_action(s, seat, policy(s, seat, legal_actions(s, seat)))
    return None


def value(result: dict[str, Any] | None, seat: int) -> float:
    """1 if ``seat`` (1-based) is not the durak (its pair did not lose), 0 if it is, ½ a draw."""
    if result is None or result["draw"]:
        return 0.5
    return 0.0 if seat in result["losers"] else 1.0
