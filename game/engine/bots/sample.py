"""Determinization: one full GameState consistent with what a seat's view shows.

The expert searches worlds it builds here. Only the view is read, so a sampled world never
holds more than the seat could know: its own hand, the table, the discard memory (``gone``), the
cards others were seen getting (``known``), the counts per seat and the face-up trump at the bottom
of the stock. Every unseen card is dealt at random (from ``rng``, so a seed replays exactly).
"""
from __future__ import annotations

import random

from game.engine.cards import CARD_CODE, DECK_MASK, RANK_OF, SUITS, bits, from_strs
from game.engine.rules import Rules
from game.engine.seats import seat_mask, thrower_mask
from game.engine.state import GameState
from game.engine.types import View


class Sampler:
    """The fixed part of a view (parsed once) and ``deal(rng)``: a fresh consistent world."""

    def __init__(self, view: View, honest: bool = True) -> None:
        """``honest``: the worlds play cheater-mode tables without cheats (no check phase)."""
        rd = dict(view["rules"])
        if honest:
            rd["cheater"] = False
        self.rules = Rules.from_dict(rd)
        self.n = n = int(view["players"])
        self.me = int(view["seat"] or 0) - 1  # a bot's view always has its seat
        self.hand = from_strs(view["hand"])
        self.trump = SUITS.index(view["trump"])
        self.trump_card = CARD_CODE[view["trump_card"]]
        self.stock_n = int(view["stock"])
        table = view["table"]
        self.atk = tuple(CARD_CODE[p["attack"]] for p in table)
        self.dfn = tuple(CARD_CODE[p["defense"]] if p["defense"] else -1 for p in table)
        on_table = 0
        for c in self.atk + self.dfn:
            if c >= 0:
                on_table |= 1 << c
        self.gone = from_strs(view["gone"])
        counts = view["hand_counts"]
        known = view["known"]
        self.known = [from_strs(known.get(str(j + 1), [])) for j in range(n)]
        self.known[self.me] = 0
        self.need = [0 if j == self.me else int(counts[str(j + 1)]) - self.known[j].bit_count()
                     for j in range(n)]
        self.known_mask = 0  # the others' known cards as one mask (GameState.known)
        for k in self.known:
            self.known_mask |= k
        seen = self.hand | on_table | self.known_mask  # where cards are now, and the discard memory below
        if self.stock_n:
            seen |= 1 << self.trump_card
        self.pool = tuple(bits(DECK_MASK[self.rules.deck_size] & ~seen & ~self.gone))
        # cheater-mode penalties draw from the discard unseen: such a card may be anywhere now
        self.spare = tuple(bits(self.gone & ~seen))
        self.held = seen
        self.discard_n = int(view["discard"])
        self.view = view

    def deal(self, rng: random.Random) -> GameState:
        """A world: the unseen cards shuffled into the other hands and the stock."""
        pool = list(self.pool)
        rng.shuffle(pool)
        want = sum(self.need) + max(self.stock_n - 1, 0)
        if len(pool) < want:  # the discard lent cards back (cheater penalties)
            spare = list(self.spare)
            rng.shuffle(spare)
            pool += spare[: want - len(pool)]
        hands = []
        k = 0
        for j in range(self.n):
            if j == self.me:
                hands.append(self.hand)
                continue
            h = self.known[j]
            for c in pool[k:k + self.need[j]]:
                h |= 1 << c
            k += self.need[j]
            hands.append(h)
        stock: tuple[int, ...] = ()
        if self.stock_n:
            stock = (*pool[k:k + self.stock_n - 1], self.trump_card)
            k += self.stock_n - 1
        discard = self.gone & ~self.held & ~self.lent(pool[:k])
        for c in pool[k:]:
            discard |= 1 << c
        return self._state(hands, stock, discard)

    @staticmethod
    def lent(cards: list[int]) -> int:
        """Mask of ``cards`` (those dealt out, some maybe borrowed from the discard)."""
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    def _state(self, hands: list[int], stock: tuple[int, ...], discard: int) -> GameState:
        v = self.view
        s = GameState()
        s.rules = self.rules
        s.n = self.n
        s.pairs = self.rules.pairs
        s.hands = hands
        s.stock = stock
        s.trump = self.trump
        s.trump_card = self.trump_card
        s.discard = discard
        s.gone = self.gone
        s.known = self.known_mask
        s.atk = self.atk
        s.dfn = self.dfn
        starter = int(v["attacker"] or 1) - 1
        s.atk_by = (starter,) * len(self.atk)
        s.cheats = 0
        rmask = 0
        for c in self.atk + self.dfn:
            if c >= 0:
                rmask |= RANK_OF[c]
        s.rmask = rmask
        s.leader = int(v["leader"] or 1) - 1
        s.starter = starter
        s.defender = int(v["defender"] or 1) - 1
        s.took = bool(v["took"])
        s.passed = seat_mask(v["passed"])
        s.limit = int(v["limit"])
        s.round = int(v["round"])
        s.phase = "play" if v["phase"] == "check" else v["phase"]
        s.pending = None
        s.out = [x - 1 for x in v["out"]]
        s.out_mask = seat_mask(v["out"])
        s.result = None
        s.swap_used = bool(v["swap_used"])
        s.shown = seat_mask(v["shown"])
        s.banned = 0
        s.bots = seat_mask(v["bots"])
        s.seed = "sample"
        s.rng_n = 0
        s.moves = int(v["moves"])
        s.last = None
        s.stall = 0
        s.best = self.discard_n
        s.dealer = 0
        s.turn = seat_mask(v["turn"])
        s.elig = thrower_mask(s)
        return s
